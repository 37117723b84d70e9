import Foundation

extension JSONAPIServer {
  /// The OpenAPI 3.1 description of every endpoint this server answers, derived from its
  /// declarations: paths and methods, the `include`, `fields[TYPE]`, `sort`, `filter[…]` and
  /// `page[…]` parameters each accepts, request and response bodies typed from each resource's
  /// model, and the error documents of each operation.
  ///
  /// ```swift
  /// let body = try server.openAPIDocument(title: "Blog", version: "1.0.0").jsonData()
  /// ```
  ///
  /// - Parameters:
  ///   - title: The API's name, for `info.title`.
  ///   - version: The API's version (not OpenAPI's), for `info.version`.
  public func openAPIDocument(title: String, version: String) -> JSONAPIOpenAPIDocument {
    var builder = OpenAPIBuilder(server: self)
    return builder.document(title: title, version: version)
  }
}

/// Builds a server's OpenAPI document: one schema per resource part, one path item per endpoint.
struct OpenAPIBuilder {
  typealias Schema = JSONAPIOpenAPIDocument.Schema
  typealias Operation = JSONAPIOpenAPIDocument.Operation
  typealias Parameter = JSONAPIOpenAPIDocument.Parameter
  typealias Response = JSONAPIOpenAPIDocument.Response

  let server: JSONAPIServer
  private var schemas: [String: Schema] = [:]
  private var paths: [String: JSONAPIOpenAPIDocument.PathItem] = [:]
  /// Each type's component name prefix (`articles` → `Articles`), unique.
  private var prefixes: [String: String] = [:]

  static let mediaType = "application/vnd.api+json"
  /// Statuses every endpoint may answer with an error document.
  static let readErrors = ["400", "403", "404", "406", "413", "415"]
  static let writeErrors = readErrors + ["409", "422"]
  static let errorDescriptions = [
    "400": "The query or the body breaks a rule of JSON:API or of this API.",
    "403": "Refused: a client-chosen id, or a hook of the resource said no.",
    "404": "No such resource, or no such related resource in the body.",
    "406": "No media type in Accept that this server can answer with.",
    "409": "The body's type or id does not match the endpoint, or the id exists.",
    "413": "The body is larger than this server accepts.",
    "415": "The Content-Type has parameters or extensions this server does not support.",
    "422": "A value the resource does not accept.",
  ]

  init(server: JSONAPIServer) {
    self.server = server
    var used: Set<String> = []
    for type in server.resources.keys.sorted() {
      var prefix = Self.componentName(type)
      var suffix = 2
      while used.contains(prefix) {
        prefix = Self.componentName(type) + String(suffix)
        suffix += 1
      }
      used.insert(prefix)
      prefixes[type] = prefix
    }
  }

  mutating func document(title: String, version: String) -> JSONAPIOpenAPIDocument {
    addSharedSchemas()
    let types = server.resources.keys.sorted()
    for type in types {
      guard let declaration = server.resources[type] else { continue }
      addSchemas(declaration)
      addPaths(declaration)
    }
    schemas["IncludedResource"] = Schema(
      description: "A resource of any type this API serves, as `included` holds them.",
      oneOf: types.map { .named(name($0, "Resource")) })
    if let operations = server.options.operationsPath {
      addOperations(path: "/" + ServedLinks.segment(operations))
    }
    return JSONAPIOpenAPIDocument(
      info: .init(title: title, version: version),
      servers: server.baseURL.isEmpty ? nil : [.init(url: server.baseURL)], paths: paths,
      components: .init(schemas: schemas))
  }

  // MARK: Names

  private func name(_ type: String, _ part: String) -> String {
    (prefixes[type] ?? Self.componentName(type)) + part
  }

  /// `blog-posts` → `BlogPosts`: component names allow letters, digits, `.`, `-` and `_` only.
  static func componentName(_ type: String) -> String {
    var result = ""
    var upper = true
    for scalar in type.unicodeScalars {
      if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
        result += upper ? String(scalar).uppercased() : String(scalar)
        upper = false
      } else {
        upper = true
      }
    }
    return result.isEmpty ? "Resource" : result
  }

  // MARK: Schemas

  private mutating func addSharedSchemas() {
    let object = Schema(type: ["object"])
    schemas["Links"] = Schema(type: ["object"], description: "Links, by name.")
    schemas["Meta"] = Schema(type: ["object"], description: "Non-standard information.")
    schemas["JSONAPIObject"] = Schema(
      type: ["object"],
      properties: [
        "version": Schema(type: ["string"]), "ext": Schema(type: ["array"], items: .string),
        "profile": Schema(type: ["array"], items: .string), "meta": .named("Meta"),
      ])
    schemas["Error"] = Schema(
      type: ["object"],
      properties: [
        "id": .string, "status": .string, "code": .string, "title": .string, "detail": .string,
        "links": .named("Links"), "meta": .named("Meta"),
        "source": Schema(
          type: ["object"],
          properties: ["pointer": .string, "parameter": .string, "header": .string]),
      ])
    schemas["ErrorDocument"] = Schema(
      type: ["object"],
      description: "Why the request failed (https://jsonapi.org/format/#errors).",
      properties: [
        "errors": Schema(type: ["array"], items: .named("Error"), minItems: 1),
        "meta": .named("Meta"), "jsonapi": .named("JSONAPIObject"), "links": .named("Links"),
      ], required: ["errors"])
    schemas["AnyIdentifier"] = Schema(
      type: ["object"],
      properties: ["type": .string, "id": .string, "lid": .string, "meta": object],
      required: ["type"])
  }

  private mutating func addSchemas(_ declaration: JSONAPIResourceDeclaration) {
    let type = declaration.type
    let schema = declaration.servedSchema
    let rules = declaration.fieldRules
    var attributes: [String: Schema] = [:]
    // What requests may send, as the server's decoder reads it; `nil` while it is what answers
    // hold (then requests name the answers' schemas, as they did before field rules).
    var createdAttributes: [String: Schema] = [:]
    var updatedAttributes: [String: Schema] = [:]
    var requestsDiffer = false
    for attribute in schema.attributes {
      let given = declaration.attributeSchemas[attribute.name]
      var answered =
        given ?? Self.schema(attribute.kind, optional: attribute.isOptional, server: server)
      let read =
        given
        ?? Self.schema(
          attribute.kind, optional: attribute.isOptional, server: server, reading: true)
      if read != answered { requestsDiffer = true }
      let isComputed = rules.computed[attribute.name] != nil
      let isServerSet = rules.serverSet[attribute.name] != nil
      if isComputed || isServerSet { answered.readOnly = true }
      if rules.restricted[attribute.name] != nil {
        answered.description = Self.join(
          answered.description, "Served only to the requesters the server allows.")
      }
      if rules.createOnly.contains(attribute.name) {
        answered.description = Self.join(
          answered.description, "Set when the resource is created; updates cannot change it.")
      }
      attributes[attribute.name] = answered
      if isComputed {
        requestsDiffer = true
        continue
      }
      var sent = read
      sent.readOnly = answered.readOnly
      sent.description = answered.description
      createdAttributes[attribute.name] = sent
      if rules.createOnly.contains(attribute.name) || isServerSet {
        requestsDiffer = true
      } else {
        updatedAttributes[attribute.name] = sent
      }
    }
    // No member is required: sparse fieldsets leave any out of an answer, and an update sends
    // only what changes.
    schemas[name(type, "Attributes")] = Schema(
      type: ["object"], properties: attributes, additionalProperties: false)
    var createdAttributesName = name(type, "Attributes")
    var updatedAttributesName = createdAttributesName
    if requestsDiffer {
      createdAttributesName = name(type, "AttributesInCreate")
      updatedAttributesName = name(type, "AttributesInUpdate")
      schemas[createdAttributesName] = Schema(
        type: ["object"], properties: createdAttributes, additionalProperties: false)
      schemas[updatedAttributesName] = Schema(
        type: ["object"], properties: updatedAttributes, additionalProperties: false)
    }
    schemas[name(type, "Identifier")] = Self.identifier(type)

    var answered: [String: Schema] = [:]
    var sent: [String: Schema] = [:]
    var updatedRelationships: [String: Schema] = [:]
    for relationship in schema.relationships {
      let linkage = self.linkage(relationship)
      var object = Schema(
        type: ["object"],
        properties: ["data": linkage, "links": .named("Links"), "meta": .named("Meta")])
      var request = Schema(type: ["object"], properties: ["data": linkage], required: ["data"])
      if rules.serverSet[relationship.name] != nil {
        object.readOnly = true
        request.readOnly = true
      }
      answered[relationship.name] = object
      sent[relationship.name] = request
      if !isUnchangeable(relationship, of: declaration) {
        updatedRelationships[relationship.name] = request
      }
    }
    schemas[name(type, "Relationships")] = Schema(
      type: ["object"], properties: answered, additionalProperties: false)
    schemas[name(type, "RelationshipsInRequest")] = Schema(
      type: ["object"], properties: sent, additionalProperties: false)
    var updatedRelationshipsName = name(type, "RelationshipsInRequest")
    if updatedRelationships.count != sent.count {
      updatedRelationshipsName = name(type, "RelationshipsInUpdate")
      schemas[updatedRelationshipsName] = Schema(
        type: ["object"], properties: updatedRelationships, additionalProperties: false)
    }
    let resource = Schema(
      type: ["object"],
      properties: [
        "type": Schema(type: ["string"], constant: .string(type)), "id": .string,
        "attributes": .named(name(type, "Attributes")),
        "relationships": .named(name(type, "Relationships")), "links": .named("Links"),
        "meta": .named("Meta"),
      ], required: ["type", "id"])
    schemas[name(type, "Resource")] = resource

    var created: [String: Schema] = [
      "type": Schema(type: ["string"], constant: .string(type)), "lid": .string,
      "attributes": .named(createdAttributesName),
      "relationships": .named(name(type, "RelationshipsInRequest")), "meta": .named("Meta"),
    ]
    if declaration.acceptsClientGeneratedIDs { created["id"] = .string }
    schemas[name(type, "Create")] = Self.document(
      data: Schema(type: ["object"], properties: created, required: ["type"]))
    var updated = created
    updated["id"] = .string
    updated["lid"] = nil
    updated["attributes"] = .named(updatedAttributesName)
    updated["relationships"] = .named(updatedRelationshipsName)
    schemas[name(type, "Update")] = Self.document(
      data: Schema(type: ["object"], properties: updated, required: ["type", "id"]))

    schemas[name(type, "Document")] = Self.document(data: .named(name(type, "Resource")))
    schemas[name(type, "NullableDocument")] = Self.document(data: Self.orNull(resource))
    schemas[name(type, "CollectionDocument")] = Self.document(
      data: Schema(type: ["array"], items: .named(name(type, "Resource"))))
  }

  /// A top-level document with `data`, and the members every answer may carry.
  private static func document(data: Schema) -> Schema {
    Schema(
      type: ["object"],
      properties: [
        "data": data, "included": Schema(type: ["array"], items: .named("IncludedResource")),
        "links": .named("Links"), "meta": .named("Meta"), "jsonapi": .named("JSONAPIObject"),
      ], required: ["data"])
  }

  /// A relationship's `data`: an identifier or `null`, or an array of identifiers.
  private func linkage(_ relationship: JSONAPIResourceSchema.Relationship) -> Schema {
    guard relationship.isToMany else {
      return Self.orNull(Self.identifier(relationship.targetType))
    }
    let identifier =
      relationship.targetType.map { Schema.named(name($0, "Identifier")) }
      ?? .named("AnyIdentifier")
    return Schema(type: ["array"], items: identifier)
  }

  /// A resource identifier object of `type` (any type when `nil`).
  private static func identifier(_ type: String?) -> Schema {
    Schema(
      type: ["object"],
      properties: [
        "type": type.map { Schema(type: ["string"], constant: .string($0)) } ?? .string,
        "id": .string, "meta": .named("Meta"),
      ], required: ["type", "id"])
  }

  /// An object schema that also allows `null`. Written as a `type` list on the object's own
  /// schema rather than `oneOf` with a `null` schema, which code generators such as
  /// swift-openapi-generator 1.14 skip, losing the member.
  private static func orNull(_ object: Schema) -> Schema {
    var schema = object
    schema.type = ["object", "null"]
    return schema
  }

  /// Whether no update may change `relationship` of `declaration`: it is create-only, set by
  /// the server, or mirrors such a to-one of its target.
  private func isUnchangeable(
    _ relationship: JSONAPIResourceSchema.Relationship, of declaration: JSONAPIResourceDeclaration
  ) -> Bool {
    let rules = declaration.fieldRules
    if rules.createOnly.contains(relationship.name) || rules.serverSet[relationship.name] != nil {
      return true
    }
    guard let target = relationship.targetType, let member = relationship.inverse,
      let mirrored = server.resources[target]?.fieldRules
    else { return false }
    return mirrored.createOnly.contains(member) || mirrored.serverSet[member] != nil
  }

  /// Two descriptions as one.
  private static func join(_ first: String?, _ second: String) -> String {
    guard let first, !first.isEmpty else { return second }
    return first + " " + second
  }

  /// The schema of an attribute's values: as the server's encoder writes them, or with
  /// `reading`, as its decoder reads them in requests.
  static func schema(
    _ kind: JSONAPIResourceSchema.ValueKind, optional: Bool, server: JSONAPIServer,
    reading: Bool = false
  ) -> Schema {
    var schema: Schema
    switch kind {
    case .string: schema = Schema(type: ["string"])
    case .integer: schema = Schema(type: ["integer"])
    case .number: schema = Schema(type: ["number"])
    case .boolean: schema = Schema(type: ["boolean"])
    case .date:
      schema = reading ? Self.dateRead(by: server.options.decoder) : Self.dateWritten(by: server)
    case .enumeration(let cases):
      schema = Schema(type: ["string"], enumeration: cases.map { .string($0) })
    case .array(let element):
      schema = Schema(
        type: ["array"],
        items: Self.schema(element, optional: false, server: server, reading: reading))
    case .object(let members):
      var properties: [String: Schema] = [:]
      for member in members {
        properties[member.name] = Self.schema(
          member.kind, optional: member.isOptional, server: server, reading: reading)
      }
      schema = Schema(type: ["object"], properties: properties.isEmpty ? nil : properties)
    case .any:
      return Schema()
    }
    if optional {
      schema.type?.append("null")
      if schema.enumeration != nil { schema.enumeration?.append(.null) }
    }
    return schema
  }

  /// A date as the server's encoder writes it.
  private static func dateWritten(by server: JSONAPIServer) -> Schema {
    switch server.options.encoder.dateEncodingStrategy {
    case .iso8601: return Schema(type: ["string"], format: "date-time")
    case .deferredToDate, .secondsSince1970, .millisecondsSince1970:
      return Schema(type: ["number"])
    default: return Schema(type: ["string", "number"])
    }
  }

  /// A date as the server's decoder reads it in a request body.
  private static func dateRead(by decoder: JSONAPIDecoder) -> Schema {
    switch decoder.dateDecodingStrategy {
    case .iso8601: return Schema(type: ["string"], format: "date-time")
    case .formatted: return Schema(type: ["string"])
    case .deferredToDate, .secondsSince1970, .millisecondsSince1970:
      return Schema(type: ["number"])
    case .custom: return Schema(type: ["string", "number"])
    }
  }

  // MARK: Paths

  private mutating func addPaths(_ declaration: JSONAPIResourceDeclaration) {
    let type = declaration.type
    let tag = [type]
    let base = "/" + ServedLinks.segment(type)
    let queryForCollection = collectionParameters(declaration)
    let queryForOne = includeAndFields(declaration)
    let id = Parameter(name: "id", location: "path", required: true, schema: .string)
    let operationName = Self.componentName(type)

    paths[base] = .init(
      get: Operation(
        operationId: "list\(operationName)", summary: "Lists \(type).", tags: tag,
        parameters: queryForCollection + [Self.ifNoneMatch],
        responses: Self.validated(
          Self.answers(
            "200", "A page of \(type).", name(type, "CollectionDocument"),
            errors: Self.readErrors))),
      head: head("head\(operationName)", tag, queryForCollection),
      post: Operation(
        operationId: "create\(operationName)", summary: "Creates a resource of \(type).",
        tags: tag, parameters: queryForOne, requestBody: Self.body(name(type, "Create")),
        responses: Self.answers(
          "201", "Created.", name(type, "Document"), errors: Self.writeErrors,
          headers: ["Location": .init(description: "The new resource's URL.", schema: .string)])))

    paths[base + "/{id}"] = .init(
      get: Operation(
        operationId: "get\(operationName)", summary: "Reads one resource of \(type).", tags: tag,
        parameters: queryForOne + [Self.ifNoneMatch],
        responses: Self.validated(
          Self.answers("200", "The resource.", name(type, "Document"), errors: Self.readErrors))),
      head: head("head\(operationName)ById", tag, queryForOne),
      patch: Operation(
        operationId: "update\(operationName)", summary: "Updates one resource of \(type).",
        tags: tag, parameters: queryForOne + Self.writeConditions,
        requestBody: Self.body(name(type, "Update")),
        responses: Self.guarded(
          Self.answers(
            "200", "The resource as stored.", name(type, "Document"), errors: Self.writeErrors,
            headers: ["ETag": Self.etagHeader]))),
      delete: Operation(
        operationId: "delete\(operationName)", summary: "Deletes one resource of \(type).",
        tags: tag, parameters: Self.writeConditions,
        responses: Self.guarded(Self.answers("204", "Deleted.", nil, errors: Self.readErrors))),
      parameters: [id])

    for relationship in declaration.schema.relationships {
      addRelationshipPaths(declaration, relationship, base: base, id: id)
    }
  }

  private mutating func addRelationshipPaths(
    _ declaration: JSONAPIResourceDeclaration, _ relationship: JSONAPIResourceSchema.Relationship,
    base: String, id: Parameter
  ) {
    let type = declaration.type
    let tag = [type]
    let segment = ServedLinks.segment(relationship.name)
    let operationName = Self.componentName(type) + Self.componentName(relationship.name)
    let target = relationship.targetType.flatMap { server.resources[$0] }

    // The related resource or collection, with the target's query parameters.
    let relatedDocument: String?
    var relatedQuery: [Parameter] = []
    if let target {
      relatedDocument = name(
        target.type, relationship.isToMany ? "CollectionDocument" : "NullableDocument")
      relatedQuery =
        relationship.isToMany ? collectionParameters(target) : includeAndFields(target)
    } else {
      relatedDocument = nil
    }
    paths["\(base)/{id}/\(segment)"] = .init(
      get: Operation(
        operationId: "get\(operationName)",
        summary: "Reads the \(relationship.name) of one of \(type).",
        tags: tag, parameters: relatedQuery + [Self.ifNoneMatch],
        responses: Self.validated(
          Self.answers(
            "200", "The related resource or resources.", relatedDocument,
            errors: Self.readErrors))),
      head: head("head\(operationName)", tag, relatedQuery),
      parameters: [id])

    // The linkage.
    let linkageName = name(type, "Linkage" + Self.componentName(relationship.name))
    schemas[linkageName] = Schema(
      type: ["object"],
      properties: [
        "data": linkage(relationship), "links": .named("Links"), "meta": .named("Meta"),
        "jsonapi": .named("JSONAPIObject"),
      ], required: ["data"])
    let change = { (verb: String, summary: String) in
      Operation(
        operationId: "\(verb)\(operationName)Linkage", summary: summary, tags: tag,
        parameters: Self.writeConditions, requestBody: Self.body(linkageName),
        responses: Self.guarded(Self.answers("204", "Changed.", nil, errors: Self.writeErrors)))
    }
    paths["\(base)/{id}/relationships/\(segment)"] = .init(
      get: Operation(
        operationId: "get\(operationName)Linkage",
        summary: "Reads the linkage of the \(relationship.name) of one of \(type).", tags: tag,
        parameters: [Self.ifNoneMatch],
        responses: Self.validated(
          Self.answers("200", "The linkage.", linkageName, errors: Self.readErrors))),
      head: head("head\(operationName)Linkage", tag, []),
      post: relationship.isToMany ? change("add", "Adds to the linkage.") : nil,
      patch: change("replace", "Replaces the linkage."),
      delete: relationship.isToMany ? change("remove", "Removes from the linkage.") : nil,
      parameters: [id])
  }

  private mutating func addOperations(path: String) {
    let atomic = "\(Self.mediaType);ext=\"\(JSONAPIMediaType.atomicExtension)\""
    let operation = Schema(
      type: ["object"],
      properties: [
        "op": Schema(
          type: ["string"], enumeration: [.string("add"), .string("update"), .string("remove")]),
        "ref": .named("AnyIdentifier"), "href": .string,
        // An operation's data: a resource object, linkage or null, as its `op` and `ref` say.
        "data": Schema(),
        "meta": .named("Meta"),
      ], required: ["op"])
    schemas["AtomicRequest"] = Schema(
      type: ["object"],
      properties: [
        "atomic:operations": Schema(type: ["array"], items: operation, minItems: 1),
        "meta": .named("Meta"), "jsonapi": .named("JSONAPIObject"),
      ], required: ["atomic:operations"])
    schemas["AtomicResults"] = Schema(
      type: ["object"],
      properties: [
        "atomic:results": Schema(
          type: ["array"],
          items: Schema(
            type: ["object"],
            properties: [
              "data": Self.orNull(Schema(type: ["object"])), "meta": .named("Meta"),
            ])),
        "meta": .named("Meta"), "jsonapi": .named("JSONAPIObject"),
      ], required: ["atomic:results"])
    var responses = Self.answers(
      "200", "The result of each operation.", "AtomicResults", errors: Self.writeErrors,
      mediaType: atomic)
    responses["204"] = Response(description: "Every operation applied; none has a result.")
    // If-Match here is refused: the endpoint has no representation to compare it with.
    responses["412"] = Response(
      description: "Precondition Failed: If-Match was sent, which this endpoint cannot honour; "
        + "nothing was changed.",
      content: [Self.mediaType: .init(schema: .named("ErrorDocument"))])
    paths[path] = .init(
      post: Operation(
        operationId: "performOperations",
        summary: "Performs Atomic Operations in one transaction (https://jsonapi.org/ext/atomic).",
        tags: ["operations"],
        requestBody: .init(
          required: true, content: [atomic: .init(schema: .named("AtomicRequest"))]),
        responses: responses))
  }

  // MARK: Operations' parts

  private func head(_ operationId: String, _ tags: [String], _ parameters: [Parameter]?)
    -> Operation
  {
    var responses: [String: Response] = [
      "200": Response(
        description: "As GET, without a body.", headers: ["ETag": Self.etagHeader])
    ]
    for status in Self.readErrors {
      responses[status] = Response(description: "As GET, without a body.")
    }
    return Operation(
      operationId: operationId, tags: tags, parameters: (parameters ?? []) + [Self.ifNoneMatch],
      responses: Self.validated(responses))
  }

  // MARK: Conditional requests (RFC 9110, section 13)

  static let etagHeader = JSONAPIOpenAPIDocument.Header(
    description: "The strong entity tag of this representation (RFC 9110, section 8.8.3).",
    schema: .string)

  static let ifNoneMatch = Parameter(
    name: "If-None-Match", location: "header",
    description: "Entity tags (or `*`) of representations the client has: one that matches, "
      + "weakly, is answered 304 with no body (RFC 9110, section 13.1.2).",
    schema: .string)

  /// The conditions a write honours, both compared with what `GET` of the target answers.
  static let writeConditions = [
    Parameter(
      name: "If-Match", location: "header",
      description: "Entity tags (or `*`) the target must have, strongly compared, or nothing is "
        + "changed and the answer is 412 (RFC 9110, section 13.1.1).",
      schema: .string),
    Parameter(
      name: "If-None-Match", location: "header",
      description: "Entity tags (or `*`) the target must not have, or nothing is changed and "
        + "the answer is 412 (RFC 9110, section 13.1.2).",
      schema: .string),
  ]

  /// A read's answers with the `ETag` of its `200` and the `304` of `If-None-Match`.
  private static func validated(_ responses: [String: Response]) -> [String: Response] {
    var responses = responses
    if var success = responses["200"] {
      success.headers = (success.headers ?? [:]).merging(["ETag": etagHeader]) { _, new in new }
      responses["200"] = success
    }
    responses["304"] = Response(
      description: "Not Modified: If-None-Match names the current representation; no body.",
      headers: ["ETag": etagHeader])
    return responses
  }

  /// A write's answers with the `412` of a false condition.
  private static func guarded(_ responses: [String: Response]) -> [String: Response] {
    var responses = responses
    responses["412"] = Response(
      description: "Precondition Failed: If-Match or If-None-Match is false for the target's "
        + "current representation, and nothing was changed.",
      content: [mediaType: .init(schema: .named("ErrorDocument"))])
    return responses
  }

  private static func body(_ schemaName: String) -> JSONAPIOpenAPIDocument.RequestBody {
    .init(required: true, content: [mediaType: .init(schema: .named(schemaName))])
  }

  /// A success with `document` (or no body when `nil`) and an error document for each of `errors`.
  private static func answers(
    _ status: String, _ description: String, _ document: String?, errors: [String],
    headers: [String: JSONAPIOpenAPIDocument.Header]? = nil, mediaType: String = mediaType
  ) -> [String: Response] {
    var responses: [String: Response] = [
      status: Response(
        description: description, headers: headers,
        content: document.map { [mediaType: .init(schema: .named($0))] })
    ]
    for error in errors {
      responses[error] = Response(
        description: errorDescriptions[error] ?? "An error document.",
        content: [Self.mediaType: .init(schema: .named("ErrorDocument"))])
    }
    return responses
  }

  /// `include` and `fields[TYPE]`, which every endpoint answering resources takes.
  private func includeAndFields(_ declaration: JSONAPIResourceDeclaration) -> [Parameter] {
    var parameters: [Parameter] = []
    let includes = includePaths(from: declaration.type)
    if !includes.isEmpty {
      parameters.append(
        Self.list(
          "include", includes,
          "Related resources to include, as relationship paths (https://jsonapi.org/format/#fetching-includes)."
        ))
    }
    for type in server.resources.keys.sorted() {
      guard var fields = server.fieldsets[type], !fields.isEmpty else { continue }
      fields.formUnion(server.resources[type].map { Array($0.fieldRules.computed.keys) } ?? [])
      parameters.append(
        Self.list(
          "fields[\(type)]", fields.sorted(),
          "The fields of \(type) to answer with (https://jsonapi.org/format/#fetching-sparse-fieldsets)."
        ))
    }
    return parameters
  }

  /// A collection's parameters: `include`, `fields[…]`, `sort`, `filter[…]` and `page[…]`.
  private func collectionParameters(_ declaration: JSONAPIResourceDeclaration) -> [Parameter] {
    var parameters = includeAndFields(declaration)
    let sortable = (["id"] + declaration.sortable).flatMap { [$0, "-" + $0] }
    parameters.append(
      Self.list(
        "sort", sortable,
        "The order, by these fields; `-` for descending (https://jsonapi.org/format/#fetching-sorting)."
      ))
    for name in declaration.filters.keys.sorted() {
      guard let filter = declaration.filters[name] else { continue }
      parameters.append(
        Parameter(
          name: "filter[\(name)]", location: "query",
          description: filter.acceptsList
            ? "Resources whose \(filter.member) is one of these comma-separated values."
            : "Resources whose \(filter.member) \(Self.describe(filter.comparison)) this value.",
          schema: .string))
    }
    let paging = declaration.paging
    let size = Schema(type: ["integer"], minimum: 1, maximum: paging.maxSize)
    let number = { (least: Int) in
      Schema(type: ["integer"], minimum: least, maximum: JSONAPIPaging.largestNumber)
    }
    let members: [(String, String, Schema)]
    if paging.appliesCursorPaginationProfile {
      members = [
        ("size", "Resources per page.", size), ("after", "A cursor from a `next` link.", .string),
        ("before", "A cursor from a `prev` link.", .string),
      ]
    } else if paging.pageMembers.contains("number") {
      members = [("number", "The page, from 1.", number(1)), ("size", "Resources per page.", size)]
    } else {
      members = [
        ("offset", "Resources to skip.", number(0)), ("limit", "Resources per page.", size),
      ]
    }
    for (member, description, schema) in members {
      parameters.append(
        Parameter(
          name: "page[\(member)]", location: "query", description: description, schema: schema))
    }
    return parameters
  }

  private static func describe(_ comparison: JSONAPIFilterCondition.Comparison) -> String {
    switch comparison {
    case .equals: return "equals"
    case .contains: return "contains (ASCII case ignored)"
    case .lessThan: return "is less than"
    case .greaterThan: return "is greater than"
    }
  }

  /// A comma-separated list of some of `values`.
  private static func list(_ name: String, _ values: [String], _ description: String) -> Parameter {
    Parameter(
      name: name, location: "query", description: description,
      schema: Schema(
        type: ["array"], items: Schema(type: ["string"], enumeration: values.map { .string($0) })),
      style: "form", explode: false)
  }

  /// Every `include` path the server accepts from `type`: along declared relationships, up to
  /// the depth limit, at most 256 of them (the first ones, breadth first).
  private func includePaths(from type: String) -> [String] {
    var paths: [String] = []
    var frontier: [(path: String, type: String)] = [("", type)]
    let depth = max(0, server.options.maxIncludeDepth)
    for _ in 0..<depth {
      var next: [(path: String, type: String)] = []
      for (path, type) in frontier {
        for relationship in server.resources[type]?.schema.relationships ?? [] {
          guard paths.count < 256 else { return paths }
          let extended = path.isEmpty ? relationship.name : path + "." + relationship.name
          paths.append(extended)
          if let target = relationship.targetType { next.append((extended, target)) }
        }
      }
      frontier = next
    }
    return paths
  }
}

extension JSONAPIOpenAPIDocument.Schema {
  static let string = Self(type: ["string"])
}
