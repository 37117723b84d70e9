import Foundation
import JSONAPICodable

// What request documents are decoded into: a create body (`New…`) and an update body
// (`…Changes`) for each type. Relationships are read as identifiers: the server checks them
// against its database. Neither has an `id`: the URL (or the operation's `ref`) says which
// resource, and `JSONAPIRequestRules` checks the body's own `type` and `id` against it.

/// Where a write's document comes from: a request body, or one operation of an Atomic Operations
/// request (`JSONAPIOperation` has this very method).
protocol RequestPayload {
  func decode<T: Decodable>(_ type: T.Type) throws -> T
}

extension JSONAPIOperation: RequestPayload {}

/// A request's body, read once and decoded as often as needed.
struct RequestDocument: RequestPayload {
  var body: Data
  var decoder: JSONAPIRequestDecoder

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try decoder.decode(T.self, from: body)
  }
}

struct NewPerson: Decodable {
  var name: String
}

struct PersonChanges: Decodable {
  var name: String?

  private enum CodingKeys: String, CodingKey { case name }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    // Absent: unchanged (R80). Present, it must be a string: `null` is a 422 pointing at it.
    if container.contains(.name) { name = try container.decode(String.self, forKey: .name) }
  }
}

struct NewArticle: Decodable {
  var title: String
  var body: String?
  var author: JSONAPIResourceIdentifier?
  var comments: [JSONAPIResourceIdentifier]?
}

struct ArticleChanges: Decodable {
  var title: String?
  /// `.some(nil)`: set to null; `nil`: unchanged.
  var body: String??
  var author: JSONAPIResourceIdentifier??
  var comments: [JSONAPIResourceIdentifier]?

  private enum CodingKeys: String, CodingKey { case title, body, author, comments }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if container.contains(.title) { title = try container.decode(String.self, forKey: .title) }
    body = try container.decodeNullable(String.self, forKey: .body)
    author = try container.decodeNullable(JSONAPIResourceIdentifier.self, forKey: .author)
    if container.contains(.comments) {
      comments = try container.decode([JSONAPIResourceIdentifier].self, forKey: .comments)
    }
  }
}

struct NewComment: Decodable {
  var body: String
  var author: JSONAPIResourceIdentifier?
  var article: JSONAPIResourceIdentifier?
}

struct CommentChanges: Decodable {
  var body: String?
  var author: JSONAPIResourceIdentifier??
  var article: JSONAPIResourceIdentifier??

  private enum CodingKeys: String, CodingKey { case body, author, article }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if container.contains(.body) { body = try container.decode(String.self, forKey: .body) }
    author = try container.decodeNullable(JSONAPIResourceIdentifier.self, forKey: .author)
    article = try container.decodeNullable(JSONAPIResourceIdentifier.self, forKey: .article)
  }
}

extension KeyedDecodingContainer {
  /// A member that may be absent (`nil`: leave it as it is), `null` (`.some(nil)`: clear it) or a
  /// value (`.some(value)`).
  func decodeNullable<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T?? {
    guard contains(key) else { return nil }
    return .some(try decodeNil(forKey: key) ? nil : decode(T.self, forKey: key))
  }
}
