import JSONAPISQLiteStore
import JSONAPIServer
import JSONAPIStoreConformance
import Testing

/// The SQLite store keeps the contract of every store: each check on a new database file.
@Suite struct SQLiteStoreConformanceTests {
  static let conformance = JSONAPIStoreConformance(store: "SQLite") { schemas, body in
    try await body(try JSONAPISQLiteStore(path: TestDatabases.path(), schemas: schemas))
  }

  @Test(arguments: JSONAPIStoreConformance.Check.allCases)
  func conforms(_ check: JSONAPIStoreConformance.Check) async throws {
    try await Self.conformance.run(check)
  }
}
