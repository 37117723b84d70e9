import JSONAPISQLiteStore
import JSONAPIServer
import JSONAPIStoreConformance
import Testing

/// What the SQL stores' row conditions do beyond the shared contract: a condition through an
/// inverse relationship (which a server rewrites before a store sees it, so the contract leaves it
/// out), and the statements a page takes with one.
@Suite struct VisibilityTests {
  static func store() async throws -> JSONAPISQLiteStore {
    let store = try JSONAPISQLiteStore(
      path: TestDatabases.path(), schemas: JSONAPIStoreConformance.schemas)
    try await store.insert(
      ["1", "2", "3"].map {
        JSONAPIResourceRecord(type: "people", id: $0, attributes: ["name": .string("p\($0)")])
      }
        + [("1", "1", 3), ("2", "1", 1), ("3", "2", 2), ("4", nil, 3)].map { id, author, rank in
          JSONAPIResourceRecord(
            type: "articles", id: id, attributes: ["rank": .integer(rank)],
            relationships: [
              "author": .toOne(author.map { JSONAPIResourceIdentifier(type: "people", id: $0) })
            ])
        })
    return store
  }

  static func ids(_ store: JSONAPISQLiteStore, _ type: String, _ condition: JSONAPIRowCondition)
    async throws -> [String]
  {
    var query = JSONAPIStoreQuery(type: type, window: .offset(0, limit: 10))
    query.visibility = condition
    return try await store.ids(query)
  }

  /// `related` through the inverse `people.articles` reads the articles whose `author` names
  /// the person: the same rows as `namedBy` through that to-one, as the server would send it.
  @Test func relatedThroughAnInverseIsNamedByItsToOne() async throws {
    let store = try await Self.store()
    let rank3 = JSONAPIRowCondition.filter(
      JSONAPIFilterCondition(member: "rank", comparison: .equals, values: [3]))
    let related = try await Self.ids(store, "people", .related("articles", rank3))
    let named = try await Self.ids(
      store, "people", .namedBy(type: "articles", relationship: "author", rank3))
    #expect(related == ["1"])
    #expect(related == named)
    #expect(try await Self.ids(store, "people", .related("articles", .always)) == ["1", "2"])
    // And the other way: `namedBy` through the inverse is `related` through the to-one.
    #expect(
      try await Self.ids(
        store, "articles", .namedBy(type: "people", relationship: "articles", .id(in: ["2"])))
        == ["3"])
  }

  /// Text ids (`tags`) beside integer ones (`articles`, `people`): every join of a condition
  /// compares ids of one kind, text by its bytes (`"b"` is not `"B"`), through a join table to
  /// text ids, a to-one between text ids, and `namedBy` from integer rows to text ones.
  @Test func textAndIntegerIDsMeetOnEveryJoin() async throws {
    let store = try JSONAPISQLiteStore(
      path: TestDatabases.path(), schemas: JSONAPIStoreConformance.schemas,
      tables: ["tags": JSONAPISQLiteTable(name: "tags", idKind: .text)])
    func tag(_ id: String, parent: String?) -> JSONAPIResourceRecord {
      JSONAPIResourceRecord(
        type: "tags", id: id, attributes: ["name": .string("n" + id)],
        relationships: [
          "parent": .toOne(parent.map { JSONAPIResourceIdentifier(type: "tags", id: $0) })
        ])
    }
    try await store.insert(
      [tag("b", parent: nil), tag("B", parent: "b"), tag("10", parent: "B")]
        + [("1", ["B"]), ("2", ["b", "10"]), ("3", [])].map { id, tags in
          JSONAPIResourceRecord(
            type: "articles", id: id,
            relationships: [
              "tags": .toMany(tags.map { JSONAPIResourceIdentifier(type: "tags", id: $0) })
            ])
        })
    let named = { (id: String) in
      JSONAPIRowCondition.filter(
        JSONAPIFilterCondition(member: "name", comparison: .equals, values: [.string("n" + id)]))
    }
    #expect(try await Self.ids(store, "articles", .related("tags", named("B"))) == ["1"])
    #expect(
      try await Self.ids(store, "articles", .related("tags", .related("parent", named("b"))))
        == ["1"])
    #expect(
      try await Self.ids(
        store, "tags", .namedBy(type: "articles", relationship: "tags", .id(in: ["2"])))
        == ["10", "b"])
    #expect(
      try await Self.ids(store, "tags", .namedBy(type: "tags", relationship: "parent", named("B")))
        == ["b"])
    #expect(try await Self.ids(store, "tags", .id(in: ["B"])) == ["B"])
  }

  /// A page with a visibility condition nested through three relationships takes the
  /// statements a page without one takes: one `SELECT`, one `COUNT(*)`, one per to-many.
  @Test func aConditionAddsNoStatement() async throws {
    let store = try await Self.store()
    let plain = JSONAPIStoreQuery(type: "articles", window: .offset(0, limit: 10))
    var guarded = plain
    guarded.visibility = .any([
      .related("author", .namedBy(type: "articles", relationship: "author", .id(in: ["3"]))),
      .related("tags", .related("parent", .always)),
    ])
    // A first read opens a reader connection, which runs statements of its own.
    _ = try await store.page(plain)
    let before = store.statementCount
    let all = try await store.page(plain)
    let between = store.statementCount
    let visible = try await store.page(guarded)
    #expect(all.resources.count == 4)
    #expect(visible.resources.map(\.id) == ["3"])
    #expect(visible.total == 1)
    #expect(store.statementCount - between == between - before)
  }
}
