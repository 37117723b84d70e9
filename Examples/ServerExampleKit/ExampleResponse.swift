import Foundation

/// What the handler answers: a status, headers, and a body (none for 204).
public struct ExampleResponse: Sendable {
  /// The HTTP status code.
  public var status: Int
  /// Response headers by name.
  public var headers: [String: String]
  /// The JSON:API document, or `nil` (204).
  public var body: Data?

  /// Creates a response.
  public init(status: Int, headers: [String: String] = [:], body: Data? = nil) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The body as text, for printing.
  public var text: String { body.map { String(decoding: $0, as: UTF8.self) } ?? "" }
}
