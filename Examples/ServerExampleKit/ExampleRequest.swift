import Foundation

/// An HTTP request as any server framework hands it over: method, target URL (path and query),
/// headers and body. Header names are matched case-insensitively.
public struct ExampleRequest: Sendable {
  /// The HTTP method, upper-cased.
  public var method: String
  /// The request target, such as `/articles?include=author`, or an absolute URL.
  public var url: String
  /// Header values by lower-cased name.
  public var headers: [String: String]
  /// The request document, if any.
  public var body: Data?

  /// Creates a request; header names are lower-cased.
  public init(method: String, url: String, headers: [String: String] = [:], body: Data? = nil) {
    self.method = method.uppercased()
    self.url = url
    var lowered: [String: String] = [:]
    for (name, value) in headers { lowered[name.lowercased()] = value }
    self.headers = lowered
    self.body = body
  }

  /// A request with the JSON:API `Accept` header (and `Content-Type` when there is a body).
  public static func jsonAPI(_ method: String, _ url: String, body: String? = nil) -> ExampleRequest
  {
    var headers = ["Accept": "application/vnd.api+json"]
    if body != nil { headers["Content-Type"] = "application/vnd.api+json" }
    return ExampleRequest(
      method: method, url: url, headers: headers, body: body.map { Data($0.utf8) })
  }
}
