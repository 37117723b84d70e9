import Foundation

/// Local identifiers of resources created earlier in one Atomic Operations request, by type and
/// `lid`: linkage that names a `lid` is read as the id the store gave.
struct ServedLids: Sendable {
  private var ids: [ServedIdentity: String] = [:]

  mutating func assign(type: String, lid: String, id: String) {
    ids[ServedIdentity(type: type, id: lid)] = id
  }

  func id(type: String, lid: String) -> String? {
    ids[ServedIdentity(type: type, id: lid)]
  }
}

/// How a body's resource object is read.
enum ServedResourceMode {
  /// A create: `id` only when the declaration allows client ids; the attributes the model
  /// requires must be present.
  case create
  /// An update of the resource with this id: `id` required and equal.
  case update(id: String)
}

extension JSONAPIServer {
  /// The top-level object of a request body.
  ///
  /// - Throws: `JSONAPIError` for a body that is not JSON or not an object (`400`).
  func bodyDocument(_ body: Data) throws -> [String: JSONAPIValue] {
    guard !body.isEmpty else {
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite("the request has no body; send a document", SpecSection.topLevel),
        pointer: "")
    }
    let value = try ServedJSON.parse(body, maxDepth: options.decoder.limits.maxNestingDepth)
    guard case .object(let members) = value else {
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite("the body must be a JSON object", SpecSection.topLevel),
        pointer: "")
    }
    return members
  }

  /// The `data` member of a request body.
  func primaryData(_ body: Data) throws -> JSONAPIValue {
    guard let data = try bodyDocument(body)["data"] else {
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite("the body has no `data` member", SpecSection.topLevel),
        pointer: "")
    }
    return data
  }

  /// Reads the resource object of a create or update body at `pointer` as a record holding only
  /// the members sent (R80), each checked against the declaration; and its `lid`.
  ///
  /// - Throws: `409` for another `type` or `id` (R78, R82); `403` for a client id the declaration
  ///   does not allow (R77); `400` for a missing `type` or `id` and members of the wrong JSON
  ///   type; `422` for an attribute or relationship the model has not, or a value that does not
  ///   fit it (with its pointer); `400` for a `lid` that names nothing created before.
  func readResource(
    _ value: JSONAPIValue, pointer: String, declaration: JSONAPIResourceDeclaration,
    mode: ServedResourceMode, lids: ServedLids?
  ) throws -> (record: JSONAPIResourceRecord, lid: String?) {
    guard case .object(let object) = value else {
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite("`data` must be a resource object", SpecSection.resourceObjects),
        pointer: pointer)
    }
    guard case .string(let type)? = object["type"] else {
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite("a resource object needs a `type`", SpecSection.identification),
        pointer: pointer)
    }
    guard type == declaration.type else {
      throw JSONAPIRequestError.typeMismatch(
        expected: declaration.type, found: type, pointer: "\(pointer)/type")
    }
    var id = ""
    switch (object["id"], mode) {
    case (.string(let sent)?, .update(let expected)):
      guard sent == expected else {
        throw JSONAPIRequestError.idMismatch(expected: expected, found: sent)
      }
      id = sent
    case (nil, .update):
      throw JSONAPIRequestError.missingID(pointer: pointer)
    case (.string(let sent)?, .create):
      guard declaration.allowsClientIDs else {
        throw JSONAPIRequestError.clientGeneratedIDNotSupported(id: sent)
      }
      id = sent
    case (nil, .create):
      break
    case (_?, _):
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite("`id` must be a string", SpecSection.identification),
        pointer: "\(pointer)/id")
    }
    var lid: String?
    switch object["lid"] {
    case .string(let sent)?: lid = sent
    case nil, .null?: break
    case _?:
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite("`lid` must be a string", SpecSection.identification),
        pointer: "\(pointer)/lid")
    }
    var record = JSONAPIResourceRecord(type: type, id: id)
    let schema = declaration.schema
    switch object["attributes"] {
    case .object(let attributes)?:
      for name in attributes.keys.sorted() {
        let value = attributes[name] ?? .null
        let at = "\(pointer)/attributes/\(JSONPointer.escape(name))"
        guard let attribute = schema.attribute(named: name) else {
          throw Self.invalid(
            "`\(type)` has no attribute `\(name)`", pointer: at,
            schema.relationship(named: name) != nil ? "send it under `relationships`" : nil)
        }
        if value == .null {
          guard attribute.isOptional else {
            throw Self.invalid("`\(name)` must not be null", pointer: at, nil)
          }
        } else if let reason = JSONAPIResourceSchema.ValueKind.validate(
          attribute: value, as: attribute.kind)
        {
          throw Self.invalid("`\(name)`: \(reason)", pointer: at, nil)
        }
        record.attributes[name] = value
      }
    case nil, .null?: break
    case _?:
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite("`attributes` must be an object", SpecSection.fields),
        pointer: "\(pointer)/attributes")
    }
    switch object["relationships"] {
    case .object(let relationships)?:
      for name in relationships.keys.sorted() {
        let at = "\(pointer)/relationships/\(JSONPointer.escape(name))"
        guard let relationship = schema.relationship(named: name) else {
          throw Self.invalid(
            "`\(type)` has no relationship `\(name)`", pointer: at,
            schema.attribute(named: name) != nil ? "send it under `attributes`" : nil)
        }
        // R76: a relationship in a write is a relationship object with `data`.
        guard case .object(let member)? = relationships[name], let data = member["data"] else {
          throw JSONAPIError.invalidDocument(
            reason: SpecSection.cite(
              "the relationship `\(name)` needs `data`", SpecSection.updatingRelationships),
            pointer: at)
        }
        record.relationships[name] = try readLinkage(
          data, pointer: "\(at)/data", relationship: relationship, lids: lids)
      }
    case nil, .null?: break
    case _?:
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite("`relationships` must be an object", SpecSection.relationships),
        pointer: "\(pointer)/relationships")
    }
    if case .create = mode {
      for attribute in schema.attributes where !attribute.isOptional {
        guard record.attributes[attribute.name] != nil else {
          throw Self.invalid(
            "`\(attribute.name)` is required", pointer: "\(pointer)/attributes",
            "send the attribute `\(attribute.name)`")
        }
      }
      for relationship in schema.relationships where !relationship.isOptional {
        guard let linkage = record.relationships[relationship.name],
          relationship.isToMany || !linkage.identifiers.isEmpty
        else {
          throw Self.invalid(
            "the relationship `\(relationship.name)` is required", pointer: "\(pointer)",
            "send the relationship `\(relationship.name)` with its `data`")
        }
      }
    }
    return (record, lid)
  }

  /// Reads linkage: a resource identifier or `null` for a to-one relationship, an array of them
  /// for a to-many one; `lid`s become the ids they were given.
  func readLinkage(
    _ value: JSONAPIValue, pointer: String, relationship: JSONAPIResourceSchema.Relationship,
    lids: ServedLids?
  ) throws -> JSONAPILinkage {
    if relationship.isToMany {
      guard case .array(let elements) = value else {
        throw JSONAPIError.invalidDocument(
          reason: SpecSection.cite(
            "the linkage of the to-many relationship `\(relationship.name)` must be an array",
            SpecSection.linkage), pointer: pointer)
      }
      return .toMany(
        try elements.enumerated().map { index, element in
          try readIdentifier(element, pointer: "\(pointer)/\(index)", relationship, lids)
        })
    }
    if value == .null { return .toOne(nil) }
    return .toOne(try readIdentifier(value, pointer: pointer, relationship, lids))
  }

  private func readIdentifier(
    _ value: JSONAPIValue, pointer: String, _ relationship: JSONAPIResourceSchema.Relationship,
    _ lids: ServedLids?
  ) throws -> JSONAPIResourceIdentifier {
    guard case .object(let object) = value, case .string(let type)? = object["type"] else {
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite(
          "a resource identifier object needs a `type` and an `id`", SpecSection.identifierObjects),
        pointer: pointer)
    }
    if let target = relationship.targetType, type != target {
      throw JSONAPIRequestError.typeMismatch(
        expected: target, found: type, pointer: "\(pointer)/type")
    }
    if resources[type] == nil {
      throw JSONAPIRequestError.relatedResourceNotFound(
        type: type, id: object["id"]?.stringValue ?? "", pointer: pointer)
    }
    switch (object["id"], object["lid"]) {
    case (.string(let id)?, _):
      return JSONAPIResourceIdentifier(type: type, id: id)
    case (nil, .string(let lid)?):
      guard let id = lids?.id(type: type, lid: lid) else {
        throw JSONAPIError.invalidDocument(
          reason: SpecSection.cite(
            "the lid `\(lid)` names no resource created earlier in this request",
            SpecSection.atomicOperations), pointer: "\(pointer)/lid")
      }
      return JSONAPIResourceIdentifier(type: type, id: id)
    default:
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite(
          "a resource identifier object needs a string `id` (or a `lid`)",
          SpecSection.identifierObjects), pointer: pointer)
    }
  }

  /// Throws `404` for the first identifier in `record`'s relationships that names no resource,
  /// reading each related type once, and returns the related resources it read. `pointer` is
  /// where the resource object is (`/data`), or `nil` when the body's `data` is the linkage
  /// itself (a relationship endpoint).
  @discardableResult
  func checkRelatedExist(
    _ record: JSONAPIResourceRecord, pointer: String?, reader: any JSONAPIStoreReader
  ) async throws -> [JSONAPIResourceRecord] {
    var wanted: [String: Set<String>] = [:]
    for linkage in record.relationships.values {
      for identifier in linkage.identifiers {
        if let id = identifier.id { wanted[identifier.type, default: []].insert(id) }
      }
    }
    var found: Set<ServedIdentity> = []
    var records: [JSONAPIResourceRecord] = []
    for type in wanted.keys.sorted() {
      for related in try await reader.resources(type, ids: Array(wanted[type] ?? [])) {
        found.insert(ServedIdentity(related))
        records.append(related)
      }
    }
    for name in record.relationships.keys.sorted() {
      let identifiers = record.relationships[name]?.identifiers ?? []
      let isToMany: Bool
      if case .toMany = record.relationships[name] { isToMany = true } else { isToMany = false }
      for (index, identifier) in identifiers.enumerated() {
        guard let id = identifier.id,
          !found.contains(ServedIdentity(type: identifier.type, id: id))
        else { continue }
        let at = pointer.map { "\($0)/relationships/\(JSONPointer.escape(name))/data" } ?? "/data"
        throw JSONAPIRequestError.relatedResourceNotFound(
          type: identifier.type, id: id, pointer: isToMany ? "\(at)/\(index)" : at)
      }
    }
    return records
  }

  /// A `422` error object at `pointer`.
  static func invalid(_ detail: String, pointer: String, _ hint: String?) -> JSONAPIErrorObject {
    JSONAPIErrorObject(
      status: "422", code: "invalid-member", title: "Invalid Member",
      detail: hint.map { "\(detail): \($0)" } ?? detail,
      source: JSONAPIErrorObject.Source(pointer: pointer))
  }
}
