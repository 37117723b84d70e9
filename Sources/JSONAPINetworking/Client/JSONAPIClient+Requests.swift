import Foundation
import JSONAPICodable

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// MARK: Reading

extension JSONAPIClient {
  /// Fetches `path` and decodes its document as `type`.
  ///
  /// `type` is the primary data (`Article`, `[Article]`, `Article?`, `[JSONAPIResourceIdentifier]`
  /// for a relationship endpoint) or a whole `JSONAPIDocument` to read `meta`
  /// and `links` too.
  ///
  /// ```swift
  /// let page = try await client.get(
  ///   JSONAPIDocument<[Article], PageMeta>.self, from: "articles",
  ///   query: JSONAPIQuery().including("author"))
  /// let one = try await client.get(Article.self, from: "articles/1")
  /// ```
  ///
  /// - Throws: ``JSONAPIResponseError`` for a non-2xx answer;
  ///   ``JSONAPIClientError/missingDocument(statusCode:)`` for an empty one; see ``JSONAPIClient``
  ///   for the rest.
  public func get<T: Decodable>(
    _ type: T.Type, from path: String, query: JSONAPIQuery = JSONAPIQuery()
  ) async throws -> T {
    try await get(type, at: url(for: path, query: query))
  }

  /// Fetches an absolute URL, such as a `related` link, and decodes its document as `type`.
  ///
  /// ```swift
  /// if let related = article.authorLinks?.related?.url {
  ///   let author = try await client.get(Person.self, from: related)
  /// }
  /// ```
  ///
  /// - Throws: ``JSONAPIClientError/originNotAllowed(_:)`` when `url` is on another origin than
  ///   ``baseURL`` and the configuration does not allow it; otherwise as ``get(_:from:query:)-(_,String,_)``.
  public func get<T: Decodable>(
    _ type: T.Type, from url: URL, query: JSONAPIQuery = JSONAPIQuery()
  ) async throws -> T {
    try await get(type, at: self.url(url, query: query))
  }

  private func get<T: Decodable>(_ type: T.Type, at url: URL) async throws -> T {
    let raw = try await exchange("GET", url)
    return try document(type, from: raw)
  }

  /// Every page of a paginated collection, following `links.next` until the last page, or
  /// `links.prev` until the first when `direction` is ``JSONAPIPageDirection/backward``.
  ///
  /// ```swift
  /// for try await page in client.pages(of: [Article].self, from: "articles") {
  ///   page.data.forEach { print($0.title) }
  ///   print(page.meta?["pagination"]?["count"] ?? "")
  /// }
  /// ```
  ///
  /// Any paging strategy works, since only the server's links are followed: page numbers,
  /// offsets, or the cursors of the Cursor Pagination profile, whose `next` link may lead to an
  /// empty page with a `null` link (read and given like the others; the sequence ends after it).
  /// To walk a cursor-paginated collection backwards from a cursor:
  ///
  /// ```swift
  /// let before = JSONAPIQuery().page(size: 10, before: cursor)
  /// for try await page in client.pages(
  ///   of: [Article].self, from: "articles", query: before, direction: .backward)
  /// {
  ///   if page.rangeTruncated { print("a range request got only the first items") }
  /// }
  /// ```
  ///
  /// A relative link resolves against the URL of the page that holds it. The sequence throws
  /// ``JSONAPIClientError/paginationCycle(_:)`` when a link leads back to a page it has read, and
  /// ``JSONAPIClientError/tooManyPages(limit:)`` after ``Configuration/maxPages`` pages; otherwise
  /// it throws what ``get(_:from:query:)-(_,String,_)`` throws (a server's refusal of a page size
  /// or cursor is a ``JSONAPIResponseError`` whose error names the parameter in
  /// `source.parameter`), and ends after the first error.
  ///
  /// - Parameters:
  ///   - type: The primary data of one page, such as `[Article]`.
  ///   - path: The collection, resolved against ``baseURL``.
  ///   - query: Parameters of the first request; later pages use the server's links as they are.
  ///   - direction: ``JSONAPIPageDirection/forward`` (the default) follows `next` links;
  ///     ``JSONAPIPageDirection/backward`` follows `prev` links.
  public func pages<PrimaryData: Decodable>(
    of type: PrimaryData.Type, from path: String, query: JSONAPIQuery = JSONAPIQuery(),
    direction: JSONAPIPageDirection = .forward
  ) -> JSONAPIPages<PrimaryData, JSONAPIValue> {
    pages(of: type, meta: JSONAPIValue.self, from: path, query: query, direction: direction)
  }

  /// Every page of a paginated collection with its `meta` decoded as `Meta`, following
  /// `links.next` (or `links.prev`, walking ``JSONAPIPageDirection/backward``) as
  /// ``pages(of:from:query:direction:)`` does.
  ///
  /// ```swift
  /// struct PageMeta: Decodable { var total: Int }
  /// for try await page in client.pages(of: [Article].self, meta: PageMeta.self, from: "articles") {
  ///   print(page.data.count, "of", page.meta?.total ?? 0)
  /// }
  /// ```
  ///
  /// For a server that follows the Cursor Pagination profile, `JSONAPICursorPageMeta` reads its
  /// `meta.page` (`total`, `estimatedTotal`, `rangeTruncated`):
  ///
  /// ```swift
  /// for try await page in client.pages(
  ///   of: [Article].self, meta: JSONAPICursorPageMeta.self, from: "articles",
  ///   query: JSONAPIQuery().page(size: 50))
  /// {
  ///   print(page.data.count, "of", page.meta?.total ?? page.meta?.estimatedTotal ?? 0)
  /// }
  /// ```
  ///
  /// A page whose `meta` does not decode as `Meta` ends the sequence with that `DecodingError`;
  /// a page without `meta` has `meta == nil`.
  ///
  /// - Parameters:
  ///   - type: The primary data of one page, such as `[Article]`.
  ///   - meta: The type of each page's top-level `meta`.
  ///   - path: The collection, resolved against ``baseURL``.
  ///   - query: Parameters of the first request; later pages use the server's links as they are.
  ///   - direction: ``JSONAPIPageDirection/forward`` (the default) follows `next` links;
  ///     ``JSONAPIPageDirection/backward`` follows `prev` links.
  public func pages<PrimaryData: Decodable, Meta: Decodable>(
    of type: PrimaryData.Type, meta: Meta.Type, from path: String,
    query: JSONAPIQuery = JSONAPIQuery(), direction: JSONAPIPageDirection = .forward
  ) -> JSONAPIPages<PrimaryData, Meta> {
    JSONAPIPages(client: self, first: .path(path, query), direction: direction)
  }
}

// MARK: Writing

extension JSONAPIClient {
  /// Creates a resource: `POST` of `resource` to the collection at `path`; returns the resource
  /// the server answers with.
  ///
  /// ```swift
  /// let created: Article = try await client.create(NewArticle(title: "Hi"), at: "articles")
  /// let withAuthor: Article = try await client.create(
  ///   NewArticle(title: "Hi"), at: "articles", query: JSONAPIQuery().including("author"))
  /// ```
  ///
  /// The body is a request document: related resources go as identifiers and nothing goes to
  /// `included` (`JSONAPIEncoder.encodeRequestBody(_:)`), so the fields of related models are
  /// never sent. A `201` with the resource is decoded. When the answer has no primary data
  /// (`204 No Content`, or `201` with only `meta`), the server kept the resource as it was sent,
  /// and the sent document is decoded as `Created` instead: its related resources then carry
  /// their identifiers only. To ignore the answer, leave the result unused:
  /// `try await client.create(draft, at: "articles")`.
  ///
  /// - Parameters:
  ///   - resource: The new resource, encoded with ``encoder`` (give it a `type`; leave `id` out
  ///     unless the client generates it).
  ///   - path: The collection, such as `articles`.
  ///   - query: Parameters for the answer, such as `include` and sparse fieldsets. Default: none.
  ///   - type: The type to decode; usually inferred from the result.
  /// - Throws: ``JSONAPIResponseError`` (`403`, `409`, `422`, …); encoding errors;
  ///   ``JSONAPIUnreadableSuccessError`` when the server answered `2xx` (and so most likely
  ///   created the resource) but its answer cannot be decoded as `Created`; see ``JSONAPIClient``
  ///   for the rest.
  public func create<Resource: Encodable, Created: Decodable>(
    _ resource: Resource, at path: String, query: JSONAPIQuery = JSONAPIQuery(),
    as type: Created.Type = Created.self
  ) async throws -> Created {
    try await createResponse(resource, at: path, query: query, as: type).value
  }

  /// Creates a resource like ``create(_:at:query:as:)`` and returns the whole answer, to read
  /// its status and `Location`.
  ///
  /// ```swift
  /// let response: JSONAPIResponse<Article> = try await client.create(newArticle, at: "articles")
  /// print(response.location?.absoluteString ?? "no Location")
  /// ```
  ///
  /// - Throws: As ``create(_:at:query:as:)``.
  public func create<Resource: Encodable, Created: Decodable>(
    _ resource: Resource, at path: String, query: JSONAPIQuery = JSONAPIQuery()
  ) async throws -> JSONAPIResponse<Created> {
    try await createResponse(resource, at: path, query: query, as: Created.self)
  }

  /// Creates a resource like ``create(_:at:query:as:)`` without reading the answer: for a
  /// call whose result is unused.
  ///
  /// ```swift
  /// try await client.create(NewArticle(title: "Hi"), at: "articles")
  /// ```
  ///
  /// - Throws: ``JSONAPIResponseError`` (`403`, `409`, `422`, …); encoding errors; see
  ///   ``JSONAPIClient`` for the rest.
  public func create<Resource: Encodable>(
    _ resource: Resource, at path: String, query: JSONAPIQuery = JSONAPIQuery()
  ) async throws {
    let body = try encoder.encodeRequestBody(resource)
    _ = try await exchange("POST", url(for: path, query: query), body: body)
  }

  private func createResponse<Resource: Encodable, Created: Decodable>(
    _ resource: Resource, at path: String, query: JSONAPIQuery, as type: Created.Type
  ) async throws -> JSONAPIResponse<Created> {
    let body = try encoder.encodeRequestBody(resource)
    let raw = try await exchange("POST", url(for: path, query: query), body: body)
    return try raw.readingWrite { raw in
      if let created = try optionalPrimaryData(Created.self, from: raw) {
        return raw.response(created)
      }
      return raw.response(try decoder.decode(Created.self, from: body))
    }
  }

  /// Updates a resource: `PATCH` of `resource` to its URL; returns the resource the server answers
  /// with, or `nil` when it answers without one (`204`, or `200` with only `meta`): the server then
  /// applied the change exactly as sent.
  ///
  /// ```swift
  /// let updated: Article? = try await client.update(
  ///   ArticlePatch(id: "1", title: "New"), at: "articles/1",
  ///   query: JSONAPIQuery().including("author"))
  /// ```
  ///
  /// Members left out of `resource` (nil optionals) are left unchanged by the server. Related
  /// resources go as identifiers, never to `included`, as in ``create(_:at:query:as:)``. To
  /// ignore the answer, leave the result unused: `try await client.update(patch, at: "articles/1")`.
  ///
  /// - Parameters:
  ///   - resource: The changes, encoded with ``encoder``: `type`, `id` and the members to change.
  ///   - path: The resource's URL, such as `articles/1`.
  ///   - query: Parameters for the answer, such as `include` and sparse fieldsets. Default: none.
  ///   - type: The type to decode; usually inferred from the result.
  /// - Throws: ``JSONAPIResponseError`` (`403`, `404`, `409`, `422`, …); encoding errors;
  ///   ``JSONAPIUnreadableSuccessError`` when the server answered `2xx` (and so most likely
  ///   applied the change) but its answer cannot be decoded; see ``JSONAPIClient`` for the rest.
  public func update<Resource: Encodable, Updated: Decodable>(
    _ resource: Resource, at path: String, query: JSONAPIQuery = JSONAPIQuery(),
    as type: Updated.Type = Updated.self
  ) async throws -> Updated? {
    let body = try encoder.encodeRequestBody(resource)
    let raw = try await exchange("PATCH", url(for: path, query: query), body: body)
    return try raw.readingWrite { try optionalPrimaryData(type, from: $0) }
  }

  /// Updates a resource like ``update(_:at:query:as:)`` without reading the answer: for a call
  /// whose result is unused.
  ///
  /// ```swift
  /// try await client.update(ArticlePatch(id: "1", title: "New"), at: "articles/1")
  /// ```
  ///
  /// - Throws: ``JSONAPIResponseError`` (`403`, `404`, `409`, `422`, …); encoding errors; see
  ///   ``JSONAPIClient`` for the rest.
  public func update<Resource: Encodable>(
    _ resource: Resource, at path: String, query: JSONAPIQuery = JSONAPIQuery()
  ) async throws {
    let body = try encoder.encodeRequestBody(resource)
    _ = try await exchange("PATCH", url(for: path, query: query), body: body)
  }

  /// Deletes the resource at `path`: `DELETE`, expecting `204`, or `200` with a `meta` document.
  ///
  /// ```swift
  /// try await client.delete("articles/1")
  /// try await client.delete("articles/2", query: JSONAPIQuery().adding("reason", "spam"))
  /// ```
  ///
  /// - Parameters:
  ///   - path: The resource's URL, such as `articles/1`.
  ///   - query: Parameters to send with the request. Default: none.
  /// - Throws: ``JSONAPIResponseError`` (`404`, `403`, …); see ``JSONAPIClient`` for the rest.
  public func delete(_ path: String, query: JSONAPIQuery = JSONAPIQuery()) async throws {
    _ = try await exchange("DELETE", url(for: path, query: query))
  }
}

// MARK: Relationships

extension JSONAPIClient {
  /// Replaces a to-one relationship: `PATCH` of `{"data": identifier}` to its relationship URL;
  /// `nil` clears it.
  ///
  /// ```swift
  /// try await client.updateRelationship(
  ///   "articles/1/relationships/author", to: JSONAPIResourceIdentifier(type: "people", id: "9"))
  /// try await client.updateRelationship("articles/1/relationships/author", to: JSONAPIResourceIdentifier?.none)
  /// ```
  ///
  /// - Throws: ``JSONAPIResponseError`` (`403`, `404`, `409`, …); see ``JSONAPIClient``.
  public func updateRelationship(_ path: String, to identifier: JSONAPIResourceIdentifier?)
    async throws
  {
    let body = try encoder.encodeRequestBody(identifier)
    _ = try await exchange("PATCH", url(for: path), body: body)
  }

  /// Replaces all members of a to-many relationship: `PATCH` of `{"data": [...]}`; `[]` clears it.
  ///
  /// ```swift
  /// try await client.updateRelationship(
  ///   "articles/1/relationships/tags", to: [JSONAPIResourceIdentifier(type: "tags", id: "2")])
  /// ```
  ///
  /// - Throws: ``JSONAPIResponseError`` (a server may refuse full replacement with `403`); see
  ///   ``JSONAPIClient``.
  public func updateRelationship(_ path: String, to identifiers: [JSONAPIResourceIdentifier])
    async throws
  {
    let body = try encoder.encodeRequestBody(identifiers)
    _ = try await exchange("PATCH", url(for: path), body: body)
  }

  /// Adds members to a to-many relationship: `POST` of `{"data": [...]}`. Members already present
  /// are not duplicated.
  ///
  /// ```swift
  /// try await client.addToRelationship(
  ///   "articles/1/relationships/tags", [JSONAPIResourceIdentifier(type: "tags", id: "3")])
  /// ```
  ///
  /// - Throws: ``JSONAPIResponseError`` (`403`, `404`, …); see ``JSONAPIClient``.
  public func addToRelationship(_ path: String, _ identifiers: [JSONAPIResourceIdentifier])
    async throws
  {
    let body = try encoder.encodeRequestBody(identifiers)
    _ = try await exchange("POST", url(for: path), body: body)
  }

  /// Removes members from a to-many relationship: `DELETE` with a body `{"data": [...]}`.
  ///
  /// ```swift
  /// try await client.removeFromRelationship(
  ///   "articles/1/relationships/tags", [JSONAPIResourceIdentifier(type: "tags", id: "3")])
  /// ```
  ///
  /// - Throws: ``JSONAPIResponseError`` (`403`, `404`, …); see ``JSONAPIClient``.
  public func removeFromRelationship(_ path: String, _ identifiers: [JSONAPIResourceIdentifier])
    async throws
  {
    let body = try encoder.encodeRequestBody(identifiers)
    _ = try await exchange("DELETE", url(for: path), body: body)
  }
}
