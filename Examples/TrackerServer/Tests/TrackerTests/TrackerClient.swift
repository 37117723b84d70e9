import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSONAPIServer
import NIOCore
import Testing

@testable import TrackerApp
@testable import TrackerKit

/// Where a test's tracker keeps its data: the memory store, or a new SQLite file (the store the
/// app serves from).
enum Backing: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case memory, sqlite
  var testDescription: String { rawValue }

  /// A seeded store.
  func store() async throws -> any JSONAPIStore {
    switch self {
    case .memory:
      let store = JSONAPIMemoryStore(schemas: try Tracker.declarations().map(\.schema))
      try await Tracker.seed(store)
      return store
    case .sqlite:
      return try await Tracker.openStore(path: newDatabasePath())
    }
  }
}

/// A path for a new database file, in a new temporary directory.
func newDatabasePath() throws -> String {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("tracker-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  return directory.appendingPathComponent("tracker.sqlite").path
}

let base = "http://tracker.test"
let jsonAPI = "application/vnd.api+json"
let atomic = #"application/vnd.api+json;ext="https://jsonapi.org/ext/atomic""#

/// One answer.
struct Reply: Sendable {
  var status: Int
  var headers: HTTPFields
  var body: Data
  var text: String { String(decoding: body, as: UTF8.self) }
  var json: JSONAPIValue { (try? JSONDecoder().decode(JSONAPIValue.self, from: body)) ?? .null }
  /// The ids of the primary data (a list, or one resource).
  var ids: [String] {
    if let list = json["data"]?.arrayValue { return list.compactMap { $0["id"]?.stringValue } }
    return json["data"]?["id"]?.stringValue.map { [$0] } ?? []
  }
  var errorPointer: String? { json["errors"]?[0]?["source"]?["pointer"]?.stringValue }
}

/// Requests as one of the seeded users (by name), or with no token.
struct TrackerClient: Sendable {
  let client: any TestClientProtocol

  /// `method uri` as `user` (`ann`, `bob`, `cat`; `nil` for no Authorization, any other text
  /// as the token itself).
  func send(
    _ user: String?, _ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil,
    contentType: String = jsonAPI
  ) async throws -> Reply {
    var headers: HTTPFields = [.accept: contentType]
    if let user {
      let token = ["ann", "bob", "cat"].contains(user) ? "tok-\(user)" : user
      headers[.authorization] = "Bearer \(token)"
    }
    if body != nil { headers[.contentType] = contentType }
    let response = try await client.execute(
      uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    return Reply(
      status: response.status.code, headers: response.headers,
      body: Data(response.body.readableBytesView))
  }

  func get(_ user: String?, _ uri: String) async throws -> Reply {
    try await send(user, .get, uri)
  }

  func operations(_ user: String, _ operations: String) async throws -> Reply {
    try await send(
      user, .post, "/operations", #"{"atomic:operations":["# + operations + "]}",
      contentType: atomic)
  }
}

/// Runs `body` against a tracker on `backing`, seeded.
func withTracker(
  _ backing: Backing, _ body: @Sendable (TrackerClient, any JSONAPIStore) async throws -> Void
) async throws {
  let store = try await backing.store()
  let server = try Tracker.server(store: store, baseURL: base)
  let app = try Tracker.application(server: server, configuration: ApplicationConfiguration())
  try await app.test(.router) { client in try await body(TrackerClient(client: client), store) }
}

// MARK: The oracle

/// A resource named by type and id.
struct Name: Hashable, CustomStringConvertible, Sendable {
  var type: String
  var id: String
  var description: String { "\(type)/\(id)" }
}

/// What each seeded user may see, from the rules (not from the server).
let seen: [String: Set<Name>] = [
  "ann": names(users: ["1", "2"], projects: ["1", "3"], tasks: ["1", "3", "4"]),
  "bob": names(users: ["1", "2"], projects: ["2", "3"], tasks: ["2", "3", "4"]),
  "cat": names(users: ["3"], projects: ["4"], tasks: ["5"]),
]

func names(users: [String], projects: [String], tasks: [String]) -> Set<Name> {
  Set(
    users.map { Name(type: "users", id: $0) } + projects.map { Name(type: "projects", id: $0) }
      + tasks.map { Name(type: "tasks", id: $0) })
}

let everything = names(
  users: ["1", "2", "3"], projects: ["1", "2", "3", "4"], tasks: ["1", "2", "3", "4", "5"])

/// Every resource a body names: identifier objects anywhere (data, included, linkage, results)
/// and every `/users/N`, `/projects/N`, `/tasks/N` in its text (links, error details).
func named(in reply: Reply) -> Set<Name> {
  var found: Set<Name> = []
  var stack: [JSONAPIValue] = [reply.json]
  while let value = stack.popLast() {
    switch value {
    case .object(let members):
      if let type = members["type"]?.stringValue, let id = members["id"]?.stringValue {
        found.insert(Name(type: type, id: id))
      }
      stack += members.values
    case .array(let elements): stack += elements
    default: break
    }
  }
  let text = reply.text
  for type in ["users", "projects", "tasks"] {
    var rest = text[...]
    while let range = rest.range(of: type + "/") {
      let digits = rest[range.upperBound...].prefix(while: { $0.isNumber })
      if !digits.isEmpty { found.insert(Name(type: type, id: String(digits))) }
      rest = rest[range.upperBound...]
    }
  }
  return found
}

/// Fails when `reply` names a seeded resource `user` may not see.
func expectNothingHidden(
  _ reply: Reply, for user: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  let hidden = named(in: reply).intersection(everything).subtracting(seen[user] ?? [])
  #expect(
    hidden.isEmpty, "\(user) was shown \(hidden.sorted { $0.description < $1.description })",
    sourceLocation: sourceLocation)
}
