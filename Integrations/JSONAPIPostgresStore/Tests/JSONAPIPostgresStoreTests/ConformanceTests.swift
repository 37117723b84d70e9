import JSONAPIPostgresStore
import JSONAPIServer
import JSONAPIStoreConformance
import Testing

/// The PostgreSQL store keeps the contract of every store: each check in a schema of its own.
@Suite struct PostgresStoreConformanceTests {
  static let conformance = JSONAPIStoreConformance(store: "PostgreSQL") { schemas, body in
    try await TestDatabase.withClients { clients in
      let store = try JSONAPIPostgresStore(client: clients[0], schemas: schemas)
      try await store.prepare()
      try await body(store)
    }
  }

  @Test(arguments: JSONAPIStoreConformance.Check.allCases)
  func conforms(_ check: JSONAPIStoreConformance.Check) async throws {
    try await Self.conformance.run(check)
  }
}
