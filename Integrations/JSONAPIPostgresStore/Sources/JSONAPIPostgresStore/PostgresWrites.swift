import Foundation
import JSONAPIServer
import JSONAPISQLStoreKit
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
    let info = try catalog.table(record.type)
    let id = pgQuoted(info.idColumn)
    var columns: [String] = []
    var values: [PGSQL] = []
    var given: PGValue?
    if record.id.isEmpty {
      if info.idKind == .text { given = .text(UUID().uuidString.lowercased()) }
    } else {
      given = try PGTable.checked(record.id, info.idKind, member: "id", PGIDs.value)
    }
    if let given {
      columns.append(id)
      values.append("\(given)")
    }
    let (assignments, toManys) = try changes(record, info)
    for (column, value) in assignments {
      columns.append(pgQuoted(column))
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
    let conflict: PGSQL = given == nil ? "" : " ON CONFLICT (\(raw: id)) DO NOTHING"
    let inserted = try await session.rows(insert + conflict + " RETURNING \(raw: id)::text")
    guard let stored = try inserted.first?.first?.decode(String.self) else {
      throw JSONAPIStoreError.alreadyExists(type: record.type, id: record.id)
    }
    if case .integer(let number) = given {
      // Ids the table makes must pass a given one: move its sequence on, never back.
      try await session.execute(
        """
        SELECT setval(sequence, \(PGValue.integer(number))) \
        FROM (SELECT pg_get_serial_sequence(\(PGValue.text(pgQuoted(info.table))), \
        \(PGValue.text(info.idColumn)))::regclass AS sequence) AS s \
        WHERE \(PGValue.integer(number)) > coalesce(pg_sequence_last_value(sequence), 0)
        """)
    }
    let owner = try PGTable.checked(stored, info.idKind, member: "id", PGIDs.value)
    for (toMany, members) in toManys {
      try await replace(session, toMany, of: owner, with: members)
    }
    guard let created = try await reads.resources(session, record.type, ids: [stored]).first
    else {
      throw JSONAPIPostgresStoreError(reason: "\(record.type): the created row cannot be read back")
    }
    return created
  }

  // MARK: - Update

  func update(_ session: PGSession, _ changes: JSONAPIResourceRecord) async throws
    -> JSONAPIResourceRecord?
  {
    let info = try catalog.table(changes.type)
    guard let id = PGIDs.value(changes.id, kind: info.idKind),
      try await lock(session, info, id, forKeyUpdate: false)
    else { return nil }
    let (assignments, toManys) = try self.changes(changes, info)
    if !assignments.isEmpty {
      let sets = assignments.map { (column, value) -> PGSQL in
        "\(raw: pgQuoted(column)) = \(value)"
      }
      try await session.execute(
        """
        UPDATE \(raw: pgQuoted(info.table)) SET \(PGSQL.joined(sets, separator: ", ")) \
        WHERE \(raw: pgQuoted(info.idColumn)) = \(id)
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
        let join = toMany.join
        try await session.execute(
          """
          DELETE FROM \(raw: pgQuoted(join.name)) \
          WHERE \(raw: pgQuoted(join.targetColumn)) = \(value)
          """)
      }
    }
    for toMany in info.toManys {
      let join = toMany.join
      try await session.execute(
        "DELETE FROM \(raw: pgQuoted(join.name)) WHERE \(raw: pgQuoted(join.ownerColumn)) = \(value)"
      )
    }
    let deleted = try await session.rows(
      """
      DELETE FROM \(raw: pgQuoted(info.table)) WHERE \(raw: pgQuoted(info.idColumn)) = \(value) \
      RETURNING 1
      """)
    return !deleted.isEmpty
  }

  // MARK: - To-many members

  /// Adds the members not already present, after the others (R84).
  func add(
    _ session: PGSession, _ identifiers: [JSONAPIResourceIdentifier], to relationship: String,
    of type: String, id: String
  ) async throws -> Bool {
    let (info, toMany) = try catalog.toMany(relationship, of: type)
    guard let owner = PGIDs.value(id, kind: info.idKind),
      try await lock(session, info, owner, forKeyUpdate: false)
    else { return false }
    let ids = try info.targets(identifiers, of: toMany, PGIDs.value)
    guard !ids.isEmpty else { return true }
    let join = toMany.join
    let ownerColumn = pgQuoted(join.ownerColumn)
    let targetColumn = pgQuoted(join.targetColumn)
    // After the last member; the owner's lock keeps two adds from taking the same places.
    let (columns, place): (String, PGSQL) =
      if let position = join.positionColumn.map(pgQuoted) {
        (
          "\(ownerColumn), \(targetColumn), \(position)",
          """
          , (SELECT coalesce(max(\(raw: position)) + 1, 0) FROM \(raw: pgQuoted(join.name)) \
          WHERE \(raw: ownerColumn) = \(owner)) + m.place - 1
          """
        )
      } else {
        ("\(ownerColumn), \(targetColumn)", "")
      }
    try await session.execute(
      """
      INSERT INTO \(raw: pgQuoted(join.name)) (\(raw: columns)) \
      SELECT \(owner), m.target\(place) \
      FROM unnest(\(PGIDs.array(ids, kind: toMany.targetIDKind))) WITH ORDINALITY AS m(target, place) \
      ON CONFLICT (\(raw: ownerColumn), \(raw: targetColumn)) DO NOTHING
      """)
    return true
  }

  /// Removes the members given (R85).
  func remove(
    _ session: PGSession, _ identifiers: [JSONAPIResourceIdentifier], from relationship: String,
    of type: String, id: String
  ) async throws -> Bool {
    let (info, toMany) = try catalog.toMany(relationship, of: type)
    guard let owner = PGIDs.value(id, kind: info.idKind),
      try await lock(session, info, owner, forKeyUpdate: false)
    else { return false }
    // Identifiers of another type, or ids the column cannot hold, name no member.
    let ids = identifiers.filter { $0.type == toMany.targetType }.compactMap(\.id)
    let join = toMany.join
    try await session.execute(
      """
      DELETE FROM \(raw: pgQuoted(join.name)) WHERE \(raw: pgQuoted(join.ownerColumn)) = \(owner) \
      AND \(raw: pgQuoted(join.targetColumn)) = ANY(\(PGIDs.array(ids, kind: toMany.targetIDKind)))
      """)
    return true
  }

  // MARK: - Parts

  /// Locks the row until the transaction ends; `false` when there is none. `FOR NO KEY UPDATE`
  /// for changes, which lets other transactions still name the row (foreign keys take a share
  /// lock); `FOR UPDATE` for a delete.
  private func lock(_ session: PGSession, _ info: PGTable, _ id: PGValue, forKeyUpdate: Bool)
    async throws -> Bool
  {
    let rows = try await session.rows(
      """
      SELECT 1 FROM \(raw: pgQuoted(info.table)) WHERE \(raw: pgQuoted(info.idColumn)) = \(id) \
      \(raw: forKeyUpdate ? "FOR UPDATE" : "FOR NO KEY UPDATE")
      """)
    return !rows.isEmpty
  }

  /// The column values and to-many linkage that `record` holds, checked against the table (the
  /// SQL stores' shared rules): to-many linkage as one array of ids.
  ///
  /// - Throws: `JSONAPIStoreError.unstorableValue` for a member without a column, a value the
  ///   column cannot keep exactly, or linkage the relationship cannot hold.
  private func changes(_ record: JSONAPIResourceRecord, _ info: PGTable) throws
    -> (assignments: [(column: String, value: PGValue)], toManys: [(PGToMany, PGValue)])
  {
    let changes = try info.changes(
      record, null: PGValue.null, value: PGCodec.stored, id: PGIDs.value)
    return (
      changes.assignments,
      changes.toManys.map { toMany, ids in (toMany, PGIDs.array(ids, kind: toMany.targetIDKind)) }
    )
  }

  /// Makes the owner's linkage exactly `members`, in order.
  private func replace(
    _ session: PGSession, _ toMany: PGToMany, of owner: PGValue, with members: PGValue
  ) async throws {
    let join = toMany.join
    let ownerColumn = pgQuoted(join.ownerColumn)
    try await session.execute(
      "DELETE FROM \(raw: pgQuoted(join.name)) WHERE \(raw: ownerColumn) = \(owner)")
    let position = join.positionColumn.map { ", " + pgQuoted($0) } ?? ""
    try await session.execute(
      """
      INSERT INTO \(raw: pgQuoted(join.name)) \
      (\(raw: ownerColumn), \(raw: pgQuoted(join.targetColumn))\(raw: position)) \
      SELECT \(owner), m.target\(raw: position.isEmpty ? "" : ", m.place - 1") \
      FROM unnest(\(members)) WITH ORDINALITY AS m(target, place)
      """)
  }
}
