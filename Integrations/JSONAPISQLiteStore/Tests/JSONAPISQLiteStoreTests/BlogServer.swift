import Foundation
import GRDB
import JSONAPIServer
import JSONAPISQLiteStore

/// The blog of Examples/HummingbirdServer: its models, its existing SQLite schema, and a
/// `JSONAPIServer` over a `JSONAPISQLiteStore` on that database.
enum BlogServer {
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

  static let mediaType = "application/vnd.api+json"
  static let atomic = #"application/vnd.api+json;ext="https://jsonapi.org/ext/atomic""#

  /// The HummingbirdServer example's tables, as its migration creates them.
  static let existingSchema = """
    CREATE TABLE people (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL);
    CREATE TABLE articles (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      title TEXT NOT NULL,
      body TEXT,
      author_id INTEGER REFERENCES people(id) ON DELETE SET NULL);
    CREATE INDEX articles_author ON articles(author_id);
    CREATE TABLE comments (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      body TEXT NOT NULL,
      author_id INTEGER REFERENCES people(id) ON DELETE SET NULL,
      article_id INTEGER REFERENCES articles(id) ON DELETE CASCADE);
    CREATE INDEX comments_article ON comments(article_id);
    CREATE INDEX comments_author ON comments(author_id);
    """

  /// A database at a new path made as the HummingbirdServer example makes it: its tables and 3
  /// people, 4 articles (article n by person (n - 1) % 3 + 1) and 2 comments on article 1.
  static func existingDatabase() throws -> String {
    let path = TestDatabases.path()
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      try db.execute(sql: existingSchema)
      for name in ["Ada Lovelace", "Grace Hopper", "Alan Turing"] {
        try db.execute(sql: "INSERT INTO people (name) VALUES (?)", arguments: [name])
      }
      for number in 1...4 {
        try db.execute(
          sql: "INSERT INTO articles (title, body, author_id) VALUES (?, ?, ?)",
          arguments: ["Article 0\(number)", "Body of article \(number).", (number - 1) % 3 + 1])
      }
      for comment in 1...2 {
        try db.execute(
          sql: "INSERT INTO comments (body, author_id, article_id) VALUES (?, ?, 1)",
          arguments: ["Comment \(comment)", comment + 1])
      }
    }
    return path
  }

  static func declarations() throws -> [JSONAPIResourceDeclaration] {
    [
      try JSONAPIResourceDeclaration(
        Person.self, filters: ["name": .contains("name")], sortable: ["name"]),
      try JSONAPIResourceDeclaration(
        Article.self,
        filters: ["title": .contains("title"), "author": .ids("author")], sortable: ["title"],
        paging: .pageNumber(defaultSize: 2, maxSize: 10), inverses: ["comments": "article"]),
      try JSONAPIResourceDeclaration(Comment.self, acceptsClientGeneratedIDs: true),
    ]
  }

  /// The server over a store on the existing blog database.
  static func make() async throws -> (JSONAPIServer, JSONAPISQLiteStore) {
    let declarations = try declarations()
    let store = try JSONAPISQLiteStore(
      path: try existingDatabase(), schemas: declarations.map(\.schema))
    let server = try JSONAPIServer(
      resources: declarations, store: store, baseURL: "https://api.example.com")
    return (server, store)
  }

  /// A request with the JSON:API media type in `Accept`, and in `Content-Type` with a body.
  static func request(
    _ method: String, _ target: String, body: String? = nil, contentType: String = mediaType,
    accept: String = mediaType
  ) -> JSONAPIServerRequest {
    var headers: [(name: String, value: String)] = [("Accept", accept)]
    if body != nil { headers.append(("Content-Type", contentType)) }
    return JSONAPIServerRequest(
      method: method, target: target, headers: headers, body: Data((body ?? "").utf8))
  }
}

extension JSONAPIServerResponse {
  /// The body as JSON.
  var json: JSONAPIValue {
    (try? JSONDecoder().decode(JSONAPIValue.self, from: body)) ?? .null
  }

  /// The ids of the primary data, in order.
  var ids: [String] {
    json["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
  }
}
