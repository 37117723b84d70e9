import Foundation
import JSONAPICodable
import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A transport that answers from a closure and records every request it was given.
final class StubTransport: JSONAPITransport, @unchecked Sendable {
  typealias Handler = @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)

  // `requests` is guarded by `lock`; `handler` never changes.
  private let lock = NSLock()
  private var recorded: [URLRequest] = []
  private let handler: Handler

  init(_ handler: @escaping Handler) { self.handler = handler }

  /// Always answers `status` with `body` and `headers`.
  convenience init(status: Int = 200, body: String = "", headers: [String: String] = [:]) {
    self.init { request in
      (Data(body.utf8), try Stub.response(for: request, status: status, headers: headers))
    }
  }

  var requests: [URLRequest] { lock.withLock { recorded } }

  func send(_ request: URLRequest, maxResponseBytes: Int) async throws -> (Data, HTTPURLResponse) {
    lock.withLock { recorded.append(request) }
    return try await handler(request)
  }
}

enum Stub {
  static let jsonAPI = ["Content-Type": "application/vnd.api+json"]
  static let baseURL = URL(string: "https://api.example.com/") ?? URL(fileURLWithPath: "/")

  struct NoURL: Error {}

  static func response(for request: URLRequest, status: Int, headers: [String: String] = jsonAPI)
    throws -> HTTPURLResponse
  {
    guard let url = request.url,
      let response = HTTPURLResponse(
        url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
    else { throw NoURL() }
    return response
  }

  /// A JSON:API answer.
  static func answer(_ request: URLRequest, _ status: Int, _ body: String = "") throws -> (
    Data, HTTPURLResponse
  ) {
    (
      Data(body.utf8),
      try response(for: request, status: status, headers: body.isEmpty ? [:] : jsonAPI)
    )
  }

  static func client(
    _ transport: StubTransport, baseURL: URL = baseURL,
    configuration: JSONAPIClient.Configuration = .init()
  ) -> JSONAPIClient {
    JSONAPIClient(baseURL: baseURL, configuration: configuration, transport: transport)
  }
}

extension URLRequest {
  /// The path and query, such as `/articles?include=author`.
  var target: String {
    guard let url else { return "" }
    let query = url.query.map { "?" + $0 } ?? ""
    return url.path + query
  }

  var bodyText: String? { httpBody.map { String(decoding: $0, as: UTF8.self) } }
}
