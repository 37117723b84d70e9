import JSONAPIServer

// What request bodies are decoded into. Relationships are read as identifiers: the server
// resolves them against its store.

/// POST /articles.
struct NewArticle: Decodable, JSONAPIResource {
  static let jsonAPIType = "articles"
  var id: String?
  var title: String
  var body: String?
  var author: JSONAPIResourceIdentifier?
  var comments: [JSONAPIResourceIdentifier]?
}

/// PATCH /articles/{id}: absent members stay as they are (R80); `null` clears.
struct ArticleChanges: Decodable, JSONAPIResource {
  static let jsonAPIType = "articles"
  var id: String
  var title: String?
  var body: String??
  var author: JSONAPIResourceIdentifier??
  var comments: [JSONAPIResourceIdentifier]?

  private enum CodingKeys: String, CodingKey { case id, title, body, author, comments }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    title = try container.decodeIfPresent(String.self, forKey: .title)
    if container.contains(.body) {
      body = .some(
        try container.decodeNil(forKey: .body) ? nil : container.decode(String.self, forKey: .body))
    }
    if container.contains(.author) {
      author = .some(
        try container.decodeNil(forKey: .author)
          ? nil : container.decode(JSONAPIResourceIdentifier.self, forKey: .author))
    }
    comments = try container.decodeIfPresent([JSONAPIResourceIdentifier].self, forKey: .comments)
  }
}
