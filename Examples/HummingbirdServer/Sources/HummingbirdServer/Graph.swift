import GRDB
import JSONAPICodable

/// The relationship paths of an `include` parameter as a tree: `comments.author` and `author`
/// give a root with the children `comments` (itself with `author`) and `author`.
struct IncludeTree: Sendable {
  var children: [String: IncludeTree] = [:]

  init() {}

  init(paths: [String]) {
    for path in paths { insert(path.split(separator: ".")[...]) }
  }

  private mutating func insert(_ names: ArraySlice<Substring>) {
    guard let first = names.first else { return }
    children[String(first), default: IncludeTree()].insert(names.dropFirst())
  }
}

/// The rows one response is built from, read in one transaction: the primary rows, the rows on
/// the requested include paths, and the linkage of every to-many relationship of a whole
/// resource. Reading goes level by level (one query per relationship and level, never one per
/// resource), and building follows the include tree, so both are bounded by the query's include
/// paths, which the rules keep short.
struct Graph {
  let baseURL: String
  private var rows: [ResourceType: [Int64: Row]] = [:]
  /// For each to-many relationship ("articles.comments"): the related ids of each resource read.
  private var members: [String: [Int64: [Int64]]] = [:]

  init(baseURL: String) {
    self.baseURL = baseURL
  }

  // MARK: Reading

  /// Reads the rows of `type` with these ids (those that exist), then what `include` reaches
  /// from them.
  mutating func load(_ type: ResourceType, ids: [Int64], include: IncludeTree, _ db: Database)
    throws
  {
    let ids = Array(Set(ids))
    let missing = ids.filter { rows[type]?[$0] == nil }
    for row in try Self.fetch(type, ids: missing, db) { rows[type, default: [:]][row.id] = row }
    try expand(type, ids: ids.filter { rows[type]?[$0] != nil }, include: include, db)
  }

  /// Adds rows read elsewhere (a collection page), then what `include` reaches from them.
  mutating func add(_ type: ResourceType, rows found: [Row], include: IncludeTree, _ db: Database)
    throws
  {
    for row in found { rows[type, default: [:]][row.id] = row }
    try expand(type, ids: found.map(\.id), include: include, db)
  }

  private mutating func expand(
    _ type: ResourceType, ids: [Int64], include: IncludeTree, _ db: Database
  ) throws {
    // Every resource built whole writes the linkage of its to-many relationships.
    for relationship in type.relationships.values {
      guard case .inverse(let column) = relationship.storage else { continue }
      let key = type.rawValue + "." + relationship.name
      let unread = ids.filter { members[key]?[$0] == nil }
      guard !unread.isEmpty else { continue }
      for id in unread { members[key, default: [:]][id] = [] }
      for chunk in Self.chunks(of: unread) {
        let sql =
          "SELECT id, \(column) AS owner FROM \(relationship.target.table) WHERE \(column) IN "
          + Self.placeholders(chunk.count) + " ORDER BY id"
        for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(chunk)) {
          guard let owner = row.integer("owner") else { continue }
          members[key, default: [:]][owner, default: []].append(row.id)
        }
      }
    }
    for name in include.children.keys.sorted() {
      guard let relationship = type.relationships[name], let subtree = include.children[name]
      else { continue }
      var related: [Int64] = []
      for id in ids { related += relatedIDs(type, id, relationship) }
      try load(relationship.target, ids: related, include: subtree, db)
    }
  }

  private func relatedIDs(_ type: ResourceType, _ id: Int64, _ relationship: Relationship)
    -> [Int64]
  {
    switch relationship.storage {
    case .column(let column):
      return rows[type]?[id]?.integer(column).map { [$0] } ?? []
    case .inverse:
      return members[type.rawValue + "." + relationship.name]?[id] ?? []
    }
  }

  /// The rows of `type` with these ids, in chunks that stay far below SQLite's limit on bound
  /// parameters.
  static func fetch(_ type: ResourceType, ids: [Int64], _ db: Database) throws -> [Row] {
    var found: [Row] = []
    for chunk in chunks(of: Array(Set(ids))) {
      found += try Row.fetchAll(
        db, sql: "SELECT * FROM \(type.table) WHERE id IN " + placeholders(chunk.count),
        arguments: StatementArguments(chunk))
    }
    return found
  }

  private static func chunks(of ids: [Int64]) -> [ArraySlice<Int64>] {
    stride(from: 0, to: ids.count, by: 500).map { ids[$0..<min($0 + 500, ids.count)] }
  }

  /// `(?, ?, ?)` for `count` parameters.
  static func placeholders(_ count: Int) -> String {
    "(" + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
  }

  // MARK: Building

  /// Whether the row of `type`/`id` was read (it existed when read).
  func contains(_ type: ResourceType, _ id: Int64) -> Bool { rows[type]?[id] != nil }

  /// The resource `type`/`id`, whole with the related resources `include` names, as a value the
  /// encoder takes: a `PersonResource`, `ArticleResource` or `CommentResource`.
  func resource(_ type: ResourceType, _ id: Int64, include: IncludeTree) -> any Encodable & Sendable
  {
    switch type {
    case .people: return person(id, include)
    case .articles: return article(id, include)
    case .comments: return comment(id, include)
    }
  }

  /// The resources `type`/`ids`, in that order, as an array the encoder takes.
  func resources(_ type: ResourceType, _ ids: [Int64], include: IncludeTree)
    -> any Encodable & Sendable
  {
    switch type {
    case .people: return ids.map { person($0, include) }
    case .articles: return ids.map { article($0, include) }
    case .comments: return ids.map { comment($0, include) }
    }
  }

  /// `include` nil: linkage only.
  func person(_ id: Int64, _ include: IncludeTree?) -> PersonResource {
    var person = PersonResource(id: String(id))
    guard include != nil, let row = rows[.people]?[id] else { return person }
    person.fields = PersonResource.Fields(name: row.text("name"), links: selfLink(.people, id))
    return person
  }

  func article(_ id: Int64, _ include: IncludeTree?) -> ArticleResource {
    var article = ArticleResource(id: String(id))
    guard let include, let row = rows[.articles]?[id] else { return article }
    let authorID = row.integer("author_id")
    let commentIDs = members["articles.comments"]?[id] ?? []
    article.fields = ArticleResource.Fields(
      title: row.text("title"), body: row[optional: "body"],
      author: JSONAPIRelationship(
        data: authorID.map { person($0, include.children["author"]) },
        links: relationshipLinks(.articles, id, "author")),
      comments: JSONAPIRelationship(
        data: commentIDs.map { comment($0, include.children["comments"]) },
        links: relationshipLinks(.articles, id, "comments")),
      links: selfLink(.articles, id))
    return article
  }

  func comment(_ id: Int64, _ include: IncludeTree?) -> CommentResource {
    var comment = CommentResource(id: String(id))
    guard let include, let row = rows[.comments]?[id] else { return comment }
    let authorID = row.integer("author_id")
    let articleID = row.integer("article_id")
    comment.fields = CommentResource.Fields(
      body: row.text("body"),
      author: JSONAPIRelationship(
        data: authorID.map { person($0, include.children["author"]) },
        links: relationshipLinks(.comments, id, "author")),
      article: JSONAPIRelationship(
        data: articleID.map { article($0, include.children["article"]) },
        links: relationshipLinks(.comments, id, "article")),
      links: selfLink(.comments, id))
    return comment
  }

  func selfLink(_ type: ResourceType, _ id: Int64) -> JSONAPILinks {
    ["self": JSONAPILink(href: "\(baseURL)/\(type.rawValue)/\(id)")]
  }

  func relationshipLinks(_ type: ResourceType, _ id: Int64, _ name: String) -> JSONAPILinks {
    [
      "self": JSONAPILink(href: "\(baseURL)/\(type.rawValue)/\(id)/relationships/\(name)"),
      "related": JSONAPILink(href: "\(baseURL)/\(type.rawValue)/\(id)/\(name)"),
    ]
  }
}

extension Row {
  /// The row's `id`. Every table has an INTEGER PRIMARY KEY, so it is never NULL; 0 (no row has
  /// it) stands in rather than trapping if it ever were.
  var id: Int64 { integer("id") ?? 0 }

  /// An integer column, `nil` for NULL.
  func integer(_ column: String) -> Int64? { self[column] }

  /// A text column the schema declares NOT NULL; "" rather than a trap if it ever were NULL.
  func text(_ column: String) -> String { self[optional: column] ?? "" }

  /// A text column that may be NULL.
  subscript(optional column: String) -> String? { self[column] }
}
