import Foundation

// The write endpoints: create, update, delete, and relationship changes. Each runs in one store
// transaction (R74), and each step is shared with Atomic Operations.
extension JSONAPIServer {
  /// `POST /T`.
  func create(
    _ declaration: JSONAPIResourceDeclaration, query: JSONAPIQuery, exchange: ServedExchange
  ) async throws -> JSONAPIServerResponse {
    let served = try ServedQuery(query, type: declaration.type, server: self)
    let (record, _) = try readResource(
      try primaryData(exchange.request.body), pointer: "/data", declaration: declaration,
      mode: .create, lids: nil)
    try await authorize(.create, declaration, exchange: exchange)
    let (created, included) = try await write { writer in
      let created = try await self.create(
        record, declaration, pointer: "/data", writer: writer, exchange: exchange)
      return (created, try await includedResources([created], tree: served.include, reader: writer))
    }
    var response = try Self.ok(
      single(created, included: included, served: served, exchange: exchange), status: 201,
      mediaType: exchange.mediaType)
    response.headers.append(("Location", links.resource(created)))
    return response
  }

  /// Stores a new resource read from a body: related resources checked, hooks run, the model
  /// checked.
  func create(
    _ record: JSONAPIResourceRecord, _ declaration: JSONAPIResourceDeclaration, pointer: String,
    writer: any JSONAPIStoreWriter, exchange: ServedExchange
  ) async throws -> JSONAPIResourceRecord {
    var record = record
    for relationship in declaration.schema.relationships
    where record.relationships[relationship.name] == nil {
      record.relationships[relationship.name] = relationship.isToMany ? .toMany([]) : .toOne(nil)
    }
    let related = try await checkRelatedExist(record, pointer: pointer, reader: writer)
    let access = JSONAPIAccess(
      action: .create, type: declaration.type, id: record.id.isEmpty ? nil : record.id,
      request: exchange.request)
    try declaration.hooks.willSave?(&record, access)
    try await check(record, declaration, pointer: pointer, known: related, reader: writer)
    if !record.id.isEmpty, try await !writer.resources(record.type, ids: [record.id]).isEmpty {
      throw JSONAPIRequestError.resourceAlreadyExists(type: record.type, id: record.id)
    }
    return try await writer.create(record)
  }

  /// `PATCH /T/{id}`.
  func update(
    _ declaration: JSONAPIResourceDeclaration, id: String, query: JSONAPIQuery,
    exchange: ServedExchange
  ) async throws -> JSONAPIServerResponse {
    let served = try ServedQuery(query, type: declaration.type, server: self)
    let (changes, _) = try readResource(
      try primaryData(exchange.request.body), pointer: "/data", declaration: declaration,
      mode: .update(id: id), lids: nil)
    try await authorize(.update, declaration, id: id, exchange: exchange)
    let (updated, included) = try await write { writer in
      try await self.checkPreconditions(exchange: exchange) {
        try await self.lockedRepresentation(
          declaration, id: id, served: served, exchange: exchange, writer: writer)
      }
      let updated = try await self.update(
        changes, declaration, pointer: "/data", writer: writer, exchange: exchange)
      return (updated, try await includedResources([updated], tree: served.include, reader: writer))
    }
    var response = try Self.ok(
      single(updated, included: included, served: served, exchange: exchange),
      mediaType: exchange.mediaType)
    // The body is what a GET of this target now answers (same document, same links), so its tag
    // is the new version's: a client can send it in its next If-Match without reading again.
    response.headers.append(("ETag", Self.entityTag(of: response.body)))
    return response
  }

  /// Locks `declaration`'s resource `id` in the write's transaction and renders it as
  /// `GET /T/{id}` with `served` would; `nil` when it does not exist.
  func lockedRepresentation(
    _ declaration: JSONAPIResourceDeclaration, id: String, served: ServedQuery,
    exchange: ServedExchange, writer: any JSONAPIStoreWriter
  ) async throws -> Data? {
    guard try await writer.lockForWriting(declaration.type, id: id) != nil else { return nil }
    return try await representation(
      declaration, id: id, served: served, exchange: exchange, reader: writer
    ).body
  }

  /// Applies `changes` (only the members sent) to a stored resource: the whole resource after
  /// the change is what hooks and the model check see, and only what differs is written, so a
  /// concurrent change of another member is never lost.
  func update(
    _ changes: JSONAPIResourceRecord, _ declaration: JSONAPIResourceDeclaration, pointer: String,
    writer: any JSONAPIStoreWriter, exchange: ServedExchange
  ) async throws -> JSONAPIResourceRecord {
    guard let current = try await writer.resources(changes.type, ids: [changes.id]).first else {
      throw JSONAPIRequestError.resourceNotFound(type: changes.type, id: changes.id)
    }
    let related = try await checkRelatedExist(changes, pointer: pointer, reader: writer)
    var merged = current
    merged.attributes.merge(changes.attributes) { _, new in new }
    merged.relationships.merge(changes.relationships) { _, new in new }
    let access = JSONAPIAccess(
      action: .update, type: declaration.type, id: changes.id, request: exchange.request)
    try declaration.hooks.willSave?(&merged, access)
    merged.type = current.type
    merged.id = current.id
    try await check(merged, declaration, pointer: pointer, known: related, reader: writer)
    var written = JSONAPIResourceRecord(type: current.type, id: current.id)
    for (name, value) in merged.attributes
    where changes.attributes[name] != nil || current.attributes[name] != value {
      written.attributes[name] = value
    }
    for (name, linkage) in merged.relationships
    where changes.relationships[name] != nil || current.relationships[name] != linkage {
      written.relationships[name] = linkage
    }
    guard let stored = try await writer.update(written) else {
      throw JSONAPIRequestError.resourceNotFound(type: changes.type, id: changes.id)
    }
    return stored
  }

  /// `DELETE /T/{id}`: `204`.
  func delete(
    _ declaration: JSONAPIResourceDeclaration, id: String, query: JSONAPIQuery,
    exchange: ServedExchange
  ) async throws -> JSONAPIServerResponse {
    _ = try ServedQuery(query, type: nil, server: self)
    try await authorize(.delete, declaration, id: id, exchange: exchange)
    try await transaction { transaction in
      try await self.checkPreconditions(exchange: exchange) {
        // Compared with what `GET` of the same target answers.
        try await self.lockedRepresentation(
          declaration, id: id,
          served: try ServedQuery(query, type: declaration.type, server: self),
          exchange: exchange, writer: transaction.writer)
      }
      try await self.deleteResource(
        declaration, id: id, transaction: transaction, exchange: exchange)
    }
    return JSONAPIServerResponse(status: 204)
  }

  /// `PATCH`, `POST` and `DELETE` on `/T/{id}/relationships/{relationship}`: `204` (R85).
  func changeLinkage(
    _ declaration: JSONAPIResourceDeclaration, id: String,
    relationship: JSONAPIResourceSchema.Relationship, method: String, query: JSONAPIQuery,
    exchange: ServedExchange
  ) async throws -> JSONAPIServerResponse {
    _ = try ServedQuery(query, type: nil, server: self)
    let linkage = try readLinkage(
      try primaryData(exchange.request.body), pointer: "/data", relationship: relationship,
      lids: nil)
    try await authorize(
      .update, declaration, id: id, relationship: relationship.name, exchange: exchange)
    try await write { writer in
      // The target is the relationship: compared with what `GET` of its linkage answers.
      try await self.checkPreconditions(exchange: exchange) {
        guard let current = try await writer.lockForWriting(declaration.type, id: id) else {
          return nil
        }
        var document = try self.linkageDocument(current, relationship: relationship)
        return try document.data()
      }
      try await self.changeLinkage(
        declaration, id: id, relationship: relationship, method: method, linkage: linkage,
        pointer: "", writer: writer, exchange: exchange)
    }
    return JSONAPIServerResponse(status: 204)
  }

  /// Replaces (`PATCH`), adds to (`POST`) or removes from (`DELETE`) a relationship's linkage.
  func changeLinkage(
    _ declaration: JSONAPIResourceDeclaration, id: String,
    relationship: JSONAPIResourceSchema.Relationship, method: String, linkage: JSONAPILinkage,
    pointer: String, writer: any JSONAPIStoreWriter, exchange: ServedExchange
  ) async throws {
    guard let current = try await writer.resources(declaration.type, ids: [id]).first else {
      throw JSONAPIRequestError.resourceNotFound(type: declaration.type, id: id)
    }
    var sent = JSONAPIResourceRecord(type: declaration.type, id: id)
    sent.relationships[relationship.name] = linkage
    if method != "DELETE" {
      try await checkRelatedExist(sent, pointer: nil, reader: writer)
    }
    let before = current.relationships[relationship.name]?.identifiers ?? []
    var merged = current
    switch method {
    case "POST":
      var present = Set(before)
      merged.relationships[relationship.name] = .toMany(
        before + linkage.identifiers.filter { present.insert($0).inserted })
    case "DELETE":
      let removed = Set(linkage.identifiers)
      merged.relationships[relationship.name] = .toMany(before.filter { !removed.contains($0) })
    default:
      merged.relationships[relationship.name] = linkage
    }
    let access = JSONAPIAccess(
      action: .update, type: declaration.type, id: id, relationship: relationship.name,
      request: exchange.request)
    if let willSave = declaration.hooks.willSave {
      try willSave(&merged, access)
      try await check(merged, declaration, pointer: pointer, reader: writer)
    }
    let found: Bool
    switch method {
    case "POST":
      found = try await writer.add(
        linkage.identifiers, to: relationship.name, of: declaration.type, id: id)
    case "DELETE":
      found = try await writer.remove(
        linkage.identifiers, from: relationship.name, of: declaration.type, id: id)
    default:
      var written = JSONAPIResourceRecord(type: declaration.type, id: id)
      written.relationships[relationship.name] = linkage
      found = try await writer.update(written) != nil
    }
    guard found else {
      throw JSONAPIRequestError.resourceNotFound(type: declaration.type, id: id)
    }
  }

  /// Runs the declaration's model check on a record about to be stored, with its related
  /// resources so that their models decode whole: those in `known` (already read to check they
  /// exist), the others read once per type.
  ///
  /// - Throws: `422` at `pointer` with the check's reason; a `JSONAPIErrorObject` the check
  ///   threw as it is.
  func check(
    _ record: JSONAPIResourceRecord, _ declaration: JSONAPIResourceDeclaration, pointer: String,
    known: [JSONAPIResourceRecord] = [], reader: any JSONAPIStoreReader
  ) async throws {
    guard let checkModel = declaration.checkModel else { return }
    let read = Set(known.map(ServedIdentity.init))
    var wanted: [String: [String]] = [:]
    for linkage in record.relationships.values {
      for identifier in linkage.identifiers {
        if let id = identifier.id, !read.contains(ServedIdentity(type: identifier.type, id: id)) {
          wanted[identifier.type, default: []].append(id)
        }
      }
    }
    var related = known
    for type in wanted.keys.sorted() {
      related += try await reader.resources(type, ids: wanted[type] ?? [])
    }
    do {
      try checkModel(record, related, options.decoder)
    } catch let error as JSONAPIErrorObject {
      throw error
    } catch let error as DecodingError {
      var object = JSONAPIErrorObject(describing: error)
      if let inner = object.source?.pointer {
        object.source?.pointer = inner.hasPrefix("/data") ? pointer + inner.dropFirst(5) : inner
      }
      throw object
    } catch {
      throw Self.invalid("\(error)", pointer: pointer, nil)
    }
  }
}
