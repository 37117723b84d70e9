// A JSONAPIServer (JSONAPICodable's server from declared resources) served by Vapor 4: every
// request under the routes builder goes to the server, which answers every JSON:API endpoint of
// its declarations. Copy this file into an app:
//
//   let server = try JSONAPIServer(resources: [...], store: store, baseURL: "https://api.example.com")
//   try app.register(collection: JSONAPIRoutes(server: server))
//
// With authentication: a request the authenticator refuses is answered 401 with a JSON:API error
// document and WWW-Authenticate, and the server (and its store) never sees it:
//
//   try app.register(
//     collection: JSONAPIRoutes(
//       server: server, authenticator: .bearer(realm: "api") { token in await requester(token) }))

import Foundation
import JSONAPIServer
import Vapor

/// Routes every method and path of a routes builder to a `JSONAPIServer`.
///
/// ```swift
/// try app.grouped("v1").register(
///   collection: JSONAPIRoutes(server: server, context: { request in request.auth.get(User.self) }))
/// ```
public struct JSONAPIRoutes: RouteCollection, Sendable {
  /// The server that answers.
  public let server: JSONAPIServer
  /// What hooks see as `JSONAPIServerRequest.context`, such as the authenticated user.
  public let context: (@Sendable (Request) -> (any Sendable)?)?
  /// Finds who sends each request in its header fields; a request it refuses is answered `401`
  /// with an error document and `WWW-Authenticate`, and the server never sees it. When set, the
  /// requester it finds is the request's `context` (``context`` is not called).
  public let authenticator: JSONAPIAuthenticator?

  /// Creates the routes; `context` reads what hooks need from each request, unless
  /// `authenticator` is given: then the requester it finds is the context, and a request it
  /// refuses is answered `401` before the server reads or writes anything.
  public init(
    server: JSONAPIServer, authenticator: JSONAPIAuthenticator? = nil,
    context: (@Sendable (Request) -> (any Sendable)?)? = nil
  ) {
    self.server = server
    self.authenticator = authenticator
    self.context = context
  }

  /// Registers a catch-all route per method. Bodies are collected up to one byte past the
  /// server's limit, so the server answers a body that is too large with its own `413` error
  /// document (Vapor answers bodies larger still).
  public func boot(routes: any RoutesBuilder) throws {
    let limit = ByteCount(value: server.options.maxBodyBytes + 1)
    for method in [HTTPMethod.GET, .POST, .PATCH, .DELETE, .PUT, .OPTIONS] {
      routes.on(method, body: .collect(maxSize: limit), use: respond)
      routes.on(method, "**", body: .collect(maxSize: limit), use: respond)
    }
  }

  /// Answers one request with the server.
  @Sendable func respond(_ request: Request) async throws -> Response {
    var served = JSONAPIServerRequest(
      method: request.method.rawValue, target: request.url.string,
      headers: request.headers.map { ($0.name, $0.value) })
    if let authenticator {
      switch await authenticator.authenticate(served.headers) {
      case .refused(let refusal):
        return Self.response(
          server.unauthorizedResponse(to: served, refusal: refusal, authenticator: authenticator))
      case .requester(let requester):
        served.context = requester
      }
    } else {
      served.context = context?(request)
    }
    served.body = request.body.data.map { Data(buffer: $0) } ?? Data()
    return Self.response(await server.respond(to: served))
  }

  /// `answer` as Vapor's response.
  static func response(_ answer: JSONAPIServerResponse) -> Response {
    Response(
      status: HTTPResponseStatus(statusCode: answer.status),
      headers: HTTPHeaders(answer.headers.map { ($0.name, $0.value) }),
      body: Response.Body(data: answer.body))
  }
}
