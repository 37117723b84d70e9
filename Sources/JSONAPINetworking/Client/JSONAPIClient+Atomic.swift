import Foundation
import JSONAPICodable

extension JSONAPIClient {
  /// Performs operations atomically (the Atomic Operations extension, JSON:API 1.1): `POST` of
  /// `{"atomic:operations": [...]}` with the extension's media type, all applied or none.
  ///
  /// Returns one result per operation, in order; an operation that returns nothing gives an empty
  /// result (`try result.decode(Article?.self) == nil`), and a `204 No Content` gives none at all.
  /// Resources in the results resolve their relationships across results, by `id` and `lid`.
  ///
  /// ```swift
  /// let results = try await client.perform(
  ///   [
  ///     .add(Person(lid: "p1", name: "Dan")),
  ///     .add(Article(title: "Atomic", author: .init(type: "people", lid: "p1"))),
  ///   ],
  ///   at: "operations")
  /// let article = try results[1].decode(Article.self)
  /// ```
  ///
  /// - Throws: ``JSONAPIResponseError`` when the server refuses the request (its error objects
  ///   point into the operations: `/atomic:operations/1/data/attributes/title`); the encoder's
  ///   errors for operations it cannot write; ``JSONAPIUnreadableSuccessError`` when the server
  ///   answered `2xx` (and so most likely applied every operation) but its answer cannot be read;
  ///   see ``JSONAPIClient`` for the rest.
  public func perform(_ operations: [JSONAPIOperation], at path: String) async throws
    -> [JSONAPIOperationResult]
  {
    let body = try encoder.encode(operations: operations)
    let raw = try await exchange("POST", url(for: path), body: body, mediaType: atomicMediaType)
    guard !raw.body.isEmpty else { return [] }
    return try raw.readingWrite { try document([JSONAPIOperationResult].self, from: $0) }
  }
}
