import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

// JSONAPIMemoryStore: records, ids, transactions (R74), filters, sort (R69) and windows (R64).
@Suite struct MemoryStoreTests {
  static let schemas = [
    JSONAPIResourceSchema(
      type: "articles",
      attributes: [
        .init(name: "title", kind: .string, isOptional: false),
        .init(name: "rank", kind: .integer, isOptional: true),
      ],
      relationships: [
        .init(name: "author", targetType: "people", isToMany: false, isOptional: true),
        .init(name: "tags", targetType: "tags", isToMany: true, isOptional: true),
      ]),
    JSONAPIResourceSchema(
      type: "people", attributes: [.init(name: "name", kind: .string, isOptional: false)],
      relationships: [
        .init(name: "favorite", targetType: "articles", isToMany: false, isOptional: true)
      ]),
    JSONAPIResourceSchema(type: "tags", attributes: [], relationships: []),
  ]

  static func person(_ id: String) -> JSONAPIResourceIdentifier {
    JSONAPIResourceIdentifier(type: "people", id: id)
  }
  static func tag(_ id: String) -> JSONAPIResourceIdentifier {
    JSONAPIResourceIdentifier(type: "tags", id: id)
  }
  static func article(
    _ id: String = "", _ attributes: [String: JSONAPIValue] = [:],
    _ relationships: [String: JSONAPILinkage] = [:]
  ) -> JSONAPIResourceRecord {
    JSONAPIResourceRecord(
      type: "articles", id: id, attributes: attributes, relationships: relationships)
  }

  func page(_ store: JSONAPIMemoryStore, _ query: JSONAPIStoreQuery) async throws
    -> JSONAPIStorePage
  {
    try await store.read { try await $0.page(query) }
  }

  func ids(_ store: JSONAPIMemoryStore, _ query: JSONAPIStoreQuery) async throws -> [String] {
    try await page(store, query).resources.map(\.id)
  }

  func find(_ store: JSONAPIMemoryStore, _ type: String, _ id: String) async throws
    -> JSONAPIResourceRecord?
  {
    try await store.read { try await $0.resources(type, ids: [id]).first }
  }

  /// Twelve articles with ids "1"..."12", `title` "t1"..."t12" and `rank` id % 3.
  func twelveArticles() async throws -> JSONAPIMemoryStore {
    let store = JSONAPIMemoryStore(schemas: Self.schemas)
    try await store.insert(
      (1...12).map { Self.article("", ["title": .string("t\($0)"), "rank": .integer($0 % 3)]) })
    return store
  }

  // MARK: - Records and ids

  @Test func createFillsEveryDeclaredRelationshipAndReadsBack() async throws {
    let store = JSONAPIMemoryStore(schemas: Self.schemas)
    let created = try await store.write { writer in
      try await writer.create(
        Self.article("", ["title": "Hello"], ["tags": .toMany([Self.tag("7")])]))
    }
    #expect(created.id == "1")
    #expect(created.relationships["author"] == .toOne(nil))
    #expect(created.relationships["tags"] == .toMany([Self.tag("7")]))
    let found = try await store.read { try await $0.resources("articles", ids: ["1", "9", "1"]) }
    #expect(found == [created])  // "9" names nothing; the repeated "1" is answered once
    // Types without a schema are stored as given.
    let other = try await store.insert([JSONAPIResourceRecord(type: "notes", id: "")])
    #expect(other.map(\.id) == ["1"] && other.first?.relationships.isEmpty == true)
  }

  @Test func idsCountPerTypeNeverReturnAndSkipGivenOnes() async throws {
    let store = JSONAPIMemoryStore(schemas: Self.schemas)
    let first = try await store.insert([Self.article(), Self.article()])
    let person = try await store.insert([JSONAPIResourceRecord(type: "people", id: "")])
    #expect(first.map(\.id) == ["1", "2"])
    #expect(person.map(\.id) == ["1"])
    // A deleted id is not made again.
    #expect(try await store.write { try await $0.delete("articles", id: "2") })
    #expect(try await store.insert([Self.article()]).map(\.id) == ["3"])
    // A given id is kept; a decimal one moves the counter past it.
    let given = try await store.insert([Self.article("10"), Self.article("abc"), Self.article()])
    #expect(given.map(\.id) == ["10", "abc", "11"])
  }

  @Test func duplicateIdIsRefusedAndTheWholeInsertLeavesNothing() async throws {
    let store = JSONAPIMemoryStore(schemas: Self.schemas)
    try await store.insert([Self.article("5")])
    await #expect(throws: JSONAPIStoreError.alreadyExists(type: "articles", id: "5")) {
      try await store.insert([Self.article("6"), Self.article("5")])
    }
    #expect(try await find(store, "articles", "6") == nil)
    // The same id in another type is another resource.
    #expect(try await store.insert([JSONAPIResourceRecord(type: "tags", id: "5")]).count == 1)
  }

  @Test func idsAreComparedByteForByte() async throws {
    let store = JSONAPIMemoryStore(schemas: Self.schemas)
    // "é" precomposed and decomposed: equal as Swift strings, two different ids.
    try await store.insert([Self.article("\u{E9}"), Self.article("e\u{301}")])
    let found = try await store.read { try await $0.resources("articles", ids: ["e\u{301}"]) }
    #expect(found.map { Array($0.id.utf8) } == [Array("e\u{301}".utf8)])
  }

  @Test func updateMergesOnlyTheMembersGiven() async throws {
    let store = JSONAPIMemoryStore(schemas: Self.schemas)
    try await store.insert([
      Self.article("1", ["title": "Old", "rank": 1], ["author": .toOne(Self.person("9"))])
    ])
    let updated = try await store.write { writer in
      try await writer.update(
        Self.article("1", ["title": "New"], ["tags": .toMany([Self.tag("3")])]))
    }
    // R80: left-out members keep their values; R81: a given relationship replaces its linkage.
    #expect(updated?.attributes == ["title": "New", "rank": 1])
    #expect(updated?.relationships["author"] == .toOne(Self.person("9")))
    #expect(updated?.relationships["tags"] == .toMany([Self.tag("3")]))
    #expect(try await find(store, "articles", "1") == updated)
    let missing = try await store.write { try await $0.update(Self.article("2", ["title": "x"])) }
    #expect(missing == nil)
  }

  @Test func deleteClearsEveryLinkageThatNamedIt() async throws {
    let store = JSONAPIMemoryStore(schemas: Self.schemas)
    try await store.insert([
      JSONAPIResourceRecord(type: "people", id: "9"),
      JSONAPIResourceRecord(type: "tags", id: "1"),
      Self.article(
        "1", [:], ["author": .toOne(Self.person("9")), "tags": .toMany([Self.tag("1")])]),
      Self.article(
        "2", [:],
        ["author": .toOne(Self.person("8")), "tags": .toMany([Self.tag("2"), Self.tag("1")])]),
    ])
    let deletedPerson = try await store.write { try await $0.delete("people", id: "9") }
    let deletedTag = try await store.write { try await $0.delete("tags", id: "1") }
    let missing = try await store.write { try await $0.delete("tags", id: "1") }
    #expect(deletedPerson && deletedTag && !missing)
    let first = try await find(store, "articles", "1")
    let second = try await find(store, "articles", "2")
    #expect(first?.relationships == ["author": .toOne(nil), "tags": .toMany([])])
    #expect(
      second?.relationships == [
        "author": .toOne(Self.person("8")), "tags": .toMany([Self.tag("2")]),
      ])
    #expect(try await find(store, "people", "9") == nil)
  }

  @Test func addSkipsPresentMembersAndRemoveTakesThemOut() async throws {
    let store = JSONAPIMemoryStore(schemas: Self.schemas)
    try await store.insert([Self.article("1", [:], ["tags": .toMany([Self.tag("1")])])])
    // R84: POST adds only the members not already present.
    let added = try await store.write { writer in
      try await writer.add(
        [Self.tag("1"), Self.tag("2"), Self.tag("2")], to: "tags", of: "articles", id: "1")
    }
    #expect(added)
    #expect(
      try await find(store, "articles", "1")?.relationships["tags"]
        == .toMany([Self.tag("1"), Self.tag("2")]))
    let removed = try await store.write { writer in
      try await writer.remove(
        [Self.tag("1"), Self.tag("5")], from: "tags", of: "articles", id: "1")
    }
    #expect(removed)
    #expect(
      try await find(store, "articles", "1")?.relationships["tags"] == .toMany([Self.tag("2")]))
    let missing = try await store.write { writer in
      try await writer.add([Self.tag("1")], to: "tags", of: "articles", id: "404")
    }
    #expect(!missing)
    await #expect(throws: JSONAPIStoreError.self) {
      try await store.write { writer in
        try await writer.add([Self.person("1")], to: "author", of: "articles", id: "1")
      }
    }
  }

  // MARK: - Transactions

  struct Abort: Error {}

  @Test func aThrowingTransactionLeavesNothing() async throws {
    let store = JSONAPIMemoryStore(schemas: Self.schemas)
    try await store.insert([Self.article("1", ["title": "Kept"])])
    await #expect(throws: Abort.self) {
      try await store.write { writer in
        _ = try await writer.create(Self.article("", ["title": "Lost"]))
        _ = try await writer.update(Self.article("1", ["title": "Changed"]))
        _ = try await writer.delete("articles", id: "1")
        // The transaction reads its own writes before it throws.
        let inside = try await writer.page(JSONAPIStoreQuery(type: "articles"))
        #expect(inside.resources.map(\.id) == ["2"])
        throw Abort()
      }
    }
    // R74: nothing of the failed transaction is visible.
    let after = try await page(store, JSONAPIStoreQuery(type: "articles"))
    #expect(
      after.resources == [
        Self.article("1", ["title": "Kept"], ["author": .toOne(nil), "tags": .toMany([])])
      ])
  }

  @Test func aCancelledTransactionLeavesNothingEvenWhenItsBodyReturns() async throws {
    let store = JSONAPIMemoryStore(schemas: Self.schemas)
    let created = Latch()
    let task = Task {
      try await store.write { writer in
        _ = try await writer.create(Self.article("", ["title": "Half"]))
        await created.open()
        // Swallows the cancellation and returns as if it had finished.
        try? await Task.sleep(for: .seconds(30))
        return true
      }
    }
    await created.wait()
    task.cancel()
    let result = await task.result
    #expect(throws: CancellationError.self) { try result.get() }
    #expect(try await ids(store, JSONAPIStoreQuery(type: "articles")).isEmpty)
    // The store goes on: the next write gets the gate and the first id.
    #expect(try await store.insert([Self.article()]).map(\.id) == ["1"])
  }

  @Test func readsSeeCommittedStateWhileAWriteIsRunning() async throws {
    let store = JSONAPIMemoryStore(schemas: Self.schemas)
    try await store.insert([Self.article("1", ["title": "Before"])])
    let written = Latch()
    let finish = Latch()
    let writing = Task {
      try await store.write { writer in
        _ = try await writer.update(Self.article("1", ["title": "After"]))
        _ = try await writer.create(Self.article("2"))
        await written.open()
        await finish.wait()
      }
    }
    await written.wait()
    // The read does not wait for the write and sees none of it.
    let during = try await page(store, JSONAPIStoreQuery(type: "articles"))
    #expect(during.resources.map(\.id) == ["1"])
    #expect(during.resources.first?.attributes["title"] == "Before")
    await finish.open()
    try await writing.value
    let after = try await page(store, JSONAPIStoreQuery(type: "articles"))
    #expect(after.resources.map(\.id) == ["1", "2"])
    #expect(after.resources.first?.attributes["title"] == "After")
  }

  @Test func concurrentCreatesGetUniqueIds() async throws {
    let store = JSONAPIMemoryStore(schemas: Self.schemas)
    let made = try await withThrowingTaskGroup(of: String?.self) { group in
      for index in 0..<200 {
        group.addTask {
          try await store.write { writer in
            try await writer.create(Self.article("", ["rank": .integer(index)])).id
          }
        }
        group.addTask {  // reads running among the writes
          _ = try await store.read { try await $0.page(JSONAPIStoreQuery(type: "articles")) }
          return nil
        }
      }
      var ids: [String] = []
      for try await id in group { id.map { ids.append($0) } }
      return ids
    }
    #expect(made.count == 200 && Set(made) == Set((1...200).map(String.init)))
    let all = try await page(
      store, JSONAPIStoreQuery(type: "articles", window: .offset(0, limit: 1000)))
    #expect(all.total == 200)
    #expect(Set(all.resources.map(\.id)) == Set(made))
    #expect(Set(all.resources.compactMap { $0.attributes["rank"]?.intValue }) == Set(0..<200))
  }

  // MARK: - Filters

  @Test func equalsKeepsNulWholeAndComparesNumbersByValue() async throws {
    let store = JSONAPIMemoryStore(schemas: Self.schemas)
    try await store.insert([
      Self.article("1", ["title": "nul\u{0}tail", "rank": 100]),
      Self.article("2", ["title": "nul", "rank": .number(100.5)]),
      Self.article("3", ["title": "\u{E9}", "rank": .null]),
      Self.article("4", ["title": "NUL"]),
    ])
    func matching(_ member: String, _ values: [JSONAPIValue]) async throws -> [String] {
      try await ids(
        store,
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
    #expect(try await matching("id", ["2", 4]) == ["2", "4"])
  }

  @Test func containsIgnoresASCIICaseAndKeepsNul() async throws {
    let store = JSONAPIMemoryStore(schemas: Self.schemas)
    try await store.insert([
      Self.article("1", ["title": "a\u{0}ZZ b"]),
      Self.article("2", ["title": "azz"]),
      Self.article("3", ["title": "\u{0}z"]),
      Self.article("4", ["title": "\u{C9}\u{0}zz"]),  // "É": no case folding beyond ASCII
      Self.article("5", ["rank": 0]),
    ])
    func matching(_ text: String) async throws -> [String] {
      try await ids(
        store,
        JSONAPIStoreQuery(
          type: "articles",
          filters: [
            JSONAPIFilterCondition(member: "title", comparison: .contains, values: [.string(text)])
          ]))
    }
    #expect(try await matching("\u{0}zz") == ["1", "4"])
    #expect(try await matching("ZZ") == ["1", "2", "4"])
    #expect(try await matching("\u{E9}").isEmpty)
    #expect(try await matching("") == ["1", "2", "3", "4"])  // texts only: "5" has no title
  }

  @Test func lessAndGreaterCompareNumbersAndTextsOnly() async throws {
    let store = JSONAPIMemoryStore(schemas: Self.schemas)
    try await store.insert([
      Self.article("1", ["title": "B", "rank": 2]),
      Self.article("2", ["title": "a", "rank": .number(2.5)]),
      Self.article("3", ["title": "Ba", "rank": "3"]),
      Self.article("4", ["rank": -1]),
    ])
    func matching(
      _ member: String, _ comparison: JSONAPIFilterCondition.Comparison, _ value: JSONAPIValue
    )
      async throws -> [String]
    {
      try await ids(
        store,
        JSONAPIStoreQuery(
          type: "articles",
          filters: [JSONAPIFilterCondition(member: member, comparison: comparison, values: [value])]
        ))
    }
    #expect(try await matching("rank", .lessThan, .number(2.5)) == ["1", "4"])  // "3" is text
    #expect(try await matching("rank", .greaterThan, 2) == ["2"])
    #expect(try await matching("title", .lessThan, "a") == ["1", "3"])  // "B" (0x42) < "a" (0x61)
    #expect(try await matching("title", .greaterThan, "B") == ["2", "3"])
    #expect(try await matching("id", .greaterThan, "2") == ["3", "4"])
    // Conditions combine: every one must hold.
    let both = try await ids(
      store,
      JSONAPIStoreQuery(
        type: "articles",
        filters: [
          JSONAPIFilterCondition(member: "rank", comparison: .greaterThan, values: [0]),
          JSONAPIFilterCondition(member: "title", comparison: .lessThan, values: ["C"]),
        ]))
    #expect(both == ["1"])
  }

  @Test func relationshipFiltersMatchLinkageIds() async throws {
    let store = JSONAPIMemoryStore(schemas: Self.schemas)
    try await store.insert([
      Self.article("1", [:], ["author": .toOne(Self.person("9"))]),
      Self.article("2", [:], ["author": .toOne(Self.person("10"))]),
      Self.article("3", [:], ["tags": .toMany([Self.tag("1"), Self.tag("2")])]),
    ])
    func matching(_ member: String, _ values: [JSONAPIValue]) async throws -> [String] {
      try await ids(
        store,
        JSONAPIStoreQuery(
          type: "articles",
          filters: [
            JSONAPIFilterCondition(
              member: member, isRelationship: true, comparison: .equals, values: values)
          ]))
    }
    #expect(try await matching("author", ["9", "10"]) == ["1", "2"])
    #expect(try await matching("author", ["1"]).isEmpty)  // ids whole, not prefixes
    #expect(try await matching("tags", ["2"]) == ["3"])
    #expect(try await matching("author", [nil]) == ["3"])  // null: empty linkage
  }

  // MARK: - Sort

  @Test func sortsByFieldsInOrderWithNumericIdTiebreak() async throws {
    let store = JSONAPIMemoryStore(schemas: Self.schemas)
    try await store.insert([
      Self.article("10", ["title": "b", "rank": 1]),
      Self.article("2", ["title": "b", "rank": 1]),
      Self.article("9", ["title": "a", "rank": 1]),
      Self.article("1", ["title": "c", "rank": 0]),
    ])
    let query = JSONAPIStoreQuery(
      type: "articles", sort: [.descending("rank"), .ascending("title"), .ascending("id")])
    #expect(try await ids(store, query) == ["9", "2", "10", "1"])  // "2" before "10"
    let byID = JSONAPIStoreQuery(type: "articles", sort: [.descending("id")])
    #expect(try await ids(store, byID) == ["10", "9", "2", "1"])
  }

  @Test func valuesOfMixedKindsSortNullBooleansNumbersTextsThenOthers() async throws {
    let store = JSONAPIMemoryStore(schemas: Self.schemas)
    let values: [JSONAPIValue] = [
      ["x": 1], "b", "a", .number(1.5), 1, true, false, nil, [1, 2],
    ]
    try await store.insert(values.enumerated().map { Self.article(String($0 + 1), ["rank": $1]) })
    try await store.insert([Self.article("10")])  // absent sorts with null, then by id
    let sorted = try await ids(
      store,
      JSONAPIStoreQuery(type: "articles", sort: ["rank", "id"], window: .offset(0, limit: 50)))
    #expect(sorted == ["8", "10", "7", "6", "5", "4", "3", "2", "9", "1"])
  }

  @Test func storeOrderIsExactAndTotal() {
    typealias V = JSONAPIValue
    #expect(V.storeOrder(.integer(Int.max), .number(0x1p63)) == .orderedAscending)
    #expect(V.storeOrder(.integer(2), .number(2)) == .orderedSame)
    #expect(V.storeOrder(.integer(2), .number(2.000_001)) == .orderedAscending)
    #expect(V.storeOrder(.number(-.infinity), .integer(Int.min)) == .orderedAscending)
    #expect(V.storeOrder(["a": 1, "b": 2.0], ["b": 2, "a": 1]) == .orderedSame)
    #expect(V.storeOrder("nul\u{0}", "nul") == .orderedDescending)
    // Decimal ids by value and first, others by bytes: transitive where a pairwise mix is not.
    #expect(V.storeIDOrder("2", "10") == .orderedAscending)
    #expect(V.storeIDOrder("10", "1a") == .orderedAscending)
    #expect(V.storeIDOrder("2", "1a") == .orderedAscending)
    #expect(V.storeIDOrder("007", "7") == .orderedAscending)
    #expect(
      V.storeIDOrder("99999999999999999999999", "100000000000000000000000") == .orderedAscending)
  }

  // MARK: - Windows, totals, scope

  @Test func offsetWindowsSliceAndClamp() async throws {
    let store = try await twelveArticles()
    func window(_ offset: Int, _ limit: Int) async throws -> ([String], Bool) {
      let read = try await page(
        store, JSONAPIStoreQuery(type: "articles", window: .offset(offset, limit: limit)))
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
      let read = try await page(
        store,
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

  @Test func totalsCountFilteredResourcesBeforeTheWindow() async throws {
    let store = try await twelveArticles()
    let filters = [JSONAPIFilterCondition(member: "rank", comparison: .equals, values: [0])]
    let counted = try await page(
      store, JSONAPIStoreQuery(type: "articles", filters: filters, window: .offset(1, limit: 2)))
    #expect(counted.total == 4)
    #expect(counted.resources.map(\.id) == ["6", "9"] && counted.hasMore)
    let uncounted = try await page(store, JSONAPIStoreQuery(type: "articles", countsTotal: false))
    #expect(uncounted.total == nil && uncounted.resources.count == 12)
  }

  @Test func scopeReadsOnlyTheOwnersLinkage() async throws {
    let store = JSONAPIMemoryStore(schemas: Self.schemas)
    try await store.insert([
      JSONAPIResourceRecord(type: "tags", id: "1", attributes: ["name": "z"]),
      JSONAPIResourceRecord(type: "tags", id: "2", attributes: ["name": "a"]),
      JSONAPIResourceRecord(type: "tags", id: "3", attributes: ["name": "m"]),
      Self.article(
        "1", [:],
        [
          "tags": .toMany([
            Self.tag("1"), Self.tag("2"), Self.tag("9"), Self.person("3"), Self.tag("1"),
          ])
        ]),
    ])
    func scoped(_ owner: String) async throws -> JSONAPIStorePage {
      try await page(
        store,
        JSONAPIStoreQuery(
          type: "tags", sort: ["name", "id"],
          scope: .init(
            owner: JSONAPIResourceIdentifier(type: "articles", id: owner), relationship: "tags")))
    }
    // Sorted by the query, not by linkage order; "9" names nothing; people/3 is another type.
    let owned = try await scoped("1")
    #expect(owned.resources.map(\.id) == ["2", "1"] && owned.total == 2)
    let missingOwner = try await scoped("404")
    #expect(missingOwner.resources.isEmpty && missingOwner.total == 0 && !missingOwner.hasMore)
  }
}

/// Opens once; every waiter, earlier or later, goes on.
private actor Latch {
  private var isOpen = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func open() {
    isOpen = true
    for waiter in waiters { waiter.resume() }
    waiters = []
  }

  func wait() async {
    if isOpen { return }
    await withCheckedContinuation { waiters.append($0) }
  }
}
