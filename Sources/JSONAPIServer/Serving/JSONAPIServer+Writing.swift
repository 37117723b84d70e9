import Foundation

/// How a relationship's linkage changes.
enum ServedLinkageChange: Sendable, Hashable {
  /// The linkage becomes the one given (R81, R83, R84).
  case replace
  /// The members given are added, those present skipped (R84).
  case add
  /// The members given are removed (R84).
  case remove
}

/// One write, typed: what every write endpoint and every Atomic Operation hands to the write
/// service, ``JSONAPIServer/apply(_:to:pointer:transaction:exchange:)``.
enum ServedChange: Sendable {
  /// A new resource, holding only the members sent.
  case create(JSONAPIResourceRecord)
  /// The members sent of a stored resource.
  case update(JSONAPIResourceRecord)
  /// A delete, with the resource's delete rules.
  case delete(id: String)
  /// A change of one relationship's linkage.
  case linkage(
    id: String, relationship: JSONAPIResourceSchema.Relationship, ServedLinkageChange,
    JSONAPILinkage)
}

// The write service and the write endpoints: create, update, delete, and relationship changes.
// Each endpoint reads its request into a `ServedChange` and runs it in one store transaction
// (R74) through `apply`, the service Atomic Operations run each operation through too.
extension JSONAPIServer {
  /// Runs the declaration's `authorize` hook for `change`.
  func authorize(
    _ change: ServedChange, _ declaration: JSONAPIResourceDeclaration, exchange: ServedExchange
  ) async throws {
    switch change {
    case .create:
      try await authorize(.create, declaration, exchange: exchange)
    case .update(let changes):
      try await authorize(.update, declaration, id: changes.id, exchange: exchange)
    case .delete(let id):
      try await authorize(.delete, declaration, id: id, exchange: exchange)
    case .linkage(let id, let relationship, _, _):
      try await authorize(
        .update, declaration, id: id, relationship: relationship.name, exchange: exchange)
    }
  }

  /// The write service: applies `change` to `declaration`'s resources in `transaction`, and
  /// returns the resource as stored for a create or an update (`nil` otherwise). `pointer` is
  /// where the resource object is in the body, for errors.
  ///
  /// - Throws: What each write throws (`404`, `409`, `422`, the hooks' and policies' refusals).
  func apply(
    _ change: ServedChange, to declaration: JSONAPIResourceDeclaration, pointer: String,
    transaction: ServedTransaction, exchange: ServedExchange
  ) async throws -> JSONAPIResourceRecord? {
    switch change {
    case .create(let record):
      return try await create(
        record, declaration, pointer: pointer, writer: transaction.writer, exchange: exchange)
    case .update(let changes):
      return try await update(
        changes, declaration, pointer: pointer, writer: transaction.writer, exchange: exchange)
    case .delete(let id):
      try await deleteResource(declaration, id: id, transaction: transaction, exchange: exchange)
      return nil
    case .linkage(let id, let relationship, let kind, let linkage):
      try await changeLinkage(
        declaration, id: id, relationship: relationship, kind, linkage: linkage,
        writer: transaction.writer, exchange: exchange)
      return nil
    }
  }

  /// `POST /T`.
  func create(
    _ declaration: JSONAPIResourceDeclaration, query: JSONAPIQuery, exchange: ServedExchange
  ) async throws -> JSONAPIServerResponse {
    let served = try ServedQuery(query, type: declaration.type, server: self)
    let (record, _) = try readResource(
      try primaryData(exchange.request.body), pointer: "/data", declaration: declaration,
      mode: .create, lids: nil)
    let change = ServedChange.create(record)
    try await authorize(change, declaration, exchange: exchange)
    let (created, included) = try await transaction { transaction in
      let created = try await self.apply(
        change, to: declaration, pointer: "/data", transaction: transaction, exchange: exchange)
      guard let created else {
        throw JSONAPIRequestError.resourceNotFound(type: declaration.type, id: record.id)
      }
      return (
        created,
        try await includedResources([created], tree: served.include, reader: transaction.writer)
      )
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
    try declaration.runWillSave(&record, access)
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
    let change = ServedChange.update(changes)
    try await authorize(change, declaration, exchange: exchange)
    let (updated, included) = try await transaction { transaction in
      try await self.checkPreconditions(exchange: exchange) {
        try await self.lockedRepresentation(
          declaration, id: id, served: served, exchange: exchange, writer: transaction.writer)
      }
      let updated = try await self.apply(
        change, to: declaration, pointer: "/data", transaction: transaction, exchange: exchange)
      guard let updated else {
        throw JSONAPIRequestError.resourceNotFound(type: declaration.type, id: id)
      }
      return (
        updated,
        try await includedResources([updated], tree: served.include, reader: transaction.writer)
      )
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
    try declaration.runWillSave(&merged, access)
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
    let change = ServedChange.delete(id: id)
    try await authorize(change, declaration, exchange: exchange)
    try await transaction { transaction in
      try await self.checkPreconditions(exchange: exchange) {
        // Compared with what `GET` of the same target answers.
        try await self.lockedRepresentation(
          declaration, id: id,
          served: try ServedQuery(query, type: declaration.type, server: self),
          exchange: exchange, writer: transaction.writer)
      }
      _ = try await self.apply(
        change, to: declaration, pointer: "/data", transaction: transaction, exchange: exchange)
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
    // The method says the change here, at the edge; the service sees only the change.
    let kind: ServedLinkageChange =
      switch method {
      case "POST": .add
      case "DELETE": .remove
      default: .replace
      }
    let change = ServedChange.linkage(id: id, relationship: relationship, kind, linkage)
    try await authorize(change, declaration, exchange: exchange)
    try await transaction { transaction in
      // The target is the relationship: compared with what `GET` of its linkage answers.
      try await self.checkPreconditions(exchange: exchange) {
        guard let current = try await transaction.writer.lockForWriting(declaration.type, id: id)
        else { return nil }
        var document = try self.linkageDocument(current, relationship: relationship)
        return try document.data()
      }
      _ = try await self.apply(
        change, to: declaration, pointer: "", transaction: transaction, exchange: exchange)
    }
    return JSONAPIServerResponse(status: 204)
  }

  /// Replaces, adds to or removes from a relationship's linkage.
  func changeLinkage(
    _ declaration: JSONAPIResourceDeclaration, id: String,
    relationship: JSONAPIResourceSchema.Relationship, _ kind: ServedLinkageChange,
    linkage: JSONAPILinkage, writer: any JSONAPIStoreWriter, exchange: ServedExchange
  ) async throws {
    let pointer = ""
    guard let current = try await writer.resources(declaration.type, ids: [id]).first else {
      throw JSONAPIRequestError.resourceNotFound(type: declaration.type, id: id)
    }
    var sent = JSONAPIResourceRecord(type: declaration.type, id: id)
    sent.relationships[relationship.name] = linkage
    if kind != .remove {
      try await checkRelatedExist(sent, pointer: nil, reader: writer)
    }
    // A relationship the client may not change (create-only, set by the server, or mirroring
    // such a member of its target) is refused only now: a resource the requester cannot see,
    // the owner or one named, is first a `404` like one that does not exist, whichever rule the
    // write breaks.
    try refuseWrite(
      of: relationship.name, declaration: declaration, isCreate: false, pointer: "/data")
    let before = current.relationships[relationship.name]?.identifiers ?? []
    var merged = current
    switch kind {
    case .add:
      var present = Set(before)
      merged.relationships[relationship.name] = .toMany(
        before + linkage.identifiers.filter { present.insert($0).inserted })
    case .remove:
      let removed = Set(linkage.identifiers)
      merged.relationships[relationship.name] = .toMany(before.filter { !removed.contains($0) })
    case .replace:
      merged.relationships[relationship.name] = linkage
    }
    let access = JSONAPIAccess(
      action: .update, type: declaration.type, id: id, relationship: relationship.name,
      request: exchange.request)
    if declaration.hooks.willSave != nil {
      try declaration.runWillSave(&merged, access)
      try await check(merged, declaration, pointer: pointer, reader: writer)
    }
    let found: Bool
    switch kind {
    case .add:
      found = try await writer.add(
        linkage.identifiers, to: relationship.name, of: declaration.type, id: id)
    case .remove:
      found = try await writer.remove(
        linkage.identifiers, from: relationship.name, of: declaration.type, id: id)
    case .replace:
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
