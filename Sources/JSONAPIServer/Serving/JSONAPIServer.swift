import Foundation

/// A JSON:API server built from declared resources: every endpoint the specification defines,
/// answered from a ``JSONAPIStore``, with no web framework in it.
///
/// Give it the resource declarations and a store; framework glue (Hummingbird, Vapor, …) turns its
/// own requests into ``JSONAPIServerRequest`` and writes the ``JSONAPIServerResponse`` back.
///
/// ```swift
/// let server = try JSONAPIServer(
///   resources: [
///     JSONAPIResourceDeclaration(Person.self, sortable: ["name"]),
///     JSONAPIResourceDeclaration(
///       Article.self, filters: ["title": .contains("title")], sortable: ["title"],
///       paging: .cursor(defaultSize: 10, maxSize: 100)),
///   ],
///   store: JSONAPIMemoryStore(schemas: …), baseURL: "https://api.example.com")
/// let response = await server.respond(
///   to: JSONAPIServerRequest(method: "GET", target: "/articles?include=author"))
/// ```
///
/// For each declared type `T` it answers:
///
/// | Path | Methods |
/// |---|---|
/// | `/T` | `GET` (include, fields, sort, filter, page), `POST` |
/// | `/T/{id}` | `GET`, `PATCH`, `DELETE` |
/// | `/T/{id}/{relationship}` | `GET` the related resource or collection |
/// | `/T/{id}/relationships/{relationship}` | `GET`, `PATCH`; `POST`, `DELETE` for to-many |
/// | `/operations` | `POST` with the Atomic Operations extension |
///
/// `HEAD` wherever `GET` is, and `405 Method Not Allowed` with `Allow` for any other method.
/// Every failure is an error document whose pointers lead into the request (into the operation,
/// for Atomic Operations).
public struct JSONAPIServer: Sendable {
  /// The declared resource types, by `type`.
  public let resources: [String: JSONAPIResourceDeclaration]
  /// Where resources are kept.
  public let store: any JSONAPIStore
  /// The absolute URL the API is served under, such as `https://api.example.com` or
  /// `http://127.0.0.1:8080/v1`, without a final `/`: links and `Location` start with it, and
  /// request paths are read below its path.
  public let baseURL: String
  /// Settings beyond the declarations.
  public let options: Options

  let links: ServedLinks
  /// Every field of every type, for `fields[TYPE]` on any endpoint (an included resource may be of
  /// any type).
  let fieldsets: [String: Set<String>]

  /// Settings of a ``JSONAPIServer`` beyond its declarations.
  public struct Options: Sendable {
    /// The longest `include` path, in relationships. Default: 3.
    public var maxIncludeDepth: Int
    /// The largest request body, in bytes; larger ones get `413`. Default: 1 MiB.
    public var maxBodyBytes: Int
    /// The most operations one Atomic Operations request may hold; more get `413`. Default: 100.
    public var maxOperations: Int
    /// The path segment of the Atomic Operations endpoint; `nil` serves none. Default:
    /// `operations`.
    public var operationsPath: String?
    /// Reads request bodies, and decodes records as models for the declarations' checks.
    public var decoder: JSONAPIDecoder
    /// Writes error documents.
    public var encoder: JSONAPIEncoder

    /// Creates options; every argument has the default documented on its property.
    public init(
      maxIncludeDepth: Int = 3, maxBodyBytes: Int = 1 << 20, maxOperations: Int = 100,
      operationsPath: String? = "operations", decoder: JSONAPIDecoder = JSONAPIDecoder(),
      encoder: JSONAPIEncoder = JSONAPIEncoder()
    ) {
      self.maxIncludeDepth = maxIncludeDepth
      self.maxBodyBytes = maxBodyBytes
      self.maxOperations = maxOperations
      self.operationsPath = operationsPath
      self.decoder = decoder
      self.encoder = encoder
    }
  }

  /// Creates a server for `resources` kept in `store`.
  ///
  /// - Parameters:
  ///   - resources: One declaration per resource type.
  ///   - store: Where the resources are kept.
  ///   - baseURL: The absolute URL the API is served under (see ``baseURL``); empty for links
  ///     relative to the host (`/articles/1`).
  ///   - options: Limits and coders.
  /// - Throws: ``JSONAPIDeclarationError`` when two declarations share a
  ///   type, a relationship names a type that is not declared, or a type is named like the
  ///   operations path.
  public init(
    resources: [JSONAPIResourceDeclaration], store: any JSONAPIStore, baseURL: String = "",
    options: Options = Options()
  ) throws {
    var byType: [String: JSONAPIResourceDeclaration] = [:]
    for declaration in resources {
      guard byType.updateValue(declaration, forKey: declaration.type) == nil else {
        throw Self.misdeclared("the type `\(declaration.type)` is declared twice")
      }
    }
    for declaration in resources {
      for relationship in declaration.schema.relationships {
        guard let target = relationship.targetType else { continue }
        guard let targetDeclaration = byType[target] else {
          throw Self.misdeclared(
            "the relationship `\(relationship.name)` of `\(declaration.type)` names the type "
              + "`\(target)`, which is not declared: declare it, or serve its model too")
        }
        if let inverse = relationship.inverse {
          let mirrored = targetDeclaration.schema.relationship(named: inverse)
          guard let mirrored, !mirrored.isToMany, mirrored.targetType == declaration.type else {
            throw Self.misdeclared(
              "the inverse `\(inverse)` of `\(declaration.type).\(relationship.name)` is not a "
                + "to-one relationship of `\(target)` to `\(declaration.type)`")
          }
        }
      }
    }
    if let operations = options.operationsPath, byType[operations] != nil {
      throw Self.misdeclared(
        "the type `\(operations)` has the path of the Atomic Operations endpoint: set "
          + "Options.operationsPath to another path, or nil")
    }
    try Self.checkPolicies(resources, store: store)
    var base = baseURL
    while base.hasSuffix("/") { base.removeLast() }
    self.resources = byType
    self.store = store
    self.baseURL = base
    self.options = options
    links = ServedLinks(base: base)
    fieldsets = byType.mapValues { declaration in
      Set(declaration.schema.attributes.map(\.name) + declaration.schema.relationships.map(\.name))
    }
  }

  private static func misdeclared(_ reason: String) -> JSONAPIDeclarationError {
    JSONAPIDeclarationError(reason: "Cannot serve these resources: \(reason)")
  }

  /// Answers `request`: every outcome, failures included, is a response.
  ///
  /// ```swift
  /// let response = await server.respond(
  ///   to: JSONAPIServerRequest(
  ///     method: "POST", target: "/articles",
  ///     headers: [("Content-Type", "application/vnd.api+json")],
  ///     body: Data(#"{"data":{"type":"articles","attributes":{"title":"Hi"}}}"#.utf8)))
  /// response.status                 // 201
  /// response.header("Location")     // https://api.example.com/articles/1
  /// ```
  public func respond(to request: JSONAPIServerRequest) async -> JSONAPIServerResponse {
    var exchange = ServedExchange(request: request)
    do {
      // The requester, for the policies every store read and write of this request is held to.
      return try await ServedRequester.$current.withValue(request.requester) {
        try await answer(&exchange)
      }
    } catch {
      return errorResponse([error], exchange: exchange)
    }
  }

  /// The error document for `errors`, with the status of the first (or the most general when
  /// they differ, as JSON:API advises: `400` among 4xx, `500` with any 5xx).
  func errorResponse(_ errors: [any Error], exchange: ServedExchange) -> JSONAPIServerResponse {
    let objects = errors.flatMap(Self.errorObjects)
    let status = JSONAPIErrorObject.status(of: objects)
    var headers = exchange.headers
    headers.append(("Content-Type", exchange.mediaType.headerValue))
    let body = (try? options.encoder.encode(errors: objects)) ?? Data()
    return JSONAPIServerResponse(
      status: status, headers: headers, body: exchange.isHead ? Data() : body)
  }

  /// The error objects that answer `error`.
  static func errorObjects(_ error: any Error) -> [JSONAPIErrorObject] {
    switch error {
    case let refusal as ServedRefusal: return refusal.objects
    case let stored as JSONAPIStoreError:
      switch stored {
      case .alreadyExists(let type, let id):
        return [
          JSONAPIErrorObject(
            describing: JSONAPIRequestError.resourceAlreadyExists(type: type, id: id))
        ]
      case .unstorableValue(let member, let reason):
        return [
          JSONAPIErrorObject(
            status: "422", code: "unstorable-value", title: "Invalid Attribute", detail: reason,
            source: JSONAPIErrorObject.Source(pointer: "/data/attributes/\(member)"))
        ]
      }
    default:
      return [JSONAPIErrorObject(describing: error)]
    }
  }
}

/// Several error objects thrown as one error, such as a refusal from inside an operation with
/// its pointers moved into the operation.
struct ServedRefusal: Error {
  var objects: [JSONAPIErrorObject]
}

/// What one request has set up so far, for its answer and its error answer.
struct ServedExchange: Sendable {
  let request: JSONAPIServerRequest
  /// The media type to answer with, once negotiated.
  var mediaType = JSONAPIMediaType()
  /// Header fields every answer carries (`Vary`, `Allow`).
  var headers: [(name: String, value: String)] = []
  var isHead: Bool { request.method.uppercased() == "HEAD" }
}
