import Foundation

/// A write the server answered with a success status (2xx) whose answer cannot be read: the
/// server has most likely applied the change.
///
/// Thrown by the writes of ``JSONAPIClient`` (``JSONAPIClient/create(_:at:query:as:)``,
/// ``JSONAPIClient/update(_:at:query:as:)``,
/// ``JSONAPIClient/update(from:to:at:query:as:)-(Resource,_,_,_,_)``,
/// ``JSONAPIClient/perform(_:at:)``, ``JSONAPIClient/create(graph:at:as:)``) when the request
/// went through but its answer is not a document they can decode: a body that is not JSON:API,
/// a model that does not match it, or an Atomic Operations answer whose results cannot be matched
/// to the operations. The error that stopped the reading is ``underlyingError``.
///
/// Do not send the request again blindly: a create repeated after this error usually creates
/// the resource twice. Read the resource back instead (its ``location``, when the server gave
/// one), or show what was sent as saved:
///
/// ```swift
/// do {
///   let created: Article = try await client.create(draft, at: "articles")
///   show(created)
/// } catch let error as JSONAPIUnreadableSuccessError {
///   // The server answered 201: the article exists, but its answer could not be decoded.
///   if let location = error.location {
///     show(try await client.get(Article.self, from: location))
///   }
/// }
/// ```
public struct JSONAPIUnreadableSuccessError: Error, Sendable {
  /// The success status the server answered with, such as `200` or `201`.
  public var statusCode: Int
  /// The request's method, such as `POST`.
  public var method: String
  /// The URL that answered.
  public var url: URL
  /// The response headers, names lowercased (`content-type`).
  public var headers: [String: String]
  /// The response body as it arrived.
  public var body: Data
  /// Why the answer could not be read: a `JSONAPIError`, a `DecodingError` or a
  /// ``JSONAPIClientError`` such as ``JSONAPIClientError/atomicResultsMismatch(operations:results:)``.
  public var underlyingError: any Error

  /// Creates the error for a success answer that `underlyingError` kept from being read.
  public init(
    statusCode: Int, method: String, url: URL, headers: [String: String], body: Data,
    underlyingError: any Error
  ) {
    self.statusCode = statusCode
    self.method = method
    self.url = url
    self.headers = Dictionary(
      headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    self.body = body
    self.underlyingError = underlyingError
  }

  /// The `Location` header resolved against ``url``: where a created resource lives, when the
  /// server said so. Read the resource back from it.
  public var location: URL? {
    headers["location"].flatMap { URL(jsonAPIReference: $0, relativeTo: url)?.absoluteURL }
  }
}

extension JSONAPIUnreadableSuccessError: CustomStringConvertible, LocalizedError {
  /// A sentence that says what the server answered, that the change was most likely applied, why
  /// the answer cannot be read and what to do.
  public var description: String {
    let readBack =
      location.map { "read the resource back from \($0.absoluteString)" }
      ?? "read the resource back"
    return
      "The server answered \(statusCode) to \(method) \(url.absoluteString), so it most likely "
      + "applied the change, but its answer cannot be read: \(underlyingError). Do not repeat "
      + "the request blindly; \(readBack) to see what was stored"
  }

  /// The same text as ``description``.
  public var errorDescription: String? { description }
}

extension RawResponse {
  /// Runs `read` over this success answer to a write; whatever it throws becomes a
  /// ``JSONAPIUnreadableSuccessError`` that tells the caller the server answered with success.
  func readingWrite<Value>(_ read: (RawResponse) throws -> Value) throws -> Value {
    do {
      return try read(self)
    } catch {
      throw JSONAPIUnreadableSuccessError(
        statusCode: statusCode, method: method, url: url, headers: headers, body: body,
        underlyingError: error)
    }
  }
}
