import Foundation
import JSONAPIServer
import JSONAPISQLiteStore
import Testing

// JSONAPIMemoryStore's semantics tests, ported: records, ids, filters, sort, windows, totals and
// scopes answer as the reference store does, where the store keeps the same values.
@Suite struct StoreSemanticsTests {
  typealias S = Schemas

  /// Twelve articles with ids "1"..."12", `title` "t1"..."t12" and `rank` id % 3.
  func twelveArticles() async throws -> JSONAPISQLiteStore {
    let store = try makeStore()
    try await store.insert(
      (1...12).map { S.article("", ["title": .string("t\($0)"), "rank": .integer($0 % 3)]) })
    return store
  }

  // MARK: - Records and ids

  @Test func createFillsEveryDeclaredRelationshipAndReadsBack() async throws {
    let store = try makeStore()
    let created = try await store.write { writer in
      try await writer.create(S.article("", ["title": "Hello"], ["tags": .toMany([S.tag("7")])]))
    }
    #expect(created.id == "1")
    #expect(created.attributes == S.stored(["title": "Hello"]))
    #expect(created.relationships["author"] == .toOne(nil))
    #expect(created.relationships["tags"] == .toMany([S.tag("7")]))
    let found = try await store.read { try await $0.resources("articles", ids: ["1", "9", "1"]) }
    #expect(found == [created])  // "9" names nothing; the repeated "1" is answered once
    // A type without a schema has no table: refused, not lost.
    await #expect(throws: JSONAPIStoreError.self) {
      try await store.insert([JSONAPIResourceRecord(type: "notes", id: "")])
    }
    #expect(try await store.read { try await $0.resources("notes", ids: ["1"]) }.isEmpty)
  }

  @Test func idsCountPerTypeNeverReturnAndSkipGivenOnes() async throws {
    let store = try makeStore()
    let first = try await store.insert([S.article(), S.article()])
    let person = try await store.insert([JSONAPIResourceRecord(type: "people", id: "")])
    #expect(first.map(\.id) == ["1", "2"])
    #expect(person.map(\.id) == ["1"])
    // A deleted id is not made again (AUTOINCREMENT).
    #expect(try await store.write { try await $0.delete("articles", id: "2") })
    #expect(try await store.insert([S.article()]).map(\.id) == ["3"])
    // A given id is kept and moves the counter past it.
    let given = try await store.insert([S.article("10"), S.article()])
    #expect(given.map(\.id) == ["10", "11"])
    // An integer table holds decimal ids only: another id is refused, never changed.
    for id in ["abc", "007", "+5", "99999999999999999999"] {
      await #expect(throws: JSONAPIStoreError.self) { try await store.insert([S.article(id)]) }
    }
    #expect(try await store.find("articles", "7") == nil)
  }

  @Test func duplicateIdIsRefusedAndTheWholeInsertLeavesNothing() async throws {
    let store = try makeStore()
    try await store.insert([S.article("5")])
    await #expect(throws: JSONAPIStoreError.alreadyExists(type: "articles", id: "5")) {
      try await store.insert([S.article("6"), S.article("5")])
    }
    #expect(try await store.find("articles", "6") == nil)
    // The same id in another type is another resource.
    #expect(try await store.insert([JSONAPIResourceRecord(type: "tags", id: "5")]).count == 1)
  }

  @Test func updateMergesOnlyTheMembersGiven() async throws {
    let store = try makeStore()
    try await store.insert([
      S.article("1", ["title": "Old", "rank": 1], ["author": .toOne(S.person("9"))])
    ])
    let updated = try await store.write { writer in
      try await writer.update(S.article("1", ["title": "New"], ["tags": .toMany([S.tag("3")])]))
    }
    // R80: left-out members keep their values; R81: a given relationship replaces its linkage.
    #expect(updated?.attributes == S.stored(["title": "New", "rank": 1]))
    #expect(updated?.relationships["author"] == .toOne(S.person("9")))
    #expect(updated?.relationships["tags"] == .toMany([S.tag("3")]))
    #expect(try await store.find("articles", "1") == updated)
    let onlyLinkage = try await store.write { writer in
      try await writer.update(S.article("1", [:], ["tags": .toMany([S.tag("4"), S.tag("2")])]))
    }
    #expect(onlyLinkage?.relationships["tags"] == .toMany([S.tag("4"), S.tag("2")]))
    let missing = try await store.write { try await $0.update(S.article("2", ["title": "x"])) }
    let missingLinkage = try await store.write {
      try await $0.update(S.article("2", [:], ["tags": .toMany([])]))
    }
    #expect(missing == nil && missingLinkage == nil)
  }

  @Test func deleteClearsEveryLinkageThatNamedIt() async throws {
    let store = try makeStore()
    try await store.insert([
      JSONAPIResourceRecord(type: "people", id: "9"),
      JSONAPIResourceRecord(type: "tags", id: "1"),
      S.article("1", [:], ["author": .toOne(S.person("9")), "tags": .toMany([S.tag("1")])]),
      S.article(
        "2", [:], ["author": .toOne(S.person("8")), "tags": .toMany([S.tag("2"), S.tag("1")])]),
    ])
    let deletedPerson = try await store.write { try await $0.delete("people", id: "9") }
    let deletedTag = try await store.write { try await $0.delete("tags", id: "1") }
    let missing = try await store.write { try await $0.delete("tags", id: "1") }
    #expect(deletedPerson && deletedTag && !missing)
    let first = try await store.find("articles", "1")
    let second = try await store.find("articles", "2")
    #expect(first?.relationships == ["author": .toOne(nil), "tags": .toMany([])])
    #expect(
      second?.relationships == ["author": .toOne(S.person("8")), "tags": .toMany([S.tag("2")])])
    #expect(try await store.find("people", "9") == nil)
    // Deleting an article takes its own linkage with it.
    #expect(try await store.write { try await $0.delete("articles", id: "2") })
    let tagged = try await store.page(
      JSONAPIStoreQuery(
        type: "articles",
        filters: [
          JSONAPIFilterCondition(
            member: "tags", isRelationship: true, comparison: .equals, values: ["2"])
        ]))
    #expect(tagged.resources.isEmpty)
  }

  @Test func addSkipsPresentMembersAndRemoveTakesThemOut() async throws {
    let store = try makeStore()
    try await store.insert([S.article("1", [:], ["tags": .toMany([S.tag("1")])])])
    // R84: POST adds only the members not already present.
    let added = try await store.write { writer in
      try await writer.add(
        [S.tag("1"), S.tag("2"), S.tag("2")], to: "tags", of: "articles", id: "1")
    }
    #expect(added)
    #expect(
      try await store.find("articles", "1")?.relationships["tags"]
        == .toMany([S.tag("1"), S.tag("2")]))
    let removed = try await store.write { writer in
      try await writer.remove([S.tag("1"), S.tag("5")], from: "tags", of: "articles", id: "1")
    }
    #expect(removed)
    #expect(try await store.find("articles", "1")?.relationships["tags"] == .toMany([S.tag("2")]))
    // Added members go after the others.
    _ = try await store.write { writer in
      try await writer.add([S.tag("9"), S.tag("1")], to: "tags", of: "articles", id: "1")
    }
    #expect(
      try await store.find("articles", "1")?.relationships["tags"]
        == .toMany([S.tag("2"), S.tag("9"), S.tag("1")]))
    let missing = try await store.write { writer in
      try await writer.add([S.tag("1")], to: "tags", of: "articles", id: "404")
    }
    #expect(!missing)
    await #expect(throws: JSONAPIStoreError.self) {
      try await store.write { writer in
        try await writer.add([S.person("1")], to: "author", of: "articles", id: "1")
      }
    }
  }

  // MARK: - Filters

  @Test func equalsKeepsNulWholeAndComparesNumbersByValue() async throws {
    let store = try makeStore()
    try await store.insert([
      S.article("1", ["title": "nul\u{0}tail", "rank": 100]),
      S.article("2", ["title": "nul", "rank": .number(100.5)]),
      S.article("3", ["title": "\u{E9}", "rank": .null]),
      S.article("4", ["title": "NUL"]),
    ])
    func matching(_ member: String, _ values: [JSONAPIValue]) async throws -> [String] {
      try await store.ids(
        JSONAPIStoreQuery(
          type: "articles",
          filters: [JSONAPIFilterCondition(member: member, comparison: .equals, values: values)]))
    }
    #expect(try await matching("title", ["nul\u{0}tail"]) == ["1"])  // not "nul"
    #expect(try await matching("title", ["nul"]) == ["2"])  // exact, not "nul\0tail" nor "NUL"
    #expect(try await matching("title", ["e\u{301}"]).isEmpty)  // bytes, not canonical equality
    #expect(try await matching("rank", [.number(100)]) == ["1"])  // 100 == 100.0
    #expect(try await matching("rank", [100, .number(100.5)]) == ["1", "2"])  // any of
    #expect(try await matching("rank", [nil]) == ["3", "4"])  // null and absent
    #expect(try await matching("rank", ["100"]).isEmpty)  // text is not a number
    #expect(try await matching("id", ["2", 4]) == ["2", "4"])
    #expect(try await matching("id", ["02", "x"]).isEmpty)  // ids whole, byte for byte
    // Long lists (past one statement's parameters) match the same.
    let many = (0..<1200).map { JSONAPIValue.string("t\($0)") } + ["nul"]
    #expect(try await matching("title", many) == ["2"])
    let manyIDs = (5..<2000).map { JSONAPIValue.string(String($0)) } + ["3"]
    #expect(try await matching("id", manyIDs) == ["3"])
  }

  @Test func containsIgnoresASCIICaseAndKeepsNul() async throws {
    let store = try makeStore()
    try await store.insert([
      S.article("1", ["title": "a\u{0}ZZ b"]),
      S.article("2", ["title": "azz"]),
      S.article("3", ["title": "\u{0}z"]),
      S.article("4", ["title": "\u{C9}\u{0}zz"]),  // "É": no case folding beyond ASCII
      S.article("5", ["rank": 0]),
    ])
    func matching(_ text: String) async throws -> [String] {
      try await store.ids(
        JSONAPIStoreQuery(
          type: "articles",
          filters: [
            JSONAPIFilterCondition(member: "title", comparison: .contains, values: [.string(text)])
          ]))
    }
    #expect(try await matching("\u{0}zz") == ["1", "4"])
    #expect(try await matching("ZZ") == ["1", "2", "4"])
    #expect(try await matching("\u{E9}").isEmpty)
    #expect(try await matching("%").isEmpty)  // no pattern characters
    #expect(try await matching("") == ["1", "2", "3", "4"])  // texts only: "5" has no title
  }

  @Test func lessAndGreaterCompareNumbersAndTextsOnly() async throws {
    let store = try makeStore()
    try await store.insert([
      S.article("1", ["title": "B", "rank": 2, "extra": 2]),
      S.article("2", ["title": "a", "rank": .number(2.5), "extra": "2"]),
      S.article("3", ["title": "Ba", "rank": 3, "extra": "3"]),
      S.article("4", ["rank": -1, "extra": true]),
    ])
    func matching(
      _ member: String, _ comparison: JSONAPIFilterCondition.Comparison, _ value: JSONAPIValue
    ) async throws -> [String] {
      try await store.ids(
        JSONAPIStoreQuery(
          type: "articles",
          filters: [JSONAPIFilterCondition(member: member, comparison: comparison, values: [value])]
        ))
    }
    #expect(try await matching("rank", .lessThan, .number(2.5)) == ["1", "4"])
    #expect(try await matching("rank", .greaterThan, 2) == ["2", "3"])
    #expect(try await matching("rank", .greaterThan, "1").isEmpty)  // text against numbers
    #expect(try await matching("title", .lessThan, "a") == ["1", "3"])  // "B" (0x42) < "a" (0x61)
    #expect(try await matching("title", .greaterThan, "B") == ["2", "3"])
    #expect(try await matching("id", .greaterThan, "2") == ["3", "4"])
    #expect(try await matching("id", .greaterThan, "02") == ["2", "3", "4"])  // "2" > "02"
    #expect(try await matching("id", .lessThan, "x") == ["1", "2", "3", "4"])  // decimal first
    // An any-value attribute compares numbers with numbers and texts with texts.
    #expect(try await matching("extra", .greaterThan, 1) == ["1"])
    #expect(try await matching("extra", .greaterThan, "1") == ["2", "3"])
    // Conditions combine: every one must hold.
    let both = try await store.ids(
      JSONAPIStoreQuery(
        type: "articles",
        filters: [
          JSONAPIFilterCondition(member: "rank", comparison: .greaterThan, values: [0]),
          JSONAPIFilterCondition(member: "title", comparison: .lessThan, values: ["C"]),
        ]))
    #expect(both == ["1", "3"])
  }

  @Test func relationshipFiltersMatchLinkageIds() async throws {
    let store = try makeStore()
    try await store.insert([
      S.article("1", [:], ["author": .toOne(S.person("9"))]),
      S.article("2", [:], ["author": .toOne(S.person("10"))]),
      S.article("3", [:], ["tags": .toMany([S.tag("1"), S.tag("2")])]),
    ])
    func matching(
      _ member: String, _ values: [JSONAPIValue],
      _ comparison: JSONAPIFilterCondition.Comparison = .equals
    ) async throws -> [String] {
      try await store.ids(
        JSONAPIStoreQuery(
          type: "articles",
          filters: [
            JSONAPIFilterCondition(
              member: member, isRelationship: true, comparison: comparison, values: values)
          ]))
    }
    #expect(try await matching("author", ["9", "10"]) == ["1", "2"])
    #expect(try await matching("author", ["1"]).isEmpty)  // ids whole, not prefixes
    #expect(try await matching("tags", ["2"]) == ["3"])
    #expect(try await matching("author", [nil]) == ["3"])  // null: empty linkage
    #expect(try await matching("tags", [nil]) == ["1", "2"])
    #expect(try await matching("author", ["9"], .greaterThan) == ["2"])  // "10" > "9"
    #expect(try await matching("tags", ["1"], .contains) == ["3"])
  }

  // MARK: - Sort

  @Test func sortsByFieldsInOrderWithNumericIdTiebreak() async throws {
    let store = try makeStore()
    try await store.insert([
      S.article("10", ["title": "b", "rank": 1]),
      S.article("2", ["title": "b", "rank": 1]),
      S.article("9", ["title": "a", "rank": 1]),
      S.article("1", ["title": "c", "rank": 0]),
    ])
    let query = JSONAPIStoreQuery(
      type: "articles", sort: [.descending("rank"), .ascending("title"), .ascending("id")])
    #expect(try await store.ids(query) == ["9", "2", "10", "1"])  // "2" before "10"
    let byID = JSONAPIStoreQuery(type: "articles", sort: [.descending("id")])
    #expect(try await store.ids(byID) == ["10", "9", "2", "1"])
  }

  @Test func valuesOfMixedKindsSortNullNumbersTextsThenJSON() async throws {
    let store = try makeStore()
    let values: [JSONAPIValue] = [["x": 1], "b", "a", .number(1.5), 1, true, false, nil, [1, 2]]
    try await store.insert(values.enumerated().map { S.article(String($0 + 1), ["extra": $1]) })
    try await store.insert([S.article("10")])  // absent sorts with null, then by id
    let query = JSONAPIStoreQuery(
      type: "articles", sort: ["extra", "id"], window: .offset(0, limit: 50))
    // SQLite's order: NULL, numbers, text, then blobs — booleans, arrays and objects as JSON
    // text ("[1,2]" < "false" < "true" < "{...}"). The memory store puts booleans before numbers.
    #expect(try await store.ids(query) == ["8", "10", "5", "4", "3", "2", "9", "7", "6", "1"])
    // Every value reads back as given.
    let stored = try await store.page(query).resources
    for (index, value) in values.enumerated() {
      let record = stored.first { $0.id == String(index + 1) }
      #expect(record?.attributes["extra"] == value)
    }
    // Keyset pages over the mixed values walk the same order.
    var walked: [String] = []
    var after: [JSONAPIValue]?
    for _ in 0..<10 {
      let page = try await store.page(
        JSONAPIStoreQuery(
          type: "articles", sort: ["extra", "id"],
          window: .keyset(after: after, before: nil, limit: 3)))
      walked += page.resources.map(\.id)
      guard page.hasMore, let last = page.resources.last else { break }
      after = [last.attributes["extra"] ?? .null, .string(last.id)]
    }
    #expect(walked == ["8", "10", "5", "4", "3", "2", "9", "7", "6", "1"])
  }

  // MARK: - Windows, totals, scope

  @Test func offsetWindowsSliceAndClamp() async throws {
    let store = try await twelveArticles()
    func window(_ offset: Int, _ limit: Int) async throws -> ([String], Bool) {
      let read = try await store.page(
        JSONAPIStoreQuery(type: "articles", window: .offset(offset, limit: limit)))
      return (read.resources.map(\.id), read.hasMore)
    }
    let first = try await window(0, 5)
    #expect(first.0 == ["1", "2", "3", "4", "5"] && first.1)
    let last = try await window(10, 5)
    #expect(last.0 == ["11", "12"] && !last.1)
    let exact = try await window(7, 5)
    #expect(exact.0 == ["8", "9", "10", "11", "12"] && !exact.1)
    let beyond = try await window(Int.max, Int.max)
    #expect(beyond.0.isEmpty && !beyond.1)
    let clamped = try await window(-3, Int.max)
    #expect(clamped.0.count == 12 && !clamped.1)
    let none = try await window(0, 0)
    #expect(none.0.isEmpty && none.1)
  }

  @Test func keysetPagesForwardsBackwardsAndWithinARange() async throws {
    let store = try await twelveArticles()
    // rank descending (id % 3), then id: 2,5,8,11 | 1,4,7,10 | 3,6,9,12
    let sort: [JSONAPIQuery.SortField] = [.descending("rank"), .ascending("id")]
    func keyset(_ after: [JSONAPIValue]?, _ before: [JSONAPIValue]?, _ limit: Int) async throws
      -> ([String], Bool)
    {
      let read = try await store.page(
        JSONAPIStoreQuery(
          type: "articles", sort: sort, window: .keyset(after: after, before: before, limit: limit))
      )
      return (read.resources.map(\.id), read.hasMore)
    }
    let start = try await keyset(nil, nil, 3)
    #expect(start.0 == ["2", "5", "8"] && start.1)
    let next = try await keyset([2, "8"], nil, 3)  // after the last one of `start`
    #expect(next.0 == ["11", "1", "4"] && next.1)
    let end = try await keyset([0, "6"], nil, 3)
    #expect(end.0 == ["9", "12"] && !end.1)
    // Only `before`: the last `limit` before it, in sorted order; more lie before them.
    let back = try await keyset(nil, [1, "1"], 3)
    #expect(back.0 == ["5", "8", "11"] && back.1)
    let backToStart = try await keyset(nil, [2, "8"], 3)
    #expect(backToStart.0 == ["2", "5"] && !backToStart.1)
    // Both: strictly between, first `limit`, more within the range.
    let range = try await keyset([2, "8"], [0, "3"], 3)
    #expect(range.0 == ["11", "1", "4"] && range.1)
    let wholeRange = try await keyset([2, "8"], [1, "4"], 3)
    #expect(wholeRange.0 == ["11", "1"] && !wholeRange.1)
    let empty = try await keyset([0, "3"], [2, "8"], 3)
    #expect(empty.0.isEmpty && !empty.1)
  }

  @Test func keysetBoundsWithNullsAndDescendingText() async throws {
    let store = try makeStore()
    try await store.insert([
      S.article("1", ["title": "b"]), S.article("2"), S.article("3", ["title": "a"]),
      S.article("4"), S.article("5", ["title": "b"]),
    ])
    // title descending puts NULL last: b(1), b(5), a(3), null(2), null(4)
    let sort: [JSONAPIQuery.SortField] = [.descending("title"), .ascending("id")]
    func after(_ bound: [JSONAPIValue]) async throws -> [String] {
      try await store.ids(
        JSONAPIStoreQuery(
          type: "articles", sort: sort, window: .keyset(after: bound, before: nil, limit: 10)))
    }
    #expect(
      try await store.ids(JSONAPIStoreQuery(type: "articles", sort: sort)) == [
        "1", "5", "3", "2", "4",
      ])
    #expect(try await after(["b", "1"]) == ["5", "3", "2", "4"])
    #expect(try await after(["a", "3"]) == ["2", "4"])
    #expect(try await after([nil, "2"]) == ["4"])
    let before = try await store.page(
      JSONAPIStoreQuery(
        type: "articles", sort: sort, window: .keyset(after: nil, before: [nil, "2"], limit: 2)))
    #expect(before.resources.map(\.id) == ["5", "3"] && before.hasMore)
  }

  @Test func totalsCountFilteredResourcesBeforeTheWindow() async throws {
    let store = try await twelveArticles()
    let filters = [JSONAPIFilterCondition(member: "rank", comparison: .equals, values: [0])]
    let counted = try await store.page(
      JSONAPIStoreQuery(type: "articles", filters: filters, window: .offset(1, limit: 2)))
    #expect(counted.total == 4)
    #expect(counted.resources.map(\.id) == ["6", "9"] && counted.hasMore)
    let uncounted = try await store.page(JSONAPIStoreQuery(type: "articles", countsTotal: false))
    #expect(uncounted.total == nil && uncounted.resources.count == 12)
  }

  @Test func scopeReadsOnlyTheOwnersLinkage() async throws {
    let store = try makeStore()
    try await store.insert([
      JSONAPIResourceRecord(type: "tags", id: "1", attributes: ["name": "z"]),
      JSONAPIResourceRecord(type: "tags", id: "2", attributes: ["name": "a"]),
      JSONAPIResourceRecord(type: "tags", id: "3", attributes: ["name": "m"]),
      S.article("1", [:], ["tags": .toMany([S.tag("1"), S.tag("2"), S.tag("9"), S.tag("1")])]),
    ])
    // A to-many relationship names each resource once: the repeated tag keeps its first place.
    #expect(
      try await store.find("articles", "1")?.relationships["tags"]
        == .toMany([S.tag("1"), S.tag("2"), S.tag("9")]))
    // Linkage of another type than the relationship's is refused.
    await #expect(throws: JSONAPIStoreError.self) {
      try await store.insert([S.article("2", [:], ["tags": .toMany([S.person("3")])])])
    }
    func scoped(_ owner: String) async throws -> JSONAPIStorePage {
      try await store.page(
        JSONAPIStoreQuery(
          type: "tags", sort: ["name", "id"],
          scope: .init(
            owner: JSONAPIResourceIdentifier(type: "articles", id: owner), relationship: "tags")))
    }
    // Sorted by the query, not by linkage order; "9" names nothing.
    let owned = try await scoped("1")
    #expect(owned.resources.map(\.id) == ["2", "1"] && owned.total == 2)
    let missingOwner = try await scoped("404")
    #expect(missingOwner.resources.isEmpty && missingOwner.total == 0 && !missingOwner.hasMore)
  }
}
