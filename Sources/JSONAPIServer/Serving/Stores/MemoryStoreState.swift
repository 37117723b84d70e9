import Foundation

/// A resource id as `JSONAPIMemoryStore` keys it: equal only when the UTF-8 bytes are equal.
/// (`String`'s own `==` folds canonically equivalent text, which would make "é" and "e\u{301}" one
/// resource.)
struct MemoryStoreKey: Hashable, Sendable {
  var text: String

  init(_ text: String) { self.text = text }

  static func == (lhs: MemoryStoreKey, rhs: MemoryStoreKey) -> Bool {
    lhs.text.utf8.elementsEqual(rhs.text.utf8)
  }

  func hash(into hasher: inout Hasher) {
    // One `combine(bytes:)` of the whole text on both paths, so equal bytes hash alike.
    let hashed: Void? = text.utf8.withContiguousStorageIfAvailable {
      hasher.combine(bytes: UnsafeRawBufferPointer($0))
    }
    if hashed == nil {
      Array(text.utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
    }
  }
}

/// Whether two identifiers name the same resource: `type` and `id`, byte for byte (`meta` and
/// `lid` do not count).
func memoryStoreSameResource(_ lhs: JSONAPIResourceIdentifier, _ rhs: JSONAPIResourceIdentifier)
  -> Bool
{
  guard lhs.type.utf8.elementsEqual(rhs.type.utf8) else { return false }
  switch (lhs.id, rhs.id) {
  case (let a?, let b?): return a.utf8.elementsEqual(b.utf8)
  default: return false
  }
}

/// Everything a `JSONAPIMemoryStore` holds, as one value: a read or a transaction copies it
/// (copy-on-write), so it never sees changes made after it began.
struct MemoryStoreState: Sendable {
  /// The resources of one type and its id counter.
  struct Table: Sendable {
    var records: [MemoryStoreKey: JSONAPIResourceRecord] = [:]
    /// The next id a create without one gets; `nil` once every `UInt64` has been handed out.
    var nextID: UInt64? = 1
  }

  /// The declared resources by type.
  let schemas: [String: JSONAPIResourceSchema]
  var tables: [String: Table] = [:]

  init(schemas: [JSONAPIResourceSchema]) {
    self.schemas = Dictionary(schemas.map { ($0.type, $0) }, uniquingKeysWith: { _, last in last })
  }

  // MARK: - Reads

  func record(_ type: String, id: String) -> JSONAPIResourceRecord? {
    tables[type]?.records[MemoryStoreKey(id)]
  }

  /// One dictionary look-up per id: O(ids). Repeated ids are answered once.
  func resources(_ type: String, ids: [String]) -> [JSONAPIResourceRecord] {
    guard let table = tables[type] else { return [] }
    var seen: Set<MemoryStoreKey> = []
    var found: [JSONAPIResourceRecord] = []
    for id in ids {
      let key = MemoryStoreKey(id)
      guard seen.insert(key).inserted, let record = table.records[key] else { continue }
      found.append(record)
    }
    return found
  }

  /// `records` with each to-many relationship but an inverse cut to `bound`: its first
  /// `bound.limit` identifiers of rows the bound's visibility admits, in order. Work stops at
  /// the limit for each relationship, so that it is bounded when the rows are visible.
  func bounded(_ records: [JSONAPIResourceRecord], _ bound: JSONAPIStoreLinkageBound)
    -> [JSONAPIResourceRecord]
  {
    var tests: [String: MemoryStoreRowTest] = [:]
    func admits(_ identifier: JSONAPIResourceIdentifier) -> Bool {
      guard let condition = bound.visibility[identifier.type] else { return true }
      guard let id = identifier.id, let target = record(identifier.type, id: id) else {
        return false
      }
      let test =
        tests[identifier.type]
        ?? MemoryStoreRowTest(condition, type: identifier.type, state: self)
      tests[identifier.type] = test
      return test.admits(target, state: self)
    }
    let limit = max(bound.limit, 0)
    return records.map { record in
      var record = record
      for relationship in schemas[record.type]?.relationships ?? []
      where relationship.isToMany && relationship.inverse == nil {
        guard case .toMany(let identifiers)? = record.relationships[relationship.name] else {
          continue
        }
        var kept: [JSONAPIResourceIdentifier] = []
        for identifier in identifiers {
          guard kept.count < limit else { break }
          if admits(identifier) { kept.append(identifier) }
        }
        record.relationships[relationship.name] = .toMany(kept)
      }
      return record
    }
  }

  /// ``page(_:)`` with the query's linkage bound applied.
  func boundedPage(_ query: JSONAPIStoreQuery) -> JSONAPIStorePage {
    var page = self.page(query)
    if let bound = query.linkage { page.resources = bounded(page.resources, bound) }
    return page
  }

  func page(_ query: JSONAPIStoreQuery) -> JSONAPIStorePage {
    MemoryStorePageReader(state: self, query: query).page()
  }

  // MARK: - Writes

  mutating func create(_ record: JSONAPIResourceRecord) throws -> JSONAPIResourceRecord {
    var stored = record
    // Tables are changed in place (`tables[type, default:]`), never copied out and back, so that
    // a transaction copies a table once, not on every write.
    if record.id.isEmpty {
      stored.id = try Self.newID(in: &tables[record.type, default: Table()], type: record.type)
    } else if tables[record.type]?.records[MemoryStoreKey(record.id)] != nil {
      throw JSONAPIStoreError.alreadyExists(type: record.type, id: record.id)
    }
    Self.advanceCounter(of: &tables[record.type, default: Table()], past: stored.id)
    // Every declared relationship has linkage, empty when the record leaves it out.
    for relationship in schemas[record.type]?.relationships ?? []
    where stored.relationships[relationship.name] == nil {
      stored.relationships[relationship.name] = relationship.isToMany ? .toMany([]) : .toOne(nil)
    }
    tables[record.type, default: Table()].records[MemoryStoreKey(stored.id)] = stored
    return stored
  }

  /// Merges the members `changes` holds (R80: members left out keep their values; R81: a
  /// relationship given replaces its linkage).
  mutating func update(_ changes: JSONAPIResourceRecord) -> JSONAPIResourceRecord? {
    let key = MemoryStoreKey(changes.id)
    guard var record = tables[changes.type]?.records[key] else { return nil }
    record.attributes.merge(changes.attributes) { _, new in new }
    record.relationships.merge(changes.relationships) { _, new in new }
    tables[changes.type]?.records[key] = record
    return record
  }

  /// Deletes a resource and clears every linkage naming it (to-one → `nil`, to-many → removed).
  /// Visits every stored record: O(all records), which a store of this size affords.
  mutating func delete(_ type: String, id: String) -> Bool {
    guard tables[type]?.records.removeValue(forKey: MemoryStoreKey(id)) != nil else {
      return false
    }
    let deleted = JSONAPIResourceIdentifier(type: type, id: id)
    for tableType in Array(tables.keys) {
      // Find first, then change in place: the table is copied only when something names it.
      let cleared = (tables[tableType]?.records ?? [:]).compactMap { key, record in
        Self.clearing(deleted, in: record).map { (key, $0) }
      }
      for (key, record) in cleared { tables[tableType]?.records[key] = record }
    }
    return true
  }

  /// Deletes the resources of `type` among `ids` and clears every linkage naming one of them, in
  /// one visit of every stored record (not one per id); returns how many there were.
  mutating func delete(_ type: String, ids: [String]) -> Int {
    var deleted: Set<MemoryStoreKey> = []
    for id in ids where tables[type]?.records.removeValue(forKey: MemoryStoreKey(id)) != nil {
      deleted.insert(MemoryStoreKey(id))
    }
    guard !deleted.isEmpty else { return 0 }
    for tableType in Array(tables.keys) {
      let cleared = (tables[tableType]?.records ?? [:]).compactMap { key, record in
        Self.clearing(type, deleted, in: record).map { (key, $0) }
      }
      for (key, record) in cleared { tables[tableType]?.records[key] = record }
    }
    return deleted.count
  }

  /// Sets the to-one `relationship` of the resources of `type` among `ids` to `target`; returns
  /// how many there were.
  mutating func setToOne(
    _ relationship: String, of type: String, ids: [String], to target: JSONAPIResourceIdentifier?
  ) -> Int {
    var count = 0
    var seen: Set<MemoryStoreKey> = []
    for id in ids {
      let key = MemoryStoreKey(id)
      guard seen.insert(key).inserted, tables[type]?.records[key] != nil else { continue }
      tables[type]?.records[key]?.relationships[relationship] = .toOne(target)
      count += 1
    }
    return count
  }

  /// Adds members not already present (R84); `false` when there is no such resource.
  ///
  /// - Throws: ``JSONAPIStoreError/unstorableValue(member:reason:)`` when the relationship holds
  ///   to-one linkage.
  mutating func add(
    _ identifiers: [JSONAPIResourceIdentifier], to relationship: String, of type: String,
    id: String
  ) throws -> Bool {
    try changeToMany(relationship, of: type, id: id) { members in
      for identifier in identifiers
      where !members.contains(where: { memoryStoreSameResource($0, identifier) }) {
        members.append(identifier)
      }
    }
  }

  /// Removes members (R84); `false` when there is no such resource.
  ///
  /// - Throws: ``JSONAPIStoreError/unstorableValue(member:reason:)`` when the relationship holds
  ///   to-one linkage.
  mutating func remove(
    _ identifiers: [JSONAPIResourceIdentifier], from relationship: String, of type: String,
    id: String
  ) throws -> Bool {
    try changeToMany(relationship, of: type, id: id) { members in
      members.removeAll { member in
        identifiers.contains { memoryStoreSameResource($0, member) }
      }
    }
  }

  // MARK: - Parts

  private mutating func changeToMany(
    _ relationship: String, of type: String, id: String,
    _ change: (inout [JSONAPIResourceIdentifier]) -> Void
  ) throws -> Bool {
    let key = MemoryStoreKey(id)
    guard var record = tables[type]?.records[key] else { return false }
    var members: [JSONAPIResourceIdentifier]
    switch record.relationships[relationship] {
    case .toMany(let current): members = current
    case nil: members = []
    case .toOne:
      throw JSONAPIStoreError.unstorableValue(
        member: relationship,
        reason: "it is a to-one relationship; members are added to to-many ones")
    }
    change(&members)
    record.relationships[relationship] = .toMany(members)
    tables[type]?.records[key] = record
    return true
  }

  /// `record` without linkage to `deleted`, or `nil` when it had none.
  private static func clearing(
    _ deleted: JSONAPIResourceIdentifier, in record: JSONAPIResourceRecord
  )
    -> JSONAPIResourceRecord?
  {
    var result = record
    var changed = false
    for (name, linkage) in record.relationships {
      switch linkage {
      case .toOne(let identifier?) where memoryStoreSameResource(identifier, deleted):
        result.relationships[name] = .toOne(nil)
        changed = true
      case .toMany(let identifiers)
      where identifiers.contains(where: { memoryStoreSameResource($0, deleted) }):
        result.relationships[name] = .toMany(
          identifiers.filter { !memoryStoreSameResource($0, deleted) })
        changed = true
      default:
        break
      }
    }
    return changed ? result : nil
  }

  /// `record` without linkage to the resources of `type` in `deleted`, or `nil` when it had none.
  private static func clearing(
    _ type: String, _ deleted: Set<MemoryStoreKey>, in record: JSONAPIResourceRecord
  ) -> JSONAPIResourceRecord? {
    func named(_ identifier: JSONAPIResourceIdentifier) -> Bool {
      guard let id = identifier.id, identifier.type.utf8.elementsEqual(type.utf8) else {
        return false
      }
      return deleted.contains(MemoryStoreKey(id))
    }
    var result = record
    var changed = false
    for (name, linkage) in record.relationships {
      switch linkage {
      case .toOne(let identifier?) where named(identifier):
        result.relationships[name] = .toOne(nil)
        changed = true
      case .toMany(let identifiers) where identifiers.contains(where: named):
        result.relationships[name] = .toMany(identifiers.filter { !named($0) })
        changed = true
      default:
        break
      }
    }
    return changed ? result : nil
  }

  /// The next free id of `table`: the counter's value, skipping ids that creates gave themselves.
  private static func newID(in table: inout Table, type: String) throws -> String {
    while let next = table.nextID {
      let (following, overflow) = next.addingReportingOverflow(1)
      table.nextID = overflow ? nil : following
      let id = String(next)
      if table.records[MemoryStoreKey(id)] == nil { return id }
    }
    throw JSONAPIStoreError.unstorableValue(
      member: "id", reason: "every integer id of \(type) has been given out")
  }

  /// Moves the counter past a decimal id, so that made ids never meet given ones and an id, once
  /// given out, is not made again after a delete.
  private static func advanceCounter(of table: inout Table, past id: String) {
    guard let next = table.nextID,
      id.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      let value = UInt64(id), value >= next
    else { return }
    let (following, overflow) = value.addingReportingOverflow(1)
    table.nextID = overflow ? nil : following
  }
}
