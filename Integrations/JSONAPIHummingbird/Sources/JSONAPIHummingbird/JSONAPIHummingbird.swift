// Serves a JSONAPICodable `JSONAPIServer` with Hummingbird 2 (the `JSONAPIHummingbird` product):
//
//   let app = buildApplication(
//     server: server,
//     configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 8080)),
//     authenticator: .bearer(realm: "api") { token in await users.requester(token: token) })
//   try await app.runService()
//
// or, beside routes of the app's own:
//
//   router.add(middleware: JSONAPIResponder(server: server, pathPrefix: "/api"))

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import JSONAPIServer
import NIOCore
import NIOHTTPTypes

/// Answers Hummingbird requests with a `JSONAPIServer`: as an application's whole responder, or
/// as router middleware that sends the paths under ``pathPrefix`` to the server, whatever their
/// method, and every other request to the routes after it.
public struct JSONAPIResponder<Context: RequestContext>: HTTPResponder, RouterMiddleware {
  /// The server that answers.
  public let server: JSONAPIServer
  /// The paths the middleware sends to the server: this path and the paths below it.
  public let pathPrefix: String
  /// What hooks read as `JSONAPIServerRequest.context`, such as the authenticated user.
  public let context: @Sendable (Request, Context) async -> (any Sendable)?
  /// The server's OpenAPI description as JSON, answered at `GET` (and `HEAD`)
  /// ``pathPrefix``/`openapi.json`; `nil` serves none.
  public let openAPI: Data?
  /// Finds who sends each request in its header fields, before the body is read; a request it
  /// refuses is answered `401` with an error document and `WWW-Authenticate`, and the server never
  /// sees it. When set, the requester it finds is the request's `context` (``context`` is not
  /// called). The OpenAPI description is served without it.
  public let authenticator: JSONAPIAuthenticator?

  /// Creates a responder for `server`.
  ///
  /// - Parameters:
  ///   - server: The server that answers.
  ///   - pathPrefix: As middleware, the path whose requests (and those below it) go to the server,
  ///     such as `/api`; the server's `baseURL` should end with the same path. Default: every path.
  ///   - openAPI: The server's OpenAPI description as JSON
  ///     (`try server.openAPIDocument(title:version:).jsonData()`), served at `openapi.json`
  ///     under `pathPrefix`; `nil` (the default) serves none.
  ///   - authenticator: Finds the requester in each request's header fields, or refuses it with
  ///     `401` before anything is read (see ``authenticator``); `nil` (the default) for none.
  ///   - context: Makes the request's `context` for the server's hooks when there is no
  ///     `authenticator`; `nil` by default.
  public init(
    server: JSONAPIServer, pathPrefix: String = "/", openAPI: Data? = nil,
    authenticator: JSONAPIAuthenticator? = nil,
    context: @escaping @Sendable (Request, Context) async -> (any Sendable)? = { _, _ in nil }
  ) {
    self.server = server
    self.pathPrefix = pathPrefix.hasSuffix("/") ? String(pathPrefix.dropLast()) : pathPrefix
    self.openAPI = openAPI
    self.authenticator = authenticator
    self.context = context
  }

  /// Answers `request` with the server. The body is read up to one byte past the server's
  /// `maxBodyBytes`, so that a longer one gets the server's `413` without being held whole.
  public func respond(to request: Request, context: Context) async throws -> Response {
    if let openAPI, request.method == .get || request.method == .head,
      request.uri.path == pathPrefix + "/openapi.json"
    {
      var headers = HTTPFields()
      headers[.contentType] = "application/json"
      let body = request.method == .head ? ByteBuffer() : ByteBuffer(bytes: openAPI)
      return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }
    var served = JSONAPIServerRequest(
      method: request.method.rawValue, target: request.uri.string,
      headers: request.headers.map { ($0.name.rawName, $0.value) })
    if let authenticator {
      switch await authenticator.authenticate(served.headers) {
      case .refused(let refusal):
        return Self.response(
          server.unauthorizedResponse(to: served, refusal: refusal, authenticator: authenticator),
          to: request)
      case .requester(let requester):
        served.context = requester
      }
    } else {
      served.context = await self.context(request, context)
    }
    let limit = server.options.maxBodyBytes.addingReportingOverflow(1).partialValue
    for try await buffer in request.body {
      served.body.append(contentsOf: buffer.readableBytesView.prefix(limit - served.body.count))
      if served.body.count >= limit { break }
    }
    return Self.response(await server.respond(to: served), to: request)
  }

  /// `answer` as Hummingbird's response to `request`.
  static func response(_ answer: JSONAPIServerResponse, to request: Request) -> Response {
    var headers = HTTPFields()
    for (name, value) in answer.headers {
      if let name = HTTPField.Name(name) { headers.append(HTTPField(name: name, value: value)) }
    }
    var response = Response(
      status: HTTPResponse.Status(code: answer.status), headers: headers,
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    // `HEAD` is answered without the body, whose length is unknown here; `204` has none, and a
    // `304` has none either: a Content-Length on it would describe the 200 it stands for.
    if request.method == .head || answer.status == 204 || answer.status == 304 {
      response.headers[.contentLength] = nil
    }
    return response
  }

  /// As middleware: the server answers requests under ``pathPrefix``; `next` answers the others.
  public func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let path = request.uri.path
    guard pathPrefix.isEmpty || path == pathPrefix || path.hasPrefix(pathPrefix + "/") else {
      return try await next(request, context)
    }
    return try await respond(to: request, context: context)
  }
}

/// Builds the application that serves `server` on HTTP/1.1, every path to the server: `main` runs
/// it (`runService()`), tests drive it in process with HummingbirdTesting (`app.test(.router)`).
///
/// - Parameters:
///   - server: The server that answers.
///   - configuration: Address, server name and the rest of Hummingbird's settings.
///   - idleTimeout: How long a connection may go without a whole request head or body part
///     arriving (or between requests) before it is closed. A head sent a byte at a time counts as
///     idle until it is complete, so this bounds it too.
///   - requestTimeout: How long a request's body may take to arrive once its head has; then the
///     connection is closed, unanswered. It bounds a body sent a byte at a time, which the idle
///     timeout does not (each part of it counts as activity).
///   - openAPI: The server's OpenAPI description as JSON, served at `/openapi.json`; `nil` (the
///     default) serves none.
///   - authenticator: Finds the requester in each request's header fields, or answers `401`
///     before the server sees the request (``JSONAPIResponder/authenticator``); `nil` for none.
///   - context: Makes the request's `context` for the server's hooks when there is no
///     `authenticator`; `nil` by default.
public func buildApplication(
  server: JSONAPIServer, configuration: ApplicationConfiguration,
  idleTimeout: TimeAmount = .seconds(30), requestTimeout: TimeAmount = .seconds(60),
  openAPI: Data? = nil, authenticator: JSONAPIAuthenticator? = nil,
  context: @escaping @Sendable (Request, BasicRequestContext) async -> (any Sendable)? = { _, _ in
    nil
  }
) -> some ApplicationProtocol {
  Application(
    responder: JSONAPIResponder(
      server: server, openAPI: openAPI, authenticator: authenticator, context: context),
    server: .http1(
      configuration: HTTP1Channel.Configuration(
        additionalChannelHandlers: [RequestDeadlineHandler(timeout: requestTimeout)],
        idleTimeout: idleTimeout)),
    configuration: configuration)
}

/// Closes a connection when a request's body has not all arrived `timeout` after its head.
final class RequestDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  let timeout: TimeAmount
  private var deadline: Scheduled<Void>?

  init(timeout: TimeAmount) { self.timeout = timeout }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head:
      deadline?.cancel()
      deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
        context.close(promise: nil)
      }
    case .end:
      deadline?.cancel()
      deadline = nil
    case .body: break
    }
    context.fireChannelRead(data)
  }

  func handlerRemoved(context: ChannelHandlerContext) { deadline?.cancel() }
}

@available(*, unavailable)
extension RequestDeadlineHandler: Sendable {}
