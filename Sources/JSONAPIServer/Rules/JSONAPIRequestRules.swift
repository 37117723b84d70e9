import Foundation

/// The checks JSON:API asks of a server before it creates or updates a resource: the body's
/// `type` and `id` against the URL, and whether the client may choose the `id`.
///
/// Decode the body's primary data as a `JSONAPIResourceIdentifier` (its `type`, `id` and `lid`)
/// and check it before decoding the whole model:
///
/// ```swift
/// let rules = JSONAPIRequestRules(acceptsClientGeneratedIDs: true)
/// // POST /articles
/// let created = try rules.checkCreate(body, type: "articles")
/// if let id = created.id, store.contains(id) {
///   throw JSONAPIRequestError.resourceAlreadyExists(type: "articles", id: id)   // 409
/// }
/// // PATCH /articles/1
/// try rules.checkUpdate(body, type: "articles", id: "1")   // 409 when type or id differ
/// ```
///
/// A `lid` (JSON:API 1.1) is always accepted in a create body: it only links the new resource
/// within the request document.
public struct JSONAPIRequestRules: Sendable, Hashable {
  /// Whether a create body may carry its own `id`. Default `false`: such a request gets `403`.
  public var acceptsClientGeneratedIDs: Bool

  /// Creates the rules.
  public init(acceptsClientGeneratedIDs: Bool = false) {
    self.acceptsClientGeneratedIDs = acceptsClientGeneratedIDs
  }

  /// Checks the primary data of a create request (`POST` to the collection of `type`).
  ///
  /// - Throws: ``JSONAPIRequestError/typeMismatch(expected:found:pointer:)`` (409) for another
  ///   type; ``JSONAPIRequestError/clientGeneratedIDNotSupported(id:)`` (403) for an `id` when
  ///   ``acceptsClientGeneratedIDs`` is `false`.
  public func checkCreate(_ resource: JSONAPIResourceIdentifier, type: String) throws {
    try checkCreate(resource, type: type, at: "/data")
  }

  /// ``checkCreate(_:type:)`` for a resource object at `pointer` (`/data`; an Atomic Operations
  /// server moves the pointers into the operation with `pointingInto(operation:)`).
  func checkCreate(_ resource: JSONAPIResourceIdentifier, type: String, at pointer: String)
    throws
  {
    try checkType(resource, type: type, at: pointer)
    if let id = resource.id, !acceptsClientGeneratedIDs {
      throw JSONAPIRequestError.clientGeneratedIDNotSupported(id: id)
    }
  }

  /// Refuses a resource object at `pointer` whose `type` is not `type` (`409`, R78, R82).
  func checkType(_ resource: JSONAPIResourceIdentifier, type: String, at pointer: String) throws {
    guard resource.type == type else {
      throw JSONAPIRequestError.typeMismatch(
        expected: type, found: resource.type, pointer: "\(pointer)/type")
    }
  }

  /// Reads the `type`, `id` and `lid` of a create body's primary data and checks them as
  /// ``checkCreate(_:type:)`` does.
  ///
  /// - Returns: The identifier, whose `id` is the client's own when it sent one.
  /// - Throws: The decoder's errors for a body that is not a single resource object, then the
  ///   errors of ``checkCreate(_:type:)``.
  @discardableResult
  public func checkCreate(
    _ body: Data, type: String, decoder: JSONAPIDecoder = JSONAPIDecoder()
  ) throws -> JSONAPIResourceIdentifier {
    let resource = try decoder.decode(JSONAPIResourceIdentifier.self, from: body)
    try checkCreate(resource, type: type)
    return resource
  }

  /// Checks the primary data of an update request (`PATCH` to the resource `type`/`id`).
  ///
  /// - Throws: ``JSONAPIRequestError/typeMismatch(expected:found:pointer:)`` or
  ///   ``JSONAPIRequestError/idMismatch(expected:found:)`` (409);
  ///   ``JSONAPIRequestError/missingID(pointer:)`` (400) when the body has no `id`.
  public func checkUpdate(_ resource: JSONAPIResourceIdentifier, type: String, id: String) throws {
    try checkUpdate(resource, type: type, id: id, at: "/data")
  }

  /// ``checkUpdate(_:type:id:)`` for a resource object at `pointer`.
  func checkUpdate(
    _ resource: JSONAPIResourceIdentifier, type: String, id: String, at pointer: String
  ) throws {
    try checkType(resource, type: type, at: pointer)
    guard let found = resource.id else { throw JSONAPIRequestError.missingID(pointer: pointer) }
    guard found == id else { throw JSONAPIRequestError.idMismatch(expected: id, found: found) }
  }

  /// Reads the `type` and `id` of an update body's primary data and checks them as
  /// ``checkUpdate(_:type:id:)`` does.
  ///
  /// - Throws: The decoder's errors for a body that is not a single resource object, then the
  ///   errors of ``checkUpdate(_:type:id:)``.
  public func checkUpdate(
    _ body: Data, type: String, id: String, decoder: JSONAPIDecoder = JSONAPIDecoder()
  ) throws {
    try checkUpdate(
      decoder.decode(JSONAPIResourceIdentifier.self, from: body), type: type, id: id)
  }

  /// Checks the identifiers sent to a relationship endpoint: each must have the relationship's
  /// `type` and an `id` (or, in an Atomic Operations request, a `lid` of a resource created by an
  /// earlier operation, when `allowsLocalIDs`).
  ///
  /// ```swift
  /// let tags = try JSONAPIDecoder().decode([JSONAPIResourceIdentifier].self, from: body)
  /// try rules.checkLinkage(tags, type: "tags", toMany: true)
  /// // In an operation: identifiers may name earlier operations' resources by lid.
  /// try rules.checkLinkage(tags, type: "tags", toMany: true, allowsLocalIDs: true)
  /// ```
  ///
  /// - Throws: ``JSONAPIRequestError/typeMismatch(expected:found:pointer:)`` (409) naming
  ///   `/data/type` (to-one) or `/data/N/type` (to-many); ``JSONAPIRequestError/missingID(pointer:)``
  ///   (400) for an identifier without `id` (and without `lid`, when `allowsLocalIDs`).
  public func checkLinkage(
    _ identifiers: [JSONAPIResourceIdentifier], type: String, toMany: Bool,
    allowsLocalIDs: Bool = false
  ) throws {
    for (index, identifier) in identifiers.enumerated() {
      let pointer = toMany ? "/data/\(index)" : "/data"
      guard identifier.type == type else {
        throw JSONAPIRequestError.typeMismatch(
          expected: type, found: identifier.type, pointer: pointer + "/type")
      }
      if identifier.id == nil, !(allowsLocalIDs && identifier.lid != nil) {
        throw JSONAPIRequestError.missingID(pointer: pointer)
      }
    }
  }
}
