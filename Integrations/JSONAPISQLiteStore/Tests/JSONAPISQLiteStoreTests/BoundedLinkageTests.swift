import Foundation
import JSONAPISQLiteStore
import JSONAPIServer
import Testing

/// The measure of issue 47 item 6 on SQLite: a `GET` of one project with 100 000 tasks (the
/// inverse of `tasks.project`), or with 100 000 members in a join table, reads a bounded number of
/// rows from the store (a member of a to-many's linkage counts as a row: it is one of the join
/// table's).
@Suite struct BoundedLinkageTests {
  /// Counts the rows the store's reads return.
  final class Counting: JSONAPIStore, @unchecked Sendable {
    let base: JSONAPISQLiteStore
    private let lock = NSLock()
    private var rows = 0

    init(base: JSONAPISQLiteStore) { self.base = base }

    func take() -> Int {
      lock.withLock {
        defer { rows = 0 }
        return rows
      }
    }
    func add(_ count: Int) { lock.withLock { rows += count } }

    struct Reader: JSONAPIStoreReader {
      let base: any JSONAPIStoreReader
      let counting: Counting
      func resources(_ type: String, ids: [String]) async throws -> [JSONAPIResourceRecord] {
        let found = try await base.resources(type, ids: ids)
        counting.add(Counting.rows(found))
        return found
      }
      func resources(_ type: String, ids: [String], linkage: JSONAPIStoreLinkageBound)
        async throws -> [JSONAPIResourceRecord]
      {
        let found = try await base.resources(type, ids: ids, linkage: linkage)
        counting.add(Counting.rows(found))
        return found
      }
      func page(_ query: JSONAPIStoreQuery) async throws -> JSONAPIStorePage {
        let page = try await base.page(query)
        counting.add(Counting.rows(page.resources))
        return page
      }
    }

    /// Each record, and each member of its to-many linkage.
    static func rows(_ records: [JSONAPIResourceRecord]) -> Int {
      records.reduce(0) { total, record in
        total + 1
          + record.relationships.values.reduce(0) { count, linkage in
            if case .toMany(let identifiers) = linkage { return count + identifiers.count }
            return count
          }
      }
    }

    func read<T: Sendable>(_ body: @Sendable (any JSONAPIStoreReader) async throws -> T)
      async throws -> T
    {
      try await base.read { try await body(Reader(base: $0, counting: self)) }
    }

    func write<T: Sendable>(_ body: @Sendable (any JSONAPIStoreWriter) async throws -> T)
      async throws -> T
    {
      try await base.write(body)
    }
  }

  @Test func oneProjectWithAHundredThousandTasksReadsABoundedNumberOfRows() async throws {
    let projects = JSONAPIResourceSchema(
      type: "projects", attributes: [.init(name: "name", kind: .string, isOptional: true)],
      relationships: [
        .init(
          name: "tasks", targetType: "tasks", isToMany: true, isOptional: true, inverse: "project")
      ])
    let tasks = JSONAPIResourceSchema(
      type: "tasks", attributes: [.init(name: "title", kind: .string, isOptional: true)],
      relationships: [
        .init(name: "project", targetType: "projects", isToMany: false, isOptional: true)
      ])
    let store = try makeStore(schemas: [projects, tasks])
    let count = 100_000
    try await store.write { writer in
      _ = try await writer.create(
        JSONAPIResourceRecord(type: "projects", id: "1", attributes: ["name": "big"]))
      for number in 1...count {
        _ = try await writer.create(
          JSONAPIResourceRecord(
            type: "tasks", id: "\(number)", attributes: ["title": "t"],
            relationships: [
              "project": .toOne(JSONAPIResourceIdentifier(type: "projects", id: "1"))
            ]))
      }
    }
    let counting = Counting(base: store)
    let server = try JSONAPIServer(
      resources: [
        try JSONAPIResourceDeclaration(schema: projects),
        try JSONAPIResourceDeclaration(schema: tasks),
      ], store: counting)
    let clock = ContinuousClock()
    let started = clock.now
    let response = await server.respond(
      to: JSONAPIServerRequest(
        method: "GET", target: "/projects/1", headers: [("Accept", "application/vnd.api+json")]))
    let took = clock.now - started
    #expect(response.status == 200)
    let rows = counting.take()
    // The project, and the limit plus one of its tasks.
    #expect(rows == 1 + JSONAPIResourceDeclaration.defaultLinkageLimit + 1)
    print("GET /projects/1 with \(count) tasks: \(rows) rows read, \(took)")
  }

  @Test func oneTeamWithAHundredThousandMembersInAJoinTableReadsABoundedNumberOfRows()
    async throws
  {
    let teams = JSONAPIResourceSchema(
      type: "teams", attributes: [.init(name: "name", kind: .string, isOptional: true)],
      relationships: [
        .init(name: "members", targetType: "people", isToMany: true, isOptional: true)
      ])
    let people = JSONAPIResourceSchema(
      type: "people", attributes: [.init(name: "name", kind: .string, isOptional: true)],
      relationships: [])
    let store = try makeStore(schemas: [teams, people])
    let count = 100_000
    try await store.write { writer in
      for number in 1...count {
        _ = try await writer.create(
          JSONAPIResourceRecord(type: "people", id: "\(number)", attributes: ["name": "p"]))
      }
      _ = try await writer.create(
        JSONAPIResourceRecord(
          type: "teams", id: "1", attributes: ["name": "big"],
          relationships: [
            "members": .toMany(
              (1...count).map { JSONAPIResourceIdentifier(type: "people", id: "\($0)") })
          ]))
    }
    let counting = Counting(base: store)
    let server = try JSONAPIServer(
      resources: [
        try JSONAPIResourceDeclaration(schema: teams),
        try JSONAPIResourceDeclaration(schema: people),
      ], store: counting)
    let clock = ContinuousClock()
    let started = clock.now
    let response = await server.respond(
      to: JSONAPIServerRequest(
        method: "GET", target: "/teams/1", headers: [("Accept", "application/vnd.api+json")]))
    let took = clock.now - started
    #expect(response.status == 200)
    let rows = counting.take()
    // The team, and the limit plus one of its members: beyond the limit, links only.
    #expect(rows == 1 + JSONAPIResourceDeclaration.defaultLinkageLimit + 1)
    let body = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
    let data = body?["data"] as? [String: Any]
    let members = (data?["relationships"] as? [String: Any])?["members"] as? [String: Any]
    #expect(members?["data"] == nil && members?["links"] != nil)
    print("GET /teams/1 with \(count) members in a join table: \(rows) rows read, \(took)")
  }
}
