import Foundation
import JSONAPICodable
import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends one request past the client, as it is, and returns the answer whatever its status: for
/// the checks that read what the server sent (the document's text, a header) rather than a model.
///
/// - Parameters:
///   - baseURL: The server's API root.
///   - path: The target, appended to `baseURL`.
///   - query: The query string, percent-encoded already; none when `nil`.
///   - method: The HTTP method.
///   - body: The request body.
///   - mediaType: The media type sent in `Accept`, and in `Content-Type` with a body.
public func rawRequest(
  _ baseURL: URL, _ path: String, query: String? = nil, method: String = "GET",
  body: Data? = nil, mediaType: JSONAPIMediaType = JSONAPIMediaType()
) async throws -> (Data, HTTPURLResponse) {
  guard
    var components = URLComponents(
      url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
  else { throw JSONAPIClientError.invalidURL(path) }
  if let query { components.percentEncodedQuery = query }
  guard let target = components.url,
    let request = URLRequest(jsonAPI: target, method: method, body: body, mediaType: mediaType)
  else { throw JSONAPIClientError.invalidURL(path) }
  return try await JSONAPIClient.defaultTransport.send(request, maxResponseBytes: 1 << 20)
}

/// The body of a raw GET as text, for the checks that look at the document's text.
public func rawBody(_ baseURL: URL, _ path: String, query: String? = nil) async throws -> String {
  let (data, _) = try await rawRequest(baseURL, path, query: query)
  return String(decoding: data, as: UTF8.self)
}
