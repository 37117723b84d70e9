import Foundation
import JSONAPISQLStoreKit
import JSONAPIServer
import PostgresNIO

/// The writes of the store, on the connection of the transaction the store opened: the shared
/// statements (``SQLWrites``) run through postgres-nio.
///
/// Every write first locks the row it changes (the dialect's row check, `SELECT … FOR UPDATE`),
/// so that two transactions changing one resource (from one server or from two) run one after
/// the other, and the second reads what the first committed; an `UPDATE` sets only the columns
/// the changes name, so a concurrent change to another member is never written over.
struct PGWrites: Sendable {
  let reads: PGReads
  private let sql: SQLWrites<PostgresDialect>
  var catalog: PGCatalog { reads.catalog }

  init(reads: PGReads) {
    self.reads = reads
    sql = SQLWrites(reads: reads.sql)
  }

  // MARK: - Create

  /// One `INSERT … ON CONFLICT DO NOTHING RETURNING id`: no row back is a taken id.
  func create(_ session: PGSession, _ record: JSONAPIResourceRecord) async throws
    -> JSONAPIResourceRecord
  {
    let info = try catalog.table(record.type)
    var given: PGValue?
    if record.id.isEmpty {
      if info.idKind == .text { given = .text(UUID().uuidString.lowercased()) }
    } else {
      given = try PGTable.checked(record.id, info.idKind, member: "id", PGIDs.value)
    }
    let changes = try sql.changes(record, info, null: .null, value: PGCodec.stored)
    let inserted = try await session.rows(sql.insert(info, id: given, changes.assignments))
    guard let stored = try inserted.first?.first?.decode(String.self) else {
      throw JSONAPIStoreError.alreadyExists(type: record.type, id: record.id)
    }
    if case .integer(let number) = given {
      // Ids the table makes must pass a given one: move its sequence on, never back.
      try await session.execute(
        """
        SELECT setval(sequence, \(PGValue.integer(number))) \
        FROM (SELECT pg_get_serial_sequence(\(PGValue.text(sqlQuoted(info.table))), \
        \(PGValue.text(info.idColumn)))::regclass AS sequence) AS s \
        WHERE \(PGValue.integer(number)) > coalesce(pg_sequence_last_value(sequence), 0)
        """)
    }
    let owner = try PGTable.checked(stored, info.idKind, member: "id", PGIDs.value)
    for (toMany, members) in changes.toManys {
      try await run(sql.replace(toMany, of: owner, with: members), session)
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
      try await locked(session, info, id, forDelete: false)
    else { return nil }
    let changed = try sql.changes(changes, info, null: .null, value: PGCodec.stored)
    if let update = sql.update(info, id: id, changed.assignments) {
      try await session.execute(update)
    }
    for (toMany, members) in changed.toManys {
      try await run(sql.replace(toMany, of: id, with: members), session)
    }
    return try await reads.resources(session, changes.type, ids: [changes.id]).first
  }

  // MARK: - Delete

  func delete(_ session: PGSession, _ type: String, id: String) async throws -> Bool {
    guard let info = catalog.tables[type], let value = PGIDs.value(id, kind: info.idKind),
      try await locked(session, info, value, forDelete: true)
    else { return false }
    var statements = sql.delete(info, id: value)
    // The last statement deletes the row itself, `RETURNING 1`.
    guard let row = statements.popLast() else { return false }
    try await run(statements, session)
    return !(try await session.rows(row)).isEmpty
  }

  /// Deletes the resources `ids`: the statements of each chunk of ids, the last `RETURNING 1`
  /// for each row it deleted; how many there were.
  func delete(_ session: PGSession, _ type: String, ids: [String]) async throws -> Int {
    guard let info = catalog.tables[type] else { return 0 }
    var count = 0
    for var statements in sql.delete(info, ids: ids) {
      guard let rows = statements.popLast() else { continue }
      try await run(statements, session)
      count += try await session.rows(rows).count
    }
    return count
  }

  /// Sets a to-one of many rows in one `UPDATE … RETURNING 1`; how many rows there were.
  func setToOne(
    _ session: PGSession, _ relationship: String, of type: String, ids: [String],
    to target: JSONAPIResourceIdentifier?
  ) async throws -> Int {
    let info = try catalog.table(type)
    guard let toOne = info.toOne(named: relationship),
      target.map({ $0.type == toOne.targetType }) ?? true
    else {
      throw JSONAPIStoreError.unstorableValue(
        member: relationship, reason: "it is not a to-one relationship of \(type) to that type")
    }
    var count = 0
    for statement in try sql.setToOne(toOne, of: info, ids: ids, to: target?.id, null: .null) {
      count += try await session.rows(statement).count
    }
    return count
  }

  // MARK: - To-many members

  /// Adds the members not already present, after the others (R84), in one statement.
  func add(
    _ session: PGSession, _ identifiers: [JSONAPIResourceIdentifier], to relationship: String,
    of type: String, id: String
  ) async throws -> Bool {
    let (info, toMany) = try catalog.toMany(relationship, of: type)
    guard let owner = PGIDs.value(id, kind: info.idKind),
      try await locked(session, info, owner, forDelete: false)
    else { return false }
    let ids = try info.targets(identifiers, of: toMany, PGIDs.value)
    guard !ids.isEmpty else { return true }
    let join = toMany.join
    let ownerColumn = sqlQuoted(join.ownerColumn)
    let targetColumn = sqlQuoted(join.targetColumn)
    // After the last member; the owner's lock keeps two adds from taking the same places.
    let (columns, place): (String, PGSQL) =
      if let position = join.positionColumn.map(sqlQuoted) {
        (
          "\(ownerColumn), \(targetColumn), \(position)",
          """
          , (SELECT coalesce(max(\(raw: position)) + 1, 0) FROM \(raw: sqlQuoted(join.name)) \
          WHERE \(raw: ownerColumn) = \(owner)) + m.place - 1
          """
        )
      } else {
        ("\(ownerColumn), \(targetColumn)", "")
      }
    try await session.execute(
      """
      INSERT INTO \(raw: sqlQuoted(join.name)) (\(raw: columns)) \
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
      try await locked(session, info, owner, forDelete: false)
    else { return false }
    // Identifiers of another type name no member.
    let ids = identifiers.filter { $0.type == toMany.targetType }.compactMap(\.id)
    try await run(sql.remove(ids, from: toMany, of: owner), session)
    return true
  }

  // MARK: - Parts

  /// Locks the row until the transaction ends (the dialect's row check); `false` when there is
  /// none.
  private func locked(_ session: PGSession, _ info: PGTable, _ id: PGValue, forDelete: Bool)
    async throws -> Bool
  {
    !(try await session.rows(sql.rowCheck(info, id, forDelete: forDelete))).isEmpty
  }

  private func run(_ statements: [PGSQL], _ session: PGSession) async throws {
    for statement in statements { try await session.execute(statement) }
  }
}

// The bulk writes, on the transaction's session.
extension PGTransaction {
  func delete(_ type: String, ids: [String]) async throws -> Int {
    try await guarded { try await writes.delete($0, type, ids: ids) }
  }

  func setToOne(
    _ relationship: String, of type: String, ids: [String], to target: JSONAPIResourceIdentifier?
  ) async throws -> Int {
    try await guarded {
      try await writes.setToOne($0, relationship, of: type, ids: ids, to: target)
    }
  }
}
