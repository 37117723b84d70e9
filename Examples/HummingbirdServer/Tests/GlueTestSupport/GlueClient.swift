import Foundation
import HTTPTypes
import HummingbirdTesting
import JSONAPIServer
import NIOCore

/// The JSON:API media type.
public let jsonAPI = "application/vnd.api+json"
/// The media type of the Atomic Operations extension.
public let atomic = #"application/vnd.api+json;ext="https://jsonapi.org/ext/atomic""#
/// The Cursor Pagination profile.
public let cursorProfile = "https://jsonapi.org/profiles/ethanresnick/cursor-pagination/"

/// One answer as the tests read it.
public struct Reply: Sendable {
  /// The status code.
  public var status: Int
  /// The header fields.
  public var headers: HTTPFields
  /// The body, empty when there was none.
  public var body: Data

  /// The body as JSON; `null` when it is not JSON.
  public var json: JSONAPIValue {
    (try? JSONDecoder().decode(JSONAPIValue.self, from: body)) ?? .null
  }
  /// The ids of the primary data, in order.
  public var ids: [String] {
    json["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
  }
  /// The first error's `source.pointer` or `source.parameter`.
  public var errorSource: String? {
    let source = json["errors"]?[0]?["source"]
    return source?["pointer"]?.stringValue ?? source?["parameter"]?.stringValue
  }

  /// The value of the header field `name`, if the answer has it.
  public func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { headers[$0] } }
}

/// Sends JSON:API requests to an app under test (HummingbirdTesting's client, in process or over
/// a socket), with links of the app's answers under `base`.
public struct GlueClient: Sendable {
  /// HummingbirdTesting's client.
  public let client: any TestClientProtocol
  /// The prefix of the app's links.
  public let base: String

  /// A client over `client` for an app whose links start with `base`.
  public init(client: any TestClientProtocol, base: String) {
    self.client = client
    self.base = base
  }

  /// Sends `body` (if any) as `contentType`, accepting `accept`, with `headers` besides.
  public func send(
    _ method: HTTPRequest.Method, _ uri: String, body: String? = nil,
    contentType: String = jsonAPI, accept: String = jsonAPI, headers extra: HTTPFields = [:]
  ) async throws -> Reply {
    var headers: HTTPFields = [.accept: accept]
    if body != nil { headers[.contentType] = contentType }
    headers.append(contentsOf: extra)
    return try await send(method, uri, headers: headers, body: body.map { Data($0.utf8) })
  }

  /// Sends exactly `headers` and `body`.
  public func send(_ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields, body: Data?)
    async throws -> Reply
  {
    let response = try await client.execute(
      uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) })
    return Reply(
      status: response.status.code, headers: response.headers,
      body: Data(response.body.readableBytesView))
  }

  /// `link` (an absolute URL under `base`) as a request target.
  public func follow(_ link: String?) async throws -> Reply {
    try await send(.get, String((link ?? "").dropFirst(base.count)))
  }
}
