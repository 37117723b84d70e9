import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSONAPICodable
import JSONAPIHummingbird
import NIOCore

@testable import LibraryServer

let jsonAPI = "application/vnd.api+json"
let atomic = #"application/vnd.api+json;ext="https://jsonapi.org/ext/atomic""#
let cursorProfile = "https://jsonapi.org/profiles/ethanresnick/cursor-pagination/"
let base = "http://library.test"
/// The clock of the tests' servers: loans falling due before it are in the past.
let now = Date(timeIntervalSince1970: 1_750_000_000)  // 2025-06-15

/// One answer as the tests read it.
struct Reply: Sendable {
  var status: Int
  var headers: HTTPFields
  var body: Data

  var json: JSONAPIValue { (try? JSONDecoder().decode(JSONAPIValue.self, from: body)) ?? .null }
  /// The ids of the primary data, in order.
  var ids: [String] { json["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [] }
  /// The first error's `source.pointer` or `source.parameter`.
  var errorSource: String? {
    let source = json["errors"]?[0]?["source"]
    return source?["pointer"]?.stringValue ?? source?["parameter"]?.stringValue
  }

  func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { headers[$0] } }
}

/// Sends JSON:API requests through the glue to the library.
struct LibraryClient: Sendable {
  let client: any TestClientProtocol

  func send(
    _ method: HTTPRequest.Method, _ uri: String, body: String? = nil,
    contentType: String = jsonAPI, accept: String = jsonAPI, librarian: String? = nil
  ) async throws -> Reply {
    var headers: HTTPFields = [.accept: accept]
    if body != nil { headers[.contentType] = contentType }
    if let librarian, let name = HTTPField.Name("X-Librarian") { headers[name] = librarian }
    return try await send(method, uri, headers: headers, body: body.map { Data($0.utf8) })
  }

  func send(_ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields, body: Data?)
    async throws -> Reply
  {
    let response = try await client.execute(
      uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) })
    return Reply(
      status: response.status.code, headers: response.headers,
      body: Data(response.body.readableBytesView))
  }

  /// `link` (an absolute URL under `base`) as a request target.
  func follow(_ link: String?) async throws -> Reply {
    try await send(.get, String((link ?? "").dropFirst(base.count)))
  }
}

/// Runs `test` against a new library, in process (`.router`) unless `setup` says otherwise.
func withLibrary(
  _ setup: TestingSetup = .router, idleTimeout: TimeAmount = .seconds(30),
  requestTimeout: TimeAmount = .seconds(60), _ test: @Sendable (LibraryClient) async throws -> Void
) async throws {
  let server = try await Library.server(baseURL: base, now: { now })
  let app = buildApplication(
    server: server, configuration: ApplicationConfiguration(), idleTimeout: idleTimeout,
    requestTimeout: requestTimeout, context: Library.librarian)
  try await app.test(setup) { client in try await test(LibraryClient(client: client)) }
}
