import Foundation

extension JSONAPIDecoder {
  /// Reads the operations of an Atomic Operations request (`{"atomic:operations": [...]}`), as a
  /// server does: each one's `op`, `ref` or `href` and `meta`, and its `data` to decode with
  /// ``JSONAPIOperation/decode(_:)``, where relationships resolve against the resources of earlier
  /// operations by `id` and `lid`.
  ///
  /// ```swift
  /// for operation in try JSONAPIDecoder().decodeOperations(from: body) {
  ///   switch (operation.op, operation.ref?.relationship) {
  ///   case (.add, nil): try store.insert(operation.decode(Article.self))
  ///   case (.remove, nil): try store.delete(operation.ref)
  ///   default: ...
  ///   }
  /// }
  /// ```
  ///
  /// A document without `atomic:operations` (meta only) gives `[]`.
  ///
  /// The request is read once; each ``JSONAPIOperation/decode(_:)`` afterwards reads its own data
  /// where it lies in it, so decoding every operation costs time in proportion to the request.
  /// At most ``Limits/maxAtomicOperations`` operations (1,000 unless set) are accepted, counted
  /// before any is read:
  ///
  /// ```swift
  /// do {
  ///   let operations = try decoder.decodeOperations(from: body)
  /// } catch {
  ///   // tooManyOperations: status 413, source.pointer "/atomic:operations"
  ///   let answer = try JSONAPIEncoder().encode(errors: [JSONAPIErrorObject(describing: error)])
  /// }
  /// ```
  ///
  /// - Throws: ``JSONAPIError/tooManyOperations(count:limit:)`` when the request holds more
  ///   operations than ``Limits/maxAtomicOperations``;
  ///   ``JSONAPIError/invalidDocument(reason:pointer:)`` when the document breaks a rule of
  ///   the extension (`data` or `included` at the top level, an `op` other than `add`, `update` or
  ///   `remove`, both `ref` and `href`, a `ref` without `type` or without exactly one of `id` and
  ///   `lid`, a `remove` without a target, an `add` or `update` without `data`, a `meta` that is
  ///   neither an object nor `null`); the other ``JSONAPIError``s of
  ///   ``decode(_:from:)-(_,Data)`` for input that is not JSON.
  public func decodeOperations(from data: Data) throws -> [JSONAPIOperation] {
    try decode(ReceivedOperations.self, from: data).operations
  }
}
