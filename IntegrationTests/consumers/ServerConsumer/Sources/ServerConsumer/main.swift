import JSONAPIAsyncHTTPClient
import JSONAPIHummingbird
import JSONAPIHummingbirdCoders
import JSONAPIPostgresStore
import JSONAPISQLStoreKit
import JSONAPISQLiteStore
import JSONAPIServer
import JSONAPIStoreConformance
import JSONAPIVapor

// One public type of each product, so that each is compiled and linked as an app would.
let linked: [Any.Type] = [
  JSONAPIMemoryStore.self, JSONAPISQLiteStore.self, JSONAPIPostgresStore.self,
  AsyncHTTPClientTransport.self, JSONAPIRoutes.self, JSONAPIContentEncoder.self,
]
print("linked \(linked.count) integration types")
