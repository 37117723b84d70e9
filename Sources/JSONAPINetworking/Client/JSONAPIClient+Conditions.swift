import Foundation
import JSONAPICodable

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// Conditional requests (RFC 9110 §13): reading a resource with its version, and writes that
// apply only to that version, so that two users editing one resource cannot both win.
extension JSONAPIClient {
  /// Fetches `path` like ``get(_:from:query:)-(_,String,_)`` and returns the whole answer: the
  /// value with its status and headers, among them the version the server named in `ETag`
  /// (``JSONAPIResponse/etag``), to hand to a later write.
  ///
  /// ```swift
  /// let read = try await client.getResponse(Article.self, from: "articles/1")
  /// var edited = read.value
  /// edited.title = "New title"
  /// let updated: Article? = try await client.update(from: read, to: edited, at: "articles/1")
  /// ```
  ///
  /// - Throws: As ``get(_:from:query:)-(_,String,_)``.
  public func getResponse<T: Decodable>(
    _ type: T.Type, from path: String, query: JSONAPIQuery = JSONAPIQuery()
  ) async throws -> JSONAPIResponse<T> {
    try await getResponse(type, at: url(for: path, query: query))
  }

  /// Fetches an absolute URL, such as a `related` link, like ``get(_:from:query:)-(_,URL,_)``,
  /// and returns the whole answer with its ``JSONAPIResponse/etag``.
  ///
  /// ```swift
  /// let author = try await client.getResponse(Person.self, from: relatedURL)
  /// print(author.etag?.headerValue ?? "no ETag")
  /// ```
  ///
  /// - Throws: As ``get(_:from:query:)-(_,URL,_)``.
  public func getResponse<T: Decodable>(
    _ type: T.Type, from url: URL, query: JSONAPIQuery = JSONAPIQuery()
  ) async throws -> JSONAPIResponse<T> {
    try await getResponse(type, at: self.url(url, query: query))
  }

  private func getResponse<T: Decodable>(_ type: T.Type, at url: URL) async throws
    -> JSONAPIResponse<T>
  {
    let raw = try await exchange("GET", url)
    return raw.response(try document(type, from: raw))
  }

  /// Updates a resource with only what changed, like
  /// ``update(from:to:at:query:as:)-(Resource,_,_,_,_)``, and only if it is still the version
  /// `ifMatch` names: the request carries `If-Match`, and a server that honours it refuses with
  /// `412 Precondition Failed` when someone else changed the resource since it was read
  /// (RFC 9110 §13.1.1). `nil` sends no `If-Match`.
  ///
  /// ```swift
  /// let read = try await client.getResponse(Article.self, from: "articles/1")
  /// var edited = read.value
  /// edited.title = "New title"
  /// do {
  ///   let _: Article? = try await client.update(
  ///     from: read.value, to: edited, at: "articles/1", ifMatch: read.etag)
  /// } catch let error as JSONAPIResponseError where error.isPreconditionFailed {
  ///   // Someone else changed it: read it again, apply the edit to that, send again.
  /// }
  /// ```
  ///
  /// A weak tag (`W/"…"`) is sent as it is, but RFC 9110 compares `If-Match` strongly, so a server
  /// that follows it answers `412` to a weak one whatever changed. When nothing changed between
  /// `old` and `new`, no request is sent.
  ///
  /// - Throws: ``JSONAPIResponseError`` whose ``JSONAPIResponseError/isPreconditionFailed`` is
  ///   `true` when the resource is no longer the version named; otherwise as
  ///   ``update(from:to:at:query:as:)-(Resource,_,_,_,_)``.
  public func update<Resource: Encodable, Updated: Decodable>(
    from old: Resource, to new: Resource, at path: String, query: JSONAPIQuery = JSONAPIQuery(),
    ifMatch: JSONAPIEntityTag?, as type: Updated.Type = Updated.self
  ) async throws -> Updated? {
    guard let body = try encoder.encodeChangesIfAny(from: old, to: new) else { return nil }
    let raw = try await exchange(
      "PATCH", url(for: path, query: query), body: body, headers: Self.conditions(ifMatch))
    return try raw.readingWrite { try optionalPrimaryData(type, from: $0) }
  }

  /// Updates a resource with only what changed since `read`, on condition that it is still the
  /// version `read` came with: `If-Match` carries `read`'s ``JSONAPIResponse/etag`` when the server
  /// sent one (and nothing when it sent none). As
  /// ``update(from:to:at:query:ifMatch:as:)`` with `ifMatch: read.etag`.
  ///
  /// ```swift
  /// let read = try await client.getResponse(Article.self, from: "articles/1")
  /// var edited = read.value
  /// edited.title = "New title"
  /// let updated: Article? = try await client.update(from: read, to: edited, at: "articles/1")
  /// ```
  ///
  /// - Throws: As ``update(from:to:at:query:ifMatch:as:)``: a `412` is a
  ///   ``JSONAPIResponseError`` whose ``JSONAPIResponseError/isPreconditionFailed`` is `true`.
  public func update<Resource: Encodable, Updated: Decodable>(
    from read: JSONAPIResponse<Resource>, to new: Resource, at path: String,
    query: JSONAPIQuery = JSONAPIQuery(), as type: Updated.Type = Updated.self
  ) async throws -> Updated? {
    try await update(
      from: read.value, to: new, at: path, query: query, ifMatch: read.etag, as: type)
  }

  /// Updates a resource like ``update(_:at:query:as:)``, only if it is still the version
  /// `ifMatch` names (`If-Match`; `nil` sends none).
  ///
  /// ```swift
  /// let updated: Article? = try await client.update(
  ///   ArticlePatch(id: "1", title: "New"), at: "articles/1", ifMatch: read.etag)
  /// ```
  ///
  /// - Throws: As ``update(from:to:at:query:ifMatch:as:)``.
  public func update<Resource: Encodable, Updated: Decodable>(
    _ resource: Resource, at path: String, query: JSONAPIQuery = JSONAPIQuery(),
    ifMatch: JSONAPIEntityTag?, as type: Updated.Type = Updated.self
  ) async throws -> Updated? {
    let body = try encoder.encodeRequestBody(resource)
    let raw = try await exchange(
      "PATCH", url(for: path, query: query), body: body, headers: Self.conditions(ifMatch))
    return try raw.readingWrite { try optionalPrimaryData(type, from: $0) }
  }

  /// Deletes the resource at `path` like ``delete(_:query:)``, only if it is still the version
  /// `ifMatch` names (`If-Match`; `nil` sends none): a server that honours it answers `412`
  /// rather than delete what someone else changed since it was read.
  ///
  /// ```swift
  /// let read = try await client.getResponse(Article.self, from: "articles/1")
  /// try await client.delete("articles/1", ifMatch: read.etag)
  /// ```
  ///
  /// - Throws: ``JSONAPIResponseError`` whose ``JSONAPIResponseError/isPreconditionFailed`` is
  ///   `true` when the resource is no longer that version; otherwise as ``delete(_:query:)``.
  public func delete(
    _ path: String, query: JSONAPIQuery = JSONAPIQuery(), ifMatch: JSONAPIEntityTag?
  ) async throws {
    _ = try await exchange(
      "DELETE", url(for: path, query: query), headers: Self.conditions(ifMatch))
  }

  /// The `If-Match` header for `tag`, or none.
  static func conditions(_ tag: JSONAPIEntityTag?) -> [String: String] {
    tag.map { ["If-Match": $0.headerValue] } ?? [:]
  }
}
