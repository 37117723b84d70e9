import Foundation

/// The endpoint a request's path names.
enum ServedRoute: Sendable {
  case collection(JSONAPIResourceDeclaration)
  case resource(JSONAPIResourceDeclaration, id: String)
  case related(
    JSONAPIResourceDeclaration, id: String, relationship: JSONAPIResourceSchema.Relationship)
  case relationship(
    JSONAPIResourceDeclaration, id: String, relationship: JSONAPIResourceSchema.Relationship)
  case operations

  /// The methods the endpoint answers, `HEAD` aside.
  var methods: [String] {
    switch self {
    case .collection: return ["GET", "POST"]
    case .resource: return ["GET", "PATCH", "DELETE"]
    case .related: return ["GET"]
    case .relationship(_, _, let relationship):
      return relationship.isToMany ? ["GET", "PATCH", "POST", "DELETE"] : ["GET", "PATCH"]
    case .operations: return ["POST"]
    }
  }
}

extension JSONAPIServer {
  /// Routes, negotiates, and hands the request to its endpoint.
  func answer(_ exchange: inout ServedExchange) async throws -> JSONAPIServerResponse {
    let request = exchange.request
    let (path, rawQuery) = Self.split(request.target)
    let route = try route(path)
    var method = request.method.uppercased()
    let allowed = route.methods.contains("GET") ? route.methods + ["HEAD"] : route.methods
    if method == "HEAD" { method = "GET" }
    guard route.methods.contains(method) else {
      exchange.headers.append(("Allow", allowed.joined(separator: ", ")))
      throw JSONAPIErrorObject(
        status: "405", code: "method-not-allowed", title: "Method Not Allowed",
        detail: "\(request.method.uppercased()) is not allowed here; this endpoint answers "
          + allowed.joined(separator: ", "))
    }
    // Negotiation (R58–R61): the Atomic Operations extension on its endpoint only, and the
    // Cursor Pagination profile where a collection pages by cursor.
    var negotiation = JSONAPIContentNegotiation()
    if case .operations = route {
      negotiation.supportedExtensions = [JSONAPIMediaType.atomicExtension]
    }
    if let paging = pagedDeclaration(route)?.paging, paging.appliesCursorPaginationProfile {
      negotiation.supportedProfiles = [JSONAPIPaging.cursorPaginationProfile]
    }
    if negotiation.sendsVaryAccept { exchange.headers.append(("Vary", "Accept")) }
    exchange.mediaType = try negotiation.negotiate(
      headers: request.headers.lazy.map { ($0.name, $0.value) }, hasBody: !request.body.isEmpty)
    guard request.body.count <= options.maxBodyBytes else {
      throw JSONAPIErrorObject(
        status: "413", code: "body-too-large", title: "Content Too Large",
        detail: "The request body is larger than this server accepts (\(options.maxBodyBytes) "
          + "bytes)")
    }
    let query = try JSONAPIQuery(parsing: rawQuery)
    var response: JSONAPIServerResponse
    switch (route, method) {
    case (.collection(let declaration), "GET"):
      response = try await list(declaration, query: query, exchange: exchange)
    case (.collection(let declaration), _):
      response = try await create(declaration, query: query, exchange: exchange)
    case (.resource(let declaration, let id), "GET"):
      response = try await show(declaration, id: id, query: query, exchange: exchange)
    case (.resource(let declaration, let id), "PATCH"):
      response = try await update(declaration, id: id, query: query, exchange: exchange)
    case (.resource(let declaration, let id), _):
      response = try await delete(declaration, id: id, query: query, exchange: exchange)
    case (.related(let declaration, let id, let relationship), _):
      response = try await related(
        declaration, id: id, relationship: relationship, query: query, exchange: exchange)
    case (.relationship(let declaration, let id, let relationship), "GET"):
      response = try await linkage(
        declaration, id: id, relationship: relationship, query: query, exchange: exchange)
    case (.relationship(let declaration, let id, let relationship), _):
      response = try await changeLinkage(
        declaration, id: id, relationship: relationship, method: method, query: query,
        exchange: exchange)
    case (.operations, _):
      response = try await operations(query: query, exchange: exchange)
    }
    // Every read answered 200 gets its validator and its conditions (the only GET endpoints are
    // resources, collections, related resources and linkage).
    if method == "GET", response.status == 200 {
      response = try conditionalRead(response, exchange: exchange)
    }
    response.headers.insert(contentsOf: exchange.headers, at: 0)
    if exchange.isHead { response.body = Data() }
    return response
  }

  /// The declaration whose paging a route's `GET` applies: a collection's, or a related
  /// collection's target's.
  private func pagedDeclaration(_ route: ServedRoute) -> JSONAPIResourceDeclaration? {
    switch route {
    case .collection(let declaration): return declaration
    case .related(_, _, let relationship) where relationship.isToMany:
      return relationship.targetType.flatMap { resources[$0] }
    default: return nil
    }
  }

  /// The path (fragment and query removed, scheme and authority of an absolute URL too) and the
  /// raw query of a request target.
  static func split(_ target: String) -> (path: Substring, query: String) {
    var text = Substring(target)
    if let hash = text.firstIndex(of: "#") { text = text[..<hash] }
    if let scheme = text.range(of: "://"), !text[..<scheme.lowerBound].contains("/") {
      let rest = text[scheme.upperBound...]
      text = rest.firstIndex(of: "/").map { rest[$0...] } ?? ""
    }
    guard let question = text.firstIndex(of: "?") else { return (text, "") }
    return (text[..<question], String(text[text.index(after: question)...]))
  }

  /// The endpoint `path` names.
  ///
  /// - Throws: A `404` error object when it names none.
  func route(_ path: Substring) throws -> ServedRoute {
    var rest = path
    let basePath = links.path
    if !basePath.isEmpty {
      guard rest.hasPrefix(basePath),
        rest.count == basePath.count || rest.dropFirst(basePath.count).hasPrefix("/")
      else { throw Self.notFound("No endpoint at \(path)") }
      rest = rest.dropFirst(basePath.count)
    }
    var segments: [String] = []
    for raw in rest.split(separator: "/", omittingEmptySubsequences: true) {
      guard segments.count < 4, let segment = raw.removingPercentEncoding else {
        throw Self.notFound("No endpoint at \(path)")
      }
      segments.append(segment)
    }
    if segments.count == 1, let operations = options.operationsPath, segments[0] == operations {
      return .operations
    }
    guard let first = segments.first, let declaration = resources[first] else {
      throw Self.notFound(
        segments.first.map { "There is no resource type `\($0)`" } ?? "No endpoint at \(path)")
    }
    func relationship(_ name: String) throws -> JSONAPIResourceSchema.Relationship {
      guard let relationship = declaration.schema.relationship(named: name) else {
        throw JSONAPIRequestError.relationshipNotFound(name: name)
      }
      return relationship
    }
    switch segments.count {
    case 1: return .collection(declaration)
    case 2: return .resource(declaration, id: segments[1])
    case 3:
      return .related(declaration, id: segments[1], relationship: try relationship(segments[2]))
    default:
      guard segments[2] == "relationships" else { throw Self.notFound("No endpoint at \(path)") }
      return .relationship(
        declaration, id: segments[1], relationship: try relationship(segments[3]))
    }
  }

  static func notFound(_ detail: String) -> JSONAPIErrorObject {
    JSONAPIErrorObject(status: "404", code: "not-found", title: "Not Found", detail: detail)
  }
}
