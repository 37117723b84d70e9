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
  /// the members sent (R80), each checked against the declaration and its field rules, with the
  /// members the server sets filled in on create; and its `lid`.
  ///
  /// The `type`, `id` and client-id checks are the declaration's ``JSONAPIRequestRules``, the
  /// ones a hand-written server calls.
  ///
  /// - Throws: `409` for another `type` or `id` (R78, R82); `403` for a client id the declaration
  ///   does not accept (R77), and for a member the client may not write here (computed, create-only
  ///   in an update, set by the server), at its pointer; `400` for a missing `type` or `id` and
  ///   members of the wrong JSON type; `422` for an attribute or relationship the model has not,
  ///   or a value that does not fit it (with its pointer); `400` for a `lid` that names nothing
  ///   created before.
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
    var sent = JSONAPIResourceIdentifier(type: type, id: "")
    switch object["id"] {
    case .string(let id)?: sent.id = id
    case nil: sent.id = nil
    case _?:
      // A wrong type is refused first (R78), as the request rules would refuse it.
      try declaration.requestRules.checkType(sent, type: declaration.type, at: pointer)
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite("`id` must be a string", SpecSection.identification),
        pointer: "\(pointer)/id")
    }
    switch mode {
    case .create:
      try declaration.requestRules.checkCreate(sent, type: declaration.type, at: pointer)
    case .update(let id):
      try declaration.requestRules.checkUpdate(sent, type: declaration.type, id: id, at: pointer)
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
    var record = JSONAPIResourceRecord(type: type, id: sent.id ?? "")
    let schema = declaration.schema
    let rules = declaration.fieldRules
    let isCreate: Bool
    if case .create = mode { isCreate = true } else { isCreate = false }
    switch object["attributes"] {
    case .object(let attributes)?:
      for name in attributes.keys.sorted() {
        let value = attributes[name] ?? .null
        let at = "\(pointer)/attributes/\(JSONPointer.escape(name))"
        try refuseWrite(of: name, declaration: declaration, isCreate: isCreate, pointer: at)
        guard let attribute = schema.attribute(named: name) else {
          throw Self.invalid(
            "`\(type)` has no attribute `\(name)`", pointer: at,
            schema.relationship(named: name) != nil ? "send it under `relationships`" : nil)
        }
        if value == .null {
          guard attribute.isOptional else {
            throw Self.invalid("`\(name)` must not be null", pointer: at, nil)
          }
        } else if let reason =
          JSONAPIResourceSchema.ValueKind.validate(attribute: value, as: attribute.kind)
          ?? Self.dateMismatch(value, kind: attribute.kind, decoder: options.decoder)
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
          try refuseWrite(of: name, declaration: declaration, isCreate: isCreate, pointer: at)
          throw Self.invalid(
            "`\(type)` has no relationship `\(name)`", pointer: at,
            schema.attribute(named: name) != nil ? "send it under `attributes`" : nil)
        }
        try refuseWrite(of: name, declaration: declaration, isCreate: isCreate, pointer: at)
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
    if isCreate {
      // The members the server sets, before the required check: a create may leave them out.
      try fillServerSet(&record, rules: rules, pointer: pointer)
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

  /// Refuses a member of a body that the client may not write in this write: a computed
  /// attribute, a create-only or server-set member in an update, a to-many relationship that
  /// mirrors such a member of its target. A server-set member sent on create is compared later,
  /// with the value the server sets (``fillServerSet(_:rules:pointer:)``).
  ///
  /// `403`, as JSON:API answers a write the server does not support (R78, R82, R85), with the
  /// pointer of the member.
  ///
  /// - Throws: The `403` error object.
  func refuseWrite(
    of name: String, declaration: JSONAPIResourceDeclaration, isCreate: Bool, pointer: String
  ) throws {
    let rules = declaration.fieldRules
    if rules.computed[name] != nil {
      throw Self.readOnly(
        "`\(name)` of \(declaration.type) is computed by the server and cannot be written",
        pointer: pointer)
    }
    if !isCreate, rules.createOnly.contains(name) {
      throw Self.readOnly(
        "`\(name)` of \(declaration.type) is set when the resource is created and cannot be "
          + "changed", pointer: pointer)
    }
    if !isCreate, rules.serverSet[name] != nil {
      throw Self.readOnly(
        "`\(name)` of \(declaration.type) is set by the server and cannot be changed",
        pointer: pointer)
    }
    // A to-many relationship mirroring a to-one of its target writes that to-one: it is as
    // writable as that to-one is after its resource was created, which is never for a
    // create-only or server-set one.
    if let relationship = declaration.schema.relationship(named: name),
      let target = relationship.targetType, let member = relationship.inverse,
      let mirrored = resources[target]?.fieldRules,
      mirrored.createOnly.contains(member) || mirrored.serverSet[member] != nil
    {
      throw Self.readOnly(
        "`\(name)` of \(declaration.type) moves \(target) by their `\(member)`, which is set "
          + "when each is created and cannot be changed", pointer: pointer)
    }
  }

  /// Sets the members the server sets on create, from the request's requester.
  ///
  /// - Throws: `403` at the member when the body sent another value; what the rule throws (a
  ///   `JSONAPIErrorObject` as it is, any other error as `403`).
  private func fillServerSet(
    _ record: inout JSONAPIResourceRecord, rules: ServedFieldRules, pointer: String
  ) throws {
    guard !rules.serverSet.isEmpty else { return }
    let requester = ServedRequester.current
    for name in rules.serverSet.keys.sorted() {
      guard let rule = rules.serverSet[name] else { continue }
      do {
        switch rule {
        case .attribute(let value):
          let set = try value(requester)
          let at = "\(pointer)/attributes/\(JSONPointer.escape(name))"
          if let sent = record.attributes[name], sent != set {
            throw Self.readOnly(
              "`\(name)` of \(record.type) is set by the server; leave it out", pointer: at)
          }
          record.attributes[name] = set
        case .relationship(let linkage):
          let set = try linkage(requester)
          let at = "\(pointer)/relationships/\(JSONPointer.escape(name))"
          if let sent = record.relationships[name], sent != set {
            throw Self.readOnly(
              "`\(name)` of \(record.type) is set by the server; leave it out", pointer: at)
          }
          record.relationships[name] = set
        }
      } catch let error as JSONAPIErrorObject {
        throw error
      } catch {
        throw JSONAPIWriteCheck.forbidden("\(record.type): `\(name)` cannot be set (\(error))")
      }
    }
  }

  /// Why `value` is not a date the server's decoder reads, for a ``JSONAPIResourceSchema/ValueKind/date``
  /// (a string under `.iso8601` and `.formatted`, a number under the others); `nil` when it may
  /// be one. What the model's type makes of it is checked when the write decodes the model.
  static func dateMismatch(
    _ value: JSONAPIValue, kind: JSONAPIResourceSchema.ValueKind, decoder: JSONAPIDecoder
  ) -> String? {
    guard case .date = kind else { return nil }
    let isText: Bool
    switch value {
    case .string: isText = true
    case .integer, .number: isText = false
    default: return nil
    }
    switch decoder.dateDecodingStrategy {
    case .iso8601:
      return isText ? nil : "expected a date as ISO 8601 text (such as 2024-05-01T09:30:00Z)"
    case .formatted: return isText ? nil : "expected a date as text"
    case .deferredToDate, .secondsSince1970, .millisecondsSince1970:
      return isText ? "expected a date as a number" : nil
    case .custom: return nil
    }
  }

  /// A `403` error object at `pointer`, for a member the client may not write.
  static func readOnly(_ detail: String, pointer: String) -> JSONAPIErrorObject {
    JSONAPIErrorObject(
      status: "403", code: "read-only-member", title: "Forbidden",
      detail: SpecSection.cite(detail, SpecSection.updating),
      source: JSONAPIErrorObject.Source(pointer: pointer))
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
