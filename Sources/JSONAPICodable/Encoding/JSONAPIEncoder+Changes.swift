import Foundation

extension JSONAPIEncoder {
  /// Encodes the update (`PATCH`) document that turns `old` into `new`: `type`, `id`, and only the
  /// attributes and relationships whose encoded value differs. Fields the server has and the edit
  /// did not touch are left out, so a concurrent edit of another field survives, and fields the
  /// server refuses to have written (read-only attributes) are not sent unless they changed.
  ///
  /// ```swift
  /// var edited = article               // as read from the server
  /// edited.title = "New title"
  /// edited.subtitle = nil
  /// let body = try JSONAPIEncoder().encode(changesFrom: article, to: edited)
  /// // {"data":{"type":"articles","id":"1","attributes":{"title":"New title","subtitle":null}}}
  /// ```
  ///
  /// Both values are encoded as ``encode(_:)`` encodes them, with every setting of this encoder
  /// (key and date strategies, sparse fieldsets, …), and compared as JSON values, so the model
  /// needs no `Equatable`:
  /// - An attribute is sent whole when it differs: a nested object or array is compared and sent
  ///   as one value. Objects compare without regard to member order; arrays in order.
  /// - An attribute or relationship that `old` has and `new` leaves out (a `nil` optional) is sent
  ///   as `null`; a relationship as `"data": null`, or `"data": []` for a to-many. An empty array
  ///   where `old` has a to-many relationship empties it too.
  /// - A relationship is sent, as identifiers, when its linkage differs; a to-many is compared
  ///   and sent as a whole list. Changes inside a related resource are not changes of this one,
  ///   and nothing goes to `included`. A ``JSONAPIRelationship`` without `data` is never sent.
  /// - The resource's own `meta` and `links` are not sent, nor are fields that
  ///   ``sparseFieldsets`` leaves out: list a type's writable fields there to never send the
  ///   others.
  ///
  /// When nothing changed, the document holds the resource's `type` and `id` alone, a valid update
  /// that changes nothing (`JSONAPIClient.update(from:to:at:)` then sends no request at all).
  ///
  /// - Parameters:
  ///   - old: The resource as the server has it, usually as last read.
  ///   - new: The edited copy of `old`: the same resource, with the same `type` and `id`.
  /// - Returns: A single-resource document for the body of a `PATCH` to the resource's URL.
  /// - Throws: ``JSONAPIError/invalidValue(reason:codingPath:)`` when `old` and `new` are not the
  ///   same resource (another `type` or `id`), when `new` has no `id`, or when either is not a
  ///   single resource (an array, `nil`, a ``JSONAPIDocument``); otherwise the errors of
  ///   ``encode(_:)``.
  public func encode<T: Encodable>(changesFrom old: T, to new: T) throws -> Data {
    try changes(from: old, to: new).document
  }

  /// The update document of ``encode(changesFrom:to:)``, or `nil` when nothing changed: then there
  /// is nothing to send. `JSONAPIClient.update(from:to:at:)` asks this.
  ///
  /// - Throws: As ``encode(changesFrom:to:)``.
  package func encodeChangesIfAny<T: Encodable>(from old: T, to new: T) throws -> Data? {
    let changes = try changes(from: old, to: new)
    return changes.isEmpty ? nil : changes.document
  }

  private func changes<T: Encodable>(from old: T, to new: T) throws -> (
    document: Data, isEmpty: Bool
  ) {
    try withCall { call in
      // A request body: relationships as identifiers, related models never collected.
      let call = call.adjusted { $0.includesRelatedResources = false }
      let changes = try ChangeSet(
        from: resource(old, named: "old", call: call), to: resource(new, named: "new", call: call))
      let document = PlannedDocument(data: .resource(changes.resource))
      return (try DocumentWriter.text(of: document, options: call.options), changes.isEmpty)
    }
  }

  /// `value` encoded and taken apart as a single resource, by the classifier `encode` uses.
  private func resource<T: Encodable>(_ value: T, named name: String, call: EncodingCall)
    throws -> ResourceParts
  {
    let tree = try call.root(for: T.self).wrap(value, key: nil)
    guard case .object(let object) = tree, object.role != .document, object.role != .relationship
    else {
      throw JSONAPIError.invalidValue(
        reason:
          "encode(changesFrom:to:) compares two versions of one resource, and `\(name)` (\(T.self)) "
          + "does not encode as a resource object; pass the resource model itself, not an array, "
          + "nil, a JSONAPIDocument or a JSONAPIRelationship",
        codingPath: EncodingPath.topLevel.text)
    }
    return try ResourceClassifier(options: call.options).resource(
      from: object, at: ResourcePaths.topLevel)
  }
}
