import Foundation
import JSONAPICodable

// Plain Codable models, written as if the API returned plain JSON.

/// An author: a resource the response includes in full.
struct Person: Decodable {
  var id: String
  var name: String
  var twitter: String?
}

/// A commenter: the response may include them or give only their identifier, so every field but
/// `id` is optional (an identifier-only resource decodes with those fields nil).
struct Commenter: Decodable {
  var id: String
  var name: String?
}

struct Comment: Decodable {
  var id: String
  var body: String
  var author: Commenter?
}

struct Image: Decodable {
  var id: String
  var url: URL
  var width: Int
  var height: Int
}

struct Video: Decodable {
  var id: String
  var url: URL
  var durationSeconds: Double
}

/// A polymorphic relationship: `hero` points at an `images` or a `videos` resource. A custom
/// `init(from:)` reads the resource's `type` and decodes the matching model from the same decoder.
enum Media: Decodable {
  case image(Image)
  case video(Video)
  case unknown(type: String, id: String)

  private enum CodingKeys: String, CodingKey { case type, id }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    switch try container.decode(String.self, forKey: .type) {
    case "images": self = .image(try Image(from: decoder))
    case "videos": self = .video(try Video(from: decoder))
    case let other: self = .unknown(type: other, id: try container.decode(String.self, forKey: .id))
    }
  }
}

struct Article: Decodable {
  var id: String
  var title: String
  var publishedAt: Date
  var tags: [String]
  /// The resource's own `meta` and `links` members.
  var meta: JSONAPIValue?
  var links: JSONAPILinks?
  /// A to-one relationship resolved against `included`.
  var author: Person
  /// A to-many relationship with its own `meta` (comment count) and `links`.
  var comments: JSONAPIRelationship<[Comment]>
  var hero: Media?
}

/// The top-level `meta` of a page of articles.
struct PageMeta: Decodable {
  var totalPages: Int
  var totalCount: Int
}
