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
/// When the relationship object has no `data` (links or meta only), an optional `Related` decodes
/// as `nil`.
public struct JSONAPIRelationship<Related> {
  /// The related resource(s): a resource, an optional resource, or an array of resources.
  public var data: Related
  /// The relationship's `meta` member.
  public var meta: JSONAPIValue?
  /// The relationship's `links` member (`self`, `related`, pagination).
  public var links: JSONAPILinks?

  /// Creates a relationship.
  public init(data: Related, meta: JSONAPIValue? = nil, links: JSONAPILinks? = nil) {
    self.data = data
    self.meta = meta
    self.links = links
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
    if !container.contains(.data),
      let none = (Related.self as? any OptionalMarker.Type)?.noneValue as? Related
    {
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
    try container.encode(data, forKey: .data)
    try container.encodeIfPresent(meta, forKey: .meta)
    try container.encodeIfPresent(links, forKey: .links)
  }
}

extension JSONAPIRelationship: JSONAPIRelationshipMarker {}

/// Lets the coders recognise a `JSONAPIRelationship` of any parameter by its metatype.
protocol JSONAPIRelationshipMarker {}
