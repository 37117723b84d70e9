import Foundation
import JSONAPICodable
import PostgresNIO

/// The writes of the store, on the connection of the transaction the store opened.
///
/// Every write first locks the row it changes (`SELECT … FOR UPDATE`), so that two transactions
/// changing one resource (from one server or from two) run one after the other, and the second
/// reads what the first committed; an `UPDATE` sets only the columns the changes name, so a
/// concurrent change to another member is never written over.
struct PGWrites: Sendable {
  let reads: PGReads
  var catalog: PGCatalog { reads.catalog }

  // MARK: - Create

  func create(_ session: PGSession, _ record: JSONAPIResourceRecord) async throws
    -> JSONAPIResourceRecord
  {
    let info = try table(record.type)
    var columns: [String] = []
    var values: [PGSQL] = []
    var given: PGValue?
    if record.id.isEmpty {
      if info.idKind == .text { given = .text(UUID().uuidString.lowercased()) }
    } else {
      given = try Self.id(record.id, kind: info.idKind, member: "id")
    }
    if let given {
      columns.append("\"id\"")
      values.append("\(given)")
    }
    let (assignments, toManys) = try changes(record, info)
    for (column, value) in assignments {
      columns.append(column)
      values.append("\(value)")
    }
    let insert: PGSQL =
      columns.isEmpty
      ? "INSERT INTO \(raw: pgQuoted(info.table)) DEFAULT VALUES"
      : """
      INSERT INTO \(raw: pgQuoted(info.table)) (\(raw: columns.joined(separator: ", "))) \
      VALUES (\(PGSQL.joined(values, separator: ", ")))
      """
    // A given id that is taken inserts nothing; a made one never is.
    let conflict: PGSQL = given == nil ? "" : " ON CONFLICT (\"id\") DO NOTHING"
    let inserted = try await session.rows(insert + conflict + " RETURNING \"id\"::text")
    guard let id = try inserted.first?.first?.decode(String.self) else {
      throw JSONAPIStoreError.alreadyExists(type: record.type, id: record.id)
    }
    if case .integer(let number) = given {
      // Ids the table makes must pass a given one: move its sequence on, never back.
      try await session.execute(
        """
        SELECT setval(sequence, \(PGValue.integer(number))) \
        FROM (SELECT pg_get_serial_sequence(\(PGValue.text(pgQuoted(info.table))), 'id')::regclass \
        AS sequence) AS s \
        WHERE \(PGValue.integer(number)) > coalesce(pg_sequence_last_value(sequence), 0)
        """)
    }
    let owner = try Self.id(id, kind: info.idKind, member: "id")
    for (toMany, members) in toManys {
      try await replace(session, toMany, of: owner, with: members)
    }
    guard let created = try await reads.resources(session, record.type, ids: [id]).first else {
      throw JSONAPIPostgresStoreError(reason: "\(record.type): the created row cannot be read back")
    }
    return created
  }

  // MARK: - Update

  func update(_ session: PGSession, _ changes: JSONAPIResourceRecord) async throws
    -> JSONAPIResourceRecord?
  {
    let info = try table(changes.type)
    guard let id = PGIDs.value(changes.id, kind: info.idKind),
      try await lock(session, info, id, forKeyUpdate: false)
    else { return nil }
    let (assignments, toManys) = try self.changes(changes, info)
    if !assignments.isEmpty {
      let sets = assignments.map { (column, value) -> PGSQL in "\(raw: column) = \(value)" }
      try await session.execute(
        """
        UPDATE \(raw: pgQuoted(info.table)) SET \(PGSQL.joined(sets, separator: ", ")) \
        WHERE "id" = \(id)
        """)
    }
    for (toMany, members) in toManys {
      try await replace(session, toMany, of: id, with: members)
    }
    return try await reads.resources(session, changes.type, ids: [changes.id]).first
  }

  // MARK: - Delete

  /// Clears every linkage naming the resource (to-one columns set to `NULL`, join rows removed),
  /// then deletes its row: so a schema's `ON DELETE CASCADE` never removes the resources that
  /// named it, as the store protocol asks.
  func delete(_ session: PGSession, _ type: String, id: String) async throws -> Bool {
    guard let info = catalog.tables[type], let value = PGIDs.value(id, kind: info.idKind),
      try await lock(session, info, value, forKeyUpdate: true)
    else { return false }
    for other in catalog.ordered {
      for toOne in other.toOnes where toOne.targetType == type {
        try await session.execute(
          """
          UPDATE \(raw: pgQuoted(other.table)) SET \(raw: pgQuoted(toOne.column)) = NULL \
          WHERE \(raw: pgQuoted(toOne.column)) = \(value)
          """)
      }
      for toMany in other.toManys where toMany.targetType == type {
        try await session.execute(
          "DELETE FROM \(raw: pgQuoted(toMany.table)) WHERE \"target_id\" = \(value)")
      }
    }
    for toMany in info.toManys {
      try await session.execute(
        "DELETE FROM \(raw: pgQuoted(toMany.table)) WHERE \"owner_id\" = \(value)")
    }
    let deleted = try await session.rows(
      "DELETE FROM \(raw: pgQuoted(info.table)) WHERE \"id\" = \(value) RETURNING 1")
    return !deleted.isEmpty
  }

  // MARK: - To-many members

  /// Adds the members not already present, after the others (R84).
  func add(
    _ session: PGSession, _ identifiers: [JSONAPIResourceIdentifier], to relationship: String,
    of type: String, id: String
  ) async throws -> Bool {
    let (info, toMany) = try toMany(relationship, of: type)
    guard let owner = PGIDs.value(id, kind: info.idKind),
      try await lock(session, info, owner, forKeyUpdate: false)
    else { return false }
    let members = try targets(identifiers, of: toMany)
    guard members != .texts([]), members != .integers([]) else { return true }
    // After the last member; the owner's lock keeps two adds from taking the same places.
    try await session.execute(
      """
      INSERT INTO \(raw: pgQuoted(toMany.table)) ("owner_id", "target_id", "position") \
      SELECT \(owner), m.target, \
      (SELECT coalesce(max("position") + 1, 0) FROM \(raw: pgQuoted(toMany.table)) \
      WHERE "owner_id" = \(owner)) + m.place - 1 \
      FROM unnest(\(members)) WITH ORDINALITY AS m(target, place) \
      ON CONFLICT ("owner_id", "target_id") DO NOTHING
      """)
    return true
  }

  /// Removes the members given (R85).
  func remove(
    _ session: PGSession, _ identifiers: [JSONAPIResourceIdentifier], from relationship: String,
    of type: String, id: String
  ) async throws -> Bool {
    let (info, toMany) = try toMany(relationship, of: type)
    guard let owner = PGIDs.value(id, kind: info.idKind),
      try await lock(session, info, owner, forKeyUpdate: false)
    else { return false }
    // Identifiers of another type, or ids the column cannot hold, name no member.
    let ids = identifiers.filter { $0.type == toMany.targetType }.compactMap(\.id)
    try await session.execute(
      """
      DELETE FROM \(raw: pgQuoted(toMany.table)) \
      WHERE "owner_id" = \(owner) AND "target_id" = ANY(\(PGIDs.array(ids, kind: toMany.targetIDKind)))
      """)
    return true
  }

  // MARK: - Parts

  private func table(_ type: String) throws -> PGTable {
    guard let info = catalog.tables[type] else {
      throw JSONAPIStoreError.unstorableValue(
        member: "type", reason: "no table of this store holds resources of type \(type)")
    }
    return info
  }

  /// Locks the row until the transaction ends; `false` when there is none. `FOR NO KEY UPDATE`
  /// for changes, which lets other transactions still name the row (foreign keys take a share
  /// lock); `FOR UPDATE` for a delete.
  private func lock(_ session: PGSession, _ info: PGTable, _ id: PGValue, forKeyUpdate: Bool)
    async throws -> Bool
  {
    let rows = try await session.rows(
      """
      SELECT 1 FROM \(raw: pgQuoted(info.table)) WHERE "id" = \(id) \
      \(raw: forKeyUpdate ? "FOR UPDATE" : "FOR NO KEY UPDATE")
      """)
    return !rows.isEmpty
  }

  /// The column assignments and to-many linkage that `record` holds, checked against the table.
  ///
  /// - Throws: `JSONAPIStoreError.unstorableValue` for a member without a column, a value the
  ///   column cannot keep exactly, or linkage the relationship cannot hold.
  private func changes(_ record: JSONAPIResourceRecord, _ info: PGTable) throws -> (
    [(column: String, value: PGValue)], [(PGToMany, PGValue)]
  ) {
    var assignments: [(column: String, value: PGValue)] = []
    for name in record.attributes.keys.sorted() {
      guard let attribute = info.attribute(named: name) else {
        throw JSONAPIStoreError.unstorableValue(
          member: name, reason: "\(info.type) has no column for this attribute")
      }
      do {
        assignments.append(
          (
            pgQuoted(attribute.column),
            try PGCodec.stored(record.attributes[name] ?? .null, kind: attribute.kind)
          ))
      } catch {
        throw JSONAPIStoreError.unstorableValue(member: name, reason: error.reason)
      }
    }
    var toManys: [(PGToMany, PGValue)] = []
    for name in record.relationships.keys.sorted() {
      let linkage = record.relationships[name] ?? .toOne(nil)
      if let toOne = info.toOne(named: name) {
        guard case .toOne(let identifier) = linkage else {
          throw JSONAPIStoreError.unstorableValue(
            member: name, reason: "it is a to-one relationship; its linkage names one resource")
        }
        var value = PGValue.null
        if let identifier {
          guard identifier.type == toOne.targetType, let id = identifier.id else {
            throw JSONAPIStoreError.unstorableValue(
              member: name, reason: "it names resources of type \(toOne.targetType) by id")
          }
          value = try Self.id(id, kind: toOne.targetIDKind, member: name)
        }
        assignments.append((pgQuoted(toOne.column), value))
      } else if let toMany = info.toMany(named: name) {
        guard case .toMany(let identifiers) = linkage else {
          throw JSONAPIStoreError.unstorableValue(
            member: name, reason: "it is a to-many relationship; its linkage is an array")
        }
        toManys.append((toMany, try targets(identifiers, of: toMany)))
      } else if let inverse = info.inverse(named: name) {
        throw JSONAPIStoreError.unstorableValue(
          member: name,
          reason: "it mirrors `\(inverse.column)` of \(inverse.targetType), where it is written")
      } else {
        throw JSONAPIStoreError.unstorableValue(
          member: name, reason: "\(info.type) has no relationship of this name")
      }
    }
    return (assignments, toManys)
  }

  /// The ids of `identifiers` as one array value, each once, in order.
  private func targets(_ identifiers: [JSONAPIResourceIdentifier], of toMany: PGToMany) throws
    -> PGValue
  {
    var seen: Set<[UInt8]> = []
    var ids: [String] = []
    for identifier in identifiers {
      guard identifier.type == toMany.targetType, let id = identifier.id else {
        throw JSONAPIStoreError.unstorableValue(
          member: toMany.name, reason: "it names resources of type \(toMany.targetType) by id")
      }
      _ = try Self.id(id, kind: toMany.targetIDKind, member: toMany.name)
      if seen.insert(Array(id.utf8)).inserted { ids.append(id) }
    }
    return PGIDs.array(ids, kind: toMany.targetIDKind)
  }

  /// Makes the owner's linkage exactly `members`, in order.
  private func replace(
    _ session: PGSession, _ toMany: PGToMany, of owner: PGValue, with members: PGValue
  ) async throws {
    try await session.execute(
      "DELETE FROM \(raw: pgQuoted(toMany.table)) WHERE \"owner_id\" = \(owner)")
    try await session.execute(
      """
      INSERT INTO \(raw: pgQuoted(toMany.table)) ("owner_id", "target_id", "position") \
      SELECT \(owner), m.target, m.place - 1 FROM unnest(\(members)) WITH ORDINALITY AS m(target, place)
      """)
  }

  /// The bound value of an id given in a record or linkage.
  ///
  /// - Throws: `JSONAPIStoreError.unstorableValue` when the column cannot hold it.
  private static func id(_ id: String, kind: JSONAPIPostgresStore.IDKind, member: String) throws
    -> PGValue
  {
    guard let value = PGIDs.value(id, kind: kind) else {
      let reason =
        kind == .integer
        ? "\(id.debugDescription) is not a decimal integer id (without leading zeros, in "
          + "Int64's range), which this table's integer ids must be"
        : PGCodec.noNUL
      throw JSONAPIStoreError.unstorableValue(member: member, reason: reason)
    }
    return value
  }

  private func toMany(_ relationship: String, of type: String) throws -> (PGTable, PGToMany) {
    let info = try table(type)
    guard let toMany = info.toMany(named: relationship) else {
      let reason =
        info.toOne(named: relationship) != nil
        ? "it is a to-one relationship; members are added to to-many ones"
        : info.inverse(named: relationship) != nil
          ? "it mirrors a to-one relationship of its targets, where it is written"
          : "\(type) has no to-many relationship of this name"
      throw JSONAPIStoreError.unstorableValue(member: relationship, reason: reason)
    }
    return (info, toMany)
  }
}
