import Foundation
import JSONAPICodable

extension JSONAPIClient {
  /// Updates a resource with only what changed: `PATCH` to `path` of the document
  /// `JSONAPIEncoder.encode(changesFrom:to:)` makes from `old` and `new`, which carries `type`,
  /// `id` and the attributes and relationships whose value differs (a field `new` no longer has
  /// as `null`). Fields nobody edited are not sent, so the server keeps what others changed in
  /// them since `old` was read.
  ///
  /// ```swift
  /// let article = try await client.get(Article.self, from: "articles/1")
  /// var edited = article
  /// edited.title = "New title"
  /// // PATCH /articles/1 {"data":{"type":"articles","id":"1","attributes":{"title":"New title"}}}
  /// let updated: Article? = try await client.update(from: article, to: edited, at: "articles/1")
  /// let current = updated ?? edited
  /// ```
  ///
  /// The answer is read as ``update(_:at:query:as:)`` reads it. `nil` means the server has nothing to
  /// tell beyond what `new` holds for the fields sent:
  /// - nothing changed between `old` and `new`: no request is sent at all;
  /// - or the server answered without a resource (`204 No Content`, or `200` with only `meta`):
  ///   it applied the changes exactly as sent (R82).
  /// Fields not sent may have changed on the server in between; `GET` the resource to read them.
  ///
  /// - Parameters:
  ///   - old: The resource as the server has it, usually as last read.
  ///   - new: The edited copy of `old`, with the same `type` and `id`.
  ///   - path: The resource's URL, such as `articles/1`.
  ///   - query: Parameters for the answer, such as `include` and sparse fieldsets. Default: none.
  ///   - type: The type to decode; usually inferred from the result.
  /// - Returns: The resource the server answers with, or `nil` as above.
  /// - Throws: `JSONAPIError.invalidValue(reason:codingPath:)` before any request when `old` and
  ///   `new` are not the same resource (see `JSONAPIEncoder.encode(changesFrom:to:)`);
  ///   ``JSONAPIResponseError`` (`403`, `404`, `409`, `422`, …); encoding errors;
  ///   ``JSONAPIUnreadableSuccessError`` when the server answered `2xx` (and so most likely
  ///   applied the changes) but its answer cannot be decoded; see ``JSONAPIClient`` for the rest.
  public func update<Resource: Encodable, Updated: Decodable>(
    from old: Resource, to new: Resource, at path: String, query: JSONAPIQuery = JSONAPIQuery(),
    as type: Updated.Type = Updated.self
  ) async throws -> Updated? {
    guard let body = try encoder.encodeChangesIfAny(from: old, to: new) else { return nil }
    let raw = try await exchange("PATCH", url(for: path, query: query), body: body)
    return try raw.readingWrite { try optionalPrimaryData(type, from: $0) }
  }
}
