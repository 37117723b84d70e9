import Foundation
import JSONAPIServer
import JSONAPIPostgresStore
import PostgresNIO
import Testing

// JSONAPIPostgresStore against a real PostgreSQL server (Scripts/postgres.sh starts one), with
// JSONAPIMemoryStore as the oracle: the same writes and queries on both must give the same
// records, in the same order, with the same totals.
@Suite struct PostgresStoreTests {
  static let people = (1...5).map { number in
    JSONAPIResourceRecord(type: "people", id: "", attributes: ["name": .string("P\(number)")])
  }

  /// 40 items whose members repeat, go missing and mix case, so that sorts need their
  /// tiebreaks and filters meet nulls.
  static let items: [JSONAPIResourceRecord] = (0..<40).map { number in
    let names: [JSONAPIValue] = [
      "alpha", "Beta", "beta", "ALPHA", "gamma", "é", "e\u{301}", .null, "Alphabet", "b",
    ]
    var attributes: [String: JSONAPIValue] = [
      "name": names[number % names.count],
      "rank": number % 7 == 3 ? .null : .integer(number % 6 - 2),
      "score": .number(Double(number % 9) / 4),
      "done": .bool(number % 3 == 0),
      "when": .string("2026-0\(number % 9 + 1)-1\(number % 10)T00:00:00Z"),
    ]
    if number % 5 == 0 { attributes["tags"] = .array(["x", .string("t\(number)")]) }
    if number % 4 == 0 { attributes["extra"] = .object(["n": .integer(number), "f": 0.5]) }
    let links = (0..<(number % 4)).map { person(String((number + $0) % 5 + 1)) }
    return JSONAPIResourceRecord(
      type: "items", id: "", attributes: attributes,
      relationships: [
        "owner": .toOne(number % 6 == 5 ? nil : person(String(number % 5 + 1))),
        "links": .toMany(links),
      ])
  }

  /// Both stores seeded alike.
  static func seeded(_ store: JSONAPIPostgresStore) async throws -> JSONAPIMemoryStore {
    let memory = JSONAPIMemoryStore(schemas: Schemas.all)
    for target in [store as any JSONAPIStore, memory] {
      _ = try await target.create(people + items)
    }
    return memory
  }

  @Test func everyKindOfValueReadsBackAsTheMemoryStoreKeepsIt() async throws {
    try await TestDatabase.withStore { store in
      let memory = try await Self.seeded(store)
      let ids = (1...40).map(String.init)
      let stored = try await store.read { try await $0.resources("items", ids: ids + ["x", "99"]) }
      let expected = try await memory.read { try await $0.resources("items", ids: ids) }
      #expect(stored.count == 40)
      #expect(Set(stored.map(\.withoutNulls)) == Set(expected.map(\.withoutNulls)))
    }
  }

  @Test func valuesItCannotKeepAreRefusedAndLeaveNothing() async throws {
    try await TestDatabase.withStore { store in
      let refused: [(String, JSONAPIValue)] = [
        ("name", "nul\u{0}inside"), ("rank", 1.5), ("rank", "3"), ("score", .number(.infinity)),
        ("done", 1), ("extra", ["a\u{0}": 1]),
      ]
      for (member, value) in refused {
        await #expect(throws: JSONAPIStoreError.self, "\(member): \(value)") {
          _ = try await store.create([
            JSONAPIResourceRecord(type: "people", id: "", attributes: ["name": "kept?"]),
            JSONAPIResourceRecord(type: "items", id: "", attributes: [member: value]),
          ])
        }
      }
      #expect(try await store.ids(JSONAPIStoreQuery(type: "people")).isEmpty)
      await #expect(throws: JSONAPIStoreError.alreadyExists(type: "people", id: "7")) {
        _ = try await store.create([
          JSONAPIResourceRecord(type: "people", id: "7", attributes: ["name": "a"]),
          JSONAPIResourceRecord(type: "people", id: "7", attributes: ["name": "b"]),
        ])
      }
      // A given id moves the ids the table makes past it.
      let made = try await store.create([
        JSONAPIResourceRecord(type: "people", id: "7", attributes: ["name": "a"]),
        JSONAPIResourceRecord(type: "people", id: "", attributes: ["name": "b"]),
      ])
      #expect(made.map(\.id) == ["7", "8"])
    }
  }

  @Test func queriesAgreeWithTheMemoryStore() async throws {
    try await TestDatabase.withStore { store in
      let memory = try await Self.seeded(store)
      var queries: [JSONAPIStoreQuery] = []
      let filters: [[JSONAPIFilterCondition]] = [
        [],
        [.init(member: "name", comparison: .equals, values: ["alpha", .null, "é"])],
        [.init(member: "name", comparison: .contains, values: ["ALP"])],
        [.init(member: "name", comparison: .lessThan, values: ["b"])],
        [.init(member: "name", comparison: .greaterThan, values: ["b\u{0}z"])],
        [.init(member: "name", comparison: .lessThan, values: ["b\u{0}z"])],
        [.init(member: "rank", comparison: .greaterThan, values: [0])],
        [.init(member: "rank", comparison: .equals, values: [.null, 2.0])],
        [.init(member: "score", comparison: .lessThan, values: [1])],
        [.init(member: "done", comparison: .equals, values: [true])],
        [.init(member: "when", comparison: .greaterThan, values: ["2026-05"])],
        [.init(member: "id", comparison: .equals, values: ["3", 4, "007", "x"])],
        [.init(member: "id", comparison: .greaterThan, values: ["35"])],
        [.init(member: "id", comparison: .lessThan, values: ["007"])],
        [.init(member: "owner", isRelationship: true, comparison: .equals, values: ["2", .null])],
        [.init(member: "links", isRelationship: true, comparison: .equals, values: ["1"])],
        [
          .init(member: "done", comparison: .equals, values: [false]),
          .init(member: "name", comparison: .contains, values: ["a"]),
        ],
      ]
      let sorts: [[JSONAPIQuery.SortField]] = [
        [.ascending("id")], [.ascending("name"), .ascending("id")],
        [.descending("rank"), .ascending("id")],
        [.ascending("done"), .descending("score"), .descending("id")],
        [.descending("name"), .ascending("rank"), .ascending("id")],
      ]
      for filter in filters {
        for sort in sorts {
          queries.append(
            JSONAPIStoreQuery(
              type: "items", filters: filter, sort: sort, window: .offset(3, limit: 7)))
        }
      }
      queries.append(
        JSONAPIStoreQuery(
          type: "people",
          scope: .init(owner: .init(type: "items", id: "4"), relationship: "links")))
      for query in queries {
        let expected = try await memory.page(query)
        let page = try await store.page(query)
        #expect(
          page.resources.map(\.id) == expected.resources.map(\.id),
          "\(query.filters) \(query.sort) \(String(describing: query.scope))")
        #expect(page.resources.map(\.withoutNulls) == expected.resources.map(\.withoutNulls))
        #expect(page.hasMore == expected.hasMore && page.total == expected.total, "\(query)")
      }
      // An inverse relationship (the memory store keeps it as linkage of its own; a table reads
      // it through the to-one side): items 2, 7, 17… are owned by person 2 (item n by person
      // (n - 1) % 5 + 1, but none of those with n % 6 == 0).
      let owned = (1...40).filter { ($0 - 1) % 5 + 1 == 2 && $0 % 6 != 0 }.map(String.init)
      #expect(
        try await store.ids(
          JSONAPIStoreQuery(
            type: "items", window: .offset(0, limit: 50),
            scope: .init(owner: person("2"), relationship: "items"))) == owned)
      let owners = try await store.ids(
        JSONAPIStoreQuery(
          type: "people",
          filters: [
            .init(member: "items", isRelationship: true, comparison: .equals, values: ["1", "7"])
          ]))
      #expect(owners == ["1", "2"])
      // Keyset windows from every item's sort values, both ways and as a range.
      for sort in sorts {
        let all = try await memory.page(
          JSONAPIStoreQuery(type: "items", sort: sort, window: .offset(0, limit: 100)))
        func values(_ record: JSONAPIResourceRecord) -> [JSONAPIValue] {
          sort.map { $0.field == "id" ? .string(record.id) : record.attributes[$0.field] ?? .null }
        }
        for index in stride(from: 0, to: all.resources.count, by: 3) {
          let bound = values(all.resources[index])
          let later = values(all.resources[min(index + 9, all.resources.count - 1)])
          for window in [
            JSONAPIStoreQuery.Window.keyset(after: bound, before: nil, limit: 5),
            .keyset(after: nil, before: bound, limit: 5),
            .keyset(after: bound, before: later, limit: 20),
          ] {
            let query = JSONAPIStoreQuery(
              type: "items", sort: sort, window: window, countsTotal: false)
            let expected = try await memory.page(query)
            let page = try await store.page(query)
            #expect(page.resources.map(\.id) == expected.resources.map(\.id), "\(query)")
            #expect(page.hasMore == expected.hasMore, "\(query)")
          }
        }
      }
    }
  }

  @Test func writesOfLinkageAgreeWithTheMemoryStore() async throws {
    try await TestDatabase.withStore { store in
      let memory = try await Self.seeded(store)
      for target in [store as any JSONAPIStore, memory] {
        try await target.write { writer in
          _ = try await writer.update(
            JSONAPIResourceRecord(
              type: "items", id: "4", attributes: ["rank": 9],
              relationships: ["links": .toMany([person("3"), person("1")])]))
          #expect(
            try await writer.add(
              [person("2"), person("1"), person("5")], to: "links", of: "items", id: "4"))
          #expect(try await writer.remove([person("1")], from: "links", of: "items", id: "4"))
          #expect(try await writer.add([person("1")], to: "links", of: "items", id: "99") == false)
          #expect(try await writer.delete("people", id: "2"))
          #expect(try await writer.delete("people", id: "2") == false)
          #expect(try await writer.update(JSONAPIResourceRecord(type: "items", id: "99")) == nil)
        }
      }
      let ids = (1...40).map(String.init)
      let stored = try await store.read { try await $0.resources("items", ids: ids) }
      let expected = try await memory.read { try await $0.resources("items", ids: ids) }
      #expect(
        stored.first { $0.id == "4" }?.relationships["links"]
          == .toMany([person("3"), person("5")]))
      // Linkage names each resource once (the memory store would keep both).
      let once = try await store.write { writer in
        try await writer.update(
          JSONAPIResourceRecord(
            type: "items", id: "5",
            relationships: ["links": .toMany([person("3"), person("1"), person("3")])]))
      }
      #expect(once?.relationships["links"] == .toMany([person("3"), person("1")]))
      for (mine, theirs) in zip(
        stored.sorted { $0.id < $1.id }.map(\.withoutNulls),
        expected.sorted { $0.id < $1.id }.map(\.withoutNulls)) where mine != theirs
      {
        Issue.record(
          "\(mine.id): \(mine.attributes == theirs.attributes) \(mine.relationships) vs \(theirs.relationships)"
        )
      }
      #expect(stored.count == expected.count)
    }
  }

  @Test func aBodyThatThrowsLeavesNothingAndItsWriterIsClosed() async throws {
    try await TestDatabase.withStore { store in
      let kept = PGTestBox<(any JSONAPIStoreWriter)?>(nil)
      await #expect(throws: Abort.self) {
        try await store.write { writer in
          kept.value = writer
          _ = try await writer.create(
            JSONAPIResourceRecord(type: "people", id: "", attributes: ["name": "a"]))
          throw Abort()
        }
      }
      let none = try await store.ids(JSONAPIStoreQuery(type: "people"))
      #expect(none.isEmpty)
      await #expect(throws: JSONAPIPostgresStoreError.self) {
        _ = try await kept.value?.create(
          JSONAPIResourceRecord(type: "people", id: "", attributes: ["name": "b"]))
      }
    }
  }

  /// Two stores on one database, as two servers: each task changes one member of the same rows,
  /// over and over. A store that wrote whole rows would lose the others' changes.
  @Test func concurrentUpdatesOfDifferentMembersFromTwoServersLoseNothing() async throws {
    try await TestDatabase.withClients(2) { clients in
      let stores = try clients.map { try JSONAPIPostgresStore(client: $0, schemas: Schemas.all) }
      try await withThrowingTaskGroup(of: Void.self) { group in
        for store in stores { group.addTask { try await store.prepare() } }
        try await group.waitForAll()
      }
      _ = try await stores[0].create(
        Self.people + (1...5).map { _ in JSONAPIResourceRecord(type: "items", id: "") })
      let rounds = 25
      let changes:
        [(store: Int, member: String, value: @Sendable (Int) -> JSONAPIResourceRecord.Change)] = [
          (0, "name", { .attribute("name", .string("n\($0)")) }),
          (1, "rank", { .attribute("rank", .integer($0)) }),
          (0, "links", { .relationship("links", .toMany([person(String($0 % 5 + 1))])) }),
          (1, "owner", { .relationship("owner", .toOne(person(String($0 % 5 + 1)))) }),
        ]
      try await withThrowingTaskGroup(of: Void.self) { group in
        for change in changes {
          group.addTask {
            for round in 1...rounds {
              for id in 1...5 {
                var changed = JSONAPIResourceRecord(type: "items", id: String(id))
                change.value(round).apply(to: &changed)
                let record = changed
                _ = try await stores[change.store].write { try await $0.update(record) }
              }
            }
          }
        }
        try await group.waitForAll()
      }
      let items = try await stores[1].read {
        try await $0.resources("items", ids: ["1", "2", "3", "4", "5"])
      }
      #expect(items.count == 5)
      for item in items {
        #expect(item.attributes["name"] == .string("n\(rounds)"))
        #expect(item.attributes["rank"] == .integer(rounds))
        #expect(item.relationships["links"] == .toMany([person(String(rounds % 5 + 1))]))
        #expect(item.relationships["owner"] == .toOne(person(String(rounds % 5 + 1))))
      }
    }
  }

  /// Two writes that lock two rows in opposite orders: PostgreSQL aborts one for the deadlock,
  /// and the store runs its body again.
  @Test func aDeadlockedWriteRunsAgain() async throws {
    try await TestDatabase.withStore { store in
      _ = try await store.create(Self.people)
      let runs = PGTestBox(0)
      let latch = PGTestLatch(count: 2)
      try await withThrowingTaskGroup(of: Void.self) { group in
        for (first, second) in [("1", "2"), ("2", "1")] {
          group.addTask {
            try await store.write { writer in
              runs.withValue { $0 += 1 }
              _ = try await writer.update(
                JSONAPIResourceRecord(
                  type: "people", id: first, attributes: ["name": .string("by \(first)")]))
              await latch.arrive()
              _ = try await writer.update(
                JSONAPIResourceRecord(
                  type: "people", id: second, attributes: ["name": .string("by \(first)")]))
            }
          }
        }
        try await group.waitForAll()
      }
      // Two first runs, and at least one more for the write PostgreSQL aborted (on a loaded
      // machine a rerun can meet the other write once more).
      #expect(runs.value >= 3)
      let names = try await store.read { try await $0.resources("people", ids: ["1", "2"]) }
        .map { $0.attributes["name"] }
      // The write that ran again ran last, so it named both rows.
      #expect(names[0] == names[1])
    }
  }

  /// Tables that exist with other names (a mapping, as for the SQLite store): a join table
  /// without a position column reads its members in the order of their ids.
  @Test func mappedTablesOfAnExistingDatabaseAreServedAsTheyAre() async throws {
    try await TestDatabase.withClients { clients in
      for statement in [
        "CREATE TABLE folk (folk_id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, full_name text)",
        """
        CREATE TABLE things (thing_id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, \
        label text, owned_by bigint REFERENCES folk(folk_id))
        """,
        "CREATE TABLE thing_links (thing bigint, person bigint, PRIMARY KEY (thing, person))",
      ] {
        try await clients[0].query(PostgresQuery(unsafeSQL: statement))
      }
      let store = try JSONAPIPostgresStore(
        client: clients[0], schemas: Schemas.all,
        tables: [
          "people": SQLTable(name: "folk", idColumn: "folk_id", columns: ["name": "full_name"]),
          "items": SQLTable(
            name: "things", idColumn: "thing_id", columns: ["name": "label", "owner": "owned_by"],
            joinTables: [
              "links": SQLJoinTable(
                name: "thing_links", ownerColumn: "thing", targetColumn: "person",
                positionColumn: nil)
            ]),
        ])
      await #expect(throws: JSONAPIPostgresStoreError.self) { try await store.prepare() }
      for table in ["things", "thing_links"] {
        try await clients[0].query(PostgresQuery(unsafeSQL: "DROP TABLE \(table) CASCADE"))
      }
      try await clients[0].query(
        PostgresQuery(
          unsafeSQL:
            "CREATE TABLE thing_links (thing bigint, person bigint, PRIMARY KEY (thing, person))"))
      try await store.prepare()
      _ = try await store.create(Self.people)
      let item = try await store.create([
        JSONAPIResourceRecord(
          type: "items", id: "", attributes: ["name": "lamp", "rank": 2],
          relationships: [
            "owner": .toOne(person("2")), "links": .toMany([person("4"), person("1")]),
          ])
      ])[0]
      #expect(item.relationships["links"] == .toMany([person("1"), person("4")]))
      #expect(
        try await store.ids(
          JSONAPIStoreQuery(
            type: "items",
            filters: [
              .init(member: "owner", isRelationship: true, comparison: .equals, values: ["2"])
            ]))
          == [item.id])
      let rows = try await clients[0].query(
        "SELECT full_name FROM folk WHERE folk_id = 2"
      ).collect()
      #expect(try rows.first?.decode(String.self) == "P2")
      #expect(try await store.write { try await $0.delete("people", id: "4") })
      #expect(
        try await store.find("items", item.id)?.relationships["links"] == .toMany([person("1")]))
    }
  }

  @Test func textIdsAreKeptByteForByteAndSortByBytes() async throws {
    try await TestDatabase.withStore(
      tables: ["people": SQLTable(name: "people", idKind: .text)]) { store in
        let memory = JSONAPIMemoryStore(schemas: Schemas.all)
        let given = ["é", "e\u{301}", "Z", "a", "10", "9"].map {
          JSONAPIResourceRecord(type: "people", id: $0, attributes: ["name": "n"])
        }
        _ = try await memory.create(given)
        _ = try await store.create(given)
        let made = try await store.create([
          JSONAPIResourceRecord(type: "people", id: "", attributes: ["name": "m"])
        ])
        #expect(UUID(uuidString: made[0].id) != nil && made[0].id == made[0].id.lowercased())
        let query = JSONAPIStoreQuery(
          type: "people", filters: [.init(member: "name", comparison: .equals, values: ["n"])])
        // By their bytes: "10" before "9" (the memory store puts decimal ids first, by value).
        #expect(try await store.ids(query) == ["10", "9", "Z", "a", "e\u{301}", "é"])
        #expect(try await memory.ids(query) == ["9", "10", "Z", "a", "e\u{301}", "é"])
        #expect(try await store.find("people", "e\u{301}")?.id.utf8.count == 3)
      }
  }
}

extension JSONAPIResourceRecord {
  /// The record without its `null` attributes (the memory store leaves out what was never given,
  /// a table has a column for it) and without the inverse `items` of people (the memory store
  /// keeps it as linkage of its own, a table reads it through the to-one side).
  var withoutNulls: JSONAPIResourceRecord {
    var record = self
    record.attributes = attributes.filter { $0.value != .null }
    record.relationships = relationships.filter { $0.key != "items" }
    return record
  }

  enum Change: Sendable {
    case attribute(String, JSONAPIValue)
    case relationship(String, JSONAPILinkage)

    func apply(to record: inout JSONAPIResourceRecord) {
      switch self {
      case .attribute(let name, let value): record.attributes[name] = value
      case .relationship(let name, let linkage): record.relationships[name] = linkage
      }
    }
  }
}

/// A value tasks share.
final class PGTestBox<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value  // only while `lock` is held

  init(_ value: Value) { stored = value }

  var value: Value {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }

  func withValue(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}

/// Lets every task on once `count` have arrived (later arrivals go straight on).
actor PGTestLatch {
  private var remaining: Int
  private var waiters: [CheckedContinuation<Void, Never>] = []

  init(count: Int) { remaining = count }

  func arrive() async {
    remaining -= 1
    if remaining <= 0 {
      for waiter in waiters { waiter.resume() }
      waiters = []
      return
    }
    await withCheckedContinuation { waiters.append($0) }
  }
}
