/// One operation of an Atomic Operations request (`https://jsonapi.org/ext/atomic`): an `op`, its
/// target (`ref` or `href`), its `data` and `meta`.
///
/// Clients build operations with the static functions and send them with
/// ``JSONAPIEncoder/encode(operations:meta:jsonapi:)``; servers read them with
/// ``JSONAPIDecoder/decodeOperations(from:)`` and decode each one's data with ``decode(_:)``.
///
/// ```swift
/// let body = try JSONAPIEncoder().encode(operations: [
///   .add(Person(lid: "p1", name: "Dan")),
///   .add(Article(lid: "a1", title: "Hello", author: Person(lid: "p1"))),
///   .update(Article(id: "13", title: "Renamed")),
///   .remove(JSONAPIResourceIdentifier(type: "articles", id: "7")),
///   .updateRelationship("author", of: JSONAPIResourceIdentifier(type: "articles", id: "13"),
///                       to: JSONAPIResourceIdentifier(type: "people", lid: "p1")),
/// ])
/// ```
///
/// A resource in an operation is encoded exactly as ``JSONAPIEncoder`` encodes primary data, with
/// that encoder's settings (key strategies, sparse fieldsets, `lid`), but never with `included`: it
/// is encoded when the encoder runs, not when the operation is built.
///
/// See https://jsonapi.org/ext/atomic/#operation-objects.
public struct JSONAPIOperation: Sendable {
  /// What the operation does.
  public var op: JSONAPIOperationCode
  /// The resource or relationship the operation targets, by type and `id` or `lid`. An operation
  /// has at most one of `ref` and ``href``.
  public var ref: JSONAPIOperationReference?
  /// The URL the operation targets, such as `/articles` or `/articles/1/relationships/tags`.
  public var href: String?
  /// The operation's `meta` member; must be an object. A received `"meta": null` reads as `nil`.
  public var meta: JSONAPIValue?
  /// The operation's `data`.
  var payload: AtomicPayload

  /// Creates an operation without `data`, for any target: the general form of ``remove(_:meta:)``.
  public init(
    op: JSONAPIOperationCode, ref: JSONAPIOperationReference? = nil, href: String? = nil,
    meta: JSONAPIValue? = nil
  ) {
    self.init(op: op, ref: ref, href: href, meta: meta, payload: .none)
  }

  init(
    op: JSONAPIOperationCode, ref: JSONAPIOperationReference?, href: String?, meta: JSONAPIValue?,
    payload: AtomicPayload
  ) {
    self.op = op
    self.ref = ref
    self.href = href
    self.meta = meta
    self.payload = payload
  }

  /// Whether the operation has a `data` member (`null` included).
  public var hasData: Bool { payload.hasData }

  /// The operation's `data` as a JSON value, for an operation read from a document (`nil` when
  /// it has none, and for operations built in code): what a server reads once, without parsing
  /// the request again.
  package func dataValue() throws -> JSONAPIValue? {
    guard case .received(let document, let index) = payload else { return nil }
    return try document.dataValue(entry: index)
  }

  /// Decodes the operation's `data` as `T`, as ``JSONAPIDecoder`` decodes primary data: a model
  /// for an `add` or `update` of a resource, ``JSONAPIResourceIdentifier`` (optional for a to-one
  /// relationship, which may be `null`) or `[JSONAPIResourceIdentifier]` for a relationship.
  ///
  /// In an operation read by ``JSONAPIDecoder/decodeOperations(from:)``, relationships resolve
  /// against the resources of the earlier operations, by `id` and by `lid`: a relationship naming
  /// `{"type": "people", "lid": "p1"}` decodes as the person an earlier `add` gave that `lid`.
  /// The operation's own resources come first; when earlier operations hold resources with one
  /// identity, the first of them wins. Each call reads the operation's data where it lies in the
  /// request as read, and looks up the resources its relationships name: it costs time in
  /// proportion to the data and the resources it reaches, not to the size of the request, and
  /// the decoder's limits (relationship depth, resource budget) apply to each call.
  ///
  /// ```swift
  /// for operation in try JSONAPIDecoder().decodeOperations(from: body) {
  ///   if operation.op == .add, operation.ref == nil {
  ///     let article = try operation.decode(Article.self)
  ///   }
  /// }
  /// ```
  ///
  /// Without `data`, an optional `T` decodes as `nil`.
  ///
  /// - Throws: `DecodingError` when the data does not fit `T`, or there is none and `T` is not
  ///   optional; ``JSONAPIError`` when the data is not valid JSON:API (pointers then point into the
  ///   operations document).
  public func decode<T: Decodable>(_ type: T.Type) throws -> T {
    // Built here: read it back as a server would, with default settings.
    try payload.decode(type, entry: "operation") {
      let body = try JSONAPIEncoder().encode(operations: [self])
      return try JSONAPIDecoder().decodeOperations(from: body).first.map { try $0.decode(type) }
    }
  }
}

extension JSONAPIOperation {
  /// Creates a resource: `{"op": "add", "data": {...}}`. Give the resource a `lid` to refer to it
  /// from later operations of the same request; `href` may name the collection (`/articles`).
  ///
  /// ```swift
  /// let operation = JSONAPIOperation.add(Article(lid: "a1", title: "Hello"))
  /// ```
  ///
  /// The resource is encoded when ``JSONAPIEncoder/encode(operations:meta:jsonapi:)`` runs, with
  /// that encoder's settings; it must encode as a single resource with a `type`, or that call throws.
  public static func add(
    _ resource: sending some Encodable, href: String? = nil, meta: JSONAPIValue? = nil
  ) -> JSONAPIOperation {
    JSONAPIOperation(
      op: .add, ref: nil, href: href, meta: meta, payload: .value(EncodableBox(resource)))
  }

  /// Updates a resource: `{"op": "update", "data": {...}}`, the resource with its `type` and `id`
  /// (or `lid`). Fields left out (a `nil` optional) stay unchanged; `href` may name the resource.
  ///
  /// ```swift
  /// let operation = JSONAPIOperation.update(Article(id: "13", title: "Renamed"))
  /// ```
  ///
  /// The resource is encoded when ``JSONAPIEncoder/encode(operations:meta:jsonapi:)`` runs, with
  /// that encoder's settings; it must encode as a single resource with a `type`, or that call throws.
  public static func update(
    _ resource: sending some Encodable, href: String? = nil, meta: JSONAPIValue? = nil
  ) -> JSONAPIOperation {
    JSONAPIOperation(
      op: .update, ref: nil, href: href, meta: meta, payload: .value(EncodableBox(resource)))
  }

  /// Deletes a resource: `{"op": "remove", "ref": {"type": ..., "id": ...}}` (or `lid`). The
  /// identifier's own `meta` has no place in a reference and is not written.
  ///
  /// ```swift
  /// let operation = JSONAPIOperation.remove(JSONAPIResourceIdentifier(type: "articles", id: "7"))
  /// ```
  public static func remove(_ identifier: JSONAPIResourceIdentifier, meta: JSONAPIValue? = nil)
    -> JSONAPIOperation
  {
    JSONAPIOperation(op: .remove, ref: JSONAPIOperationReference(identifier), meta: meta)
  }

  /// Deletes the resource at `href`: `{"op": "remove", "href": "/articles/7"}`.
  public static func remove(href: String, meta: JSONAPIValue? = nil) -> JSONAPIOperation {
    JSONAPIOperation(op: .remove, href: href, meta: meta)
  }
}

extension JSONAPIOperation {
  /// Sets a to-one relationship, or clears it with `nil`: `{"op": "update", "ref": {..., "relationship":
  /// "author"}, "data": {"type": "people", "id": "9"}}` (or `"data": null`).
  ///
  /// ```swift
  /// let article = JSONAPIResourceIdentifier(type: "articles", id: "13")
  /// let operation = JSONAPIOperation.updateRelationship(
  ///   "author", of: article, to: JSONAPIResourceIdentifier(type: "people", id: "9"))
  /// ```
  public static func updateRelationship(
    _ relationship: String, of resource: JSONAPIResourceIdentifier,
    to identifier: JSONAPIResourceIdentifier?, meta: JSONAPIValue? = nil
  ) -> JSONAPIOperation {
    JSONAPIOperation(
      op: .update, ref: JSONAPIOperationReference(resource, relationship: relationship), href: nil,
      meta: meta, payload: .identifier(identifier))
  }

  /// Replaces every member of a to-many relationship (`[]` clears it): `{"op": "update", "ref":
  /// {..., "relationship": "tags"}, "data": [...]}`.
  public static func updateRelationship(
    _ relationship: String, of resource: JSONAPIResourceIdentifier,
    to identifiers: [JSONAPIResourceIdentifier], meta: JSONAPIValue? = nil
  ) -> JSONAPIOperation {
    JSONAPIOperation(
      op: .update, ref: JSONAPIOperationReference(resource, relationship: relationship), href: nil,
      meta: meta, payload: .identifiers(identifiers))
  }

  /// Adds members to a to-many relationship: `{"op": "add", "ref": {..., "relationship": "tags"},
  /// "data": [...]}`.
  ///
  /// ```swift
  /// let operation = JSONAPIOperation.addToRelationship(
  ///   "tags", of: JSONAPIResourceIdentifier(type: "articles", id: "13"),
  ///   [JSONAPIResourceIdentifier(type: "tags", id: "2")])
  /// ```
  public static func addToRelationship(
    _ relationship: String, of resource: JSONAPIResourceIdentifier,
    _ identifiers: [JSONAPIResourceIdentifier], meta: JSONAPIValue? = nil
  ) -> JSONAPIOperation {
    JSONAPIOperation(
      op: .add, ref: JSONAPIOperationReference(resource, relationship: relationship), href: nil,
      meta: meta, payload: .identifiers(identifiers))
  }

  /// Removes members from a to-many relationship: `{"op": "remove", "ref": {..., "relationship":
  /// "tags"}, "data": [...]}`.
  public static func removeFromRelationship(
    _ relationship: String, of resource: JSONAPIResourceIdentifier,
    _ identifiers: [JSONAPIResourceIdentifier], meta: JSONAPIValue? = nil
  ) -> JSONAPIOperation {
    JSONAPIOperation(
      op: .remove, ref: JSONAPIOperationReference(resource, relationship: relationship), href: nil,
      meta: meta, payload: .identifiers(identifiers))
  }

  /// Sets or clears the to-one relationship at `href` (such as `/articles/13/relationships/author`).
  public static func updateRelationship(
    href: String, to identifier: JSONAPIResourceIdentifier?, meta: JSONAPIValue? = nil
  ) -> JSONAPIOperation {
    JSONAPIOperation(
      op: .update, ref: nil, href: href, meta: meta, payload: .identifier(identifier))
  }

  /// Replaces every member of the to-many relationship at `href`.
  public static func updateRelationship(
    href: String, to identifiers: [JSONAPIResourceIdentifier], meta: JSONAPIValue? = nil
  ) -> JSONAPIOperation {
    JSONAPIOperation(
      op: .update, ref: nil, href: href, meta: meta, payload: .identifiers(identifiers))
  }

  /// Adds members to the to-many relationship at `href`.
  public static func addToRelationship(
    href: String, _ identifiers: [JSONAPIResourceIdentifier], meta: JSONAPIValue? = nil
  ) -> JSONAPIOperation {
    JSONAPIOperation(op: .add, ref: nil, href: href, meta: meta, payload: .identifiers(identifiers))
  }

  /// Removes members from the to-many relationship at `href`.
  public static func removeFromRelationship(
    href: String, _ identifiers: [JSONAPIResourceIdentifier], meta: JSONAPIValue? = nil
  ) -> JSONAPIOperation {
    JSONAPIOperation(
      op: .remove, ref: nil, href: href, meta: meta, payload: .identifiers(identifiers))
  }
}
