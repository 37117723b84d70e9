import Foundation

/// What a resource type holds, learned from its `Codable` model: its `type`, its attributes with
/// their value types, and its relationships with their targets.
///
/// ```swift
/// struct Article: Codable, JSONAPIResource {
///   static let jsonAPIType = "articles"
///   var id: String?
///   var title: String
///   var wordCount: Int?
///   var author: Person?          // Person: JSONAPIResource → a to-one relationship to "people"
///   var comments: [Comment]?     // a to-many relationship to "comments"
/// }
/// let schema = try JSONAPIResourceSchema(reading: Article.self)
/// schema.attributes.map(\.name)       // ["title", "wordCount"]
/// schema.relationships.map(\.name)    // ["author", "comments"]
/// ```
public struct JSONAPIResourceSchema: Sendable, Hashable {
  /// The resource type, such as `articles`.
  public var type: String
  /// The attributes, in the model's order.
  public var attributes: [Attribute]
  /// The relationships, in the model's order.
  public var relationships: [Relationship]

  /// Creates a schema from its parts.
  public init(type: String, attributes: [Attribute], relationships: [Relationship]) {
    self.type = type
    self.attributes = attributes
    self.relationships = relationships
  }

  /// The attribute named `name` (its member name in documents).
  public func attribute(named name: String) -> Attribute? {
    attributes.first { $0.name == name }
  }

  /// The relationship named `name` (its member name in documents).
  public func relationship(named name: String) -> Relationship? {
    relationships.first { $0.name == name }
  }

  /// One attribute.
  public struct Attribute: Sendable, Hashable {
    /// The member name in documents (after the key strategy).
    public var name: String
    /// What its values are.
    public var kind: ValueKind
    /// Whether it may be absent or `null`.
    public var isOptional: Bool

    /// Creates an attribute.
    public init(name: String, kind: ValueKind, isOptional: Bool) {
      self.name = name
      self.kind = kind
      self.isOptional = isOptional
    }
  }

  /// One relationship.
  public struct Relationship: Sendable, Hashable {
    /// The member name in documents (after the key strategy).
    public var name: String
    /// The `type` of the resources it names, when the model says it (a related model that
    /// conforms to `JSONAPIResource`); `nil` when any type may appear.
    public var targetType: String?
    /// Whether it is a to-many relationship.
    public var isToMany: Bool
    /// Whether it may be absent or empty (`null`).
    public var isOptional: Bool
    /// For a to-many relationship that mirrors a to-one relationship of its target (an article's
    /// `comments`, each comment's `article`): the name of that to-one relationship. Stores keep
    /// only the to-one side; the server reads and writes this one through it. Set by
    /// ``JSONAPIResourceDeclaration``'s `inverses`.
    public var inverse: String?

    /// Creates a relationship.
    public init(
      name: String, targetType: String?, isToMany: Bool, isOptional: Bool, inverse: String? = nil
    ) {
      self.name = name
      self.targetType = targetType
      self.isToMany = isToMany
      self.isOptional = isOptional
      self.inverse = inverse
    }
  }

  /// The kind of an attribute's values, as JSON holds them.
  public indirect enum ValueKind: Sendable, Hashable {
    /// Text.
    case string
    /// A whole number (any Swift integer type).
    case integer
    /// A number with a fraction (`Double`, `Float`, `Decimal`).
    case number
    /// `true` or `false`.
    case boolean
    /// A date, written as the encoder's date strategy writes it.
    case date
    /// One of a fixed set of texts (a `CaseIterable` enum with `String` raw values).
    case enumeration([String])
    /// An array of values of one kind.
    case array(ValueKind)
    /// An object; `members` holds what the model says of its members (empty when it cannot
    /// tell).
    case object(members: [Attribute])
    /// Any JSON value (`JSONAPIValue`, or a type the schema cannot read).
    case any
  }
}
