import Foundation

/// The errors ``JSONAPIClient`` raises itself, before a request is sent or after a successful
/// answer it cannot use. Answers with a non-2xx status throw ``JSONAPIResponseError`` instead.
///
/// ```swift
/// do {
///   for try await page in client.pages(of: [Article].self, from: "articles") { show(page.data) }
/// } catch JSONAPIClientError.tooManyPages(let limit) {
///   print("stopped after \(limit) pages")
/// }
/// ```
public enum JSONAPIClientError: Error, Sendable, Hashable {
  /// The path or link cannot be made into a URL against the base URL.
  case invalidURL(String)
  /// The URL's origin (scheme, host, port) is neither the base URL's nor one that
  /// ``JSONAPIClient/Configuration/allowedOrigins`` allows: the request was not sent.
  case originNotAllowed(URL)
  /// The response body is larger than ``JSONAPIClient/Configuration/maxResponseBytes``.
  case responseTooLarge(limit: Int)
  /// ``JSONAPIClient/pages(of:from:query:direction:)`` followed
  /// ``JSONAPIClient/Configuration/maxPages`` pages and the last one still links a `next` page (a
  /// `prev` page, walking backwards).
  case tooManyPages(limit: Int)
  /// A `next` link (a `prev` link, walking backwards) leads back to a page already read, which
  /// would loop forever.
  case paginationCycle(URL)
  /// A successful answer (`statusCode`) has no body where the request needs a document, such as a
  /// `GET` answered with `204 No Content`.
  case missingDocument(statusCode: Int)
  /// A successful answer whose body is not JSON (`contentType`), such as an HTML page from a proxy;
  /// `bodyPrefix` is the start of the body as text.
  case unexpectedContentType(String, statusCode: Int, bodyPrefix: String)
  /// An Atomic Operations answer with `results` results for `operations` operations: the
  /// extension asks for one result per operation, in order (result *i* answers operation *i*),
  /// so the results cannot be matched to the resources sent. Some servers leave out the results
  /// of relationship operations (drf-json-api-atomic-operations 0.4.0). The server has applied
  /// the operations: read what was created back with `GET`. ``JSONAPIClient/create(graph:at:as:)``
  /// throws it as the ``JSONAPIUnreadableSuccessError/underlyingError`` of a
  /// ``JSONAPIUnreadableSuccessError``, which also carries the status and the body.
  case atomicResultsMismatch(operations: Int, results: Int)
}

extension JSONAPIClientError: CustomStringConvertible, LocalizedError {
  /// A sentence that says what went wrong.
  public var description: String {
    switch self {
    case .invalidURL(let text):
      return "Cannot make a URL of \"\(text)\" against the client's base URL"
    case .originNotAllowed(let url):
      let origin = Origin(url).map(\.description) ?? url.absoluteString
      return
        "Refused to send a request to \(url.absoluteString): its origin \(origin) is not the base "
        + "URL's and Configuration.allowedOrigins does not allow it"
    case .responseTooLarge(let limit):
      return "The response body is larger than the limit of \(limit) bytes (maxResponseBytes)"
    case .tooManyPages(let limit):
      return
        "Pagination stopped after \(limit) pages (maxPages); the last page still links another one"
    case .paginationCycle(let url):
      return "Pagination stopped: the link \(url.absoluteString) leads to a page already read"
    case .missingDocument(let statusCode):
      return "The server answered \(statusCode) without a JSON:API document"
    case .unexpectedContentType(let contentType, let statusCode, let bodyPrefix):
      return
        "The server answered \(statusCode) with \(contentType), not a JSON:API document: "
        + "\"\(bodyPrefix)\""
    case .atomicResultsMismatch(let operations, let results):
      return
        "The server answered \(operations) atomic operations with \(results) results; one result "
        + "per operation is required to match them, so the created resources cannot be read from "
        + "the answer (the operations were applied)"
    }
  }

  /// The same text as ``description``.
  public var errorDescription: String? { description }
}
