import Foundation

/// A whole JSON:API document: the primary data with the top-level `meta`, `links` and `jsonapi`.
///
/// Decode into `JSONAPIDocument` instead of the bare model when you need pagination links or
/// document meta:
///
/// ```swift
/// struct Page: Decodable { var totalPages: Int }
/// let page = try JSONAPIDecoder().decode(JSONAPIDocument<[Article], Page>.self, from: data)
/// page.data            // [Article], relationships resolved against `included`
/// page.meta?.totalPages
/// page.links?.next?.href
/// ```
///
/// Use an optional `PrimaryData` (`Article?`) for responses whose `data` may be `null` or absent
/// (meta-only documents), and ``JSONAPIValue`` as `Meta` for meta of unknown shape.
/// ``JSONAPIEncoder`` writes a `JSONAPIDocument` with its members, adding `included` as needed.
public struct JSONAPIDocument<PrimaryData, Meta> {
  /// The primary data: a resource, an array of resources, or `nil` for `"data": null`.
  public var data: PrimaryData
  /// The top-level `meta` member.
  public var meta: Meta?
  /// The top-level `links` member (`self`, pagination links, …).
  public var links: JSONAPILinks?
  /// The top-level `jsonapi` member.
  public var jsonapi: JSONAPIObject?

  /// Creates a document.
  public init(
    data: PrimaryData, meta: Meta? = nil, links: JSONAPILinks? = nil, jsonapi: JSONAPIObject? = nil
  ) {
    self.data = data
    self.meta = meta
    self.links = links
    self.jsonapi = jsonapi
  }
}

extension JSONAPIDocument: Sendable where PrimaryData: Sendable, Meta: Sendable {}
extension JSONAPIDocument: Equatable where PrimaryData: Equatable, Meta: Equatable {}
extension JSONAPIDocument: Hashable where PrimaryData: Hashable, Meta: Hashable {}

enum JSONAPIDocumentCodingKeys: String, CodingKey {
  case data, meta, links, jsonapi
}

extension JSONAPIDocument: Decodable where PrimaryData: Decodable, Meta: Decodable {
  /// Decodes the document's members. With ``JSONAPIDecoder``, `data` resolves relationships against
  /// `included`; with any other decoder the members are read as they stand.
  ///
  /// - Throws: `DecodingError.keyNotFound` when `data` is absent and `PrimaryData` is not optional.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: JSONAPIDocumentCodingKeys.self)
    if !container.contains(.data),
      let none = (PrimaryData.self as? any OptionalMarker.Type)?.noneValue as? PrimaryData
    {
      data = none
    } else {
      data = try container.decode(PrimaryData.self, forKey: .data)
    }
    meta = try container.decodeIfPresent(Meta.self, forKey: .meta)
    links = try container.decodeIfPresent(JSONAPILinks.self, forKey: .links)
    jsonapi = try container.decodeIfPresent(JSONAPIObject.self, forKey: .jsonapi)
  }
}

extension JSONAPIDocument: Encodable where PrimaryData: Encodable, Meta: Encodable {
  /// Encodes the document's members; with ``JSONAPIEncoder`` resources are split into
  /// attributes, relationships and `included`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: JSONAPIDocumentCodingKeys.self)
    try container.encode(data, forKey: .data)
    try container.encodeIfPresent(meta, forKey: .meta)
    try container.encodeIfPresent(links, forKey: .links)
    try container.encodeIfPresent(jsonapi, forKey: .jsonapi)
  }
}

extension JSONAPIDocument: JSONAPIDocumentMarker {}

/// Lets the coders recognise a `JSONAPIDocument` of any parameters by its metatype.
protocol JSONAPIDocumentMarker {}
