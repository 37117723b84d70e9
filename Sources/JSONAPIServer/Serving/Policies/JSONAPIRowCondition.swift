import Foundation

/// Which rows of a resource type a condition admits: the filter vocabulary of
/// ``JSONAPIFilterCondition`` joined by `and` and `or`, and membership through relationships.
///
/// A ``JSONAPIResourcePolicy`` states, for each request, the rows of its type that the requester
/// may see as one of these; the server hands it to the store in ``JSONAPIStoreQuery/visibility``
/// so that the store applies it in its query (a SQL store as `WHERE`, as it applies filters), and
/// pages, totals and `hasMore` count only visible rows.
///
/// ```swift
/// // A project its owner or a member sees; a task of a project the requester sees.
/// let project: JSONAPIRowCondition = .any([
///   .filter(.init(member: "owner", isRelationship: true, comparison: .equals, values: ["1"])),
///   .filter(.init(member: "members", isRelationship: true, comparison: .equals, values: ["1"])),
/// ])
/// let task: JSONAPIRowCondition = .related("project", .visible)
/// ```
///
/// In a declaration, ``visible`` inside ``related(_:_:)`` or ``namedBy(type:relationship:_:)``
/// stands for the other type's own policy for the same request; the server replaces it (and
/// rewrites relationships that mirror another type's to-one, see
/// ``JSONAPIResourceSchema/Relationship/inverse``) before a store sees the condition, so a store
/// meets only stored relationships and never ``visible``.
public indirect enum JSONAPIRowCondition: Sendable, Hashable {
  /// Every row.
  case always
  /// No row.
  case never
  /// The rows that meet a filter condition (as `filter[…]` would compare them).
  case filter(JSONAPIFilterCondition)
  /// The rows that meet every condition (`always` when empty).
  case all([JSONAPIRowCondition])
  /// The rows that meet at least one condition (`never` when empty).
  case any([JSONAPIRowCondition])
  /// The rows whose relationship (to-one or to-many) names at least one row of its target type
  /// that meets the condition.
  case related(String, JSONAPIRowCondition)
  /// The rows that at least one row of `type` meeting the condition names in its relationship
  /// `relationship`.
  case namedBy(type: String, relationship: String, JSONAPIRowCondition)
  /// The rows the type's own policy lets the requester see; only meaningful inside
  /// ``related(_:_:)`` and ``namedBy(type:relationship:_:)`` of a declaration.
  case visible

  /// The rows whose `id` is one of `ids`.
  ///
  /// ```swift
  /// let me = JSONAPIRowCondition.id(in: ["1"])
  /// ```
  public static func id(in ids: [String]) -> JSONAPIRowCondition {
    .filter(
      JSONAPIFilterCondition(member: "id", comparison: .equals, values: ids.map { .string($0) }))
  }

  /// The rows whose relationship `relationship` names one of `ids`.
  ///
  /// ```swift
  /// let owned = JSONAPIRowCondition.linked("owner", to: ["1"])
  /// ```
  public static func linked(_ relationship: String, to ids: [String]) -> JSONAPIRowCondition {
    .filter(
      JSONAPIFilterCondition(
        member: relationship, isRelationship: true, comparison: .equals,
        values: ids.map { .string($0) }))
  }

  /// The deepest nesting of the condition (1 for a leaf), counted without recursion.
  var depth: Int {
    var deepest = 0
    var stack: [(JSONAPIRowCondition, Int)] = [(self, 1)]
    while let (condition, level) = stack.popLast() {
      deepest = max(deepest, level)
      switch condition {
      case .all(let parts), .any(let parts): stack += parts.map { ($0, level + 1) }
      case .related(_, let inner), .namedBy(_, _, let inner): stack.append((inner, level + 1))
      case .always, .never, .filter, .visible: break
      }
    }
    return deepest
  }
}
