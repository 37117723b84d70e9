import Foundation
import JSONAPICodable

extension JSONAPIClient {
  /// Creates `draft` and every new resource reachable from it in one atomic request, and returns
  /// the root as the server created it: its server `id`, its attributes as stored, and its related
  /// resources decoded from the results of the operations that created them.
  ///
  /// The request is `JSONAPIEncoder.encode(graph:)` (with ``encoder``'s settings): one `add`
  /// per resource without `id`, ordered so that each relationship points at a resource that
  /// exists or was added before, `lid`s made up where missing; it is sent with `POST` and the
  /// Atomic Operations media type, as ``perform(_:at:)`` sends operations. Result *i* answers
  /// operation *i*: the root is decoded from its operation's result, and its relationships
  /// resolve against the data of every result (by `id`, and by `lid` when the server echoes it).
  ///
  /// ```swift
  /// let draft = Entry(
  ///   headline: "Graphs", blog: Blog(name: "Swift notes"),
  ///   authors: [Person(name: "Dan"), Person(name: "Eve")])
  /// let created: Entry = try await client.create(graph: draft, at: "operations")
  /// print(created.id, created.blog?.id, created.authors.map(\.id))   // server ids
  /// ```
  ///
  /// A relationship that closes a cycle among new resources is set by a later relationship
  /// operation, whose result carries no data: the resource on that side decodes without it.
  ///
  /// - Parameters:
  ///   - draft: The root resource to create (no `id`), with its related resources.
  ///   - path: The server's Atomic Operations endpoint, such as `operations`.
  ///   - type: The type to decode the root as; usually inferred from the result.
  /// - Throws: ``JSONAPIUnreadableSuccessError`` when the server answered `2xx` (and so most
  ///   likely created every resource) but its answer cannot be read: its ``JSONAPIUnreadableSuccessError/underlyingError``
  ///   is ``JSONAPIClientError/atomicResultsMismatch(operations:results:)`` when the answer has
  ///   not one result per operation (a `204 No Content` included), since the results cannot then
  ///   be matched to the resources, or the `DecodingError` when the root's result does not decode
  ///   as `Created`; ``JSONAPIResponseError`` when the server refuses the
  ///   request (its error objects point into the operations, such as
  ///   `/atomic:operations/2/data/attributes/name`); the errors of
  ///   `JSONAPIEncoder.encode(graph:)`; see ``JSONAPIClient`` for the rest.
  public func create<Resource: Encodable, Created: Decodable>(
    graph draft: Resource, at path: String, as type: Created.Type = Created.self
  ) async throws -> Created {
    let request = try encoder.encodeGraph(draft)
    let raw = try await exchange(
      "POST", url(for: path), body: request.body, mediaType: atomicMediaType)
    return try raw.readingWrite { raw in
      let results =
        raw.body.isEmpty ? [] : try document([JSONAPIOperationResult].self, from: raw)
      // R111: one result per operation, in order. With fewer (or more), which result answers the
      // root cannot be known: refuse rather than decode another resource as the root.
      guard results.count == request.operationCount else {
        throw JSONAPIClientError.atomicResultsMismatch(
          operations: request.operationCount, results: results.count)
      }
      return try results[request.rootOperation].decode(type)
    }
  }
}
