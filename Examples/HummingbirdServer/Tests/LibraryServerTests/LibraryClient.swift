import Foundation
import GlueTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSONAPIHummingbird
import JSONAPIServer
import NIOCore

@testable import LibraryServer

let base = "http://library.test"
/// The clock of the tests' servers: loans falling due before it are in the past.
let now = Date(timeIntervalSince1970: 1_750_000_000)  // 2025-06-15

/// Sends JSON:API requests through the glue to the library, as a librarian when one is named.
struct LibraryClient: Sendable {
  let glue: GlueClient

  init(client: any TestClientProtocol) { glue = GlueClient(client: client, base: base) }

  func send(
    _ method: HTTPRequest.Method, _ uri: String, body: String? = nil,
    contentType: String = jsonAPI, accept: String = jsonAPI, librarian: String? = nil
  ) async throws -> Reply {
    var headers: HTTPFields = [:]
    if let librarian, let name = HTTPField.Name("X-Librarian") { headers[name] = librarian }
    return try await glue.send(
      method, uri, body: body, contentType: contentType, accept: accept, headers: headers)
  }

  func send(_ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields, body: Data?)
    async throws -> Reply
  {
    try await glue.send(method, uri, headers: headers, body: body)
  }

  func follow(_ link: String?) async throws -> Reply { try await glue.follow(link) }
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
