import Foundation
import JSONAPICodable

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLRequest {
  /// Sets the `Accept` and `Content-Type` headers a JSON:API server expects.
  ///
  /// ```swift
  /// var request = URLRequest(url: URL(string: "https://api.example.com/articles")!)
  /// request.httpMethod = "POST"
  /// request.httpBody = try JSONAPIEncoder().encode(newArticle)
  /// request.setJSONAPIHeaders()
  /// // Accept: application/vnd.api+json
  /// // Content-Type: application/vnd.api+json
  /// ```
  ///
  /// - Parameters:
  ///   - mediaType: The media type to send and accept, with any `ext` and `profile` URIs.
  ///   - setsContentType: Whether to set `Content-Type` too. By default it is set when the
  ///     request has a body, which is what JSON:API requires of every request document.
  public mutating func setJSONAPIHeaders(
    _ mediaType: JSONAPIMediaType = JSONAPIMediaType(), setsContentType: Bool? = nil
  ) {
    setValue(mediaType.headerValue, forHTTPHeaderField: "Accept")
    if setsContentType ?? (httpBody != nil || httpBodyStream != nil) {
      setValue(mediaType.headerValue, forHTTPHeaderField: "Content-Type")
    }
  }

  /// A request for `url` with `query` appended, a method, an optional JSON:API body, and the
  /// JSON:API `Accept` and `Content-Type` headers.
  ///
  /// ```swift
  /// let request = URLRequest(
  ///   jsonAPI: URL(string: "https://api.example.com/articles")!,
  ///   query: JSONAPIQuery().including("author").page(number: 2))
  /// ```
  ///
  /// - Parameters:
  ///   - url: The endpoint, which may already have a query.
  ///   - query: JSON:API query parameters to append.
  ///   - method: The HTTP method. Default `GET`.
  ///   - body: A document made by `JSONAPIEncoder`, for `POST` and `PATCH`.
  ///   - mediaType: The media type to send and accept.
  /// - Returns: `nil` only when Foundation cannot split `url` into URL components.
  public init?(
    jsonAPI url: URL, query: JSONAPIQuery = JSONAPIQuery(), method: String = "GET",
    body: Data? = nil, mediaType: JSONAPIMediaType = JSONAPIMediaType()
  ) {
    guard let target = query.url(relativeTo: url) else { return nil }
    self.init(url: target)
    httpMethod = method
    httpBody = body
    setJSONAPIHeaders(mediaType)
  }
}
