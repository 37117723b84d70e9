import Foundation
import JSONAPIServer

/// A framework-agnostic JSON:API request handler over an in-memory ``ExampleStore``: plug
/// ``handle(_:)`` into any server's route (see the README).
///
/// Routes: `/articles` (GET, POST), `/articles/{id}` (GET, PATCH, DELETE),
/// `/articles/{id}/author` and `/articles/{id}/comments` (GET),
/// `/articles/{id}/relationships/author` (GET, PATCH),
/// `/articles/{id}/relationships/comments` (GET, PATCH → 403, POST, DELETE),
/// `/people`, `/people/{id}`, `/comments`, `/comments/{id}` (GET).
///
/// Collections are paged with the three strategies of `JSONAPIPaging`: `/articles` by page
/// number, `/comments` by offset, `/people` and `/articles/{id}/comments` by cursor (the Cursor
/// Pagination profile); see `ExampleServer+Paging.swift`.
public struct ExampleServer: Sendable {
  /// Where the example API lives: `Location` and `links` are absolute URLs under it.
  public static let baseURL = "https://api.example.com"
  /// A profile the server applies when asked; supporting one makes responses `Vary: Accept`.
  public static let timestampsProfile = "https://example.com/profiles/timestamps"

  /// The data the handler serves and changes.
  public internal(set) var store: ExampleStore
  let negotiation = JSONAPIContentNegotiation(
    supportedProfiles: [timestampsProfile, JSONAPIPaging.cursorPaginationProfile])
  let requestRules = JSONAPIRequestRules(acceptsClientGeneratedIDs: true)

  /// A handler over `store` (by default three articles with their people and comments).
  public init(store: ExampleStore = .seeded) {
    self.store = store
  }

  /// Answers one request. Never throws: every failure becomes an error document.
  public mutating func handle(_ request: ExampleRequest) -> ExampleResponse {
    var context = Context(request: request)
    do {
      context.mediaType = try negotiation.negotiate(
        headers: request.headers, hasBody: !(request.body?.isEmpty ?? true))
      // The request target as the client sent it, which may hold raw brackets
      // (`?page[number]=2`), spaces or non-ASCII characters; encoded the same way on every
      // platform before Foundation splits it.
      guard let url = URL(jsonAPIReference: request.url),
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
      else {
        throw JSONAPIErrorObject(status: "400", title: "Bad Request", detail: "Unreadable URL.")
      }
      context.query = try JSONAPIQuery(parsing: components)
      let path = components.path.split(separator: "/").map(String.init)
      return try route(path, &context)
    } catch {
      return context.failure(error, varyAccept: negotiation.sendsVaryAccept)
    }
  }

  /// ``handle(_:)`` for the four parts of a request.
  public mutating func handle(
    method: String, url: String, headers: [String: String] = [:], body: Data? = nil
  ) -> ExampleResponse {
    handle(ExampleRequest(method: method, url: url, headers: headers, body: body))
  }

  private mutating func route(_ path: [String], _ context: inout Context) throws -> ExampleResponse
  {
    let method = context.request.method
    switch (path.first, path.count) {
    case ("articles", 1):
      if method == "GET" { return try listArticles(&context) }
      if method == "POST" { return try createArticle(&context) }
      throw Self.methodNotAllowed(["GET", "POST"])
    case ("articles", 2):
      switch method {
      case "GET": return try showArticle(path[1], &context)
      case "PATCH": return try updateArticle(path[1], &context)
      case "DELETE": return try deleteArticle(path[1], &context)
      default: throw Self.methodNotAllowed(["GET", "PATCH", "DELETE"])
      }
    case ("articles", 3):
      guard method == "GET" else { throw Self.methodNotAllowed(["GET"]) }
      return try showRelated(article: path[1], relationship: path[2], &context)
    case ("articles", 4) where path[2] == "relationships":
      return try relationship(article: path[1], name: path[3], &context)
    case ("people", 1), ("people", 2), ("comments", 1), ("comments", 2):
      guard method == "GET" else { throw Self.methodNotAllowed(["GET"]) }
      return try showOther(path, &context)
    default:
      throw JSONAPIErrorObject(
        status: "404", code: "no-route", title: "Not Found",
        detail: "There is no endpoint at \(context.request.url).")
    }
  }

  static func methodNotAllowed(_ allowed: [String]) -> JSONAPIErrorObject {
    var error = JSONAPIErrorObject(
      status: "405", code: "method-not-allowed", title: "Method Not Allowed",
      detail: "This endpoint answers \(allowed.joined(separator: ", ")).")
    error.meta = ["allow": .string(allowed.joined(separator: ", "))]
    return error
  }
}
