import JSONAPICodable

// What responses are encoded from: plain Encodable values that hold their related resources, so
// that the encoder can include whatever path the request asks for and write linkage for the rest.
//
// Each resource is either whole (`fields` set: it is primary data or on an `include` path) or
// linkage only (`fields` nil: the encoder writes just its type and id). A linkage-only value has
// no attribute at all, so that when the same resource is also met whole, nothing of the two
// conflicts.

struct PersonResource: Encodable, Sendable, JSONAPIResource, JSONAPIRelationshipExpressible {
  static let jsonAPIType = "people"

  struct Fields: Sendable {
    var name: String
    var links: JSONAPILinks
  }

  var id: String
  var fields: Fields?

  private enum CodingKeys: String, CodingKey { case id, name, links }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    guard let fields else { return }
    try container.encode(fields.name, forKey: .name)
    try container.encode(fields.links, forKey: .links)
  }
}

struct ArticleResource: Encodable, Sendable, JSONAPIResource, JSONAPIRelationshipExpressible {
  static let jsonAPIType = "articles"

  struct Fields: Sendable {
    var title: String
    var body: String?
    var author: JSONAPIRelationship<PersonResource?>
    var comments: JSONAPIRelationship<[CommentResource]>
    var links: JSONAPILinks
  }

  var id: String
  var fields: Fields?

  private enum CodingKeys: String, CodingKey { case id, title, body, author, comments, links }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    guard let fields else { return }
    try container.encode(fields.title, forKey: .title)
    try container.encode(fields.body, forKey: .body)  // nil → "body": null
    try container.encode(fields.author, forKey: .author)
    try container.encode(fields.comments, forKey: .comments)
    try container.encode(fields.links, forKey: .links)
  }
}

struct CommentResource: Encodable, Sendable, JSONAPIResource, JSONAPIRelationshipExpressible {
  static let jsonAPIType = "comments"

  struct Fields: Sendable {
    var body: String
    var author: JSONAPIRelationship<PersonResource?>
    var article: JSONAPIRelationship<ArticleResource?>
    var links: JSONAPILinks
  }

  var id: String
  var fields: Fields?

  private enum CodingKeys: String, CodingKey { case id, body, author, article, links }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    guard let fields else { return }
    try container.encode(fields.body, forKey: .body)
    try container.encode(fields.author, forKey: .author)
    try container.encode(fields.article, forKey: .article)
    try container.encode(fields.links, forKey: .links)
  }
}
