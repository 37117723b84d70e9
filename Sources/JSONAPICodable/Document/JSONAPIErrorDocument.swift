import Foundation

/// A whole JSON:API error document: the error objects with the document's own `meta`, `links` and
/// `jsonapi` members.
///
/// ``JSONAPIDecoder`` throws it as ``JSONAPIError/errorDocument(_:)`` whenever a response has
/// `errors`. It is a collection of its ``JSONAPIErrorObject``s, so code that iterates the errors
/// reads as before:
///
/// ```swift
/// do {
///   _ = try JSONAPIDecoder().decode(Article.self, from: data)
/// } catch JSONAPIError.errorDocument(let document) {
///   for error in document { print(error.status ?? "", error.detail ?? "") }
///   document.meta?["requestId"]?.stringValue
/// }
/// ```
///
/// Error objects are read leniently, since they are advisory: a member of the wrong type
/// (`"status": true`) does not hide the document, it is kept in
/// ``JSONAPIErrorObject/additionalMembers``. See https://jsonapi.org/format/#error-objects.
public struct JSONAPIErrorDocument: Sendable, Hashable {
  /// The error objects, in document order.
  public var errors: [JSONAPIErrorObject]
  /// The document's top-level `meta`.
  public var meta: JSONAPIValue?
  /// The document's top-level `links`.
  public var links: JSONAPILinks?
  /// The document's top-level `jsonapi` member.
  public var jsonapi: JSONAPIObject?

  /// Creates an error document.
  public init(
    errors: [JSONAPIErrorObject], meta: JSONAPIValue? = nil, links: JSONAPILinks? = nil,
    jsonapi: JSONAPIObject? = nil
  ) {
    self.errors = errors
    self.meta = meta
    self.links = links
    self.jsonapi = jsonapi
  }

  /// Whether the document holds exactly these error objects (its other members aside): keeps
  /// comparisons written against `[JSONAPIErrorObject]` working.
  public static func == (document: JSONAPIErrorDocument, errors: [JSONAPIErrorObject]) -> Bool {
    document.errors == errors
  }
}

extension JSONAPIErrorDocument: RandomAccessCollection {
  /// The position of the first error object.
  public var startIndex: Int { errors.startIndex }
  /// The position past the last error object.
  public var endIndex: Int { errors.endIndex }
  /// The error object at `position`.
  public subscript(position: Int) -> JSONAPIErrorObject { errors[position] }
}

extension JSONAPIErrorDocument: ExpressibleByArrayLiteral {
  /// An error document with these error objects and no other members.
  public init(arrayLiteral errors: JSONAPIErrorObject...) {
    self.init(errors: errors)
  }
}

extension JSONAPIErrorDocument: CustomStringConvertible {
  /// The first three error objects, summarised.
  public var description: String {
    let listed = errors.prefix(3).map(\.description).joined(separator: "; ")
    let more = errors.count > 3 ? " (and \(errors.count - 3) more)" : ""
    return listed + more
  }
}

extension JSONAPIErrorDocument: Codable {
  private enum CodingKeys: String, CodingKey { case errors, meta, links, jsonapi }

  /// Reads `errors` (each error object leniently), `meta`, `links` and `jsonapi`.
  ///
  /// - Throws: `DecodingError` when `errors` is missing or not an array of objects.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    errors = try container.decode([JSONAPIErrorObject].self, forKey: .errors)
    meta = try? container.decodeIfPresent(JSONAPIValue.self, forKey: .meta)
    links = try? container.decodeIfPresent(JSONAPILinks.self, forKey: .links)
    jsonapi = try? container.decodeIfPresent(JSONAPIObject.self, forKey: .jsonapi)
  }

  /// Writes `errors`, then `meta`, `links` and `jsonapi` where set.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(errors, forKey: .errors)
    try container.encodeIfPresent(meta, forKey: .meta)
    try container.encodeIfPresent(links, forKey: .links)
    try container.encodeIfPresent(jsonapi, forKey: .jsonapi)
  }
}
