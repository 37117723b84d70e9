import Foundation
import JSONAPICodable

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A successful (2xx) answer before decoding.
struct RawResponse: Sendable {
  /// The request's method, such as `POST`.
  var method: String
  var statusCode: Int
  var headers: [String: String]
  var body: Data
  /// The URL that answered; relative links in the body resolve against it.
  var url: URL
  /// Whether the body is the cache's, after a `304`.
  var isFromCache = false

  var contentType: String? { headers["content-type"] }

  func response<Value>(_ value: Value) -> JSONAPIResponse<Value> {
    var response = JSONAPIResponse(
      value: value, statusCode: statusCode, headers: headers, url: url)
    response.isFromCache = isFromCache
    return response
  }
}

// The one request path every call goes through, `perform` (atomic operations) included, which
// sends the extension's media type.
extension JSONAPIClient {
  /// The configured media type with the Atomic Operations extension added to its `ext` list.
  var atomicMediaType: JSONAPIMediaType {
    var mediaType = configuration.mediaType
    if !mediaType.extensions.contains(JSONAPIMediaType.atomicExtension) {
      mediaType.extensions.append(JSONAPIMediaType.atomicExtension)
    }
    return mediaType
  }

  /// `path` resolved against the base URL, with `query` appended.
  func url(for path: String, query: JSONAPIQuery = JSONAPIQuery()) throws -> URL {
    guard let base = directoryBaseURL,
      let resolved = URL(jsonAPIReference: path, relativeTo: base)?.absoluteURL,
      let target = query.url(relativeTo: resolved)
    else { throw JSONAPIClientError.invalidURL(path) }
    return target
  }

  /// `url` with `query` appended.
  func url(_ url: URL, query: JSONAPIQuery) throws -> URL {
    guard let target = query.url(relativeTo: url.absoluteURL) else {
      throw JSONAPIClientError.invalidURL(url.absoluteString)
    }
    return target
  }

  /// The base URL with a final `/`, so that `articles` lands under its last path segment.
  private var directoryBaseURL: URL? {
    let absolute = baseURL.absoluteURL
    // (`URL.path` drops a final slash, so look at the text.)
    guard absolute.query == nil, absolute.fragment == nil,
      !absolute.absoluteString.hasSuffix("/")
    else { return absolute }
    return URL(string: absolute.absoluteString + "/")
  }

  /// Throws ``JSONAPIClientError/originNotAllowed(_:)`` unless `url` may be requested.
  func checkOrigin(_ url: URL) throws {
    guard let origin = Origin(url) else { throw JSONAPIClientError.originNotAllowed(url) }
    switch configuration.allowedOrigins {
    case .any:
      return
    case .baseURLOnly:
      if origin == Origin(baseURL) { return }
    case .baseURLAnd(let others):
      if origin == Origin(baseURL) || others.contains(where: { Origin($0) == origin }) { return }
    }
    throw JSONAPIClientError.originNotAllowed(url)
  }

  /// Sends one request and returns its 2xx answer, trying again as
  /// ``Configuration/retryPolicy`` allows.
  ///
  /// - Throws: ``JSONAPIResponseError`` for any other status; ``JSONAPIClientError`` for a refused
  ///   origin or an oversized body; the hook's and the transport's errors; `CancellationError`,
  ///   also during a wait between tries.
  func exchange(
    _ method: String, _ url: URL, body: Data? = nil, mediaType: JSONAPIMediaType? = nil,
    headers extraHeaders: [String: String] = [:]
  ) async throws -> RawResponse {
    try checkOrigin(url)
    let policy = configuration.retryPolicy
    guard policy.retries(method) else {
      return try await exchangeOnce(method, url, body, mediaType, extraHeaders)
    }
    let clock = ContinuousClock()
    let start = clock.now
    var attempt = 1
    while true {
      do {
        return try await exchangeOnce(method, url, body, mediaType, extraHeaders)
      } catch {
        guard
          let wait = policy.delay(after: error, attempt: attempt, elapsed: clock.now - start)
        else { throw error }
        // Throws CancellationError as soon as the task is cancelled.
        try await Task.sleep(for: wait)
        attempt += 1
      }
    }
  }

  /// One try of ``exchange(_:_:body:mediaType:headers:)``, with the cache's conditions.
  private func exchangeOnce(
    _ method: String, _ url: URL, _ body: Data?, _ mediaType: JSONAPIMediaType?,
    _ extraHeaders: [String: String]
  ) async throws -> RawResponse {
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.httpBody = body
    request.setJSONAPIHeaders(mediaType ?? configuration.mediaType, setsContentType: body != nil)
    for (name, value) in extraHeaders { request.setValue(value, forHTTPHeaderField: name) }
    if let prepare = configuration.prepareRequest {
      try await prepare(&request)
      // The hook may have rewritten the URL: the rule holds for the URL actually requested.
      try checkOrigin(request.url ?? url)
    }
    let requested = request.url ?? url
    guard let cache = configuration.cache else { return try await send(request, method, url) }
    guard method == "GET" else {
      // A write makes what was read at its URL (and at the answer's Location) stale.
      // Whatever the outcome: a write that failed may still have been applied.
      defer { cache.invalidate(requested) }
      let raw = try await send(request, method, url)
      if let location = raw.headers["location"],
        let target = URL(jsonAPIReference: location, relativeTo: raw.url),
        Origin(target) == Origin(requested)
      {
        cache.invalidate(target)
      }
      return raw
    }
    let appConditioned = (request.allHTTPHeaderFields ?? [:]).keys.contains {
      JSONAPIResponseCache.conditionalHeaders.contains($0.lowercased())
    }
    guard !appConditioned, let key = JSONAPIResponseCache.Key(request) else {
      return try await send(request, method, url)
    }
    guard let stored = cache.entry(for: key) else {
      let raw = try await send(request, method, url)
      if raw.statusCode == 200 {
        cache.store(
          key, requestURL: requested, answeredURL: raw.url, headers: raw.headers, body: raw.body)
      }
      return raw
    }
    var conditional = request
    conditional.setValue(stored.etag.headerValue, forHTTPHeaderField: "If-None-Match")
    let raw: RawResponse
    do {
      raw = try await send(conditional, method, url, notModifiedIsAnswer: true)
    } catch {
      cache.remove(key)
      throw error
    }
    guard raw.statusCode == 304 else {
      if raw.statusCode == 200 {
        cache.store(
          key, requestURL: requested, answeredURL: raw.url, headers: raw.headers, body: raw.body)
      } else {
        cache.remove(key)
      }
      return raw
    }
    // A 304 that names another version than the one kept cannot be answered from it: ask again
    // without the condition (RFC 9111 §4.3.4).
    let named = raw.headers["etag"].flatMap(JSONAPIEntityTag.init(headerValue:))
    guard named.map({ $0.matchesWeakly(stored.etag) }) ?? true,
      let refreshed = cache.refresh(key, with: raw.headers)
    else {
      cache.remove(key)
      let fresh = try await send(request, method, url)
      if fresh.statusCode == 200 {
        cache.store(
          key, requestURL: requested, answeredURL: fresh.url, headers: fresh.headers,
          body: fresh.body)
      }
      return fresh
    }
    return RawResponse(
      method: method, statusCode: 200, headers: refreshed.headers, body: refreshed.body,
      url: refreshed.url, isFromCache: true)
  }

  /// Sends a prepared request; throws ``JSONAPIResponseError`` for a status outside 2xx (but for
  /// a `304` when `notModifiedIsAnswer`).
  private func send(
    _ request: URLRequest, _ method: String, _ url: URL, notModifiedIsAnswer: Bool = false
  ) async throws -> RawResponse {
    try Task.checkCancellation()
    let limit = configuration.maxResponseBytes
    let (data, response) = try await transport.send(request, maxResponseBytes: limit)
    try Task.checkCancellation()
    guard data.count <= limit else { throw JSONAPIClientError.responseTooLarge(limit: limit) }
    var headers: [String: String] = [:]
    for (name, value) in response.allHeaderFields {
      if let name = name as? String, let value = value as? String {
        headers[name.lowercased()] = value
      }
    }
    let answered = response.url ?? request.url ?? url
    let notModified = notModifiedIsAnswer && response.statusCode == 304
    guard (200..<300).contains(response.statusCode) || notModified else {
      throw responseError(
        status: response.statusCode, headers: headers, body: data, method: method, url: answered)
    }
    return RawResponse(
      method: method, statusCode: response.statusCode, headers: headers, body: data, url: answered)
  }

  /// The error for a non-2xx answer, with the error objects when the body is an error document.
  private func responseError(
    status: Int, headers: [String: String], body: Data, method: String, url: URL
  ) -> JSONAPIResponseError {
    var document: JSONAPIErrorDocument?
    let contentType = headers["content-type"]
    if !body.isEmpty, Self.mayBeJSON(contentType) {
      do {
        _ = try decoder.decode(JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self, from: body)
      } catch JSONAPIError.errorDocument(let errorDocument) {
        document = errorDocument
      } catch {
        // Not an error document: the raw body and content type tell what it is.
      }
    }
    var error = JSONAPIResponseError(
      statusCode: status, errors: document?.errors ?? [], body: body, contentType: contentType,
      headers: headers, method: method, url: url)
    error.errorDocument = document
    return error
  }

  /// Whether a body of this content type may hold JSON: a JSON or `+json` type, or none given.
  static func mayBeJSON(_ contentType: String?) -> Bool {
    guard let contentType else { return true }
    let essence =
      contentType.split(separator: ";").first.map {
        $0.trimmingCharacters(in: .whitespaces).lowercased()
      } ?? ""
    return essence.isEmpty || essence == "application/json" || essence.hasSuffix("+json")
  }

  /// Decodes `type` from a 2xx answer's document.
  ///
  /// - Throws: ``JSONAPIClientError/missingDocument(statusCode:)`` for an empty body;
  ///   ``JSONAPIClientError/unexpectedContentType(_:statusCode:bodyPrefix:)`` when the body is
  ///   declared as something other than JSON; the decoder's errors.
  func document<T: Decodable>(_ type: T.Type, from raw: RawResponse) throws -> T {
    guard !raw.body.isEmpty else {
      throw JSONAPIClientError.missingDocument(statusCode: raw.statusCode)
    }
    guard Self.mayBeJSON(raw.contentType) else {
      let prefix = String(decoding: raw.body.prefix(120), as: UTF8.self)
      throw JSONAPIClientError.unexpectedContentType(
        raw.contentType ?? "", statusCode: raw.statusCode, bodyPrefix: prefix)
    }
    return try decoder.decode(type, from: raw.body)
  }

  /// The primary data of a 2xx answer, or `nil` when it has no body, no `data` member, or
  /// `"data": null` (a `204`, or a `200`/`201` with only `meta`).
  func optionalPrimaryData<T: Decodable>(_ type: T.Type, from raw: RawResponse) throws -> T? {
    guard !raw.body.isEmpty else { return nil }
    return try document(JSONAPIDocument<T?, JSONAPIValue>.self, from: raw).data
  }
}
