import Foundation
import JSONAPIServer
import JSONAPIVapor
import Synchronization
import Testing
import Vapor
import VaporTesting

struct Memo: Codable, Sendable, JSONAPIResource {
  static let jsonAPIType = "memos"
  var id: String?
  var text: String
  var author: String
}

/// Counts every read and write the server asks of the store it wraps.
final class CountingStore: JSONAPIStore {
  let store: JSONAPIMemoryStore
  private let counts = Mutex(0)

  init(_ store: JSONAPIMemoryStore) { self.store = store }

  var calls: Int { counts.withLock { $0 } }
  var appliesRowConditions: Bool { store.appliesRowConditions }

  func read<T: Sendable>(_ body: @Sendable (any JSONAPIStoreReader) async throws -> T)
    async throws -> T
  {
    counts.withLock { $0 += 1 }
    return try await store.read(body)
  }

  func write<T: Sendable>(_ body: @Sendable (any JSONAPIStoreWriter) async throws -> T)
    async throws -> T
  {
    counts.withLock { $0 += 1 }
    return try await store.write(body)
  }
}

/// Memos, each seen by its author only; tokens `tok-1` and `tok-2` for users 1 and 2.
func memoRoutes() async throws -> (JSONAPIRoutes, CountingStore) {
  let memos = try JSONAPIResourceDeclaration(Memo.self).secured(
    by: JSONAPIResourcePolicy(visible: { requester in
      guard let user = requester?.userID else { return .never }
      return .filter(.init(member: "author", comparison: .equals, values: [.string(user)]))
    }))
  let memory = JSONAPIMemoryStore(schemas: [memos.schema])
  try await memory.insert([
    JSONAPIResourceRecord(type: "memos", id: "1", attributes: ["text": "one", "author": "1"]),
    JSONAPIResourceRecord(type: "memos", id: "2", attributes: ["text": "two", "author": "2"]),
  ])
  let store = CountingStore(memory)
  let server = try JSONAPIServer(resources: [memos], store: store)
  let authenticator = JSONAPIAuthenticator.bearer(realm: "memos") { token in
    ["tok-1": "1", "tok-2": "2"][token].map { JSONAPIRequester(userID: $0) }
  }
  return (JSONAPIRoutes(server: server, authenticator: authenticator), store)
}

extension JSONAPIRoutes {
  /// Registers the routes on `app`, for `withApp(configure:)`.
  @Sendable func register(_ app: Application) async throws {
    try app.register(collection: self)
  }
}

func headers(_ authorization: String?) -> HTTPHeaders {
  var headers: HTTPHeaders = [
    "Accept": "application/vnd.api+json", "Content-Type": "application/vnd.api+json",
  ]
  if let authorization { headers.add(name: "Authorization", value: authorization) }
  return headers
}

/// R53 and RFC 9110 §11.6.1: a refusal is an error document with a challenge.
func expectRefused(_ response: TestingHTTPResponse, error: String?) {
  #expect(response.status == .unauthorized)
  #expect(
    response.headers.first(name: "WWW-Authenticate")
      == #"Bearer realm="memos""# + (error.map { #", error="\#($0)""# } ?? ""))
  #expect(response.headers.first(name: "Content-Type") == "application/vnd.api+json")
  let document = try? JSONDecoder().decode(
    JSONAPIValue.self, from: Data(response.body.readableBytesView))
  #expect(document?["errors"]?[0]?["status"]?.stringValue == "401")
  #expect(document?["data"] == nil)
}

@Test func vaporRefusesMissingAndUnknownCredentialsBeforeTheStoreIsTouched() async throws {
  let (routes, store) = try await memoRoutes()
  try await withApp(configure: routes.register) { app in
    let tester = try app.testing()
    for (authorization, error) in [
      (nil, nil), ("Bearer tok-9", "invalid_token"), ("Basic dG9rLTE=", "invalid_request"),
      ("Bearer tok-1 tok-2", "invalid_request"),
    ] as [(String?, String?)] {
      for (method, path) in [(HTTPMethod.GET, "/memos"), (.GET, "/memos/1"), (.DELETE, "/memos/1")]
      {
        try await tester.test(
          method, path, headers: headers(authorization),
          afterResponse: { response async in expectRefused(response, error: error) })
      }
      let create = #"{"data":{"type":"memos","attributes":{"text":"x","author":"1"}}}"#
      try await tester.test(
        .POST, "/memos", headers: headers(authorization), body: ByteBuffer(string: create),
        afterResponse: { response async in expectRefused(response, error: error) })
    }
  }
  #expect(store.calls == 0)
  let kept = try await store.store.read { try await $0.resources("memos", ids: ["1", "2", "3"]) }
  #expect(kept.count == 2)
}

@Test func vaporHoldsTheTokensRequesterToThePolicies() async throws {
  let (routes, store) = try await memoRoutes()
  try await withApp(configure: routes.register) { app in
    let tester = try app.testing()
    try await tester.test(
      .GET, "/memos", headers: headers("Bearer tok-2"),
      afterResponse: { response async in
        #expect(response.status == .ok)
        #expect(response.body.string.contains(#""id":"2""#))
        #expect(!response.body.string.contains(#""id":"1""#))
      })
    try await tester.test(
      .GET, "/memos/1", headers: headers("Bearer tok-2"),
      afterResponse: { response async in #expect(response.status == .notFound) })
  }
  #expect(store.calls > 0)
}
