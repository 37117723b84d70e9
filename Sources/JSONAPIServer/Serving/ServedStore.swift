import Foundation

// The one place that reads and writes inverse relationships (a to-many relationship that mirrors a
// to-one relationship of its target): stores keep only the to-one side, and the server sees both.
extension JSONAPIServer {
  /// Runs `body` in a store read, with inverse relationships filled in.
  func read<T: Sendable>(_ body: @Sendable (any JSONAPIStoreReader) async throws -> T)
    async throws -> T
  {
    try await store.read { reader in
      // Documents are what reads serve: their inverse linkage is read bounded, among the rows
      // the requester sees, so that a resource with any number of related rows costs a bounded
      // read (writes read it whole, for the rules that see it).
      let policies = try ServedPolicies.current(self)
      let served = ServedReader(
        base: reader, server: self, boundsLinkage: true, visibility: policies?.conditions ?? [:])
      guard let policies else { return try await body(served) }
      return try await body(GuardedReader(served: served, raw: reader, policies: policies))
    }
  }

  /// Runs `body` in a store transaction, with inverse relationships filled in and written
  /// through their to-one side.
  func write<T: Sendable>(_ body: @Sendable (any JSONAPIStoreWriter) async throws -> T)
    async throws -> T
  {
    try await transaction { transaction in try await body(transaction.writer) }
  }

  /// Runs `body` in a store transaction with the writers a write needs: one held to the
  /// request's policies, and one that is not, for what a write must see whole (the rows a delete
  /// cascades to or is refused by).
  func transaction<T: Sendable>(_ body: @Sendable (ServedTransaction) async throws -> T)
    async throws -> T
  {
    try await store.write { writer in
      let served = ServedWriter(base: writer, server: self)
      let policies = try ServedPolicies.current(self)
      let guarded: any JSONAPIStoreWriter =
        policies.map { policies in
          GuardedWriter(
            reader: GuardedReader(served: served, raw: writer, policies: policies), served: served)
        } ?? served
      return try await body(
        ServedTransaction(writer: guarded, served: served, policies: policies))
    }
  }

  /// The inverse relationships of `type`.
  func inverses(of type: String) -> [JSONAPIResourceSchema.Relationship] {
    resources[type]?.schema.relationships.filter { $0.inverse != nil && $0.targetType != nil }
      ?? []
  }
}

/// One store transaction of a write, as the server's write steps see it.
struct ServedTransaction: Sendable {
  /// Held to the request's policies (the ``ServedWriter`` itself when there are none): what
  /// every step reads and writes through unless it says otherwise.
  let writer: any JSONAPIStoreWriter
  /// Inverse relationships filled in and written through their to-one side, held to no policy.
  let served: ServedWriter
  /// The request's policies, `nil` when no declaration has one.
  let policies: ServedPolicies?

  /// The store's own writer.
  var raw: any JSONAPIStoreWriter { served.base }

  /// Runs the delete rule of `before`'s type's policy on it (nothing without policies).
  ///
  /// - Throws: The rule's refusal (`403` unless it threw an error object).
  func checkDelete(_ before: JSONAPIResourceRecord) async throws {
    guard let policies else { return }
    try await GuardedWriter(
      reader: GuardedReader(served: served, raw: raw, policies: policies), served: served
    ).run(\.delete, type: before.type, before: before, after: nil)
  }
}

/// A store reader whose records carry their inverse relationships: one extra page read per
/// inverse relationship and batch, never one per resource.
struct ServedReader: JSONAPIStoreReader {
  let base: any JSONAPIStoreReader
  let server: JSONAPIServer
  /// Whether inverse linkage is read bounded: at most its limit plus one identifier per owner,
  /// among the rows `visibility` admits (`JSONAPIServer.servesLinkage(of:in:)` then leaves out
  /// what is over the limit). Otherwise whole, as writes need it.
  var boundsLinkage = false
  /// The requester's resolved visibility conditions, by type, for bounded reads.
  var visibility: [String: JSONAPIRowCondition] = [:]

  func resources(_ type: String, ids: [String]) async throws -> [JSONAPIResourceRecord] {
    guard let bound = linkageBound(of: type) else {
      return try await fill(try await base.resources(type, ids: ids), type: type)
    }
    return try await fill(try await base.resources(type, ids: ids, linkage: bound), type: type)
  }

  func page(_ query: JSONAPIStoreQuery) async throws -> JSONAPIStorePage {
    var query = query
    if query.linkage == nil { query.linkage = linkageBound(of: query.type) }
    var page: JSONAPIStorePage
    if let scope = query.scope, let owner = scope.owner.id,
      let relationship = server.resources[scope.owner.type]?.schema.relationship(
        named: scope.relationship),
      let member = relationship.inverse
    {
      // A related collection through an inverse: the targets whose to-one names the owner.
      var targets = query
      targets.scope = nil
      targets.filters.append(
        JSONAPIFilterCondition(
          member: member, isRelationship: true, comparison: .equals, values: [.string(owner)]))
      page = try await base.page(targets)
    } else {
      page = try await base.page(query)
    }
    page.resources = try await fill(page.resources, type: query.type)
    return page
  }

  /// For bounded reads of `type`: the linkage its to-many relationships that the store keeps (not
  /// inverses) are read with, one identifier more than the largest of their limits (which tells
  /// that a relationship has more than its limit), among the rows `visibility` admits; `nil`
  /// when reads are whole or the type keeps no such relationship.
  func linkageBound(of type: String) -> JSONAPIStoreLinkageBound? {
    guard boundsLinkage, let declaration = server.resources[type] else { return nil }
    let limits = declaration.schema.relationships.compactMap { relationship in
      relationship.isToMany && relationship.inverse == nil
        ? declaration.linkageLimit(of: relationship.name) : nil
    }
    // Limits are at most 10 000 (`linkageLimit(_:_:)` checks), so one more cannot overflow.
    guard let largest = limits.max() else { return nil }
    return JSONAPIStoreLinkageBound(limit: largest + 1, visibility: visibility)
  }

  /// `records` of `type` with each inverse relationship's linkage read from its targets.
  func fill(_ records: [JSONAPIResourceRecord], type: String) async throws
    -> [JSONAPIResourceRecord]
  {
    let inverses = server.inverses(of: type)
    guard !inverses.isEmpty, !records.isEmpty else { return records }
    var records = records
    for relationship in inverses {
      guard let target = relationship.targetType, let member = relationship.inverse else {
        continue
      }
      let members =
        boundsLinkage
        ? try await mirrored(
          target, member: member, owners: records.map(\.id),
          limit: server.resources[type]?.linkageLimit(of: relationship.name)
            ?? JSONAPIResourceDeclaration.defaultLinkageLimit,
          visibility: visibility[target])
        : try await mirrored(target, member: member, owners: records.map(\.id))
      for index in records.indices {
        records[index].relationships[relationship.name] = .toMany(
          members[records[index].id] ?? [])
      }
    }
    return records
  }

  /// The resources of `target` whose to-one `member` names one of `owners`, by owner id: every
  /// one, for writes.
  func mirrored(_ target: String, member: String, owners: [String]) async throws
    -> [String: [JSONAPIResourceIdentifier]]
  {
    let page = try await base.page(
      JSONAPIStoreQuery(
        type: target,
        filters: [
          JSONAPIFilterCondition(
            member: member, isRelationship: true, comparison: .equals,
            values: owners.map(JSONAPIValue.string))
        ],
        sort: [.ascending("id")], window: .offset(0, limit: Int.max), countsTotal: false))
    var byOwner: [String: [JSONAPIResourceIdentifier]] = [:]
    for record in page.resources {
      if case .toOne(let owner?)? = record.relationships[member], let id = owner.id {
        byOwner[id, default: []].append(record.identifier)
      }
    }
    return byOwner
  }
}

/// A store writer that writes inverse relationships through the to-one side of their targets.
struct ServedWriter: JSONAPIStoreWriter {
  let base: any JSONAPIStoreWriter
  let server: JSONAPIServer

  private var reader: ServedReader { ServedReader(base: base, server: server) }

  func resources(_ type: String, ids: [String]) async throws -> [JSONAPIResourceRecord] {
    try await reader.resources(type, ids: ids)
  }

  func page(_ query: JSONAPIStoreQuery) async throws -> JSONAPIStorePage {
    try await reader.page(query)
  }

  func create(_ record: JSONAPIResourceRecord) async throws -> JSONAPIResourceRecord {
    let (stored, mirrored) = split(record)
    let created = try await base.create(stored)
    try await write(mirrored, of: created)
    return try await reader.fill([created], type: created.type).first ?? created
  }

  func update(_ changes: JSONAPIResourceRecord) async throws -> JSONAPIResourceRecord? {
    let (stored, mirrored) = split(changes)
    guard let updated = try await base.update(stored) else { return nil }
    try await write(mirrored, of: updated)
    return try await reader.fill([updated], type: updated.type).first
  }

  func delete(_ type: String, id: String) async throws -> Bool {
    try await base.delete(type, id: id)
  }

  func delete(_ type: String, ids: [String]) async throws -> Int {
    try await base.delete(type, ids: ids)
  }

  func setToOne(
    _ relationship: String, of type: String, ids: [String], to target: JSONAPIResourceIdentifier?
  ) async throws -> Int {
    try await base.setToOne(relationship, of: type, ids: ids, to: target)
  }

  func lockForWriting(_ type: String, id: String) async throws -> JSONAPIResourceRecord? {
    guard let locked = try await base.lockForWriting(type, id: id) else { return nil }
    return try await reader.fill([locked], type: type).first
  }

  func add(
    _ identifiers: [JSONAPIResourceIdentifier], to relationship: String, of type: String,
    id: String
  ) async throws -> Bool {
    guard let inverse = inverse(relationship, of: type) else {
      return try await base.add(identifiers, to: relationship, of: type, id: id)
    }
    guard try await !base.resources(type, ids: [id]).isEmpty else { return false }
    let target = server.resources[type]?.schema.relationship(named: relationship)?.targetType ?? ""
    try await point(
      identifiers.filter { $0.type == target }.compactMap(\.id), of: target, member: inverse,
      at: JSONAPIResourceIdentifier(type: type, id: id))
    return true
  }

  func remove(
    _ identifiers: [JSONAPIResourceIdentifier], from relationship: String, of type: String,
    id: String
  ) async throws -> Bool {
    guard let inverse = inverse(relationship, of: type) else {
      return try await base.remove(identifiers, from: relationship, of: type, id: id)
    }
    guard try await !base.resources(type, ids: [id]).isEmpty else { return false }
    let target = server.resources[type]?.schema.relationship(named: relationship)?.targetType ?? ""
    let removed = identifiers.filter { $0.type == target }.compactMap(\.id)
    guard !removed.isEmpty else { return true }
    // Only the removed members that name the owner: a read bounded by the request, not by the
    // size of the relationship.
    let named = try await base.page(
      JSONAPIStoreQuery(
        type: target,
        filters: [
          JSONAPIFilterCondition(
            member: "id", comparison: .equals, values: removed.map(JSONAPIValue.string)),
          JSONAPIFilterCondition(
            member: inverse, isRelationship: true, comparison: .equals, values: [.string(id)]),
        ],
        sort: [.ascending("id")], window: .offset(0, limit: removed.count), countsTotal: false))
    try await point(named.resources.map(\.id), of: target, member: inverse, at: nil)
    return true
  }

  /// The to-one member that the inverse relationship `name` of `type` mirrors.
  private func inverse(_ name: String, of type: String) -> String? {
    server.resources[type]?.schema.relationship(named: name)?.inverse
  }

  /// `record` without its inverse relationships, and those relationships.
  private func split(_ record: JSONAPIResourceRecord) -> (
    JSONAPIResourceRecord, [String: JSONAPILinkage]
  ) {
    var stored = record
    var mirrored: [String: JSONAPILinkage] = [:]
    for relationship in server.inverses(of: record.type) {
      if let linkage = stored.relationships.removeValue(forKey: relationship.name) {
        mirrored[relationship.name] = linkage
      }
    }
    return (stored, mirrored)
  }

  /// Makes each inverse relationship of `owner` name exactly the resources in `mirrored`: those
  /// it named before and no longer does are unlinked, the new ones linked.
  private func write(_ mirrored: [String: JSONAPILinkage], of owner: JSONAPIResourceRecord)
    async throws
  {
    for name in mirrored.keys.sorted() {
      guard let relationship = server.resources[owner.type]?.schema.relationship(named: name),
        let target = relationship.targetType, let member = relationship.inverse
      else { continue }
      let wanted = mirrored[name]?.identifiers ?? []
      let current =
        try await reader.mirrored(target, member: member, owners: [owner.id])[owner.id] ?? []
      let kept = Set(wanted)
      try await point(
        current.filter { !kept.contains($0) && $0.type == target }.compactMap(\.id), of: target,
        member: member, at: nil)
      let present = Set(current)
      try await point(
        wanted.filter { !present.contains($0) && $0.type == target }.compactMap(\.id),
        of: target, member: member, at: owner.identifier)
    }
  }

  /// Sets the to-one `member` of the resources `ids` of `type` to `owner` (or clears it), in one
  /// store call for them all.
  ///
  /// - Throws: `409` when clearing a to-one relationship the model requires.
  private func point(
    _ ids: [String], of type: String, member: String, at owner: JSONAPIResourceIdentifier?
  ) async throws {
    guard let first = ids.first else { return }
    if owner == nil,
      server.resources[type]?.schema.relationship(named: member)?.isOptional == false
    {
      throw JSONAPIErrorObject(
        status: "409", code: "required-relationship", title: "Conflict",
        detail: "\(type)/\(first) must keep its `\(member)`: delete it, or move it to "
          + "another resource")
    }
    _ = try await base.setToOne(member, of: type, ids: ids, to: owner)
  }
}
