import Foundation
import JSONAPIServer

// The models a server decodes request bodies into. `JSONAPIResource` makes the decoder check the
// body's `type` (409 on a mismatch); between them the models read every attribute kind a server
// takes from a client, client-generated and numeric and UUID ids, `lid`s, and relationships as
// models, as identifiers and as relationship objects.

/// A create body for `POST /articles`: the client may send an `id`, or a `lid` for other
/// resources of the request to refer to.
struct NewArticle: Decodable, JSONAPIResource {
  static let jsonAPIType = "articles"
  var id: String?
  var lid: String?
  var title: String
  var body: String?
  var wordCount: Int?
  var rating: Double?
  var publishedAt: Date?
  var draft: Bool?
  var keywords: [String]?
  var extra: JSONAPIValue?
  var author: JSONAPIResourceIdentifier?
  var tags: [JSONAPIResourceIdentifier]?
  var meta: JSONAPIValue?
}

/// An update body for `PATCH /articles/{id}`: every field optional, `null` kept apart from absent.
struct ArticleChanges: Decodable, JSONAPIResource {
  static let jsonAPIType = "articles"
  var id: String
  var title: String?
  var body: String??
  var wordCount: Int64?
  var rating: Float?
  var author: JSONAPIRelationship<JSONAPIResourceIdentifier?>?
  var tags: JSONAPIRelationship<[JSONAPIResourceIdentifier]>?
  var comments: [Comment]?
}

/// People with a URL attribute and a small integer: overflow must be a `DecodingError`.
struct Person: Decodable, JSONAPIResource {
  static let jsonAPIType = "people"
  var id: String?
  var lid: String?
  var name: String
  var age: UInt8?
  var website: URL?
  var avatar: Data?
}

/// A UUID id and a to-one relationship decoded as the related model.
struct Comment: Decodable, JSONAPIResource {
  static let jsonAPIType = "comments"
  var id: UUID?
  var lid: String?
  var body: String
  var author: Person?
}

/// A numeric id.
struct Tag: Decodable, JSONAPIResource {
  static let jsonAPIType = "tags"
  var id: Int?
  var label: String
  var weight: Decimal?
}
