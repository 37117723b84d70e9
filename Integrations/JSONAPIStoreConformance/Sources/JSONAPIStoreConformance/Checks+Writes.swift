import JSONAPIServer

/// What a check throws inside a transaction to see it rolled back.
struct Rollback: Error {}

// The write checks: creates, updates, deletes, linkage, transactions, the gate, U+0000.
extension JSONAPIStoreConformance {
  static let createAndRead: Body = { store, report in
    let made = try await store.write {
      try await $0.create(JSONAPIResourceRecord(type: "tags", id: "", attributes: ["name": "x"]))
    }
    report.expect(!made.id.isEmpty, "a create without an id gets one (got \"\(made.id)\")")
    report.expect(try await store.find("tags", made.id)?.value("name"), "x", "the made id reads")
    try await store.seed([Make.person("1", "Ann")])
    let given = Make.article("7", title: "Hello", rank: 4, score: 0.5, author: "1", tags: [made.id])
    let created = try await store.write { try await $0.create(given) }
    for (what, record) in [
      ("as created", created), ("as read", try await store.find("articles", "7")),
    ] {
      report.expect(record?.id, "7", "article \(what): id")
      for name in ["title", "rank", "score"] {
        report.expect(record?.value(name), given.value(name), "article \(what): \(name)")
      }
      report.expect(record?.linked("author"), ["1"], "article \(what): author")
      report.expect(record?.linked("tags"), [made.id], "article \(what): tags")
    }
    do {
      try await store.seed([Make.article("7", title: "again")])
      report.expect(false, "a second create of articles/7 succeeded")
    } catch let error as JSONAPIStoreError {
      report.expect(
        error, .alreadyExists(type: "articles", id: "7"), "a second create of articles/7")
    }
    report.expect(
      try await store.find("articles", "7")?.value("title"), "Hello",
      "articles/7 after the refused create")
    let found = try await store.read { try await $0.resources("articles", ids: ["7", "7", "99"]) }
    report.expect(found.map(\.id), ["7"], "resources(ids: 7, 7, 99)")
  }

  static let updateAndDelete: Body = { store, report in
    try await store.seed(
      [Make.person("1", "Ann"), Make.tagRecord("1")]
        + [Make.article("1", title: "a", rank: 1, author: "1", tags: ["1"])])
    let rankOnly = JSONAPIResourceRecord(type: "articles", id: "1", attributes: ["rank": 2])
    let updated = try await store.write { try await $0.update(rankOnly) }
    for (what, record) in [
      ("as updated", updated), ("as read", try await store.find("articles", "1")),
    ] {
      report.expect(record?.value("rank"), 2, "rank \(what) after an update of rank")
      report.expect(record?.value("title"), "a", "title \(what) after an update of rank only")
      report.expect(record?.linked("author"), ["1"], "author \(what) after an update of rank only")
      report.expect(record?.linked("tags"), ["1"], "tags \(what) after an update of rank only")
    }
    let cleared = try await store.write {
      try await $0.update(
        JSONAPIResourceRecord(
          type: "articles", id: "1", attributes: ["title": .null],
          relationships: ["author": .toOne(nil)]))
    }
    report.expect(cleared?.value("title"), .null, "title after an update to null")
    report.expect(cleared?.linked("author"), [], "author after an update to empty")
    let missing = try await store.write {
      try await $0.update(
        JSONAPIResourceRecord(type: "articles", id: "99", attributes: ["rank": 1]))
    }
    report.expect(missing == nil, "an update of a missing resource returns nil")
    report.expect(
      try await store.write { try await $0.delete("articles", id: "1") }, true, "delete")
    report.expect(try await store.find("articles", "1") == nil, "a deleted resource reads nil")
    report.expect(
      try await store.write { try await $0.delete("articles", id: "1") }, false, "delete again")
    report.expect(try await store.find("people", "1")?.id, "1", "the author after the delete")
  }

  static let inverses: Body = { store, report in
    try await seedArticles(store)
    // What a served inverse (people.articles) reads: one page over every owner at once.
    let byAuthor = [filter("author", .equals, ["1", "2", "9"], relationship: true)]
    report.expect(
      try await store.ids("articles", byAuthor), ["1", "2", "3", "5"],
      "articles whose author is 1, 2 or 9")
    let page = try await store.page(
      JSONAPIStoreQuery(
        type: "articles", filters: byAuthor, window: .offset(0, limit: Int.max), countsTotal: false
      ))
    let authors = page.resources.map { $0.linked("author") }
    report.expect(authors, [["1"], ["2"], ["1"], ["2"]], "their authors (limit Int.max)")
    report.expect(try await store.write { try await $0.delete("people", id: "1") }, true, "delete")
    report.expect(
      try await store.ids("articles", [filter("author", .equals, [.null], relationship: true)]),
      ["1", "3", "4"], "articles without author after deleting person 1")
    report.expect(
      try await store.find("articles", "1")?.linked("author"), [],
      "the author of article 1 after deleting person 1")
  }

  static let transactionRollback: Body = { store, report in
    try await store.seed(
      [Make.tagRecord("1"), Make.tagRecord("2"), Make.article("1", title: "a", tags: ["1"])])
    do {
      try await store.write { writer in
        _ = try await writer.create(Make.article("2", title: "new"))
        _ = try await writer.update(
          JSONAPIResourceRecord(type: "articles", id: "1", attributes: ["title": "changed"]))
        _ = try await writer.add([Make.tag("2")], to: "tags", of: "articles", id: "1")
        _ = try await writer.delete("tags", id: "1")
        // The transaction reads its own writes before it throws.
        let seen = try await writer.resources("articles", ids: ["1", "2"])
        if seen.count != 2 { throw TransactionDidNotSeeItsWrites() }
        throw Rollback()
      }
      report.expect(false, "write(_:) returned though its body threw")
    } catch is Rollback {
    } catch is TransactionDidNotSeeItsWrites {
      report.expect(false, "a transaction's reads did not see its own creates")
    }
    report.expect(try await store.find("articles", "2") == nil, "the rolled-back create")
    let first = try await store.find("articles", "1")
    report.expect(first?.value("title"), "a", "the rolled-back update")
    report.expect(first?.linked("tags"), ["1"], "the rolled-back add and delete of a member")
    report.expect(try await store.find("tags", "1")?.id, "1", "the rolled-back delete")
    // The store is still usable after a rollback.
    try await store.seed([Make.article("3", title: "after")])
    report.expect(try await store.find("articles", "3")?.value("title"), "after", "a later write")
  }

  static let writeGate: Body = { store, report in
    try await store.seed([Make.article("1", title: "counter", rank: 0)])
    let writers = 8
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<writers {
        group.addTask {
          try await store.write { writer in
            // Touch the resource first (a database store locks it), then read and increment.
            _ = try await writer.update(JSONAPIResourceRecord(type: "articles", id: "1"))
            let rank = try await writer.resources("articles", ids: ["1"]).first?.value("rank")
            guard case .integer(let current)? = rank else { throw Rollback() }
            let (next, overflow) = current.addingReportingOverflow(1)
            if overflow { throw Rollback() }
            _ = try await writer.update(
              JSONAPIResourceRecord(type: "articles", id: "1", attributes: ["rank": .integer(next)])
            )
          }
        }
      }
      try await group.waitForAll()
    }
    report.expect(
      try await store.find("articles", "1")?.value("rank"), .integer(writers),
      "\(writers) concurrent read-and-increment writes (none lost)")
  }

  static let nulCharacter: Body = { store, report in
    try await store.seed([Make.article("2", title: "nul")])
    let text = "nul\u{0}tail"
    var stored = true
    do {
      try await store.seed([Make.article("1", title: .string(text))])
    } catch let error as JSONAPIStoreError {
      stored = false
      if case .unstorableValue(let member, _) = error {
        report.expect(member, "title", "the member a refused U+0000 names")
      } else {
        report.expect(false, "text with U+0000 refused with \(error), not unstorableValue")
      }
    }
    let read = try await store.find("articles", "1")
    if stored {
      report.expect(
        read?.value("title").stringValue.map { Array($0.utf8) }, Array(text.utf8),
        "text with U+0000 read back (every byte)")
    } else {
      report.expect(read == nil, "nothing stored when text with U+0000 is refused")
    }
    let matched = stored ? ["1"] : []
    report.expect(
      try await store.ids("articles", [filter("title", .equals, ["nul"])]), ["2"],
      "title equals \"nul\" (not the text that goes on after U+0000)")
    report.expect(
      try await store.ids("articles", [filter("title", .equals, [.string(text)])]), matched,
      "title equals the text with U+0000")
    report.expect(
      try await store.ids("articles", [filter("title", .equals, ["nul\u{0}"])]), [],
      "title equals \"nul\\0\"")
    report.expect(
      try await store.ids("articles", [filter("title", .contains, ["l\u{0}t"])]), matched,
      "title contains \"l\\0t\"")
    report.expect(
      try await store.ids("articles", [filter("title", .lessThan, ["nul\u{0}"])]), ["2"],
      "title less than \"nul\\0\" (\"nul\" is a prefix)")
    report.expect(
      try await store.ids("articles", [filter("title", .greaterThan, ["nul\u{0}"])]), matched,
      "title greater than \"nul\\0\"")
  }

  static let toManyLinkage: Body = { store, report in
    try await store.seed(
      ["1", "2", "3", "4"].map(Make.tagRecord) + [
        Make.article("1", tags: ["3", "1", "2"]), Make.article("2", tags: ["1", "2"]),
      ])
    func linkage() async throws -> [String: [String]] {
      let records = try await store.read { try await $0.resources("articles", ids: ["1", "2"]) }
      return Dictionary(records.map { ($0.id, $0.linked("tags")) }, uniquingKeysWith: { a, _ in a })
    }
    report.expect(
      try await linkage(), ["1": ["3", "1", "2"], "2": ["1", "2"]],
      "linkage as created (order kept)")
    let added = try await store.write {
      try await $0.add([Make.tag("2"), Make.tag("4")], to: "tags", of: "articles", id: "1")
    }
    report.expect(added, true, "add to articles/1")
    report.expect(try await linkage()["1"], ["3", "1", "2", "4"], "after adding 2 and 4")
    let removed = try await store.write {
      try await $0.remove([Make.tag("1"), Make.tag("9")], from: "tags", of: "articles", id: "1")
    }
    report.expect(removed, true, "remove from articles/1")
    report.expect(try await linkage()["1"], ["3", "2", "4"], "after removing 1 and 9")
    report.expect(
      try await store.write {
        try await $0.add([Make.tag("1")], to: "tags", of: "articles", id: "99")
      }, false, "add to a missing article")
    _ = try await store.write {
      try await $0.update(
        JSONAPIResourceRecord(
          type: "articles", id: "1",
          relationships: ["tags": .toMany([Make.tag("4"), Make.tag("3")])]))
    }
    report.expect(try await linkage()["1"], ["4", "3"], "after replacing with 4, 3")
    _ = try await store.write { try await $0.delete("tags", id: "4") }
    report.expect(try await linkage(), ["1": ["3"], "2": ["1", "2"]], "after deleting tag 4")
  }
}

extension JSONAPIStoreConformance {
  static let boundedLinkage: Body = { store, report in
    let shown: Set<String> = ["2", "4", "5", "6"]
    try await store.seed(
      (1...6).map { id in
        JSONAPIResourceRecord(
          type: "tags", id: "\(id)",
          attributes: ["name": .string(shown.contains("\(id)") ? "shown" : "hidden")])
      } + [
        Make.article("1", tags: ["3", "1", "2", "6", "4", "5"]), Make.article("2", tags: ["5", "4"]),
        Make.article("3", tags: []),
      ])
    func linkage(_ bound: JSONAPIStoreLinkageBound) async throws -> [String: [String]] {
      let records = try await store.read {
        try await $0.resources("articles", ids: ["1", "2", "3"], linkage: bound)
      }
      return Dictionary(records.map { ($0.id, $0.linked("tags")) }, uniquingKeysWith: { a, _ in a })
    }
    func paged(_ bound: JSONAPIStoreLinkageBound) async throws -> [String: [String]] {
      var query = JSONAPIStoreQuery(type: "articles", window: .offset(0, limit: 10))
      query.linkage = bound
      let bounded = query
      let page = try await store.read { try await $0.page(bounded) }
      return Dictionary(
        page.resources.map { ($0.id, $0.linked("tags")) }, uniquingKeysWith: { a, _ in a })
    }
    let two = JSONAPIStoreLinkageBound(limit: 2)
    let firstTwo = ["1": ["3", "1"], "2": ["5", "4"], "3": []]
    report.expect(try await linkage(two), firstTwo, "by id, the first 2 of each in order")
    report.expect(try await paged(two), firstTwo, "a page, the first 2 of each in order")
    report.expect(
      try await linkage(JSONAPIStoreLinkageBound(limit: 0)), ["1": [], "2": [], "3": []],
      "a bound of 0")
    report.expect(
      try await linkage(JSONAPIStoreLinkageBound(limit: 10)),
      ["1": ["3", "1", "2", "6", "4", "5"], "2": ["5", "4"], "3": []], "a bound above every count")
    // Unbounded reads are whole, as before.
    let whole = try await store.read { try await $0.resources("articles", ids: ["1"]) }
    report.expect(whole.first?.linked("tags") ?? [], ["3", "1", "2", "6", "4", "5"], "unbounded")
    guard store.appliesRowConditions else { return }
    // Hidden members take no place: the first 3 visible ones, past the hidden 3 and 1.
    let visible = JSONAPIStoreLinkageBound(
      limit: 3, visibility: ["tags": .filter(filter("name", .equals, ["shown"]))])
    let firstVisible = ["1": ["2", "6", "4"], "2": ["5", "4"], "3": []]
    report.expect(try await linkage(visible), firstVisible, "by id, the first 3 visible")
    report.expect(try await paged(visible), firstVisible, "a page, the first 3 visible")
    let none = JSONAPIStoreLinkageBound(limit: 3, visibility: ["tags": .never])
    report.expect(try await linkage(none), ["1": [], "2": [], "3": []], "no tag visible")
  }
}

/// A transaction whose reads missed its own writes.
struct TransactionDidNotSeeItsWrites: Error {}
