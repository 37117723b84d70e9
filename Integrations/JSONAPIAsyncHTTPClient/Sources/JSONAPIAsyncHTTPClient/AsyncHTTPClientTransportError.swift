import Foundation

/// A request ``AsyncHTTPClientTransport`` cannot send, or an answer it refuses.
///
/// ```swift
/// do {
///   let article = try await client.get(Article.self, from: "articles/1")
/// } catch AsyncHTTPClientTransportError.unsupportedContentEncoding(let coding) {
///   print("the server answered with a body encoded as \(coding)")
/// }
/// ```
public enum AsyncHTTPClientTransportError: Error, Sendable, Hashable {
  /// The `URLRequest` has no URL.
  case missingURL
  /// The `URLRequest` has an `httpBodyStream`; only `httpBody` is sent.
  case bodyStreamNotSupported
  /// The answer's `Content-Encoding` (the header's value) is not identity: its body was not read,
  /// as its decoded size could not be counted against the limit as it arrives.
  case unsupportedContentEncoding(String)
  /// `HTTPURLResponse` could not be made from the answer's status (`statusCode`) and header
  /// fields.
  case invalidResponseHead(statusCode: Int)
}

extension AsyncHTTPClientTransportError: CustomStringConvertible, LocalizedError {
  /// A sentence that says what went wrong.
  public var description: String {
    switch self {
    case .missingURL:
      return "The request has no URL"
    case .bodyStreamNotSupported:
      return "The request's body is a stream; AsyncHTTPClientTransport sends httpBody only"
    case .unsupportedContentEncoding(let coding):
      return
        "The answer's body is encoded as \"\(coding)\"; AsyncHTTPClientTransport reads unencoded "
        + "bodies only, whose size it counts against maxResponseBytes as they arrive"
    case .invalidResponseHead(let statusCode):
      return "Cannot make an HTTPURLResponse of the answer's status \(statusCode) and header fields"
    }
  }

  /// The same text as ``description``.
  public var errorDescription: String? { description }
}
