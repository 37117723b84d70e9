import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSONAPIHummingbird
import JSONAPIServer
import NIOCore
import Synchronization
import Testing

struct Note: Codable, Sendable, JSONAPIResource {
  static let jsonAPIType = "notes"
  var id: String?
  var text: String
  var author: String
}

/// A store that counts every read and write it is asked for, around a memory store: a request
/// refused by the authenticator must leave both counts at zero.
final class CountingStore: JSONAPIStore {
  let store: JSONAPIMemoryStore
  private let counts = Mutex((reads: 0, writes: 0))

  init(_ store: JSONAPIMemoryStore) { self.store = store }

  var reads: Int { counts.withLock { $0.reads } }
  var writes: Int { counts.withLock { $0.writes } }
  var appliesRowConditions: Bool { store.appliesRowConditions }

  func read<T: Sendable>(_ body: @Sendable (any JSONAPIStoreReader) async throws -> T)
    async throws -> T
  {
    counts.withLock { $0.reads += 1 }
    return try await store.read(body)
  }

  func write<T: Sendable>(_ body: @Sendable (any JSONAPIStoreWriter) async throws -> T)
    async throws -> T
  {
    counts.withLock { $0.writes += 1 }
    return try await store.write(body)
  }
}

/// Notes, each seen only by its author (the `author` attribute holds the user's id), tokens
/// `tok-1` and `tok-2` for users 1 and 2.
func notesServer() async throws -> (JSONAPIServer, CountingStore) {
  let notes = try JSONAPIResourceDeclaration(Note.self).secured(
    by: JSONAPIResourcePolicy(visible: { requester in
      guard let user = requester?.userID else { return .never }
      return .filter(.init(member: "author", comparison: .equals, values: [.string(user)]))
    }))
  let memory = JSONAPIMemoryStore(schemas: [notes.schema])
  try await memory.insert([
    JSONAPIResourceRecord(type: "notes", id: "1", attributes: ["text": "one", "author": "1"]),
    JSONAPIResourceRecord(type: "notes", id: "2", attributes: ["text": "two", "author": "2"]),
  ])
  let store = CountingStore(memory)
  return (try JSONAPIServer(resources: [notes], store: store), store)
}

let tokens: JSONAPIAuthenticator = .bearer(realm: "notes") { token in
  ["tok-1": "1", "tok-2": "2"][token].map { JSONAPIRequester(userID: $0) }
}

/// The app under test: the notes behind the bearer authenticator, with the secured description.
func notesApp(_ server: JSONAPIServer) throws -> some ApplicationProtocol {
  buildApplication(
    server: server, configuration: ApplicationConfiguration(),
    openAPI: try server.openAPIDocument(title: "Notes", version: "1")
      .secured(by: .bearer(description: "A token of a user")).jsonData(),
    authenticator: tokens)
}

struct Answer {
  var status: Int
  var headers: HTTPFields
  var body: Data
  var json: JSONAPIValue { (try? JSONDecoder().decode(JSONAPIValue.self, from: body)) ?? .null }
}

func send(
  _ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String,
  authorization: String? = nil, body: String? = nil
) async throws -> Answer {
  var headers: HTTPFields = [.accept: "application/vnd.api+json"]
  if let authorization { headers[.authorization] = authorization }
  if body != nil { headers[.contentType] = "application/vnd.api+json" }
  let response = try await client.execute(
    uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
  return Answer(
    status: response.status.code, headers: response.headers,
    body: Data(response.body.readableBytesView))
}

/// R53: a refusal is an error document; RFC 9110 §11.6.1: a 401 carries a challenge.
func expectUnauthorized(_ answer: Answer, error: String?, head: Bool = false) {
  #expect(answer.status == 401)
  let challenge = answer.headers[.wwwAuthenticate]
  #expect(challenge == "Bearer realm=\"notes\"" + (error.map { ", error=\"\($0)\"" } ?? ""))
  #expect(answer.headers[.contentType] == "application/vnd.api+json")
  if head {
    #expect(answer.body.isEmpty)
  } else {
    #expect(answer.json["errors"]?[0]?["status"]?.stringValue == "401")
    #expect(answer.json["errors"]?[0]?["code"]?.stringValue == "unauthorized")
    #expect(answer.json["data"] == nil)
  }
}

@Test func aRequestWithoutCredentialsIsRefusedBeforeTheStoreIsTouched() async throws {
  let (server, store) = try await notesServer()
  try await notesApp(server).test(.router) { client in
    for (method, uri) in [
      (HTTPRequest.Method.get, "/notes"), (.get, "/notes/1"), (.delete, "/notes/1"),
      (.get, "/nothing-here"),
    ] {
      expectUnauthorized(try await send(client, method, uri), error: nil)
    }
    expectUnauthorized(try await send(client, .head, "/notes"), error: nil, head: true)
    let create = #"{"data":{"type":"notes","attributes":{"text":"sneaky","author":"1"}}}"#
    expectUnauthorized(try await send(client, .post, "/notes", body: create), error: nil)
    let atomic = #"{"atomic:operations":[{"op":"remove","ref":{"type":"notes","id":"1"}}]}"#
    expectUnauthorized(try await send(client, .post, "/operations", body: atomic), error: nil)
  }
  #expect(store.reads == 0)
  #expect(store.writes == 0)
  let stored = try await store.store.read { try await $0.resources("notes", ids: ["1", "2", "3"]) }
  #expect(stored.count == 2)
}

@Test func wrongCredentialsAreRefusedWithTheirErrorAndTheStoreUntouched() async throws {
  let (server, store) = try await notesServer()
  try await notesApp(server).test(.router) { client in
    expectUnauthorized(
      try await send(client, .get, "/notes/1", authorization: "Bearer tok-9"),
      error: "invalid_token")
    // The right token under the wrong scheme, two tokens, characters no token has, no token.
    for authorization in [
      "Basic tok-1", "Bearer tok-1 tok-2", "Bearer tok\u{7F}1", "Bearer", "Bearer =",
      "Bearer " + String(repeating: "a", count: JSONAPIAuthenticator.maxBearerTokenLength + 1),
    ] {
      expectUnauthorized(
        try await send(client, .get, "/notes/1", authorization: authorization),
        error: "invalid_request")
    }
    let patch = #"{"data":{"type":"notes","id":"1","attributes":{"text":"changed"}}}"#
    expectUnauthorized(
      try await send(client, .patch, "/notes/1", authorization: "Bearer tok-3", body: patch),
      error: "invalid_token")
  }
  #expect(store.reads == 0)
  #expect(store.writes == 0)
  let stored = try await store.store.read { try await $0.resources("notes", ids: ["1"]) }
  #expect(stored.first?.attributes["text"] == "one")
}

@Test func theRequesterTheTokenNamesIsWhomThePoliciesHold() async throws {
  let (server, store) = try await notesServer()
  try await notesApp(server).test(.router) { client in
    let mine = try await send(client, .get, "/notes", authorization: "Bearer tok-1")
    #expect(mine.status == 200)
    #expect(mine.json["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["1"])
    // The scheme in any case, spaces around the token (RFC 9110 §11.1: case-insensitive).
    let theirs = try await send(client, .get, "/notes", authorization: "bearer  tok-2 ")
    #expect(theirs.json["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["2"])
    let hidden = try await send(client, .get, "/notes/2", authorization: "Bearer tok-1")
    #expect(hidden.status == 404)
    let none = try await send(client, .get, "/notes/99", authorization: "Bearer tok-1")
    #expect(
      String(decoding: hidden.body, as: UTF8.self)
        == String(decoding: none.body, as: UTF8.self).replacingOccurrences(of: "99", with: "2"))
  }
  #expect(store.reads > 0)
}

@Test func theDescriptionNamesTheSchemeOnEveryOperationAndIsServedWithoutCredentials()
  async throws
{
  let (server, _) = try await notesServer()
  try await notesApp(server).test(.router) { client in
    let answer = try await send(client, .get, "/openapi.json")
    #expect(answer.status == 200)
    let description = answer.json
    let scheme = description["components"]?["securitySchemes"]?["bearerAuth"]
    #expect(scheme?["type"]?.stringValue == "http")
    #expect(scheme?["scheme"]?.stringValue == "bearer")
    #expect(description["components"]?["schemas"]?["ErrorDocument"] != nil)
    var operations = 0
    for (_, item) in description["paths"]?.objectValue ?? [:] {
      for (method, operation) in item.objectValue ?? [:] where method != "parameters" {
        operations += 1
        #expect(operation["security"] == .array([.object(["bearerAuth": .array([])])]))
        for status in ["401", "403", "404"] {
          #expect(operation["responses"]?[status] != nil, "\(method) lacks \(status)")
        }
        #expect(operation["responses"]?["401"]?["headers"]?["WWW-Authenticate"] != nil)
      }
    }
    // /notes (GET, HEAD, POST), /notes/{id} (GET, HEAD, PATCH, DELETE), /operations (POST).
    #expect(operations == 8)
  }
}
