import Foundation
import GRDB
import JSONAPICodable

/// The local ids (`lid`) of the resources created so far in one Atomic Operations request.
struct LocalIDs {
  private var ids: [String: Int64] = [:]

  mutating func record(_ type: ResourceType, lid: String, id: Int64) {
    ids[type.rawValue + "/" + lid] = id
  }

  func id(_ type: ResourceType, lid: String) -> Int64? { ids[type.rawValue + "/" + lid] }
}

/// Every change to the database. Each function runs inside the caller's write transaction
/// (one per HTTP request, one for a whole Atomic Operations request), and throws to roll it back:
/// the errors are JSON:API ones, with pointers into a request document (`/data/...`).
enum Writes {
  // MARK: Resources

  /// Creates a resource of `type` from the document in `payload` and returns its id.
  static func create(
    _ type: ResourceType, from payload: some RequestPayload, lids: LocalIDs, _ db: Database
  ) throws -> Int64 {
    switch type {
    case .people:
      let new = try payload.decode(NewPerson.self)
      try check("name", new.name, maxLength: 100)
      try db.execute(sql: "INSERT INTO people (name) VALUES (?)", arguments: [new.name])
      return db.lastInsertedRowID
    case .articles:
      let new = try payload.decode(NewArticle.self)
      try check("title", new.title, maxLength: 200)
      try check("body", new.body, maxLength: 20_000, blankAllowed: true)
      let author = try new.author.map { try resolve($0, as: .people, "author", lids, db) }
      try db.execute(
        sql: "INSERT INTO articles (title, body, author_id) VALUES (?, ?, ?)",
        arguments: [new.title, new.body, author])
      let id = db.lastInsertedRowID
      if let comments = new.comments {
        try replace(comments, in: .articleComments, of: id, lids, db)
      }
      return id
    case .comments:
      let new = try payload.decode(NewComment.self)
      try check("body", new.body, maxLength: 2_000)
      let author = try new.author.map { try resolve($0, as: .people, "author", lids, db) }
      let article = try new.article.map { try resolve($0, as: .articles, "article", lids, db) }
      try db.execute(
        sql: "INSERT INTO comments (body, author_id, article_id) VALUES (?, ?, ?)",
        arguments: [new.body, author, article])
      return db.lastInsertedRowID
    }
  }

  /// Applies the members present in the document in `payload` to `type`/`id` (R80: absent ones
  /// stay as they are).
  static func update(
    _ type: ResourceType, _ id: Int64, from payload: some RequestPayload, lids: LocalIDs,
    _ db: Database
  ) throws {
    try requireResource(type, id, db)
    switch type {
    case .people:
      let changes = try payload.decode(PersonChanges.self)
      if let name = changes.name {
        try check("name", name, maxLength: 100)
        try set(.people, id, "name", to: name, db)
      }
    case .articles:
      let changes = try payload.decode(ArticleChanges.self)
      if let title = changes.title {
        try check("title", title, maxLength: 200)
        try set(.articles, id, "title", to: title, db)
      }
      if let body = changes.body {
        try check("body", body, maxLength: 20_000, blankAllowed: true)
        try set(.articles, id, "body", to: body, db)
      }
      if let author = changes.author {
        let person = try author.map { try resolve($0, as: .people, "author", lids, db) }
        try set(.articles, id, "author_id", to: person, db)
      }
      if let comments = changes.comments {
        try replace(comments, in: .articleComments, of: id, lids, db)
      }
    case .comments:
      let changes = try payload.decode(CommentChanges.self)
      if let body = changes.body {
        try check("body", body, maxLength: 2_000)
        try set(.comments, id, "body", to: body, db)
      }
      if let author = changes.author {
        let person = try author.map { try resolve($0, as: .people, "author", lids, db) }
        try set(.comments, id, "author_id", to: person, db)
      }
      if let article = changes.article {
        let owner = try article.map { try resolve($0, as: .articles, "article", lids, db) }
        try set(.comments, id, "article_id", to: owner, db)
      }
    }
  }

  /// Deletes `type`/`id`. The schema clears what pointed at it (an article's comments go with
  /// it; a person's articles and comments lose their author).
  static func delete(_ type: ResourceType, _ id: Int64, _ db: Database) throws {
    try db.execute(sql: "DELETE FROM \(type.table) WHERE id = ?", arguments: [id])
    if db.changesCount == 0 {
      throw JSONAPIRequestError.resourceNotFound(type: type.rawValue, id: String(id))
    }
  }

  // MARK: Relationships

  /// Sets a to-one relationship to `target` (`nil` clears it), R83.
  static func setToOne(
    _ relationship: Relationship, of type: ResourceType, _ id: Int64,
    to target: JSONAPIResourceIdentifier?, lids: LocalIDs, _ db: Database
  ) throws {
    guard case .column(let column) = relationship.storage else { return }
    try requireResource(type, id, db)
    let related = try target.map {
      try resolve($0, as: relationship.target, pointer: "/data", lids, db)
    }
    try set(type, id, column, to: related, db)
  }

  /// Makes `identifiers` the members of a to-many relationship (R81, R84).
  static func replace(
    _ identifiers: [JSONAPIResourceIdentifier], in relationship: Relationship, of id: Int64,
    _ lids: LocalIDs, _ db: Database, pointer: String? = nil
  ) throws {
    guard case .inverse(let column) = relationship.storage else { return }
    let pointer = pointer ?? "/data/relationships/\(relationship.name)/data"
    let members = try identifiers.enumerated().map { index, identifier in
      try resolve(identifier, as: relationship.target, pointer: "\(pointer)/\(index)", lids, db)
    }
    try db.execute(
      sql: "UPDATE \(relationship.target.table) SET \(column) = NULL WHERE \(column) = ?",
      arguments: [id])
    for member in members { try set(relationship.target, member, column, to: id, db) }
  }

  /// Adds members to a to-many relationship; members already there stay (R84).
  static func add(
    _ identifiers: [JSONAPIResourceIdentifier], to relationship: Relationship, of id: Int64,
    _ lids: LocalIDs, _ db: Database
  ) throws {
    guard case .inverse(let column) = relationship.storage else { return }
    for (index, identifier) in identifiers.enumerated() {
      let member = try resolve(
        identifier, as: relationship.target, pointer: "/data/\(index)", lids, db)
      try set(relationship.target, member, column, to: id, db)
    }
  }

  /// Removes members from a to-many relationship; identifiers that are not members are no error
  /// (R84).
  static func remove(
    _ identifiers: [JSONAPIResourceIdentifier], from relationship: Relationship, of id: Int64,
    _ lids: LocalIDs, _ db: Database
  ) throws {
    guard case .inverse(let column) = relationship.storage else { return }
    for (index, identifier) in identifiers.enumerated() {
      let member = try resolve(
        identifier, as: relationship.target, pointer: "/data/\(index)", lids, db)
      try db.execute(
        sql:
          "UPDATE \(relationship.target.table) SET \(column) = NULL WHERE id = ? AND \(column) = ?",
        arguments: [member, id])
    }
  }

  // MARK: Checks

  /// 404 unless `type`/`id` exists.
  static func requireResource(_ type: ResourceType, _ id: Int64, _ db: Database) throws {
    let found = try Bool.fetchOne(
      db, sql: "SELECT EXISTS (SELECT 1 FROM \(type.table) WHERE id = ?)", arguments: [id])
    if found != true {
      throw JSONAPIRequestError.resourceNotFound(type: type.rawValue, id: String(id))
    }
  }

  /// The row id of the resource an identifier in a request names: by `id`, or by the `lid` an
  /// earlier operation gave it. 409 for another type, 404 when there is no such resource.
  static func resolve(
    _ identifier: JSONAPIResourceIdentifier, as type: ResourceType, pointer: String,
    _ lids: LocalIDs, _ db: Database
  ) throws -> Int64 {
    guard identifier.type == type.rawValue else {
      throw JSONAPIRequestError.typeMismatch(
        expected: type.rawValue, found: identifier.type, pointer: pointer + "/type")
    }
    if let lid = identifier.lid, identifier.id == nil {
      guard let id = lids.id(type, lid: lid) else {
        throw JSONAPIErrorObject(
          status: "404", code: "unknown-lid", title: "Not Found",
          detail:
            "No earlier operation of this request created a \(type.rawValue) with lid `\(lid)`.",
          source: .init(pointer: pointer + "/lid"))
      }
      return id
    }
    guard let text = identifier.id, let id = databaseID(text) else {
      throw JSONAPIRequestError.relatedResourceNotFound(
        type: type.rawValue, id: identifier.id ?? "", pointer: pointer)
    }
    do {
      try requireResource(type, id, db)
    } catch {
      throw JSONAPIRequestError.relatedResourceNotFound(
        type: type.rawValue, id: text, pointer: pointer)
    }
    return id
  }

  private static func resolve(
    _ identifier: JSONAPIResourceIdentifier, as type: ResourceType, _ name: String,
    _ lids: LocalIDs, _ db: Database
  ) throws -> Int64 {
    try resolve(identifier, as: type, pointer: "/data/relationships/\(name)/data", lids, db)
  }

  /// 422 for a blank text (unless allowed) or one longer than `maxLength` characters.
  private static func check(
    _ attribute: String, _ text: String?, maxLength: Int, blankAllowed: Bool = false
  ) throws {
    guard let text else { return }
    let problem: (code: String, detail: String)?
    if !blankAllowed, text.allSatisfy(\.isWhitespace) {
      problem = ("blank", "The \(attribute) must not be blank.")
    } else if text.count > maxLength {
      problem = ("too-long", "The \(attribute) must have at most \(maxLength) characters.")
    } else {
      problem = nil
    }
    if let problem {
      throw JSONAPIErrorObject(
        status: "422", code: problem.code, title: "Invalid Attribute", detail: problem.detail,
        source: .init(pointer: "/data/attributes/\(attribute)"))
    }
  }

  private static func set(
    _ type: ResourceType, _ id: Int64, _ column: String, to value: (any DatabaseValueConvertible)?,
    _ db: Database
  ) throws {
    try db.execute(
      sql: "UPDATE \(type.table) SET \(column) = ? WHERE id = ?", arguments: [value, id])
  }
}

/// The row id a URL or identifier names: a whole number of at most 18 digits (it fits in
/// `Int64`, never overflows, on every platform), or `nil`, which the callers answer with 404.
func databaseID(_ text: some StringProtocol) -> Int64? {
  guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ (48...57).contains($0) })
  else { return nil }
  return Int64(text)
}
