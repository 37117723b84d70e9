import Foundation
import GRDB
import JSONAPIServer
import JSONAPISQLiteStore
import Testing

// Text held whole (issue 37 item 8: GRDB binds Swift strings up to U+0000) and the number of
// statements each read costs.
@Suite struct TextAndCostTests {
  typealias S = Schemas

  @Test func textHoldingNulIsKeptWholeNeverCut() async throws {
    let path = TestDatabases.path()
    let store = try JSONAPISQLiteStore(path: path, schemas: Schemas.all)
    let texts = [
      "nul\u{0}tail", "\u{0}x", "\u{0}", "", "a\u{0}\u{0}b\u{0}", "e\u{301}\u{0}\u{1F600}",
    ]
    let created = try await store.insert(
      texts.map { S.article("", ["title": .string($0), "extra": .string($0)]) })
    let read = try await store.read { reader in
      try await reader.resources("articles", ids: created.map(\.id))
    }
    for (index, text) in texts.enumerated() {
      let record = read.first { $0.id == created[index].id }
      #expect(record?.attributes["title"]?.stringValue.map { Array($0.utf8) } == Array(text.utf8))
      #expect(record?.attributes["extra"]?.stringValue.map { Array($0.utf8) } == Array(text.utf8))
    }
    // Never "nul", never empty: the bytes in the database are the bytes given, as text.
    #expect(read.contains { $0.attributes["title"] == "nul" } == false)
    let raw = try DatabaseQueue(path: path).read { db in
      try Row.fetchAll(
        db, sql: "SELECT typeof(title), CAST(title AS BLOB) FROM articles ORDER BY id")
    }
    #expect(raw.map { $0[0] as String? } == Array(repeating: "text", count: texts.count))
    #expect(raw.map { ($0[1] as Data?).map { Array($0) } ?? [] } == texts.map { Array($0.utf8) })
    // Sorting and keyset bounds see every byte: "nul" < "nul\0tail".
    let sorted = try await store.ids(
      JSONAPIStoreQuery(type: "articles", sort: ["title", "id"], window: .offset(0, limit: 10)))
    #expect(sorted == [3, 2, 1, 4, 5, 0].map { created[$0].id })
    let after = try await store.ids(
      JSONAPIStoreQuery(
        type: "articles", sort: ["title", "id"],
        window: .keyset(after: ["\u{0}", .string(created[2].id)], before: nil, limit: 10)))
    #expect(after == [1, 4, 5, 0].map { created[$0].id })  // "\0x" right after "\0"
    // The update path too.
    let updated = try await store.write { writer in
      try await writer.update(S.article(created[3].id, ["title": "x\u{0}y"]))
    }
    #expect(
      updated?.attributes["title"]?.stringValue.map { Array($0.utf8) } == Array("x\u{0}y".utf8))
  }

  @Test func idsAndLinkageHoldingNulInTextTables() async throws {
    let store = try makeStore(tables: ["tags": JSONAPISQLiteTable(name: "tags", idKind: .text)])
    try await store.insert([
      JSONAPIResourceRecord(type: "tags", id: "a\u{0}b"),
      JSONAPIResourceRecord(type: "tags", id: "a"),
      S.article("1", [:], ["tags": .toMany([S.tag("a\u{0}b")])]),
    ])
    let found = try await store.read { try await $0.resources("tags", ids: ["a\u{0}b"]) }
    #expect(found.map { Array($0.id.utf8) } == [Array("a\u{0}b".utf8)])
    let linkage = try await store.find("articles", "1")?.relationships["tags"]
    #expect(linkage == .toMany([S.tag("a\u{0}b")]))
    #expect(try await store.write { try await $0.delete("tags", id: "a") })
    #expect(try await store.find("articles", "1")?.relationships["tags"] == linkage)
  }

  @Test func aCommentBodyOfNulIsStoredThroughTheServer() async throws {
    // Issue 37 item 8: a comment body "\u0000x" is never stored empty.
    let (server, store) = try await BlogServer.make()
    let response = await server.respond(
      to: BlogServer.request(
        "POST", "/comments",
        body: #"{"data":{"type":"comments","attributes":{"body":"\u0000x"}}}"#))
    #expect(response.status == 201)
    let id = response.json["data"]?["id"]?.stringValue ?? ""
    let stored = try await store.find("comments", id)
    #expect(stored?.attributes["body"]?.stringValue.map { Array($0.utf8) } == [0, 0x78])
    let read = await server.respond(to: BlogServer.request("GET", "/comments/\(id)"))
    #expect(read.json["data"]?["attributes"]?["body"] == "\u{0}x")
  }

  // MARK: - Statement counts

  /// The statements one call runs, with GRDB's three of every read: `BEGIN DEFERRED
  /// TRANSACTION`, `PRAGMA schema_version` (its schema cache) and `COMMIT TRANSACTION`. The
  /// store's reader connection is opened first, so that its setup is not counted.
  func statements(
    _ store: JSONAPISQLiteStore,
    _ call:
      @Sendable (any JSONAPIStoreReader)
      async throws -> Void
  ) async throws -> Int {
    _ = try await store.read { try await $0.resources("tags", ids: []) }
    let before = store.statementCount
    try await store.read { try await call($0) }
    return store.statementCount - before
  }

  @Test func resourcesByIdCostTheSameStatementsFor1_10And100Ids() async throws {
    let store = try makeStore()
    try await store.insert((1...100).map { JSONAPIResourceRecord(type: "tags", id: String($0)) })
    try await store.insert(
      (1...100).map { S.article("", ["title": .string("t\($0)")], ["tags": .toMany([S.tag("1")])]) }
    )
    var costs: [Int: Int] = [:]
    for count in [1, 10, 100] {
      let ids = (1...count).map(String.init)
      costs[count] = try await statements(store) { reader in
        let found = try await reader.resources("articles", ids: ids)
        #expect(found.count == count)
      }
    }
    // One SELECT of rows, one of the `tags` linkage, and GRDB's three.
    #expect(costs[1] == 5 && costs[10] == 5 && costs[100] == 5, "\(costs)")
    // A type without to-many relationships: the rows alone.
    let people = try await statements(store) {
      _ = try await $0.resources("tags", ids: ["1", "2"])
    }
    #expect(people == 4)
    // Past one chunk of ids (500), one more statement per chunk.
    try await store.insert((101...600).map { JSONAPIResourceRecord(type: "tags", id: String($0)) })
    let chunked = try await statements(store) { reader in
      let found = try await reader.resources("tags", ids: (1...600).map(String.init))
      #expect(found.count == 600)
    }
    #expect(chunked == 5)
  }

  @Test func aPageCostsAConstantNumberOfStatements() async throws {
    let store = try makeStore()
    try await store.insert((1...5).map { JSONAPIResourceRecord(type: "tags", id: String($0)) })
    try await store.insert(
      (1...120).map {
        S.article(
          "", ["title": .string("t\($0)"), "rank": .integer($0 % 7)],
          ["author": .toOne(S.person("1")), "tags": .toMany([S.tag("1"), S.tag("2")])])
      })
    var costs: [Int] = []
    for limit in [1, 10, 100] {
      costs.append(
        try await statements(store) { reader in
          let page = try await reader.page(
            JSONAPIStoreQuery(
              type: "articles",
              filters: [
                JSONAPIFilterCondition(member: "title", comparison: .contains, values: ["t"]),
                JSONAPIFilterCondition(
                  member: "author", isRelationship: true, comparison: .equals, values: ["1"]),
              ],
              sort: [.descending("rank"), .ascending("id")], window: .offset(3, limit: limit)))
          #expect(page.resources.count == limit && page.total == 120)
        })
    }
    // The page's SELECT, its COUNT(*), the `tags` linkage, and GRDB's three.
    #expect(costs == [6, 6, 6])
    let keyset = try await statements(store) { reader in
      _ = try await reader.page(
        JSONAPIStoreQuery(
          type: "articles", sort: [.descending("rank"), .ascending("id")],
          window: .keyset(after: nil, before: [3, "50"], limit: 25), countsTotal: false))
    }
    #expect(keyset == 5)
  }
}
