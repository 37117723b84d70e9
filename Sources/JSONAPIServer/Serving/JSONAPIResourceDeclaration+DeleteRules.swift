import Foundation

/// What deleting a resource does to the resources whose relationship names it, declared on that
/// relationship (as SQL declares `ON DELETE` on a foreign key).
///
/// ```swift
/// // Deleting a project deletes its tasks.
/// let tasks = try JSONAPIResourceDeclaration(Task.self).onDelete("project", .cascade)
/// ```
///
/// A relationship that declares nothing gets ``refuse`` when it is a required to-one (a
/// non-optional property of the model: it is never left empty) and ``setNull`` otherwise.
public enum JSONAPIDeleteRule: String, Sendable, Hashable, CustomStringConvertible {
  /// The resources that name the deleted one are deleted too, in the same transaction, and so
  /// are the resources that name those (by their own rules), each checked as a delete of it.
  case cascade
  /// The deleted resource leaves the linkage: a to-one becomes empty (`null`), a to-many loses
  /// it. Not allowed on a required to-one.
  case setNull
  /// The delete is refused with `409 Conflict` while any resource names the deleted one through
  /// this relationship; the error names the relationship and how many resources name it.
  case refuse

  /// `cascade`, `setNull` or `refuse`.
  public var description: String { rawValue }
}

/// What a ``JSONAPIResourceDeclaration`` says of its relationships beyond the model: delete rules
/// (``JSONAPIResourceDeclaration/onDelete(_:_:)``) and linkage limits
/// (``JSONAPIResourceDeclaration/linkageLimit(_:_:)``), by relationship name.
public struct JSONAPIRelationshipRules: Sendable, Hashable {
  /// The delete rules declared, by relationship name (the effective rule of every relationship
  /// is ``JSONAPIResourceDeclaration/deleteRule(of:)``).
  public internal(set) var onDelete: [String: JSONAPIDeleteRule] = [:]
  /// The linkage limits declared, by relationship name (the effective limit of every to-many
  /// relationship is ``JSONAPIResourceDeclaration/linkageLimit(of:)``).
  public internal(set) var linkageLimits: [String: Int] = [:]

  /// No rules: every relationship has its default.
  public init() {}
}

extension JSONAPIResourceDeclaration {
  /// This declaration with `rule` deciding what deleting a resource that `relationship` names
  /// does to the resources of this type that name it.
  ///
  /// ```swift
  /// let tasks = try JSONAPIResourceDeclaration(Task.self)
  ///   .onDelete("project", .cascade)     // tasks.project is required: refuse by default
  ///   .onDelete("assignee", .setNull)    // the default of an optional to-one
  /// ```
  ///
  /// The server applies the rules inside the delete's write transaction, for a `DELETE`, an
  /// Atomic Operations `remove`, and every delete a cascade makes.
  ///
  /// - Throws: ``JSONAPIDeclarationError`` when `relationship` is not a relationship of the model
  ///   to a `JSONAPIResource` type, when it is an inverse (declare the rule on the to-one it
  ///   mirrors), or for ``JSONAPIDeleteRule/setNull`` on a required to-one.
  public func onDelete(_ relationship: String, _ rule: JSONAPIDeleteRule) throws
    -> JSONAPIResourceDeclaration
  {
    let found = try ruledRelationship(relationship, rule: "a delete rule")
    if rule == .setNull, !found.isToMany, !found.isOptional {
      throw JSONAPIDeclarationError(
        reason: "The declaration of \(type) sets `\(relationship)` to null on delete, but the "
          + "model requires it: declare .cascade or .refuse, or make the property optional")
    }
    var copy = self
    copy.relationshipRules.onDelete[relationship] = rule
    return copy
  }

  /// What deleting a resource that `relationship` names does to the resources of this type that
  /// name it: the declared rule, else ``JSONAPIDeleteRule/refuse`` for a required to-one and
  /// ``JSONAPIDeleteRule/setNull`` otherwise. `nil` for a name that is no relationship, an
  /// inverse (its to-one's rule applies), or a relationship to any type (its linkage is cleared
  /// by the store).
  ///
  /// ```swift
  /// tasks.deleteRule(of: "project")   // .refuse until declared
  /// ```
  public func deleteRule(of relationship: String) -> JSONAPIDeleteRule? {
    guard let found = schema.relationship(named: relationship), found.targetType != nil,
      found.inverse == nil
    else { return nil }
    if let declared = relationshipRules.onDelete[relationship] { return declared }
    return !found.isToMany && !found.isOptional ? .refuse : .setNull
  }

  /// The most identifiers a to-many relationship's linkage holds in a document when no limit is
  /// declared: the default largest page of a collection, so that linkage never holds more than
  /// a page of the related collection would.
  public static let defaultLinkageLimit = 100

  /// This declaration with the linkage of the to-many `relationship` served only while it names
  /// at most `limit` resources: beyond that, its relationship object carries `links` and no
  /// `data` (JSON:API allows a relationship object with `links` only), and its relationship
  /// endpoint answers one page at a time.
  ///
  /// ```swift
  /// let projects = try JSONAPIResourceDeclaration(Project.self, inverses: ["tasks": "project"])
  ///   .linkageLimit("tasks", 50)
  /// ```
  ///
  /// - Throws: ``JSONAPIDeclarationError`` when `relationship` is not a to-many relationship of
  ///   the model to a `JSONAPIResource` type, or `limit` is not between 0 and 10 000.
  public func linkageLimit(_ relationship: String, _ limit: Int) throws
    -> JSONAPIResourceDeclaration
  {
    guard let found = schema.relationship(named: relationship), found.isToMany else {
      throw JSONAPIDeclarationError(
        reason: "The declaration of \(type) limits the linkage of `\(relationship)`, which is "
          + "not a to-many relationship of the model")
    }
    guard (0...10_000).contains(limit) else {
      throw JSONAPIDeclarationError(
        reason: "The declaration of \(type) limits the linkage of `\(relationship)` to \(limit): "
          + "give a limit from 0 to 10000")
    }
    var copy = self
    copy.relationshipRules.linkageLimits[relationship] = limit
    return copy
  }

  /// The most identifiers the linkage of the to-many `relationship` holds in a document: the
  /// declared limit, else ``defaultLinkageLimit``; `nil` for a name that is no to-many
  /// relationship.
  public func linkageLimit(of relationship: String) -> Int? {
    guard schema.relationship(named: relationship)?.isToMany == true else { return nil }
    return relationshipRules.linkageLimits[relationship] ?? Self.defaultLinkageLimit
  }

  /// The relationship `name`, checked to take a delete rule.
  private func ruledRelationship(_ name: String, rule: String) throws
    -> JSONAPIResourceSchema.Relationship
  {
    guard let found = schema.relationship(named: name), found.targetType != nil else {
      throw JSONAPIDeclarationError(
        reason: "The declaration of \(type) gives \(rule) to `\(name)`, which is not a "
          + "relationship of the model to a JSONAPIResource type (relationships: "
          + "\(schema.relationships.map(\.name).joined(separator: ", ")))")
    }
    guard found.inverse == nil else {
      throw JSONAPIDeclarationError(
        reason: "The declaration of \(type) gives \(rule) to `\(name)`, which mirrors "
          + "`\(found.targetType ?? "").\(found.inverse ?? "")`: declare it there")
    }
    return found
  }
}
