import JSONAPIPostgresStore
import JSONAPISQLiteStore
import JSONAPIServer
import PostgresNIO

struct Person: Codable, Sendable, JSONAPIResource {
  static let jsonAPIType = "people"
  var id: String?
  var name: String
}

struct Article: Codable, Sendable, JSONAPIResource {
  static let jsonAPIType = "articles"
  var id: String?
  var title: String
  var body: String?
  var author: Person?
  var comments: [Comment]?
}

struct Comment: Codable, Sendable, JSONAPIResource {
  static let jsonAPIType = "comments"
  var id: String?
  var body: String
  var author: Person?
  var article: Article?
}

/// The blog's declarations: what each collection filters, sorts and pages by, and the rules a
/// resource must meet to be stored.
enum Blog {
  /// The server on the SQLite database at `path`, created and seeded when it has no tables yet.
  static func server(path: String, baseURL: String) throws -> JSONAPIServer {
    try prepareDatabase(at: path)
    let resources = try declarations()
    let store = try JSONAPISQLiteStore(path: path, schemas: resources.map(\.schema))
    return try server(resources: resources, store: store, baseURL: baseURL)
  }

  /// The server on the PostgreSQL database `client` connects to, its tables created and seeded
  /// when it has none (once, however many instances start at once).
  static func server(postgres client: PostgresClient, baseURL: String) async throws
    -> JSONAPIServer
  {
    try await preparePostgres(client)
    let resources = try declarations()
    let store = try JSONAPIPostgresStore(client: client, schemas: resources.map(\.schema))
    try await store.prepare()
    return try server(resources: resources, store: store, baseURL: baseURL)
  }

  /// Include paths are at most two relationships long (`comments.author`, `article.author`);
  /// bodies of at most 1 MiB, at most 100 Atomic Operations per request.
  private static func server(
    resources: [JSONAPIResourceDeclaration], store: any JSONAPIStore, baseURL: String
  ) throws -> JSONAPIServer {
    try JSONAPIServer(
      resources: resources, store: BlogStore(store: store), baseURL: baseURL,
      options: JSONAPIServer.Options(maxIncludeDepth: 2, maxBodyBytes: 1 << 20, maxOperations: 100)
    )
  }

  /// Articles by cursor (the Cursor Pagination profile, ranges allowed), people and comments by
  /// page number; pages of 10 unless `page[size]` says otherwise, at most 50. Sorted by `id`
  /// unless `sort` names another field.
  static func declarations() throws -> [JSONAPIResourceDeclaration] {
    let pageNumbers = JSONAPIPaging.pageNumber(defaultSize: 10, maxSize: 50)
    return [
      try JSONAPIResourceDeclaration(
        Person.self, filters: ["name": .contains("name")], sortable: ["name"],
        paging: pageNumbers,
        hooks: JSONAPIResourceHooks(willSave: { person, _ in
          try check("name", person, maxLength: 100)
        })),
      try JSONAPIResourceDeclaration(
        Article.self, filters: ["author": .ids("author"), "title": .contains("title")],
        sortable: ["title"],
        paging: .cursor(defaultSize: 10, maxSize: 50, allowsRangePagination: true),
        inverses: ["comments": "article"],
        hooks: JSONAPIResourceHooks(willSave: { article, _ in
          try check("title", article, maxLength: 200)
          try check("body", article, maxLength: 20_000, blankAllowed: true)
        })),
      try JSONAPIResourceDeclaration(
        Comment.self, filters: ["author": .ids("author"), "article": .ids("article")],
        paging: pageNumbers,
        hooks: JSONAPIResourceHooks(willSave: { comment, _ in
          try check("body", comment, maxLength: 2_000)
        })),
    ]
  }

  /// 422 pointing at the attribute for a blank text (unless allowed) or one longer than
  /// `maxLength` characters; a missing or null attribute is left to the model.
  static func check(
    _ attribute: String, _ record: JSONAPIResourceRecord, maxLength: Int,
    blankAllowed: Bool = false
  ) throws {
    guard let text = record.attributes[attribute]?.stringValue else { return }
    let problem: (code: String, detail: String)
    if !blankAllowed, text.allSatisfy(\.isWhitespace) {
      problem = ("blank", "The \(attribute) must not be blank.")
    } else if text.count > maxLength {
      problem = ("too-long", "The \(attribute) must have at most \(maxLength) characters.")
    } else {
      return
    }
    throw JSONAPIErrorObject(
      status: "422", code: problem.code, title: "Invalid Attribute", detail: problem.detail,
      source: .init(pointer: "/data/attributes/\(attribute)"))
  }
}
