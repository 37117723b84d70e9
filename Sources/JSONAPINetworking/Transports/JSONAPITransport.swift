import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends one HTTP request and returns the whole response: the seam between ``JSONAPIClient`` and
/// the HTTP stack.
///
/// ``URLSessionTransport`` is the default. Conform your own type to use another stack (Alamofire,
/// AsyncHTTPClient, a test stub):
///
/// ```swift
/// struct StubTransport: JSONAPITransport {
///   func send(_ request: URLRequest, maxResponseBytes: Int) async throws -> (Data, HTTPURLResponse) {
///     let body = Data(#"{"data":{"type":"articles","id":"1","attributes":{"title":"Hi"}}}"#.utf8)
///     let response = HTTPURLResponse(
///       url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1",
///       headerFields: ["Content-Type": "application/vnd.api+json"])!
///     return (body, response)
///   }
/// }
/// let client = JSONAPIClient(baseURL: URL(string: "https://api.example.com/")!, transport: StubTransport())
/// ```
///
/// The client has already set the method, URL, headers and body, and run
/// ``JSONAPIClient/Configuration/prepareRequest``. A transport should:
/// - return every HTTP answer, whatever its status: the client turns non-2xx answers into
///   ``JSONAPIResponseError``;
/// - stop reading and throw ``JSONAPIClientError/responseTooLarge(limit:)`` once the body exceeds
///   `maxResponseBytes` (the client checks the size again, but only after the body is in memory);
/// - stop the request and throw `CancellationError` when the calling task is cancelled;
/// - not follow a redirect to another origin, or apply the same origin rules as the client.
public protocol JSONAPITransport: Sendable {
  /// Sends `request` and returns the response body and head.
  ///
  /// - Parameters:
  ///   - request: The request, ready to send.
  ///   - maxResponseBytes: The largest body the client accepts, in bytes.
  /// - Throws: A transport error (such as `URLError`), `CancellationError`, or
  ///   ``JSONAPIClientError/responseTooLarge(limit:)``.
  func send(_ request: URLRequest, maxResponseBytes: Int) async throws -> (Data, HTTPURLResponse)
}
