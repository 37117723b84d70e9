import Foundation
import JSONAPIServer

// The visibility property: random data over the suite's schemas, random condition trees of
// bounded depth with random filters, sorts, windows and scopes; each page compared with what an
// oracle computes from the records themselves (not by asking another store).
extension JSONAPIStoreConformance {
  /// The data sets one run reads, and the pages read over each.
  static let propertyDataSets = 6
  static let propertyPagesPerDataSet = 60

  /// The generator of a property run, seeded by `STORE_CONFORMANCE_SEED` when set (to replay a
  /// failure) or else anew, and the words that name its seed in every failure.
  static func seeded() -> (SplitMix64, String) {
    let seed =
      ProcessInfo.processInfo.environment["STORE_CONFORMANCE_SEED"].flatMap { UInt64($0) }
      ?? UInt64.random(in: 0...UInt64.max)
    return (SplitMix64(seed: seed), "seed \(seed) (replay: STORE_CONFORMANCE_SEED=\(seed))")
  }

  static let visibilityProperty: Body = { store, report in
    guard store.appliesRowConditions else { return }
    var (random, replay) = seeded()
    for dataSet in 0..<propertyDataSets {
      let records = PropertyData.make(&random, offset: dataSet * 100)
      try await store.seed(records)
      let oracle = Oracle(records: records, schemas: schemas)
      for _ in 0..<propertyPagesPerDataSet {
        let query = PropertyData.query(&random, oracle: oracle)
        let expected = oracle.page(query)
        let actual = try await store.page(query)
        let what = "\(replay): \(PropertyData.describe(query))"
        report.expect(actual.resources.map(\.id), expected.resources.map(\.id), "\(what): ids")
        report.expect(actual.hasMore, expected.hasMore, "\(what): hasMore")
        if query.countsTotal { report.expect(actual.total, expected.total, "\(what): total") }
        if report.differences.count >= 10 { return }
      }
      // The next data set starts from an empty store.
      try await store.write { writer in
        for record in records { _ = try await writer.delete(record.type, id: record.id) }
      }
    }
  }
}

/// SplitMix64: a small seeded generator, so that a failure is replayed by its seed.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The random data and queries of the visibility property.
enum PropertyData {
  static let titles: [JSONAPIValue] = [
    "alpha", "Beta", "ALPHA", "b", "", "\u{E9}", "e\u{301}", "10", "9", "a%_b", .null,
  ]
  static let names: [JSONAPIValue] = ["Ann", "ann", "Bob", "Zed", "", "\u{E9}", .null]
  static let needles: [JSONAPIValue] = [
    "a", "A", "ph", "", "%", "_", "\u{0}", "al\u{0}", "\u{E9}", "e", "B", 3,
  ]
  static let idValues: [JSONAPIValue] = [
    "1", "2", "3", "5", "10", "abc", "007", "-1", "", "2\u{0}", .integer(4), .null,
  ]

  /// 3–6 people, 3–6 tags, 5–12 articles, ids from `offset + 1`.
  static func make(_ random: inout SplitMix64, offset: Int) -> [JSONAPIResourceRecord] {
    func ids(_ count: Int) -> [String] { (1...count).map { String(offset + $0) } }
    let people = ids(Int.random(in: 3...6, using: &random))
    let tags = ids(Int.random(in: 3...6, using: &random))
    let articles = ids(Int.random(in: 5...12, using: &random))
    func some(_ pool: [String], _ random: inout SplitMix64) -> [String] {
      pool.shuffled(using: &random).filter { _ in Int.random(in: 0..<3, using: &random) == 0 }
    }
    func one(_ pool: [String], _ random: inout SplitMix64) -> String? {
      Bool.random(using: &random) ? pool.randomElement(using: &random) : nil
    }
    var records: [JSONAPIResourceRecord] = []
    for id in people {
      records.append(
        Seed.person(
          id, names.randomElement(using: &random) ?? .null, friends: some(people, &random)))
    }
    for id in tags {
      records.append(
        Seed.tag(id, names.randomElement(using: &random) ?? .null, parent: one(tags, &random)))
    }
    for id in articles {
      let rank: JSONAPIValue =
        Int.random(in: 0..<4, using: &random) == 0
        ? .null : .integer(Int.random(in: -1...3, using: &random))
      records.append(
        Seed.article(
          id, titles.randomElement(using: &random) ?? .null, rank: rank,
          author: one(people, &random), tags: some(tags, &random)))
    }
    return records
  }

  /// A random query of a random type.
  static func query(_ random: inout SplitMix64, oracle: Oracle) -> JSONAPIStoreQuery {
    let type = ["articles", "people", "tags"].randomElement(using: &random) ?? "articles"
    var filters: [JSONAPIFilterCondition] = []
    for _ in 0..<Int.random(in: 0...1, using: &random) {
      filters.append(filter(for: type, &random))
    }
    let sorts: [[JSONAPIQuery.SortField]] =
      switch type {
      case "articles":
        [
          [.ascending("id")], [.descending("id")], [.ascending("title"), .ascending("id")],
          [.descending("rank"), .ascending("title"), .ascending("id")],
          [.ascending("rank"), .descending("id")],
        ]
      default: [[.ascending("id")], [.descending("name"), .ascending("id")]]
      }
    let sort = sorts.randomElement(using: &random) ?? [.ascending("id")]
    let count = oracle.rows(type).count
    let limit = Int.random(in: 1...max(count, 1) + 1, using: &random)
    let window: JSONAPIStoreQuery.Window
    if Bool.random(using: &random) {
      window = .offset(Int.random(in: 0...count + 1, using: &random), limit: limit)
    } else {
      // Cursors from any row, visible or not.
      func bound(_ random: inout SplitMix64) -> [JSONAPIValue]? {
        guard Bool.random(using: &random), let row = oracle.rows(type).randomElement(using: &random)
        else { return nil }
        return Oracle.keys(row, sort)
      }
      window = .keyset(after: bound(&random), before: bound(&random), limit: limit)
    }
    var query = JSONAPIStoreQuery(
      type: type, filters: filters, sort: sort, window: window,
      countsTotal: Bool.random(using: &random))
    if Int.random(in: 0..<4, using: &random) == 0 {
      switch type {
      case "tags":
        if let owner = oracle.rows("articles").randomElement(using: &random) {
          query.scope = .init(owner: owner.identifier, relationship: "tags")
        }
      case "people":
        if let owner = oracle.rows("people").randomElement(using: &random) {
          query.scope = .init(owner: owner.identifier, relationship: "friends")
        }
      default: break
      }
    }
    query.visibility = condition(for: type, depth: 0, &random)
    return query
  }

  /// A random condition tree over `type`, at most four levels below `depth`.
  static func condition(for type: String, depth: Int, _ random: inout SplitMix64)
    -> JSONAPIRowCondition
  {
    let leaf = depth >= 4 || Int.random(in: 0..<3, using: &random) == 0
    if leaf {
      switch Int.random(in: 0..<10, using: &random) {
      case 0: return .always
      case 1: return .never
      case 2: return .visible
      default: return .filter(filter(for: type, &random))
      }
    }
    func parts(_ random: inout SplitMix64) -> [JSONAPIRowCondition] {
      (0..<Int.random(in: 0...3, using: &random)).map { _ in
        condition(for: type, depth: depth + 1, &random)
      }
    }
    let moves: [(String, JSONAPIRowCondition.Move)] =
      switch type {
      case "articles": [("people", .related("author")), ("tags", .related("tags"))]
      case "people":
        [
          ("people", .related("friends")), ("articles", .namedBy("articles", "author")),
          ("people", .namedBy("people", "friends")),
        ]
      default:
        [
          ("tags", .related("parent")), ("articles", .namedBy("articles", "tags")),
          ("tags", .namedBy("tags", "parent")),
        ]
      }
    switch Int.random(in: 0..<4, using: &random) {
    case 0: return .all(parts(&random))
    case 1: return .any(parts(&random))
    default:
      guard let (target, move) = moves.randomElement(using: &random) else { return .never }
      let inner = condition(for: target, depth: depth + 1, &random)
      switch move {
      case .related(let name): return .related(name, inner)
      case .namedBy(let other, let name): return .namedBy(type: other, relationship: name, inner)
      }
    }
  }

  /// A random filter on a member of `type` (attribute, id, or stored relationship).
  static func filter(for type: String, _ random: inout SplitMix64) -> JSONAPIFilterCondition {
    let members: [(String, Bool)] =
      switch type {
      case "articles":
        [("title", false), ("rank", false), ("id", false), ("author", true), ("tags", true)]
      case "people": [("name", false), ("id", false), ("friends", true)]
      default: [("name", false), ("id", false), ("parent", true)]
      }
    let (member, isRelationship) = members.randomElement(using: &random) ?? ("id", false)
    let comparison: JSONAPIFilterCondition.Comparison =
      [.equals, .equals, .contains, .lessThan, .greaterThan].randomElement(using: &random)
      ?? .equals
    let pool: [JSONAPIValue]
    if comparison == .contains {
      pool = needles
    } else if member == "id" || isRelationship {
      pool = idValues
    } else if member == "rank" {
      pool = [-1, 0, 1, 2, 3, "2", .null, 2.5]
    } else {
      pool = (member == "title" ? titles : names) + ["al\u{0}pha", 1, "B", "a"]
    }
    let count = comparison == .equals ? Int.random(in: 1...3, using: &random) : 1
    let values = (0..<count).compactMap { _ in pool.randomElement(using: &random) }
    return JSONAPIFilterCondition(
      member: member, isRelationship: isRelationship, comparison: comparison, values: values)
  }

  /// A query as a failure shows it.
  static func describe(_ query: JSONAPIStoreQuery) -> String {
    "\(query.type) visibility \(query.visibility.map { "\($0)" } ?? "nil") filters "
      + "\(query.filters) sort \(query.sort.map { ($0.isDescending ? "-" : "") + $0.field }) "
      + "window \(query.window) scope \(query.scope.map { "\($0)" } ?? "nil")"
  }
}

extension JSONAPIRowCondition {
  /// A step from a row to related rows, as the generator picks one.
  enum Move {
    case related(String)
    case namedBy(String, String)
  }
}
