import Foundation

/// Who is asking: what the framework glue learned when it authenticated the request, such as the
/// user's id. Put it in ``JSONAPIServerRequest/context``; policies read it as
/// ``JSONAPIServerRequest/requester``.
///
/// ```swift
/// let request = JSONAPIServerRequest(
///   method: "GET", target: "/projects",
///   context: JSONAPIRequester(userID: "1", attributes: ["role": "admin"]))
/// ```
public struct JSONAPIRequester: Sendable, Hashable {
  /// The authenticated user's id; `nil` for a request nobody signed.
  public var userID: String?
  /// Anything else the app knows of the requester (roles, tenant…).
  public var attributes: [String: JSONAPIValue]

  /// Creates a context.
  public init(userID: String?, attributes: [String: JSONAPIValue] = [:]) {
    self.userID = userID
    self.attributes = attributes
  }
}

extension JSONAPIServerRequest {
  /// The ``JSONAPIRequester`` in ``context``, or `nil` when the glue set none (or another
  /// kind of value).
  public var requester: JSONAPIRequester? { context as? JSONAPIRequester }
}

/// Who may see and change the rows of a resource type, declared once and held on every path a row
/// can leave or enter by: lists, reads by id, `include` at any depth, the linkage of every
/// relationship, related and relationship endpoints, and each operation of `/operations`.
///
/// Give it to a declaration with ``JSONAPIResourceDeclaration/secured(by:)``.
///
/// ```swift
/// let projects = try JSONAPIResourceDeclaration(Project.self).secured(
///   by: JSONAPIResourcePolicy(
///     visible: { requester in
///       guard let user = requester?.userID else { return .never }
///       return .any([.linked("owner", to: [user]), .linked("members", to: [user])])
///     },
///     update: { check in
///       guard check.before?.relationships["owner"]?.identifiers.first?.id
///         == check.requester?.userID
///       else { throw JSONAPIWriteCheck.forbidden("Only the owner changes a project") }
///     }))
/// ```
///
/// A row the requester may not see does not exist for them: it answers `404` with the document of
/// an id nobody has, and its identifier never appears in linkage, `included`, totals or errors.
/// Write rules run inside the write transaction, after the related resources named in the write
/// were found visible, and refuse by throwing: a `JSONAPIErrorObject` is answered as it is, any
/// other error as `403`; the whole request (every operation of an Atomic Operations request) is
/// then undone.
public struct JSONAPIResourcePolicy: Sendable {
  /// The rows of the type the requester may see; `nil` for every row.
  public var visible: (@Sendable (JSONAPIRequester?) -> JSONAPIRowCondition)?
  /// Refuses a create: ``JSONAPIWriteCheck/after`` is the resource about to be stored (its `id`
  /// is empty when the store makes it).
  public var create: (@Sendable (JSONAPIWriteCheck) async throws -> Void)?
  /// Refuses an update, by `PATCH`, a relationship endpoint, an operation, or through a
  /// relationship of another type that mirrors one of this type's to-one relationships.
  public var update: (@Sendable (JSONAPIWriteCheck) async throws -> Void)?
  /// Refuses a delete: ``JSONAPIWriteCheck/after`` is `nil`.
  public var delete: (@Sendable (JSONAPIWriteCheck) async throws -> Void)?

  /// Creates a policy; each part is optional (`nil` allows everything it covers).
  public init(
    visible: (@Sendable (JSONAPIRequester?) -> JSONAPIRowCondition)? = nil,
    create: (@Sendable (JSONAPIWriteCheck) async throws -> Void)? = nil,
    update: (@Sendable (JSONAPIWriteCheck) async throws -> Void)? = nil,
    delete: (@Sendable (JSONAPIWriteCheck) async throws -> Void)? = nil
  ) {
    self.visible = visible
    self.create = create
    self.update = update
    self.delete = delete
  }

  /// Whether any part is set.
  var isEmpty: Bool { visible == nil && create == nil && update == nil && delete == nil }
}

/// What a write rule of a ``JSONAPIResourcePolicy`` sees: the stored resource before and after
/// the write, the requester, and a reader.
public struct JSONAPIWriteCheck: Sendable {
  /// The resource type written.
  public var type: String
  /// The resource as stored before the write, every linkage whole; `nil` for a create.
  public var before: JSONAPIResourceRecord?
  /// The resource as it will be stored; `nil` for a delete.
  public var after: JSONAPIResourceRecord?
  /// Who is asking.
  public var requester: JSONAPIRequester?
  /// Reads inside the write transaction, its earlier writes included, held to the requester's
  /// policies: it finds only what the requester may see.
  public var reader: any JSONAPIStoreReader

  /// Creates a check (the server makes them; tests of rules may too).
  public init(
    type: String, before: JSONAPIResourceRecord?, after: JSONAPIResourceRecord?,
    requester: JSONAPIRequester?, reader: any JSONAPIStoreReader
  ) {
    self.type = type
    self.before = before
    self.after = after
    self.requester = requester
    self.reader = reader
  }

  /// The id the to-one relationship `name` names after the write (before it, for a delete).
  ///
  /// ```swift
  /// check.id(of: "project")   // "3"
  /// ```
  public func id(of name: String) -> String? {
    (after ?? before)?.relationships[name]?.identifiers.first?.id
  }

  /// A `403 Forbidden` error object with `detail`, for a rule to throw.
  ///
  /// ```swift
  /// throw JSONAPIWriteCheck.forbidden("Only the project's owner deletes its tasks")
  /// ```
  public static func forbidden(_ detail: String, pointer: String? = nil) -> JSONAPIErrorObject {
    JSONAPIErrorObject(
      status: "403", code: "forbidden", title: "Forbidden", detail: detail,
      source: pointer.map { JSONAPIErrorObject.Source(pointer: $0) })
  }
}

extension JSONAPIResourceDeclaration {
  /// This declaration with `policy` deciding who sees and changes its rows.
  ///
  /// ```swift
  /// let tasks = try JSONAPIResourceDeclaration(Task.self)
  ///   .secured(by: JSONAPIResourcePolicy(visible: { _ in .related("project", .visible) }))
  /// ```
  public func secured(by policy: JSONAPIResourcePolicy) -> JSONAPIResourceDeclaration {
    var copy = self
    copy.policy = policy
    return copy
  }
}
