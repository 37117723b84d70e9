import JSONAPIServer

// The read checks: filters, sorts, windows, scopes. Each seeds its own store.
extension JSONAPIStoreConformance {
  /// Five articles with text, integers, numbers and `null`s mixed, two authors, three tags.
  static func seedArticles(_ store: any JSONAPIStore) async throws {
    try await store.seed(
      [Make.person("1", "Ann"), Make.person("2", "Bob")] + ["1", "2", "3"].map(Make.tagRecord)
        + [
          Make.article(
            "1", title: "alpha", rank: 3, score: 2.5, author: "1", tags: ["2", "1"]),
          Make.article("2", title: "Beta", rank: 1, score: 2, author: "2", tags: ["3"]),
          Make.article("3", title: "gamma", rank: .null, author: "1", tags: []),
          Make.article("4", title: "ALPHABET", rank: 3, score: -1),
          Make.article("5", title: .null, rank: 2, score: 10, author: "2", tags: ["1", "3"]),
        ])
  }

  static let filterEquals: Body = { store, report in
    try await seedArticles(store)
    report.expect(
      try await store.ids("articles", [filter("title", .equals, ["alpha", "gamma"])]), ["1", "3"],
      "title equals alpha or gamma (text byte for byte, not ALPHABET)")
    report.expect(
      try await store.ids("articles", [filter("title", .equals, ["ALPHA"])]), [],
      "title equals ALPHA (equals does not ignore case)")
    report.expect(
      try await store.ids("articles", [filter("rank", .equals, [3])]), ["1", "4"],
      "rank equals 3")
    report.expect(
      try await store.ids("articles", [filter("score", .equals, [.integer(2)])]), ["2"],
      "score equals the integer 2 (numbers by value: 2.0 is stored)")
    report.expect(
      try await store.ids("articles", [filter("rank", .equals, [.null])]), ["3"],
      "rank equals null")
    report.expect(
      try await store.ids("articles", [filter("rank", .equals, [.null, 1])]), ["2", "3"],
      "rank equals null or 1")
    report.expect(
      try await store.ids("articles", [filter("rank", .equals, ["3"])]), [],
      "rank equals the string \"3\" (a string never equals a number)")
    report.expect(
      try await store.ids("articles", [filter("id", .equals, ["4", "2", "9"])]), ["2", "4"],
      "id equals 4, 2 or 9")
    report.expect(
      try await store.ids(
        "articles", [filter("rank", .equals, [3]), filter("score", .equals, [2.5])]),
      ["1"], "two filters (both must hold)")
  }

  static let filterContains: Body = { store, report in
    try await seedArticles(store)
    report.expect(
      try await store.ids("articles", [filter("title", .contains, ["alpha"])]), ["1", "4"],
      "title contains alpha (ASCII case ignored)")
    report.expect(
      try await store.ids("articles", [filter("title", .contains, ["ET"])]), ["2", "4"],
      "title contains ET")
    report.expect(
      try await store.ids("articles", [filter("title", .contains, ["%"])]), [],
      "title contains % (no pattern characters)")
    report.expect(
      try await store.ids("articles", [filter("title", .contains, ["_"])]), [],
      "title contains _ (no pattern characters)")
    report.expect(
      try await store.ids("articles", [filter("rank", .contains, ["3"])]), [],
      "rank contains \"3\" (numbers are not text)")
  }

  static let filterOrder: Body = { store, report in
    try await seedArticles(store)
    report.expect(
      try await store.ids("articles", [filter("rank", .lessThan, [3])]), ["2", "5"],
      "rank less than 3 (null is not less)")
    report.expect(
      try await store.ids("articles", [filter("rank", .greaterThan, [1])]), ["1", "4", "5"],
      "rank greater than 1")
    report.expect(
      try await store.ids("articles", [filter("score", .greaterThan, [2.2])]), ["1", "5"],
      "score greater than 2.2")
    report.expect(
      try await store.ids("articles", [filter("score", .lessThan, [.integer(0)])]), ["4"],
      "score less than the integer 0")
    report.expect(
      try await store.ids("articles", [filter("title", .greaterThan, ["Z"])]), ["1", "3"],
      "title greater than Z (by bytes: lower case after upper case)")
    report.expect(
      try await store.ids("articles", [filter("title", .lessThan, ["alpha"])]), ["2", "4"],
      "title less than alpha (by bytes)")
    report.expect(
      try await store.ids("articles", [filter("rank", .greaterThan, ["1"])]), [],
      "rank greater than the string \"1\" (no comparison across kinds)")
    report.expect(
      try await store.ids("articles", [filter("id", .greaterThan, ["3"])]), ["4", "5"],
      "id greater than 3")
    report.expect(
      try await store.ids("articles", [filter("id", .lessThan, ["10"])]),
      ["1", "2", "3", "4", "5"],
      "id less than 10 (integer ids by value)")
  }

  static let filterRelationships: Body = { store, report in
    try await seedArticles(store)
    report.expect(
      try await store.ids("articles", [filter("author", .equals, ["1"], relationship: true)]),
      ["1", "3"], "author equals 1")
    report.expect(
      try await store.ids("articles", [filter("author", .equals, [.null], relationship: true)]),
      ["4"], "author equals null (empty to-one)")
    report.expect(
      try await store.ids("articles", [filter("tags", .equals, ["1"], relationship: true)]),
      ["1", "5"], "tags equals 1 (a member)")
    report.expect(
      try await store.ids("articles", [filter("tags", .equals, [.null], relationship: true)]),
      ["3", "4"], "tags equals null (empty to-many)")
    report.expect(
      try await store.ids("articles", [filter("tags", .equals, ["2", "3"], relationship: true)]),
      ["1", "2", "5"], "tags equals 2 or 3")
  }

  static let sortMultiKey: Body = { store, report in
    try await seedArticles(store)
    report.expect(
      try await store.ids("articles", sort: [.descending("rank"), .ascending("score")]),
      ["4", "1", "5", "2", "3"], "sort -rank,score (null rank last when descending)")
    report.expect(
      try await store.ids("articles", sort: [.ascending("rank"), .descending("id")]),
      ["3", "2", "5", "4", "1"], "sort rank,-id")
  }

  static let sortByteOrder: Body = { store, report in
    let titles: [JSONAPIValue] = ["b", "B", "\u{E9}", "a", "Z", "e\u{301}", "10", "9"]
    try await store.seed(
      titles.enumerated().map { Make.article(String($0.offset + 1), title: $0.element) })
    // By UTF-8 bytes: "10" "9" "B" "Z" "a" "b" "e\u{301}" (0x65…) "é" (0xC3 0xA9).
    report.expect(
      try await store.ids("articles", sort: [.ascending("title")]),
      ["7", "8", "2", "5", "4", "1", "6", "3"], "sort title (by UTF-8 bytes)")
    report.expect(
      try await store.ids("articles", sort: [.descending("title")]),
      ["3", "6", "1", "4", "5", "2", "8", "7"], "sort -title")
  }

  static let sortNulls: Body = { store, report in
    try await seedArticles(store)
    report.expect(
      try await store.ids("articles", sort: [.ascending("title")]),
      ["5", "4", "2", "1", "3"], "sort title (null first)")
    report.expect(
      try await store.ids("articles", sort: [.descending("title")]),
      ["3", "1", "2", "4", "5"], "sort -title (null last)")
  }

  static let offsetWindow: Body = { store, report in
    try await seedArticles(store)
    func page(_ offset: Int, _ limit: Int) async throws -> JSONAPIStorePage {
      try await store.page(
        JSONAPIStoreQuery(type: "articles", window: .offset(offset, limit: limit)))
    }
    for (offset, limit, ids, hasMore) in [
      (0, 2, ["1", "2"], true), (2, 2, ["3", "4"], true), (4, 2, ["5"], false),
      (3, 2, ["4", "5"], false), (5, 2, [], false), (0, 5, ["1", "2", "3", "4", "5"], false),
    ] {
      let read = try await page(offset, limit)
      let window = "offset \(offset) limit \(limit)"
      report.expect(read.resources.map(\.id), ids, "\(window): ids")
      report.expect(read.hasMore, hasMore, "\(window): hasMore")
      report.expect(read.total, 5, "\(window): total")
    }
    let filtered = try await store.page(
      JSONAPIStoreQuery(
        type: "articles", filters: [filter("rank", .equals, [3])], window: .offset(0, limit: 1)))
    report.expect(filtered.resources.map(\.id), ["1"], "filtered page: ids")
    report.expect(filtered.total, 2, "filtered page: total (of the filtered collection)")
    report.expect(filtered.hasMore, true, "filtered page: hasMore")
  }

  static let keysetWindow: Body = { store, report in
    try await seedArticles(store)
    let sort: [JSONAPIQuery.SortField] = [.ascending("rank"), .ascending("id")]
    // In this order: 3 (null), 2 (1), 5 (2), 1 (3), 4 (3).
    func read(_ after: [JSONAPIValue]?, _ before: [JSONAPIValue]?, _ limit: Int) async throws
      -> JSONAPIStorePage
    {
      try await store.page(
        JSONAPIStoreQuery(
          type: "articles", sort: sort, window: .keyset(after: after, before: before, limit: limit),
          countsTotal: false))
    }
    let cases: [([JSONAPIValue]?, [JSONAPIValue]?, Int, [String], Bool, String)] = [
      (nil, nil, 2, ["3", "2"], true, "first page"),
      ([1, "2"], nil, 2, ["5", "1"], true, "after (1, 2)"),
      ([3, "1"], nil, 2, ["4"], false, "after (3, 1): the last"),
      ([.null, "3"], nil, 1, ["2"], true, "after (null, 3): past the null rank"),
      (nil, [3, "4"], 2, ["5", "1"], true, "before (3, 4): the last two before it"),
      (nil, [1, "2"], 2, ["3"], false, "before (1, 2): only one before it"),
      ([.null, "3"], [3, "4"], 10, ["2", "5", "1"], false, "between (null, 3) and (3, 4)"),
      ([3, "4"], nil, 2, [], false, "after the last"),
    ]
    for (after, before, limit, ids, hasMore, what) in cases {
      let page = try await read(after, before, limit)
      report.expect(page.resources.map(\.id), ids, "keyset \(what): ids")
      report.expect(page.hasMore, hasMore, "keyset \(what): hasMore")
    }
    let descending = try await store.page(
      JSONAPIStoreQuery(
        type: "articles", sort: [.descending("title"), .ascending("id")],
        window: .keyset(after: ["alpha", "1"], before: nil, limit: 10), countsTotal: false))
    report.expect(
      descending.resources.map(\.id), ["2", "4", "5"],
      "keyset after (alpha, 1) sorted -title (then null last)")
  }

  static let scopeToMany: Body = { store, report in
    try await seedArticles(store)
    let scope = JSONAPIStoreQuery.Scope(
      owner: JSONAPIResourceIdentifier(type: "articles", id: "5"), relationship: "tags")
    let page = try await store.page(
      JSONAPIStoreQuery(type: "tags", window: .offset(0, limit: 1), scope: scope))
    report.expect(page.resources.map(\.id), ["1"], "tags of article 5, first page")
    report.expect(page.hasMore, true, "tags of article 5: hasMore")
    report.expect(page.total, 2, "tags of article 5: total")
    report.expect(
      try await store.ids("tags", [filter("id", .greaterThan, ["1"])], scope: scope), ["3"],
      "tags of article 5 with a filter")
    let empty = JSONAPIStoreQuery.Scope(
      owner: JSONAPIResourceIdentifier(type: "articles", id: "3"), relationship: "tags")
    report.expect(try await store.ids("tags", scope: empty), [], "tags of article 3 (none)")
    let missing = JSONAPIStoreQuery.Scope(
      owner: JSONAPIResourceIdentifier(type: "articles", id: "99"), relationship: "tags")
    report.expect(try await store.ids("tags", scope: missing), [], "tags of a missing article")
  }
}
