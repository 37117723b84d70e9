import Foundation

/// A store reader held to one requester's policies: every read asks the store for visible rows
/// only (``JSONAPIStoreQuery/visibility``), and every record it returns has its linkage cut to
/// visible rows, read in one query per related type and batch (never once per resource).
struct GuardedReader: JSONAPIStoreReader {
  /// Reads with inverse relationships filled in.
  let served: any JSONAPIStoreReader
  /// The store's own reader, for visibility checks that need ids only.
  let raw: any JSONAPIStoreReader
  let policies: ServedPolicies

  func resources(_ type: String, ids: [String]) async throws -> [JSONAPIResourceRecord] {
    guard let condition = policies.conditions[type] else {
      return try await screen(try await served.resources(type, ids: ids))
    }
    guard !ids.isEmpty else { return [] }
    let page = try await served.page(Self.byID(type, ids: ids, visibility: condition))
    return try await screen(page.resources)
  }

  func page(_ query: JSONAPIStoreQuery) async throws -> JSONAPIStorePage {
    var query = query
    var parts: [JSONAPIRowCondition] = []
    if let own = query.visibility { parts.append(own) }
    if let condition = policies.conditions[query.type] { parts.append(condition) }
    // A relationship filter matches visible related rows only: otherwise `filter[assignee]=7`
    // would tell whether a visible row links a hidden one.
    for filter in query.filters where filter.isRelationship {
      guard
        let relationship = policies.server.resources[query.type]?.schema.relationship(
          named: filter.member), let target = relationship.targetType,
        policies.conditions[target] != nil
      else { continue }
      var ids = filter
      ids.member = "id"
      ids.isRelationship = false
      ids.values = filter.values.filter { !$0.isNull }
      let visibleMatch = try policies.resolve(
        .related(filter.member, .all([.filter(ids), .visible])), in: query.type)
      if filter.values.contains(where: \.isNull) {
        // `null` asks for empty linkage, which a row linking only hidden rows also shows.
        parts.append(.any([visibleMatch, .filter(filter)]))
      } else {
        parts.append(visibleMatch)
      }
    }
    if !parts.isEmpty { query.visibility = parts.count == 1 ? parts[0] : .all(parts) }
    var page = try await served.page(query)
    page.resources = try await screen(page.resources)
    return page
  }

  /// A query for the rows of `type` among `ids` that meet `visibility`.
  static func byID(_ type: String, ids: [String], visibility: JSONAPIRowCondition)
    -> JSONAPIStoreQuery
  {
    var query = JSONAPIStoreQuery(
      type: type,
      filters: [
        JSONAPIFilterCondition(
          member: "id", comparison: .equals, values: ids.map { JSONAPIValue.string($0) })
      ], sort: [.ascending("id")], window: .offset(0, limit: ids.count), countsTotal: false)
    query.visibility = visibility
    return query
  }

  /// The visible ones among `identifiers`, by type (types without a visibility policy are left
  /// out: all their rows are visible): one query per type.
  func visible(_ identifiers: [JSONAPIResourceIdentifier]) async throws
    -> [String: Set<MemoryStoreKey>]
  {
    var wanted: [String: [String]] = [:]
    var seen: Set<ServedIdentity> = []
    for identifier in identifiers {
      guard let id = identifier.id, policies.conditions[identifier.type] != nil,
        seen.insert(ServedIdentity(type: identifier.type, id: id)).inserted
      else { continue }
      wanted[identifier.type, default: []].append(id)
    }
    var visible: [String: Set<MemoryStoreKey>] = [:]
    for type in wanted.keys.sorted() {
      guard let condition = policies.conditions[type], let ids = wanted[type] else { continue }
      let page = try await raw.page(Self.byID(type, ids: ids, visibility: condition))
      visible[type] = Set(page.resources.map { MemoryStoreKey($0.id) })
    }
    return visible
  }

  /// Whether `identifier` is among `visible` (or of a type whose rows are all visible).
  func isVisible(_ identifier: JSONAPIResourceIdentifier, in visible: [String: Set<MemoryStoreKey>])
    -> Bool
  {
    guard policies.conditions[identifier.type] != nil else { return true }
    guard let id = identifier.id else { return false }
    return visible[identifier.type]?.contains(MemoryStoreKey(id)) ?? false
  }

  /// `records` with every identifier of a hidden row taken out of their linkage (a to-one that
  /// names one becomes empty), so hidden ids never leave by linkage.
  func screen(_ records: [JSONAPIResourceRecord]) async throws -> [JSONAPIResourceRecord] {
    let identifiers = records.flatMap { $0.relationships.values.flatMap(\.identifiers) }
    guard identifiers.contains(where: { policies.conditions[$0.type] != nil }) else {
      return records
    }
    let visible = try await visible(identifiers)
    return records.map { record in
      var record = record
      for (name, linkage) in record.relationships {
        switch linkage {
        case .toOne(let identifier?) where !isVisible(identifier, in: visible):
          record.relationships[name] = .toOne(nil)
        case .toMany(let identifiers) where !identifiers.allSatisfy({ isVisible($0, in: visible) }):
          record.relationships[name] = .toMany(identifiers.filter { isVisible($0, in: visible) })
        default:
          break
        }
      }
      return record
    }
  }

  /// Whether the row `type`/`id` is visible.
  func isVisible(_ type: String, id: String) async throws -> Bool {
    let identifier = JSONAPIResourceIdentifier(type: type, id: id)
    return isVisible(identifier, in: try await visible([identifier]))
  }
}

/// A store writer held to one requester's policies: its reads are a ``GuardedReader``'s; every
/// write first finds the row visible (else it answers as for a row that does not exist), keeps
/// the hidden members of a to-many relationship it replaces, and runs the write rules of the type
/// written and, for a relationship that mirrors another type's to-one, of each row of that type
/// whose to-one changes.
struct GuardedWriter: JSONAPIStoreWriter {
  let reader: GuardedReader
  /// Writes inverse relationships through their to-one side.
  let served: any JSONAPIStoreWriter

  private var server: JSONAPIServer { reader.policies.server }

  func resources(_ type: String, ids: [String]) async throws -> [JSONAPIResourceRecord] {
    try await reader.resources(type, ids: ids)
  }

  func page(_ query: JSONAPIStoreQuery) async throws -> JSONAPIStorePage {
    try await reader.page(query)
  }

  func create(_ record: JSONAPIResourceRecord) async throws -> JSONAPIResourceRecord {
    try await run(\.create, type: record.type, before: nil, after: record)
    try await checkMirrored(of: record, before: nil)
    let created = try await served.create(record)
    return try await reader.screen([created]).first ?? created
  }

  func update(_ changes: JSONAPIResourceRecord) async throws -> JSONAPIResourceRecord? {
    guard let before = try await stored(changes.type, id: changes.id) else { return nil }
    var changes = changes
    // A replaced to-many keeps the members the requester cannot see: they could not name them.
    let replaced = changes.relationships.compactMap { name, linkage -> String? in
      if case .toMany = linkage { return name } else { return nil }
    }
    let visible = try await reader.visible(
      replaced.flatMap { before.relationships[$0]?.identifiers ?? [] })
    for name in replaced {
      let hidden = (before.relationships[name]?.identifiers ?? []).filter {
        !reader.isVisible($0, in: visible)
      }
      guard !hidden.isEmpty, let sent = changes.relationships[name]?.identifiers else { continue }
      var present = Set(sent)
      changes.relationships[name] = .toMany(sent + hidden.filter { present.insert($0).inserted })
    }
    var after = before
    after.attributes.merge(changes.attributes) { _, new in new }
    after.relationships.merge(changes.relationships) { _, new in new }
    try await run(\.update, type: before.type, before: before, after: after)
    try await checkMirrored(of: after, before: before)
    guard let updated = try await served.update(changes) else { return nil }
    return try await reader.screen([updated]).first
  }

  func delete(_ type: String, id: String) async throws -> Bool {
    guard let before = try await stored(type, id: id) else { return false }
    try await run(\.delete, type: type, before: before, after: nil)
    return try await served.delete(type, id: id)
  }

  func add(
    _ identifiers: [JSONAPIResourceIdentifier], to relationship: String, of type: String,
    id: String
  ) async throws -> Bool {
    guard let before = try await stored(type, id: id) else { return false }
    let current = before.relationships[relationship]?.identifiers ?? []
    var present = Set(current)
    var after = before
    after.relationships[relationship] = .toMany(
      current + identifiers.filter { present.insert($0).inserted })
    try await run(\.update, type: type, before: before, after: after)
    try await checkMirrored(of: after, before: before)
    return try await served.add(identifiers, to: relationship, of: type, id: id)
  }

  func remove(
    _ identifiers: [JSONAPIResourceIdentifier], from relationship: String, of type: String,
    id: String
  ) async throws -> Bool {
    guard let before = try await stored(type, id: id) else { return false }
    // Removing a hidden row is removing one that does not exist: nothing happens to it.
    let visible = try await reader.visible(identifiers)
    let removable = identifiers.filter { reader.isVisible($0, in: visible) }
    let removed = Set(removable)
    var after = before
    after.relationships[relationship] = .toMany(
      (before.relationships[relationship]?.identifiers ?? []).filter { !removed.contains($0) })
    try await run(\.update, type: type, before: before, after: after)
    try await checkMirrored(of: after, before: before)
    return try await served.remove(removable, from: relationship, of: type, id: id)
  }

  // MARK: - Parts

  /// The stored row whole (every linkage, hidden members too, for the rules), when the requester
  /// sees it; `nil` otherwise, as for a row that does not exist.
  private func stored(_ type: String, id: String) async throws -> JSONAPIResourceRecord? {
    guard try await reader.isVisible(type, id: id) else { return nil }
    return try await served.resources(type, ids: [id]).first
  }

  /// Runs the rule at `rule` of `type`'s policy: a refusal that is not an error object is `403`.
  func run(
    _ rule: KeyPath<JSONAPIResourcePolicy, (@Sendable (JSONAPIWriteCheck) async throws -> Void)?>,
    type: String, before: JSONAPIResourceRecord?, after: JSONAPIResourceRecord?
  ) async throws {
    guard let check = server.resources[type]?.policy[keyPath: rule] else { return }
    // A rule reads as documents do: inverse linkage bounded by its limit, so that a rule run
    // for each of many rows (a cascade) does not read every row each related one names.
    let bounded = GuardedReader(
      served: ServedReader(
        base: reader.raw, server: server, boundsLinkage: true,
        visibility: reader.policies.conditions),
      raw: reader.raw, policies: reader.policies)
    do {
      try await check(
        JSONAPIWriteCheck(
          type: type, before: before, after: after, requester: reader.policies.requester,
          reader: bounded))
    } catch let error as JSONAPIErrorObject {
      throw error
    } catch {
      throw JSONAPIWriteCheck.forbidden("\(type): the write is not allowed (\(error))")
    }
  }

  /// Holds each row whose to-one changes because `after` changes a relationship mirroring it to
  /// the update rule of its own type (its before and after): the rows that gain `after` and the
  /// rows that lose it. Those rows are read in one call per relationship.
  private func checkMirrored(of after: JSONAPIResourceRecord, before: JSONAPIResourceRecord?)
    async throws
  {
    for relationship in server.inverses(of: after.type) {
      guard let target = relationship.targetType, let member = relationship.inverse,
        server.resources[target]?.policy.update != nil,
        let wanted = after.relationships[relationship.name]?.identifiers
      else { continue }
      let current = before?.relationships[relationship.name]?.identifiers ?? []
      let kept = Set(wanted)
      let present = Set(current)
      let lost = current.filter { !kept.contains($0) }
      let gained = wanted.filter { !present.contains($0) }
      let changed = (lost + gained).compactMap(\.id)
      guard !changed.isEmpty else { continue }
      let owner = after.id.isEmpty ? nil : after.identifier
      let gainedIDs = Set(gained.compactMap(\.id).map(MemoryStoreKey.init))
      for row in try await served.resources(target, ids: changed) {
        var moved = row
        moved.relationships[member] = .toOne(
          gainedIDs.contains(MemoryStoreKey(row.id)) ? owner : nil)
        try await run(\.update, type: target, before: row, after: moved)
      }
    }
  }
}
