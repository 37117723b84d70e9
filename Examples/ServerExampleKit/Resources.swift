import JSONAPIServer

// What responses are encoded from: plain Encodable values holding their related resources in
// full, so the encoder can include whatever path a request asks for. `JSONAPIResource` gives the
// type for decoding; the stored `type` is what the encoder writes. `JSONAPIRelationshipExpressible`
// makes empty arrays and explicit nils relationships.

struct PersonResource: Encodable, JSONAPIResource, JSONAPIRelationshipExpressible {
  static let jsonAPIType = "people"
  var id: String
  var type = jsonAPIType
  var name: String
  var links: JSONAPILinks
  /// In a cursor-paged list, the person's cursor (`{"page": {"cursor": "…"}}`).
  var meta: JSONAPIValue?
}

struct CommentResource: Encodable, JSONAPIResource, JSONAPIRelationshipExpressible {
  static let jsonAPIType = "comments"
  var id: String
  var type = jsonAPIType
  var body: String
  var author: PersonResource?
  var links: JSONAPILinks

  private enum CodingKeys: String, CodingKey { case id, type, body, author, links }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(type, forKey: .type)
    try container.encode(body, forKey: .body)
    try container.encode(author, forKey: .author)  // nil → "data": null
    try container.encode(links, forKey: .links)
  }
}

struct ArticleResource: Encodable, JSONAPIResource {
  static let jsonAPIType = "articles"
  var id: String
  var type = jsonAPIType
  var title: String
  var body: String?
  var revision: Int
  var author: PersonResource?
  var comments: [CommentResource]
  var links: JSONAPILinks

  private enum CodingKeys: String, CodingKey {
    case id, type, title, body, revision, author, comments, links
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(type, forKey: .type)
    try container.encode(title, forKey: .title)
    try container.encode(body, forKey: .body)  // nil → "body": null
    try container.encode(revision, forKey: .revision)
    try container.encode(author, forKey: .author)  // nil → "data": null
    try container.encode(comments, forKey: .comments)
    try container.encode(links, forKey: .links)
  }
}
