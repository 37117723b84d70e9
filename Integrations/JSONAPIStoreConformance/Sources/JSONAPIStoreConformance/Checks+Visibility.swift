import JSONAPIServer

// The visibility checks: `JSONAPIStoreQuery.visibility` (the rows a requester may see, from the
// declarations' policies) applied with the filters, before the sort, the window and the count.
// Only stores that say they apply row conditions (`appliesRowConditions`) are held to them; the
// others pass them untouched, as a server never hands them a visibility.
extension JSONAPIStoreConformance {
  /// People 1 Ann (friend 2), 2 Bob (friend 3), 3 Cat (friend 4), 4 Dan (friends 1, 3); tags 1 red, 2 green
  /// (parent red), 3 blue (parent green); six articles.
  static let visibilitySeed: [JSONAPIResourceRecord] =
    [
      Seed.person("1", "Ann", friends: ["2"]), Seed.person("2", "Bob", friends: ["3"]),
      Seed.person("3", "Cat", friends: ["4"]), Seed.person("4", "Dan", friends: ["1", "3"]),
      Seed.tag("1", "red", parent: nil), Seed.tag("2", "green", parent: "1"),
      Seed.tag("3", "blue", parent: "2"),
    ] + [
      Seed.article("1", "alpha", rank: 3, author: "1", tags: ["1", "2"]),
      Seed.article("2", "Beta", rank: 1, author: "2", tags: ["3"]),
      Seed.article("3", "gamma", rank: .null, author: "1", tags: []),
      Seed.article("4", "delta", rank: 2, author: nil, tags: ["2"]),
      Seed.article("5", "epsilon", rank: 5, author: "3", tags: ["1", "3"]),
      Seed.article("6", "zeta", rank: 2, author: "4", tags: []),
    ]

  /// The ids of the rows of `type` that `condition` admits (with `filters`), sorted by id.
  static func visibleIDs(
    _ store: any JSONAPIStore, _ type: String, _ condition: JSONAPIRowCondition,
    _ filters: [JSONAPIFilterCondition] = []
  ) async throws -> [String] {
    var query = JSONAPIStoreQuery(
      type: type, filters: filters, window: .offset(0, limit: 100), countsTotal: false)
    query.visibility = condition
    return try await store.ids(query)
  }

  static let visibilityConditions: Body = { store, report in
    guard store.appliesRowConditions else { return }
    try await store.seed(visibilitySeed)
    let cases: [(String, JSONAPIRowCondition, [String], String)] = [
      ("articles", .always, ["1", "2", "3", "4", "5", "6"], "always"),
      ("articles", .never, [], "never"),
      ("articles", .visible, [], "visible (the server's to replace: admits nothing)"),
      ("articles", .all([]), ["1", "2", "3", "4", "5", "6"], "all of none (every row)"),
      ("articles", .any([]), [], "any of none (no row)"),
      ("articles", .filter(filter("rank", .equals, [2])), ["4", "6"], "filter rank = 2"),
      (
        "articles",
        .all([
          .filter(filter("rank", .greaterThan, [1])), .filter(filter("title", .contains, ["A"])),
        ]),
        ["1", "4", "6"], "all: rank > 1 and title contains A"
      ),
      (
        "articles", .any([.filter(filter("rank", .equals, [.null])), .id(in: ["2"])]), ["2", "3"],
        "any: rank null or id 2"
      ),
      (
        "articles", .related("author", .filter(filter("name", .equals, ["Ann"]))), ["1", "3"],
        "related through a to-one: author named Ann"
      ),
      (
        "articles", .related("author", .always), ["1", "2", "3", "5", "6"],
        "related through a to-one: any author"
      ),
      (
        "articles", .related("tags", .filter(filter("name", .equals, ["blue"]))), ["2", "5"],
        "related through a to-many: a tag named blue"
      ),
      (
        "articles", .related("tags", .related("parent", .filter(filter("name", .equals, ["red"])))),
        ["1", "4"], "related twice: a tag whose parent is red"
      ),
      (
        "people",
        .namedBy(
          type: "articles", relationship: "author", .filter(filter("rank", .greaterThan, [2]))),
        ["1", "3"], "namedBy through a to-one (an inverse as the server sends it)"
      ),
      (
        "tags",
        .namedBy(
          type: "articles", relationship: "tags", .filter(filter("title", .equals, ["Beta"]))),
        ["3"], "namedBy through a to-many"
      ),
      (
        "people", .namedBy(type: "people", relationship: "friends", .id(in: ["4"])), ["1", "3"],
        "namedBy the same table's to-many"
      ),
      (
        "people", .related("friends", .related("friends", .id(in: ["3"]))), ["1", "3"],
        "related to the same table twice (three levels of one table)"
      ),
      (
        "articles",
        .related("author", .filter(filter("friends", .equals, ["3"], relationship: true))),
        ["2", "6"], "a relationship filter one level down"
      ),
      (
        "articles",
        .related(
          "author",
          .namedBy(
            type: "people", relationship: "friends", .filter(filter("name", .equals, ["Dan"])))),
        ["1", "3", "5"], "namedBy inside related"
      ),
      (
        "people",
        .namedBy(
          type: "articles", relationship: "author",
          .filter(filter("tags", .equals, [.null], relationship: true))),
        ["1", "4"], "namedBy with an empty-linkage filter inside"
      ),
      (
        "tags",
        .namedBy(
          type: "tags", relationship: "parent",
          .namedBy(type: "articles", relationship: "tags", .filter(filter("rank", .equals, [1])))),
        ["2"], "namedBy twice through one table"
      ),
      (
        "articles",
        .any([.related("nope", .always), .namedBy(type: "nope", relationship: "x", .always)]),
        [], "an undeclared relationship or type admits nothing"
      ),
      (
        "articles", .related("author", .visible), [],
        "visible one level down admits nothing"
      ),
    ]
    for (type, condition, expected, what) in cases {
      report.expect(try await visibleIDs(store, type, condition), expected, "visibility \(what)")
    }
    // A filter and a condition must both hold.
    report.expect(
      try await visibleIDs(
        store, "articles", .related("author", .always), [filter("rank", .lessThan, [3])]),
      ["2", "6"], "visibility with a filter (both hold)")
    // Nesting as deep as a server sends (it stops at 32): exact at every level. Friends go
    // round (3 and 4 name each other), so who is ten friendships from Cat alternates with depth.
    var deep = JSONAPIRowCondition.filter(filter("name", .equals, ["Cat"]))
    for _ in 0..<10 { deep = .related("friends", .any([deep])) }
    report.expect(
      try await visibleIDs(store, "people", .all([.filter(filter("id", .lessThan, ["5"])), deep])),
      ["1", "3"], "ten friendships from Cat (ten levels of one table)")
    var chain = JSONAPIRowCondition.id(in: ["3"])
    for _ in 0..<2 { chain = .related("friends", chain) }
    for _ in 0..<20 { chain = .all([chain]) }
    report.expect(
      try await visibleIDs(store, "people", chain), ["1", "3"],
      "a friend's friend is Cat, under twenty levels of all")
    // `all` and `any` alternating thirty deep (nothing to lift): exact.
    var alternating = JSONAPIRowCondition.filter(filter("rank", .equals, [2]))
    for level in 0..<30 {
      alternating = level % 2 == 0 ? .all([alternating, .always]) : .any([alternating, .never])
    }
    report.expect(
      try await visibleIDs(store, "articles", alternating), ["4", "6"],
      "all and any alternating thirty deep around rank = 2")
    // Deeper than any server nests: the store admits nothing there (fail closed) or answers
    // exactly, never more.
    var tooDeep = JSONAPIRowCondition.always
    for _ in 0..<200 { tooDeep = .all([tooDeep]) }
    let deepest = try await visibleIDs(store, "articles", tooDeep)
    report.expect(
      deepest.isEmpty || deepest == ["1", "2", "3", "4", "5", "6"],
      "200 levels of all: no row or every row, got \(deepest)")
  }

  static let visibilityWindows: Body = { store, report in
    guard store.appliesRowConditions else { return }
    try await store.seed(visibilitySeed)
    // Articles by Ann or Cat, or of rank 2: 1, 3, 4, 5, 6; by rank then id: 3, 4, 6, 1, 5.
    let visible: JSONAPIRowCondition = .any([
      .related("author", .filter(filter("name", .equals, ["Ann", "Cat"]))),
      .filter(filter("rank", .equals, [2])),
    ])
    let sort: [JSONAPIQuery.SortField] = [.ascending("rank"), .ascending("id")]
    func read(
      _ window: JSONAPIStoreQuery.Window, filters: [JSONAPIFilterCondition] = [],
      counts: Bool = true
    ) async throws -> JSONAPIStorePage {
      var query = JSONAPIStoreQuery(
        type: "articles", filters: filters, sort: sort, window: window, countsTotal: counts)
      query.visibility = visible
      return try await store.page(query)
    }
    let offsets: [(Int, Int, [String], Bool)] = [
      (0, 2, ["3", "4"], true), (2, 2, ["6", "1"], true), (4, 2, ["5"], false),
      (5, 2, [], false), (0, 5, ["3", "4", "6", "1", "5"], false),
    ]
    for (offset, limit, ids, hasMore) in offsets {
      let page = try await read(.offset(offset, limit: limit))
      let what = "visible articles, offset \(offset) limit \(limit)"
      report.expect(page.resources.map(\.id), ids, "\(what): ids")
      report.expect(page.hasMore, hasMore, "\(what): hasMore")
      report.expect(page.total, 5, "\(what): total (visible rows only)")
    }
    let filtered = try await read(
      .offset(0, limit: 3), filters: [filter("title", .contains, ["a"])])
    report.expect(filtered.resources.map(\.id), ["3", "4", "6"], "visible and filtered: ids")
    report.expect(filtered.total, 4, "visible and filtered: total")
    report.expect(filtered.hasMore, true, "visible and filtered: hasMore")
    let keysets: [([JSONAPIValue]?, [JSONAPIValue]?, Int, [String], Bool, String)] = [
      (nil, nil, 2, ["3", "4"], true, "first page"),
      ([2, "4"], nil, 2, ["6", "1"], true, "after (2, 4)"),
      ([1, "2"], nil, 2, ["4", "6"], true, "after the hidden article 2's values"),
      ([3, "1"], nil, 5, ["5"], false, "after (3, 1): the last"),
      (nil, [3, "1"], 2, ["4", "6"], true, "before (3, 1): the last two before it"),
      (nil, [1, "2"], 2, ["3"], false, "before the hidden article 2's values"),
      ([.null, "3"], [5, "5"], 10, ["4", "6", "1"], false, "between (null, 3) and (5, 5)"),
      ([5, "5"], nil, 2, [], false, "after the last visible"),
    ]
    for (after, before, limit, ids, hasMore, what) in keysets {
      let page = try await read(.keyset(after: after, before: before, limit: limit), counts: false)
      report.expect(page.resources.map(\.id), ids, "visible keyset \(what): ids")
      report.expect(page.hasMore, hasMore, "visible keyset \(what): hasMore")
    }
    // A scope and a visibility: the tags of article 5 (1, 3) that article 2 names (3).
    var scoped = JSONAPIStoreQuery(
      type: "tags", window: .offset(0, limit: 10),
      scope: .init(
        owner: JSONAPIResourceIdentifier(type: "articles", id: "5"), relationship: "tags"))
    scoped.visibility = .namedBy(
      type: "articles", relationship: "tags", .filter(filter("rank", .equals, [1])))
    let tags = try await store.page(scoped)
    report.expect(tags.resources.map(\.id), ["3"], "a scope with a visibility: ids")
    report.expect(tags.total, 1, "a scope with a visibility: total")
    // By ids, as a server reads a row it checks: only the visible among them.
    var byID = JSONAPIStoreQuery(
      type: "people", filters: [filter("id", .equals, ["1", "2", "3", "9"])],
      window: .offset(0, limit: 4), countsTotal: false)
    byID.visibility = .namedBy(type: "people", relationship: "friends", .always)
    report.expect(try await store.ids(byID), ["1", "2", "3"], "ids 1, 2, 3, 9 named as friends")
  }

  static let visibilityNul: Body = { store, report in
    guard store.appliesRowConditions else { return }
    try await store.seed(visibilitySeed)
    let text = "nu\u{0}ll"
    var stored = true
    do {
      try await store.seed([Seed.article("7", .string(text), rank: 1, author: "2", tags: ["3"])])
    } catch is JSONAPIStoreError {
      stored = false  // refused whole (the nulCharacter check holds the store to how)
    }
    let matched = stored ? ["7"] : []
    let cases: [(String, JSONAPIRowCondition, [String], String)] = [
      ("articles", .filter(filter("title", .equals, [.string(text)])), matched, "equals"),
      ("articles", .filter(filter("title", .equals, ["nu"])), [], "equals the part before U+0000"),
      ("articles", .filter(filter("title", .contains, ["\u{0}l"])), matched, "contains"),
      (
        "people",
        .namedBy(
          type: "articles", relationship: "author",
          .filter(filter("title", .equals, [.string(text)]))),
        stored ? ["2"] : [], "namedBy an article whose title holds U+0000"
      ),
      (
        "articles", .related("author", .filter(filter("name", .contains, ["\u{0}"]))), [],
        "an author whose name holds U+0000 (none)"
      ),
      ("articles", .id(in: ["7\u{0}"]), [], "an id with U+0000"),
      (
        "articles", .filter(filter("tags", .equals, ["3\u{0}"], relationship: true)), [],
        "a linked id with U+0000"
      ),
    ]
    for (type, condition, expected, what) in cases {
      report.expect(
        try await visibleIDs(store, type, condition), expected, "visibility with U+0000: \(what)")
    }
  }
}

/// Records of the visibility checks' types.
enum Seed {
  static func article(
    _ id: String, _ title: JSONAPIValue, rank: JSONAPIValue, author: String?, tags: [String]
  ) -> JSONAPIResourceRecord {
    JSONAPIResourceRecord(
      type: "articles", id: id, attributes: ["title": title, "rank": rank],
      relationships: [
        "author": .toOne(author.map { JSONAPIResourceIdentifier(type: "people", id: $0) }),
        "tags": .toMany(tags.map { JSONAPIResourceIdentifier(type: "tags", id: $0) }),
      ])
  }

  static func person(_ id: String, _ name: JSONAPIValue, friends: [String]) -> JSONAPIResourceRecord
  {
    JSONAPIResourceRecord(
      type: "people", id: id, attributes: ["name": name],
      relationships: [
        "friends": .toMany(friends.map { JSONAPIResourceIdentifier(type: "people", id: $0) })
      ])
  }

  static func tag(_ id: String, _ name: JSONAPIValue, parent: String?) -> JSONAPIResourceRecord {
    JSONAPIResourceRecord(
      type: "tags", id: id, attributes: ["name": name],
      relationships: [
        "parent": .toOne(parent.map { JSONAPIResourceIdentifier(type: "tags", id: $0) })
      ])
  }
}
