import Foundation

/// A resource identifier object: a resource's `type` with its `id` (or, for a resource the client is
/// creating, its `lid`), and the identifier's own `meta`.
///
/// Use it for relationship endpoints and wherever a model should hold the linkage rather than the
/// related resource:
///
/// ```swift
/// let tags = try JSONAPIDecoder().decode(
///   [JSONAPIResourceIdentifier].self, from: data)                 // GET /articles/1/relationships/tags
/// let body = try JSONAPIEncoder().encode([JSONAPIResourceIdentifier(type: "tags", id: "3")])
/// // {"data":[{"type":"tags","id":"3"}]}
/// ```
///
/// See https://jsonapi.org/format/#document-resource-identifier-objects.
public struct JSONAPIResourceIdentifier: Hashable, Sendable {
  /// The resource's `type`.
  public var type: String
  /// The resource's `id`; `nil` for a resource known only by its ``lid``.
  public var id: String?
  /// The resource's local identifier (JSON:API 1.1), for resources created in the same request.
  public var lid: String?
  /// The identifier object's own `meta` (not the resource's).
  public var meta: JSONAPIValue?

  /// Identifies a resource the server knows by `id`.
  public init(type: String, id: String, meta: JSONAPIValue? = nil) {
    self.type = type
    self.id = id
    self.meta = meta
  }

  /// Identifies a resource created in the same request by its local identifier (JSON:API 1.1).
  public init(type: String, lid: String, meta: JSONAPIValue? = nil) {
    self.type = type
    self.lid = lid
    self.meta = meta
  }
}

extension JSONAPIResourceIdentifier: Codable {
  private enum CodingKeys: String, CodingKey { case type, id, lid, meta }

  /// Reads `type`, `id`, `lid` and `meta` (a `meta` that is not an object is ignored). With
  /// ``JSONAPIDecoder`` an integer `id` (`"id": 2`, which real servers send) reads as its digits
  /// (`"2"`); other decoders read `id` as a string only.
  ///
  /// - Throws: `DecodingError` when `type` is missing or a member has the wrong type.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    type = try container.decode(String.self, forKey: .type)
    id = try container.decodeIfPresent(String.self, forKey: .id)
    lid = try container.decodeIfPresent(String.self, forKey: .lid)
    // `meta` is an object by definition; anything else is not meta and is left out, so that what
    // is read can be written back.
    let meta = try container.decodeIfPresent(JSONAPIValue.self, forKey: .meta)
    self.meta = meta?.objectValue == nil ? JSONAPIValue?.none : meta
  }

  /// Writes `type`, then `id` and `lid` when set, then `meta` when set.
  ///
  /// - Throws: `EncodingError.invalidValue` when `meta` is not an object.
  public func encode(to encoder: any Encoder) throws {
    if let meta, meta.objectValue == nil {
      throw EncodingError.invalidValue(
        meta,
        EncodingError.Context(
          codingPath: encoder.codingPath + [CodingKeys.meta],
          debugDescription: SpecSection.cite("meta must be an object", SpecSection.meta)))
    }
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(type, forKey: .type)
    try container.encodeIfPresent(id, forKey: .id)
    try container.encodeIfPresent(lid, forKey: .lid)
    try container.encodeIfPresent(meta, forKey: .meta)
  }
}

/// An identifier always stands for a related resource: an empty `[JSONAPIResourceIdentifier]` is an
/// empty to-many relationship, not an empty attribute.
extension JSONAPIResourceIdentifier: JSONAPIRelationshipExpressible {}
