import Foundation

extension JSONAPIEncoder {
  /// Encodes an Atomic Operations request: `{"atomic:operations": [...]}`, with the top-level
  /// `meta` and `jsonapi` when given. Send it with `POST` and the media type
  /// `application/vnd.api+json;ext="https://jsonapi.org/ext/atomic"`.
  ///
  /// Each operation's members come in the order `op`, `ref`, `href`, `data`, `meta`; resources
  /// are encoded as ``encode(_:)`` encodes primary data, with this encoder's settings, and never
  /// with `included`.
  ///
  /// ```swift
  /// let body = try JSONAPIEncoder().encode(operations: [
  ///   .add(Person(lid: "p1", name: "Dan")),
  ///   .remove(JSONAPIResourceIdentifier(type: "articles", id: "7")),
  /// ])
  /// ```
  ///
  /// - Throws: ``JSONAPIError/invalidValue(reason:codingPath:)`` for an empty list, an operation
  ///   with both `ref` and `href`, a `ref` without exactly one of `id` and `lid`, a `remove`
  ///   without a target, an `add` or `update` of a resource whose data is not one resource object,
  ///   an identifier without `id` or `lid`, or a `meta` that is not an object; and whatever
  ///   ``encode(_:)`` throws for a resource, with its coding path under
  ///   `atomic:operations[i].data`.
  public func encode(
    operations: [JSONAPIOperation], meta: JSONAPIValue? = nil, jsonapi: JSONAPIObject? = nil
  ) throws -> Data {
    try withCall {
      try AtomicDocumentWriter(call: $0).operations(operations, meta: meta, jsonapi: jsonapi)
    }
  }

  /// Encodes an Atomic Operations response: `{"atomic:results": [...]}`, one result per operation
  /// in the same order, with the top-level `meta` and `jsonapi` when given. A result without data
  /// is written `{}`.
  ///
  /// ```swift
  /// let body = try JSONAPIEncoder().encode(results: [
  ///   JSONAPIOperationResult(data: createdPerson), JSONAPIOperationResult(),
  /// ])
  /// ```
  ///
  /// - Throws: ``JSONAPIError/invalidValue(reason:codingPath:)`` for an empty list (answer `204 No
  ///   Content` instead) or a `meta` that is not an object; and whatever ``encode(_:)`` throws for
  ///   a result's data, with its coding path under `atomic:results[i].data`.
  public func encode(
    results: [JSONAPIOperationResult], meta: JSONAPIValue? = nil, jsonapi: JSONAPIObject? = nil
  ) throws -> Data {
    try withCall {
      try AtomicDocumentWriter(call: $0).results(results, meta: meta, jsonapi: jsonapi)
    }
  }
}
