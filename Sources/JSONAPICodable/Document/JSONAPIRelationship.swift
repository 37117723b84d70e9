import Foundation

/// A relationship together with its own `meta` and `links`.
///
/// A plain property (`var author: Person?`) is enough to read a relationship's resolved data. Use
/// `JSONAPIRelationship` when you also need the relationship object's members, or to say
/// explicitly what to send:
///
/// ```swift
/// struct Article: Codable {
///   var id: String
///   var type = "articles"
///   var comments: JSONAPIRelationship<[Comment]>   // data plus links.related, meta.count
///   var editor: JSONAPIRelationship<Person?>?       // .init(data: nil) sends "data": null
/// }
/// article.comments.links?.related?.href
/// ```
///
/// When the relationship object has no `data` (links or meta only, as servers send large to-many
/// relationships), an optional `Related` decodes as `nil` and a collection as empty, with
/// ``hasData`` false; `init(links:meta:)` writes such a relationship:
///
/// ```swift
/// var comments = JSONAPIRelationship<[Comment]>(
///   links: ["related": "/articles/1/comments"], meta: ["count": 240])
/// // "comments": {"links": {"related": "/articles/1/comments"}, "meta": {"count": 240}}
/// ```
///
/// A relationship's `meta` reads as your own type with ``JSONAPIValue/decode(_:)``.
public struct JSONAPIRelationship<Related> {
  /// The related resource(s): a resource, an optional resource, or an array of resources.
  public var data: Related
  /// The relationship's `meta` member.
  public var meta: JSONAPIValue?
  /// The relationship's `links` member (`self`, `related`, pagination).
  public var links: JSONAPILinks?
  /// Whether the relationship object has a `data` member. False for a relationship given by its
  /// links or meta alone; ``data`` is then `nil` or empty and is not written.
  public var hasData: Bool

  /// Creates a relationship.
  public init(data: Related, meta: JSONAPIValue? = nil, links: JSONAPILinks? = nil) {
    self.data = data
    self.meta = meta
    self.links = links
    hasData = true
  }

  /// A to-one relationship given by its links or meta alone, without `data`.
  public init(links: JSONAPILinks?, meta: JSONAPIValue? = nil)
  where Related: ExpressibleByNilLiteral {
    self.init(data: nil, meta: meta, links: links)
    hasData = false
  }

  /// A to-many relationship given by its links or meta alone, without `data`.
  public init(links: JSONAPILinks?, meta: JSONAPIValue? = nil)
  where Related: RangeReplaceableCollection {
    self.init(data: Related(), meta: meta, links: links)
    hasData = false
  }
}

extension JSONAPIRelationship: Sendable where Related: Sendable {}
extension JSONAPIRelationship: Equatable where Related: Equatable {}
extension JSONAPIRelationship: Hashable where Related: Hashable {}

enum JSONAPIRelationshipCodingKeys: String, CodingKey {
  case data, meta, links
}

extension JSONAPIRelationship: Decodable where Related: Decodable {
  /// Decodes the relationship object; with ``JSONAPIDecoder`` its `data` resolves against `included`.
  ///
  /// - Throws: `DecodingError.keyNotFound` when `data` is absent and `Related` is not optional.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: JSONAPIRelationshipCodingKeys.self)
    hasData = container.contains(.data)
    if !hasData, let none = Self.noData {
      data = none
    } else {
      data = try container.decode(Related.self, forKey: .data)
    }
    meta = try container.decodeIfPresent(JSONAPIValue.self, forKey: .meta)
    links = try container.decodeIfPresent(JSONAPILinks.self, forKey: .links)
  }
}

extension JSONAPIRelationship: Encodable where Related: Encodable {
  /// Encodes the relationship object. With ``JSONAPIEncoder`` the data becomes linkage and a `nil`
  /// `data` is written as `"data": null`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: JSONAPIRelationshipCodingKeys.self)
    if hasData { try container.encode(data, forKey: .data) }
    try container.encodeIfPresent(meta, forKey: .meta)
    try container.encodeIfPresent(links, forKey: .links)
  }
}

extension JSONAPIRelationship {
  /// What `data` holds when the relationship object has none: `nil`, or an empty collection.
  fileprivate static var noData: Related? {
    if let none = (Related.self as? any OptionalMarker.Type)?.noneValue as? Related { return none }
    return (Related.self as? any RangeReplaceableCollection.Type)?.init() as? Related
  }
}

extension JSONAPIRelationship: JSONAPIRelationshipMarker {}

/// Lets the coders recognise a `JSONAPIRelationship` of any parameter by its metatype.
protocol JSONAPIRelationshipMarker {}
