/// The `op` member of an operation in the Atomic Operations extension: what the operation does.
///
/// ```swift
/// switch operation.op {
/// case .add: ...     // create a resource, or add members to a to-many relationship
/// case .update: ...  // update a resource, or replace a relationship
/// case .remove: ...  // delete a resource, or remove members from a to-many relationship
/// }
/// ```
///
/// See https://jsonapi.org/ext/atomic/#operation-objects.
public enum JSONAPIOperationCode: String, Sendable, Hashable, CaseIterable, Codable {
  /// `"add"`: creates a resource, or adds members to a to-many relationship.
  case add
  /// `"update"`: updates a resource, or replaces the members of a relationship.
  case update
  /// `"remove"`: deletes a resource, or removes members from a to-many relationship.
  case remove
}
