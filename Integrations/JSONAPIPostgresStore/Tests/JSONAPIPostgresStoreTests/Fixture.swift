import Foundation
import JSONAPIPostgresStore
import JSONAPIServer
import JSONAPIStoreConformance
import PostgresNIO
import Testing

/// A PostgreSQL server for the tests: `POSTGRES_URL` (`postgres://USER@HOST:PORT/DATABASE`),
/// set by Scripts/postgres.sh, which starts one. Each test works in a schema of its own.
enum TestDatabase {
  static func configuration(schema: String) throws -> PostgresClient.Configuration {
    guard let url = ProcessInfo.processInfo.environment["POSTGRES_URL"],
      let components = URLComponents(string: url), let host = components.host,
      let user = components.user
    else {
      throw TestSetupError(
        "POSTGRES_URL is not set: run these tests with Scripts/postgres.sh, which starts a server")
    }
    var configuration = PostgresClient.Configuration(
      host: host, port: components.port ?? 5432, username: user, password: components.password,
      database: String(components.path.dropFirst()), tls: .disable)
    configuration.options.additionalStartupParameters = [("search_path", schema)]
    return configuration
  }

  /// Runs `body` with clients (`count` of them, as if from `count` servers) on a new schema,
  /// dropped afterwards.
  static func withClients<T: Sendable>(
    _ count: Int = 1, _ body: @Sendable ([PostgresClient]) async throws -> T
  ) async throws -> T {
    let schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    let admin = PostgresClient(configuration: try configuration(schema: "public"))
    let clients = try (0..<count).map { _ in
      PostgresClient(configuration: try configuration(schema: schema))
    }
    return try await withThrowingTaskGroup(of: Void.self) { group in
      for client in [admin] + clients { group.addTask { await client.run() } }
      defer { group.cancelAll() }
      try await admin.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"))
      do {
        let result = try await body(clients)
        try await admin.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"))
        return result
      } catch {
        _ = try? await admin.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"))
        throw error
      }
    }
  }

  /// Runs `body` with a prepared store (and the same schemas in a memory store, the oracle).
  static func withStore<T: Sendable>(
    schemas: [JSONAPIResourceSchema] = Schemas.all, tables: [String: SQLTable] = [:],
    _ body: @Sendable (JSONAPIPostgresStore) async throws -> T
  ) async throws -> T {
    try await withClients { clients in
      let store = try JSONAPIPostgresStore(
        client: clients[0], schemas: schemas, tables: tables)
      try await store.prepare()
      return try await body(store)
    }
  }
}

struct TestSetupError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

struct Abort: Error {}

enum Schemas {
  /// Every kind of attribute, a to-one and a to-many relationship.
  static let items = JSONAPIResourceSchema(
    type: "items",
    attributes: [
      .init(name: "name", kind: .string, isOptional: true),
      .init(name: "rank", kind: .integer, isOptional: true),
      .init(name: "score", kind: .number, isOptional: true),
      .init(name: "done", kind: .boolean, isOptional: true),
      .init(name: "when", kind: .date, isOptional: true),
      .init(name: "tags", kind: .array(.string), isOptional: true),
      .init(name: "extra", kind: .any, isOptional: true),
    ],
    relationships: [
      .init(name: "owner", targetType: "people", isToMany: false, isOptional: true),
      .init(name: "links", targetType: "people", isToMany: true, isOptional: true),
    ])
  static let people = JSONAPIResourceSchema(
    type: "people", attributes: [.init(name: "name", kind: .string, isOptional: false)],
    relationships: [
      .init(name: "items", targetType: "items", isToMany: true, isOptional: true, inverse: "owner")
    ])
  static let all = [items, people]
}

// page(_:), ids(_:) and find(_:_:) come from JSONAPIStoreConformance (imported above).
extension JSONAPIStore {
  func create(_ records: [JSONAPIResourceRecord]) async throws -> [JSONAPIResourceRecord] {
    try await write { writer in
      var stored: [JSONAPIResourceRecord] = []
      for record in records { stored.append(try await writer.create(record)) }
      return stored
    }
  }
}

func person(_ id: String) -> JSONAPIResourceIdentifier {
  JSONAPIResourceIdentifier(type: "people", id: id)
}
