import Foundation

/// An OpenAPI 3.1 document: the part of OpenAPI that ``JSONAPIServer`` describes itself with
/// (paths, operations, parameters, bodies, responses and JSON Schemas).
///
/// Make one with ``JSONAPIServer/openAPIDocument(title:version:)`` and serve its
/// ``jsonData()``; clients, mocks and documentation can be generated from it.
///
/// ```swift
/// let description = server.openAPIDocument(title: "Blog", version: "1.0.0")
/// let body = try description.jsonData()   // serve at GET /openapi.json
/// ```
public struct JSONAPIOpenAPIDocument: Codable, Sendable, Hashable {
  /// The OpenAPI version: `3.1.0`.
  public var openapi: String
  /// The API's title and version.
  public var info: Info
  /// The base URLs the API is served under.
  public var servers: [Server]?
  /// Each path, such as `/articles/{id}`, and what it answers.
  public var paths: [String: PathItem]
  /// The schemas the operations refer to.
  public var components: Components

  /// Creates a document.
  public init(
    openapi: String = "3.1.0", info: Info, servers: [Server]? = nil, paths: [String: PathItem],
    components: Components
  ) {
    self.openapi = openapi
    self.info = info
    self.servers = servers
    self.paths = paths
    self.components = components
  }

  /// The document as JSON, keys sorted so that the same declarations give the same bytes.
  ///
  /// - Throws: `EncodingError` only if a schema holds a number JSON cannot (never for documents
  ///   ``JSONAPIServer`` makes).
  public func jsonData() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }

  /// The API's title and version.
  public struct Info: Codable, Sendable, Hashable {
    /// The API's name.
    public var title: String
    /// The API's version.
    public var version: String
    /// What the API is for.
    public var description: String?

    /// Creates an `info` object.
    public init(title: String, version: String, description: String? = nil) {
      self.title = title
      self.version = version
      self.description = description
    }
  }

  /// A base URL of the API.
  public struct Server: Codable, Sendable, Hashable {
    /// The base URL.
    public var url: String

    /// Creates a server object.
    public init(url: String) { self.url = url }
  }

  /// The operations of one path.
  public struct PathItem: Codable, Sendable, Hashable {
    /// `GET`.
    public var get: Operation?
    /// `HEAD`.
    public var head: Operation?
    /// `POST`.
    public var post: Operation?
    /// `PATCH`.
    public var patch: Operation?
    /// `DELETE`.
    public var delete: Operation?
    /// Parameters every operation of the path takes (its path parameters).
    public var parameters: [Parameter]?

    /// Creates a path item.
    public init(
      get: Operation? = nil, head: Operation? = nil, post: Operation? = nil,
      patch: Operation? = nil, delete: Operation? = nil, parameters: [Parameter]? = nil
    ) {
      self.get = get
      self.head = head
      self.post = post
      self.patch = patch
      self.delete = delete
      self.parameters = parameters
    }
  }

  /// One method of one path.
  public struct Operation: Codable, Sendable, Hashable {
    /// A name unique in the document, such as `listArticles`.
    public var operationId: String
    /// What the operation does.
    public var summary: String?
    /// Groups for documentation (the resource type).
    public var tags: [String]?
    /// Its query parameters.
    public var parameters: [Parameter]?
    /// Its body.
    public var requestBody: RequestBody?
    /// The answers, by status code.
    public var responses: [String: Response]

    /// Creates an operation.
    public init(
      operationId: String, summary: String? = nil, tags: [String]? = nil,
      parameters: [Parameter]? = nil, requestBody: RequestBody? = nil,
      responses: [String: Response]
    ) {
      self.operationId = operationId
      self.summary = summary
      self.tags = tags
      self.parameters = parameters
      self.requestBody = requestBody
      self.responses = responses
    }
  }

  /// A path or query parameter.
  public struct Parameter: Codable, Sendable, Hashable {
    /// The name, such as `page[size]`.
    public var name: String
    /// `path` or `query`.
    public var location: String
    /// Whether it must be sent.
    public var required: Bool?
    /// What it means.
    public var description: String?
    /// Its values.
    public var schema: Schema
    /// For arrays: `form` with `explode: false` is a comma-separated list (`include=a,b`).
    public var style: String?
    /// `false` with `form`: one parameter holding a comma-separated list.
    public var explode: Bool?

    /// Creates a parameter.
    public init(
      name: String, location: String, required: Bool? = nil, description: String? = nil,
      schema: Schema, style: String? = nil, explode: Bool? = nil
    ) {
      self.name = name
      self.location = location
      self.required = required
      self.description = description
      self.schema = schema
      self.style = style
      self.explode = explode
    }

    enum CodingKeys: String, CodingKey {
      case name
      case location = "in"
      case required, description, schema, style, explode
    }
  }

  /// A request body.
  public struct RequestBody: Codable, Sendable, Hashable {
    /// Whether a body must be sent.
    public var required: Bool
    /// By media type.
    public var content: [String: MediaType]

    /// Creates a request body.
    public init(required: Bool, content: [String: MediaType]) {
      self.required = required
      self.content = content
    }
  }

  /// The schema of a body in one media type.
  public struct MediaType: Codable, Sendable, Hashable {
    /// The body's schema.
    public var schema: Schema

    /// Creates a media type object.
    public init(schema: Schema) { self.schema = schema }
  }

  /// One answer of an operation.
  public struct Response: Codable, Sendable, Hashable {
    /// What the answer means.
    public var description: String
    /// Header fields it carries, by name.
    public var headers: [String: Header]?
    /// By media type; `nil` for an answer without a body.
    public var content: [String: MediaType]?

    /// Creates a response.
    public init(
      description: String, headers: [String: Header]? = nil, content: [String: MediaType]? = nil
    ) {
      self.description = description
      self.headers = headers
      self.content = content
    }
  }

  /// A response header.
  public struct Header: Codable, Sendable, Hashable {
    /// What the field holds.
    public var description: String?
    /// Its values.
    public var schema: Schema

    /// Creates a header object.
    public init(description: String? = nil, schema: Schema) {
      self.description = description
      self.schema = schema
    }
  }

  /// The reusable parts.
  public struct Components: Codable, Sendable, Hashable {
    /// Schemas by name, referred to as `#/components/schemas/NAME`.
    public var schemas: [String: Schema]

    /// Creates the components.
    public init(schemas: [String: Schema]) { self.schemas = schemas }
  }
}
