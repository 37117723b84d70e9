import Foundation

/// An HTTP request as a ``JSONAPIServer`` reads it: method, request target, headers and body.
/// Framework glue makes one from its own request type.
///
/// ```swift
/// let request = JSONAPIServerRequest(
///   method: "GET", target: "/articles?include=author",
///   headers: [("Accept", "application/vnd.api+json")])
/// let response = await server.respond(to: request)
/// ```
public struct JSONAPIServerRequest: Sendable {
  /// The method, such as `GET` (matched without regard to case).
  public var method: String
  /// The request target exactly as received: the path and the raw percent-encoded query
  /// (`/articles?page%5Bsize%5D=2`), or an absolute URL.
  public var target: String
  /// The header fields, in order; names are matched without regard to case.
  public var headers: [(name: String, value: String)]
  /// The body; empty for none.
  public var body: Data
  /// What the app knows of the request that hooks need, such as the authenticated user; set by
  /// the framework glue, read in ``JSONAPIAccess/request``.
  public var context: (any Sendable)?

  /// Creates a request.
  public init(
    method: String, target: String, headers: [(name: String, value: String)] = [],
    body: Data = Data(), context: (any Sendable)? = nil
  ) {
    self.method = method
    self.target = target
    self.headers = headers
    self.body = body
    self.context = context
  }

  /// The value of the first header field named `name`, matched without regard to case.
  public func header(_ name: String) -> String? {
    headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }
}

/// What a ``JSONAPIServer`` answers: status, header fields and body. Framework glue writes it as
/// its own response type.
public struct JSONAPIServerResponse: Sendable {
  /// The HTTP status, such as `200`.
  public var status: Int
  /// The header fields, such as `Content-Type` and `Location`.
  public var headers: [(name: String, value: String)]
  /// The body: a JSON:API document, or empty (`204`, `HEAD`).
  public var body: Data

  /// Creates a response.
  public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The value of the first header field named `name`, matched without regard to case.
  public func header(_ name: String) -> String? {
    headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }
}
