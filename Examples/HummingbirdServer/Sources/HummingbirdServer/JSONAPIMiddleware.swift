import Foundation
import Hummingbird
import JSONAPICodable
import Logging

/// Runs before every route: checks `Content-Type` (415) and `Accept` (406) as JSON:API asks, and
/// answers every failure, from a route, the router (404) or the body reader (413), with an error
/// document.
struct JSONAPIMiddleware: RouterMiddleware {
  typealias Context = JSONAPIRequestContext

  /// This server supports the Atomic Operations extension (on `/operations`) and applies the
  /// Cursor Pagination profile (on `/articles`), so its answers depend on `Accept`: they say so
  /// with `Vary: Accept`.
  static let negotiation = JSONAPIContentNegotiation(
    supportedExtensions: [JSONAPIMediaType.atomicExtension],
    supportedProfiles: [JSONAPIPaging.cursorPaginationProfile])

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var response: Response
    do {
      _ = try Self.negotiation.negotiate(
        headers: request.headers.lazy.map { ($0.name.rawName, $0.value) },
        hasBody: Self.hasBody(request))
      response = try await next(request, context)
    } catch {
      response = Self.errorResponse(for: error, context: context)
    }
    if Self.negotiation.sendsVaryAccept { response.headers[.vary] = "Accept" }
    return response
  }

  /// Whether the request announces a body: a `Content-Length` other than 0, or chunked.
  static func hasBody(_ request: Request) -> Bool {
    if let length = request.headers[.contentLength] { return length != "0" }
    return request.headers[.transferEncoding] != nil
  }

  /// The error document for `error`, with the status of its error object.
  static func errorResponse(for error: any Error, context: Context) -> Response {
    var headers: HTTPFields = [.contentType: JSONAPIMediaType.name]
    let object: JSONAPIErrorObject
    switch error {
    case let error as MethodNotAllowed:
      headers[.allow] = error.allowed.joined(separator: ", ")
      object = JSONAPIErrorObject(
        status: "405", code: "method-not-allowed", title: "Method Not Allowed",
        detail: "This endpoint answers \(error.allowed.joined(separator: ", ")).")
    case let error as any HTTPResponseError:
      // Hummingbird's own: no route (404), a body over the size limit (413), ...
      let status = error.status
      object = JSONAPIErrorObject(
        status: String(status.code), title: status.reasonPhrase,
        detail: status.code == 404 ? "There is no endpoint at this URL." : nil)
    default:
      object = JSONAPIErrorObject(describing: error)
    }
    let status = object.status.flatMap { Int($0) } ?? 500
    if status >= 500 { context.logger.error("request failed: \(String(describing: error))") }
    let body: Data
    do {
      body = try JSONAPIResponseEncoder.shared.encode(errors: [object])
    } catch {
      // An error object always encodes; should it not, the status still says what happened.
      return Response(status: .init(code: status))
    }
    headers[.contentLength] = String(body.count)
    return Response(
      status: .init(code: status), headers: headers,
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
  }
}

/// The route exists but does not answer this method: `405` with an `Allow` header.
struct MethodNotAllowed: Error {
  var allowed: [String]
}
