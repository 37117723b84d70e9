/// The `ref` member of an operation in the Atomic Operations extension: the resource, or one of its
/// relationships, that the operation targets.
///
/// A reference names a resource by `type` and either `id` or `lid` (the local identifier an earlier
/// operation of the same request gave it), and optionally one of its relationships:
///
/// ```swift
/// let article = JSONAPIOperationReference(type: "articles", id: "13")
/// let authorOfNewArticle = JSONAPIOperationReference(
///   type: "articles", lid: "a1", relationship: "author")
/// ```
///
/// See https://jsonapi.org/ext/atomic/#operation-objects.
public struct JSONAPIOperationReference: Hashable, Sendable {
  /// The target resource's `type`.
  public var type: String
  /// The target resource's `id`; `nil` when it is named by ``lid``.
  public var id: String?
  /// The local identifier that an earlier operation of the same request gave the target resource.
  public var lid: String?
  /// The name of the relationship the operation targets; `nil` when it targets the resource itself.
  public var relationship: String?

  /// References a resource the server knows by `id`, or one of its relationships.
  public init(type: String, id: String, relationship: String? = nil) {
    self.type = type
    self.id = id
    self.relationship = relationship
  }

  /// References a resource created by an earlier operation of the same request, by its `lid`.
  public init(type: String, lid: String, relationship: String? = nil) {
    self.type = type
    self.lid = lid
    self.relationship = relationship
  }

  /// References the resource `identifier` names (its `meta` has no place in a reference and is
  /// dropped), or one of its relationships.
  public init(_ identifier: JSONAPIResourceIdentifier, relationship: String? = nil) {
    type = identifier.type
    id = identifier.id
    lid = identifier.lid
    self.relationship = relationship
  }

  /// The referenced resource as a resource identifier (without `relationship`).
  public var identifier: JSONAPIResourceIdentifier {
    var identifier = JSONAPIResourceIdentifier(type: type, id: "")
    identifier.id = id
    identifier.lid = lid
    return identifier
  }
}
