import Foundation
import JSONAPICodable

// The server's models: plain Codable structs with `id` and `type`. A nested value with both is a
// related resource: the encoder writes its identifier under `relationships` and the resource
// itself once under `included`.

struct Person: Codable {
  var id: String
  var type = "people"
  var name: String
}

/// `JSONAPIRelationshipExpressible` tells the encoder that `[Comment]` is a to-many relationship even
/// when it is empty (`"data": []`); with no element to look at, it would otherwise be an attribute.
struct Comment: Codable, JSONAPIRelationshipExpressible {
  var id: String
  var type = "comments"
  var body: String
  var author: Person
}

struct Article: Codable {
  var id: String
  var type = "articles"
  var title: String
  var publishedAt: Date
  var author: Person
  var comments: [Comment]
}

/// The top-level `meta` of a page of articles.
struct PageMeta: Codable {
  var totalPages: Int
}
