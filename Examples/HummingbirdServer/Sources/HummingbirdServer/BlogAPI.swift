import Foundation
import GRDB
import Hummingbird
import JSONAPICodable

/// The blog's JSON:API endpoints: for each type `T` of people, articles and comments,
///
/// - `/T`: GET a collection (include, fields, sort, filter, page), POST a new resource;
/// - `/T/{id}`: GET, PATCH, DELETE;
/// - `/T/{id}/{relationship}`: GET the related resource(s);
/// - `/T/{id}/relationships/{relationship}`: GET and PATCH linkage, POST and DELETE members of a
///   to-many relationship;
///
/// and `/operations` for Atomic Operations. Other methods on these paths get 405.
struct BlogAPI: Sendable {
  typealias Context = JSONAPIRequestContext
  private typealias Handler = @Sendable (Request, Context) async throws -> Response

  let database: DatabasePool
  /// Where the API lives, such as `http://127.0.0.1:8080`: `links` and `Location` are absolute
  /// URLs under it.
  let baseURL: String
  /// This server assigns ids: a create body with an `id` gets 403 (R77).
  let requestRules = JSONAPIRequestRules()

  func addRoutes(to router: Router<Context>) {
    for type in ResourceType.allCases {
      let path = "/" + type.rawValue
      on(
        router, path,
        [.get: { try await list(type, $0, $1) }, .post: { try await create(type, $0, $1) }])
      on(
        router, path + "/:id",
        [
          .get: { try await show(type, $0, $1) }, .patch: { try await update(type, $0, $1) },
          .delete: { try await delete(type, $0, $1) },
        ])
      on(router, path + "/:id/:relationship", [.get: { try await related(type, $0, $1) }])
      let linkage: Handler = { try await relationship(type, $0, $1) }
      on(
        router, path + "/:id/relationships/:relationship",
        [.get: linkage, .patch: linkage, .post: linkage, .delete: linkage])
    }
    on(router, "/operations", [.post: { try await operations($0, $1) }])
  }

  /// Routes `path` to `handlers`, and the other common methods to 405 naming those it answers.
  private func on(
    _ router: Router<Context>, _ path: String, _ handlers: [HTTPRequest.Method: Handler]
  ) {
    let allowed = handlers.keys.map(\.rawValue).sorted()
    for method in [HTTPRequest.Method.get, .post, .patch, .delete, .put] {
      let handler: Handler =
        handlers[method] ?? { _, _ in throw MethodNotAllowed(allowed: allowed) }
      router.on(RouterPath(path), method: method, use: handler)
    }
  }

  // MARK: - Collections and resources

  /// `GET /T`, and `GET /articles/{id}/comments` with `scope`.
  func list(
    _ type: ResourceType, _ request: Request, _ context: Context,
    scope: (owner: ResourceType, id: Int64, column: String)? = nil
  ) async throws -> Response {
    let query = try Self.query(request)
    try type.collectionRules.validate(query)
    let paging = type.paging
    let page = try paging.page(for: query)
    let include = IncludeTree(paths: query.include ?? [])
    let collection = try CollectionQuery(type, query, scope: scope.map { ($0.column, $0.id) })
    let baseURL = baseURL
    let (data, total, hasMore, cursors) = try await database.read { db in
      if let scope { try Writes.requireResource(scope.owner, scope.id, db) }
      let total = try collection.count(db)
      let (rows, hasMore, cursors) = try collection.rows(page, db)
      var graph = Graph(baseURL: baseURL)
      try graph.add(type, rows: rows, include: include, db)
      return (graph.resources(type, rows.map(\.id), include: include), total, hasMore, cursors)
    }
    // Links are the request's own target, absolute, with other `page` members.
    let paged = paging.response(
      for: page, target: baseURL + request.uri.string, cursors: cursors, count: cursors.count,
      hasMore: hasMore, total: Int(clamping: total))
    var response = try respond(
      with: Self.document(data, meta: paged.meta, links: paged.links), request, context)
    if paging.appliesCursorPaginationProfile {
      // R60: the answer names the profile it applies.
      let negotiated = try JSONAPIMiddleware.negotiation.negotiate(
        headers: request.headers.lazy.map { ($0.name.rawName, $0.value) }, hasBody: false)
      response.headers[.contentType] = paging.mediaType(applyingTo: negotiated).headerValue
    }
    return response
  }

  /// `GET /T/{id}`.
  func show(_ type: ResourceType, _ request: Request, _ context: Context) async throws -> Response {
    let query = try Self.query(request)
    try type.resourceRules.validate(query)
    let id = try Self.id(type, context)
    let data = try await database.read { db in
      try read(type, id, include: IncludeTree(paths: query.include ?? []), db)
    }
    return try respond(with: Self.document(data, links: selfLink(request)), request, context)
  }

  /// `POST /T`: 201 with the new resource and its URL in `Location` (R78).
  func create(_ type: ResourceType, _ request: Request, _ context: Context) async throws
    -> Response
  {
    let query = try Self.query(request)
    try type.resourceRules.validate(query)
    let document = try await Self.body(request, context)
    // R75, R77: the collection's type; no client-generated id.
    try requestRules.checkCreate(
      document.decode(JSONAPIResourceIdentifier.self), type: type.rawValue)
    let (id, data) = try await database.write { db in
      let id = try Writes.create(type, from: document, lids: LocalIDs(), db)
      return (id, try read(type, id, include: IncludeTree(paths: query.include ?? []), db))
    }
    var response = try respond(with: Self.document(data), request, context)
    response.status = .created
    response.headers[.location] = "\(baseURL)/\(type.rawValue)/\(id)"
    return response
  }

  /// `PATCH /T/{id}`: 200 with the resource as stored (R82).
  func update(_ type: ResourceType, _ request: Request, _ context: Context) async throws
    -> Response
  {
    let query = try Self.query(request)
    try type.resourceRules.validate(query)
    let document = try await Self.body(request, context)
    let text = try context.parameters.require("id")
    // R79: the body's type and id are the URL's (409), and the id is there (400).
    try requestRules.checkUpdate(
      document.decode(JSONAPIResourceIdentifier.self), type: type.rawValue, id: text)
    let id = try Self.id(type, context)
    let data = try await database.write { db in
      try Writes.update(type, id, from: document, lids: LocalIDs(), db)
      return try read(type, id, include: IncludeTree(paths: query.include ?? []), db)
    }
    return try respond(with: Self.document(data, links: selfLink(request)), request, context)
  }

  /// `DELETE /T/{id}`: 204 (R86).
  func delete(_ type: ResourceType, _ request: Request, _ context: Context) async throws
    -> Response
  {
    try ResourceType.emptyRules.validate(try Self.query(request))
    let id = try Self.id(type, context)
    try await database.write { db in try Writes.delete(type, id, db) }
    return Response(status: .noContent)
  }

  /// `type`/`id` whole, with what `include` reaches; 404 when there is no such resource.
  func read(_ type: ResourceType, _ id: Int64, include: IncludeTree, _ db: Database) throws
    -> any Encodable & Sendable
  {
    var graph = Graph(baseURL: baseURL)
    try graph.load(type, ids: [id], include: include, db)
    guard graph.contains(type, id) else {
      throw JSONAPIRequestError.resourceNotFound(type: type.rawValue, id: String(id))
    }
    return graph.resource(type, id, include: include)
  }

  // MARK: - Related resources and relationships

  /// `GET /T/{id}/{relationship}` (R87): the related resource (or null), or the related
  /// collection, paged like any other.
  func related(_ type: ResourceType, _ request: Request, _ context: Context) async throws
    -> Response
  {
    let (relationship, id) = try Self.relationship(type, context)
    switch relationship.storage {
    case .inverse(let column):
      return try await list(
        relationship.target, request, context, scope: (owner: type, id: id, column: column))
    case .column(let column):
      let query = try Self.query(request)
      try relationship.target.resourceRules.validate(query)
      let include = IncludeTree(paths: query.include ?? [])
      let data = try await database.read { db -> (any Encodable & Sendable)? in
        guard
          let row = try Row.fetchOne(
            db, sql: "SELECT \(column) AS related FROM \(type.table) WHERE id = ?", arguments: [id])
        else { throw JSONAPIRequestError.resourceNotFound(type: type.rawValue, id: String(id)) }
        return try row.integer("related").map {
          try read(relationship.target, $0, include: include, db)
        }
      }
      guard let data else {
        return try respond(
          with: JSONAPIDocument<JSONAPIResourceIdentifier?, JSONAPIValue>(
            data: nil, links: selfLink(request)),
          request, context)
      }
      return try respond(with: Self.document(data, links: selfLink(request)), request, context)
    }
  }

  /// `/T/{id}/relationships/{relationship}`: GET the linkage; PATCH replaces it; POST adds and
  /// DELETE removes members of a to-many relationship. Changes answer 204 (R85).
  func relationship(_ type: ResourceType, _ request: Request, _ context: Context) async throws
    -> Response
  {
    try ResourceType.emptyRules.validate(try Self.query(request))
    let (relationship, id) = try Self.relationship(type, context)
    let method = request.method
    if method == .get { return try await linkage(type, id, relationship, request, context) }
    let target = relationship.target.rawValue
    guard relationship.isToMany else {
      guard method == .patch else { throw MethodNotAllowed(allowed: ["GET", "PATCH"]) }
      // R83: an identifier, or null to clear.
      let identifier = try await request.decode(
        as: JSONAPIResourceIdentifier?.self, context: context)
      try requestRules.checkLinkage(identifier.map { [$0] } ?? [], type: target, toMany: false)
      try await database.write { db in
        try Writes.setToOne(relationship, of: type, id, to: identifier, lids: LocalIDs(), db)
      }
      return Response(status: .noContent)
    }
    // R84: an array of identifiers for every method.
    let identifiers = try await request.decode(
      as: [JSONAPIResourceIdentifier].self, context: context)
    try requestRules.checkLinkage(identifiers, type: target, toMany: true)
    try await database.write { db in
      try Writes.requireResource(type, id, db)
      switch method {
      case .patch:
        try Writes.replace(identifiers, in: relationship, of: id, LocalIDs(), db, pointer: "/data")
      case .post: try Writes.add(identifiers, to: relationship, of: id, LocalIDs(), db)
      default: try Writes.remove(identifiers, from: relationship, of: id, LocalIDs(), db)
      }
    }
    return Response(status: .noContent)
  }

  private func linkage(
    _ type: ResourceType, _ id: Int64, _ relationship: Relationship, _ request: Request,
    _ context: Context
  ) async throws -> Response {
    let links: JSONAPILinks = [
      "self": JSONAPILink(href: baseURL + request.uri.path),
      "related": JSONAPILink(href: "\(baseURL)/\(type.rawValue)/\(id)/\(relationship.name)"),
    ]
    let target = relationship.target.rawValue
    let ids = try await database.read { db -> [Int64] in
      try Writes.requireResource(type, id, db)
      switch relationship.storage {
      case .column(let column):
        let row = try Row.fetchOne(
          db, sql: "SELECT \(column) AS related FROM \(type.table) WHERE id = ?", arguments: [id])
        return row?.integer("related").map { [$0] } ?? []
      case .inverse(let column):
        return try Int64.fetchAll(
          db,
          sql: "SELECT id FROM \(relationship.target.table) WHERE \(column) = ? ORDER BY id",
          arguments: [id])
      }
    }
    let identifiers = ids.map { JSONAPIResourceIdentifier(type: target, id: String($0)) }
    if relationship.isToMany {
      return try respond(
        with: JSONAPIDocument<[JSONAPIResourceIdentifier], JSONAPIValue>(
          data: identifiers, links: links), request, context)
    }
    return try respond(
      with: JSONAPIDocument<JSONAPIResourceIdentifier?, JSONAPIValue>(
        data: identifiers.first, links: links), request, context)
  }

  // MARK: - Helpers

  /// The response for `document`, encoded by the context's JSON:API encoder.
  func respond(with document: some Encodable, _ request: Request, _ context: Context) throws
    -> Response
  {
    try context.responseEncoder.encode(document, from: request, context: context)
  }

  /// A document around primary data the graph built (its type is known only at run time).
  static func document(
    _ data: some Encodable & Sendable, meta: JSONAPIValue? = nil, links: JSONAPILinks? = nil
  ) -> some Encodable & Sendable {
    JSONAPIDocument(data: data, meta: meta, links: links)
  }

  func selfLink(_ request: Request) -> JSONAPILinks {
    ["self": JSONAPILink(href: baseURL + request.uri.path)]
  }

  /// The request's query, parsed within the library's default limits.
  static func query(_ request: Request) throws -> JSONAPIQuery {
    try JSONAPIQuery(parsing: request.uri.query ?? "")
  }

  /// The request body, read once (at most the context's upload size).
  static func body(_ request: Request, _ context: Context) async throws -> RequestDocument {
    let body = try await request.body.collect(upTo: context.maxUploadSize)
    return RequestDocument(body: Data(body.readableBytesView), decoder: context.requestDecoder)
  }

  /// The `{id}` of the URL; 404 when no row can have it.
  static func id(_ type: ResourceType, _ context: Context) throws -> Int64 {
    let text = try context.parameters.require("id")
    guard let id = databaseID(text) else {
      throw JSONAPIRequestError.resourceNotFound(type: type.rawValue, id: text)
    }
    return id
  }

  /// The `{relationship}` and `{id}` of the URL; 404 for a relationship `type` does not have.
  static func relationship(_ type: ResourceType, _ context: Context) throws
    -> (Relationship, Int64)
  {
    let name = try context.parameters.require("relationship")
    guard let relationship = type.relationships[name] else {
      throw JSONAPIRequestError.relationshipNotFound(name: name)
    }
    return (relationship, try id(type, context))
  }
}
