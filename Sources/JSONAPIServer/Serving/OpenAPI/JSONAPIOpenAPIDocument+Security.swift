import Foundation

extension JSONAPIOpenAPIDocument {
  /// How clients authenticate (an OpenAPI Security Scheme Object), such as a bearer token.
  ///
  /// ```swift
  /// let scheme = JSONAPIOpenAPIDocument.SecurityScheme.bearer(format: "opaque")
  /// ```
  public struct SecurityScheme: Codable, Sendable, Hashable {
    /// `http`, `apiKey`, `oauth2`, `openIdConnect` or `mutualTLS`.
    public var type: String
    /// For `http`: the scheme of `Authorization`, such as `bearer` or `basic`.
    public var scheme: String?
    /// For `http` with `bearer`: what the token is, such as `JWT`.
    public var bearerFormat: String?
    /// For `apiKey`: the name of the header, query parameter or cookie.
    public var name: String?
    /// For `apiKey`: `header`, `query` or `cookie`.
    public var location: String?
    /// What a client sends and where it gets it.
    public var description: String?

    /// Creates a security scheme.
    public init(
      type: String, scheme: String? = nil, bearerFormat: String? = nil, name: String? = nil,
      location: String? = nil, description: String? = nil
    ) {
      self.type = type
      self.scheme = scheme
      self.bearerFormat = bearerFormat
      self.name = name
      self.location = location
      self.description = description
    }

    /// `Authorization: Bearer <token>` (RFC 6750), as ``JSONAPIAuthenticator/bearer(realm:_:)``
    /// reads it.
    public static func bearer(format: String? = nil, description: String? = nil)
      -> SecurityScheme
    {
      SecurityScheme(type: "http", scheme: "bearer", bearerFormat: format, description: description)
    }

    enum CodingKeys: String, CodingKey {
      case type, scheme, bearerFormat, name
      case location = "in"
      case description
    }
  }

  /// This description with every operation requiring `scheme`: the scheme is in
  /// `components.securitySchemes` under `name`, each operation has `security` naming it, and
  /// each lists the answers of an API that authenticates and holds rows to policies: `401`
  /// (with `WWW-Authenticate`) for missing or unknown credentials, `403` for a write a policy
  /// refuses, `404` for what does not exist or is hidden from the requester (the same answer).
  ///
  /// ```swift
  /// let body = try server.openAPIDocument(title: "Tracker", version: "1.0.0")
  ///   .secured(by: .bearer(), named: "bearerAuth")
  ///   .jsonData()   // serve at GET /openapi.json
  /// ```
  ///
  /// - Parameters:
  ///   - scheme: How clients authenticate.
  ///   - name: The scheme's name in `components.securitySchemes`, letters, digits, `.`, `-` and
  ///     `_` (others are replaced with `_`).
  public func secured(by scheme: SecurityScheme, named name: String = "bearerAuth")
    -> JSONAPISecuredOpenAPIDocument
  {
    let key = Self.componentKey(name)
    var document = self
    for (path, item) in document.paths {
      var item = item
      item.get = item.get.map(Self.withSecurityAnswers)
      item.head = item.head.map(Self.withSecurityAnswers)
      item.post = item.post.map(Self.withSecurityAnswers)
      item.patch = item.patch.map(Self.withSecurityAnswers)
      item.delete = item.delete.map(Self.withSecurityAnswers)
      document.paths[path] = item
    }
    return JSONAPISecuredOpenAPIDocument(
      document: document, securitySchemes: [key: scheme], security: [[key: []]])
  }

  /// `name` with only the characters component keys allow.
  static func componentKey(_ name: String) -> String {
    let allowed = name.unicodeScalars.map { scalar -> String in
      scalar.isASCII
        && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
          || ".-_".unicodeScalars.contains(scalar))
        ? String(scalar) : "_"
    }
    return allowed.isEmpty ? "auth" : allowed.joined()
  }

  /// `operation` with `401`, and `403` and `404` where it had none, described as the other error
  /// answers of the operation are (an error document, or no body for `HEAD`).
  static func withSecurityAnswers(_ operation: Operation) -> Operation {
    var operation = operation
    let content =
      operation.responses.first { $0.key.hasPrefix("4") && $0.value.content != nil }?.value.content
    let header = Header(
      description: "The challenge: the scheme to authenticate with (RFC 9110, section 11.6.1).",
      schema: Schema(type: ["string"]))
    operation.responses["401"] = Response(
      description: "No credentials, or credentials this API does not know: authenticate first.",
      headers: ["WWW-Authenticate": header], content: content)
    if operation.responses["403"] == nil {
      operation.responses["403"] = Response(
        description: "Refused: the requester may not do this to a resource they can see.",
        content: content)
    }
    if operation.responses["404"] == nil {
      operation.responses["404"] = Response(
        description: "No such resource, or one the requester may not see (the same answer).",
        content: content)
    }
    return operation
  }
}

/// An OpenAPI description whose operations require authentication: the server's description with
/// its security scheme, as ``JSONAPIOpenAPIDocument/secured(by:named:)`` makes it. Serve its
/// ``jsonData()`` in place of the plain description's.
public struct JSONAPISecuredOpenAPIDocument: Encodable, Sendable, Hashable {
  /// The description, with the answers of authentication on each operation.
  public var document: JSONAPIOpenAPIDocument
  /// The schemes, by name, for `components.securitySchemes`.
  public var securitySchemes: [String: JSONAPIOpenAPIDocument.SecurityScheme]
  /// What each operation requires (its `security`): any one of the requirements, each a scheme
  /// name with its scopes.
  public var security: [[String: [String]]]

  /// Creates a secured description.
  public init(
    document: JSONAPIOpenAPIDocument,
    securitySchemes: [String: JSONAPIOpenAPIDocument.SecurityScheme],
    security: [[String: [String]]]
  ) {
    self.document = document
    self.securitySchemes = securitySchemes
    self.security = security
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

  /// Writes the description's members, with `securitySchemes` in `components` and `security` in
  /// every operation. The plain description is written first and read back as a JSON tree, so
  /// that every member it has, whatever later versions add, is kept as it is.
  ///
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    try tree().encode(to: encoder)
  }

  /// The methods of a path item that hold operations.
  static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

  /// The description as a JSON tree, with the schemes and requirements in it.
  func tree() throws -> JSONAPIValue {
    func value(_ encodable: some Encodable) throws -> JSONAPIValue {
      try JSONDecoder().decode(JSONAPIValue.self, from: JSONEncoder().encode(encodable))
    }
    guard case .object(var root) = try value(document) else { return try value(document) }
    let requirement = try value(security)
    if case .object(var paths)? = root["paths"] {
      for (path, item) in paths {
        guard case .object(var operations) = item else { continue }
        for method in Self.methods {
          guard case .object(var operation)? = operations[method] else { continue }
          operation["security"] = requirement
          operations[method] = .object(operation)
        }
        paths[path] = .object(operations)
      }
      root["paths"] = .object(paths)
    }
    var components: [String: JSONAPIValue] = [:]
    if case .object(let members)? = root["components"] { components = members }
    components["securitySchemes"] = try value(securitySchemes)
    root["components"] = .object(components)
    return .object(root)
  }
}
