import Foundation

/// A resource as a ``JSONAPIStore`` holds it: its `type` and `id`, its attributes as JSON values,
/// and the linkage of every relationship.
///
/// A ``JSONAPIServer`` reads records from its store, writes documents from them, and turns the
/// resource of a request body into one. Stores never see a request or a document.
///
/// ```swift
/// let record = JSONAPIResourceRecord(
///   type: "articles", id: "1", attributes: ["title": "Hello"],
///   relationships: ["author": .toOne(JSONAPIResourceIdentifier(type: "people", id: "9"))])
/// ```
public struct JSONAPIResourceRecord: Sendable, Hashable {
  /// The resource's `type`.
  public var type: String
  /// The resource's `id`: empty for a record that a store has not created yet.
  public var id: String
  /// Each attribute by its member name, as the document writes it.
  public var attributes: [String: JSONAPIValue]
  /// Each relationship's linkage by its member name.
  public var relationships: [String: JSONAPILinkage]

  /// Creates a record.
  public init(
    type: String, id: String, attributes: [String: JSONAPIValue] = [:],
    relationships: [String: JSONAPILinkage] = [:]
  ) {
    self.type = type
    self.id = id
    self.attributes = attributes
    self.relationships = relationships
  }

  /// The record's identifier (`type` and `id`).
  public var identifier: JSONAPIResourceIdentifier { JSONAPIResourceIdentifier(type: type, id: id) }
}

/// The linkage of one relationship: the resource a to-one relationship names (or none), or the
/// resources of a to-many relationship, in order.
public enum JSONAPILinkage: Sendable, Hashable {
  /// A to-one relationship: `"data": {...}`, or `"data": null` for `nil`.
  case toOne(JSONAPIResourceIdentifier?)
  /// A to-many relationship: `"data": [...]`.
  case toMany([JSONAPIResourceIdentifier])

  /// Every identifier of the linkage, in order.
  public var identifiers: [JSONAPIResourceIdentifier] {
    switch self {
    case .toOne(let identifier): return identifier.map { [$0] } ?? []
    case .toMany(let identifiers): return identifiers
    }
  }
}
