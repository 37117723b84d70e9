import JSONAPICodable

/// The blog's resource types and what each endpoint accepts in its query. Table and column names
/// in SQL come from here, never from a request: requests only pick among them.
enum ResourceType: String, CaseIterable, Sendable {
  case people, articles, comments

  /// The SQLite table holding the type's rows.
  var table: String { rawValue }

  /// The type's relationships, by name.
  var relationships: [String: Relationship] {
    switch self {
    case .people: return [:]
    case .articles: return ["author": .articleAuthor, "comments": .articleComments]
    case .comments: return ["author": .commentAuthor, "article": .commentArticle]
    }
  }

  /// The relationship paths a request may `include` from resources of this type.
  var includePaths: Set<String> {
    switch self {
    case .people: return []
    case .articles: return ["author", "comments", "comments.author"]
    case .comments: return ["author", "article", "article.author"]
    }
  }

  /// `sort` fields and the columns they sort by.
  var sortColumns: [String: String] {
    switch self {
    case .people: return ["id": "id", "name": "name"]
    case .articles: return ["id": "id", "title": "title"]
    case .comments: return ["id": "id"]
    }
  }

  /// `filter[…]` members and what they compare.
  var filters: [String: Filter] {
    switch self {
    case .people: return ["name": .contains("name")]
    case .articles: return ["author": .ids("author_id"), "title": .contains("title")]
    case .comments: return ["author": .ids("author_id"), "article": .ids("article_id")]
    }
  }

  /// Every field of every type, for `fields[TYPE]` on any endpoint (an included resource may be
  /// of any type).
  static let fieldsets: [String: Set<String>] = [
    "people": ["name"],
    "articles": ["title", "body", "author", "comments"],
    "comments": ["body", "author", "article"],
  ]

  /// The query a collection of this type accepts: `include`, `fields`, `sort`, `filter`, and the
  /// `page` members of its paging.
  var collectionRules: JSONAPIQueryRules {
    paging.rules(
      JSONAPIQueryRules(
        includePaths: includePaths, sortFields: Set(sortColumns.keys),
        fieldsets: Self.fieldsets, filterMembers: Set(filters.keys)))
  }

  /// The query a single resource (or a write answered with one) accepts: `include` and `fields`
  /// only, nothing that selects among resources.
  var resourceRules: JSONAPIQueryRules {
    JSONAPIQueryRules(
      includePaths: includePaths, fieldsets: Self.fieldsets, pageMembers: [], filterMembers: [])
  }

  /// A relationship endpoint's query: nothing at all (its linkage has no fields to pick).
  static let emptyRules = JSONAPIQueryRules(pageMembers: [], filterMembers: [])
}

/// A relationship and where its linkage lives in the database.
struct Relationship: Sendable {
  enum Storage: Sendable {
    /// A to-one relationship: a column of this type's table holds the related id (or NULL).
    case column(String)
    /// A to-many relationship: a column of the target's table names this resource.
    case inverse(String)
  }

  var name: String
  var target: ResourceType
  var storage: Storage

  static let articleAuthor = Relationship(
    name: "author", target: .people, storage: .column("author_id"))
  static let articleComments = Relationship(
    name: "comments", target: .comments, storage: .inverse("article_id"))
  static let commentAuthor = Relationship(
    name: "author", target: .people, storage: .column("author_id"))
  static let commentArticle = Relationship(
    name: "article", target: .articles, storage: .column("article_id"))

  var isToMany: Bool {
    if case .inverse = storage { return true }
    return false
  }
}

/// What a `filter[…]` member compares.
enum Filter: Sendable {
  /// A comma-separated list of ids, matched against a column holding ids.
  case ids(String)
  /// Text that the column must contain (case-insensitive for ASCII, as SQLite's LIKE).
  case contains(String)
}
