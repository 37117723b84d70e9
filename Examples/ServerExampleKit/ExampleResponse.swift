import Foundation

/// What the handler answers: a status, headers, and a body (none for 204).
public struct ExampleResponse: Sendable {
  public var status: Int
  public var headers: [String: String]
  public var body: Data?

  public init(status: Int, headers: [String: String] = [:], body: Data? = nil) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The body as text, for printing.
  public var text: String { body.map { String(decoding: $0, as: UTF8.self) } ?? "" }
}
