import Foundation
import GRDB
import JSONAPISQLStoreKit
import JSONAPIServer

/// The writes of the store on the writer connection, inside the transaction the store opened:
/// the shared statements (``SQLWrites``) run through GRDB. No row locks: writes run one at a
/// time (the store's gate and `BEGIN IMMEDIATE`), so a row check is enough.
struct SQLiteWrites: Sendable {
  let reads: SQLiteReads
  /// The statements (a view of the reads' catalog and dialect: nothing to keep).
  private var sql: SQLWrites<SQLiteDialect> { SQLWrites(reads: reads.sql) }
  private var catalog: SQLiteCatalog { reads.catalog }

  // MARK: - Create

  /// A given id is checked first, so that a taken one is `alreadyExists` rather than a
  /// constraint error; a made one is the connection's last inserted rowid.
  func create(_ db: Database, _ record: JSONAPIResourceRecord) throws -> JSONAPIResourceRecord {
    let info = try catalog.table(record.type)
    var id: SQLiteValue?
    if record.id.isEmpty {
      if info.idKind == .text { id = .text(UUID().uuidString.lowercased()) }
    } else {
      let given = try SQLiteTableInfo.checked(record.id, info.idKind, member: "id", SQLiteIDs.value)
      if try exists(db, info, given) {
        throw JSONAPIStoreError.alreadyExists(type: record.type, id: record.id)
      }
      id = given
    }
    let changes = try sql.changes(record, info, null: .null, value: SQLiteCodec.stored)
    try execute(db, sql.insert(info, id: id, changes.assignments))
    let stored = id ?? .integer(db.lastInsertedRowID)
    for (toMany, members) in changes.toManys {
      for statement in sql.replace(toMany, of: stored, with: members) { try execute(db, statement) }
    }
    guard let storedID = SQLiteIDs.decode(stored.argument),
      let created = try reads.resources(db, record.type, ids: [storedID]).first
    else {
      throw JSONAPISQLiteStoreError(reason: "\(record.type): the created row cannot be read back")
    }
    return created
  }

  // MARK: - Update

  func update(_ db: Database, _ changes: JSONAPIResourceRecord) throws -> JSONAPIResourceRecord? {
    let info = try catalog.table(changes.type)
    guard let id = SQLiteIDs.value(changes.id, kind: info.idKind) else { return nil }
    let changed = try sql.changes(changes, info, null: .null, value: SQLiteCodec.stored)
    if let update = sql.update(info, id: id, changed.assignments) {
      try execute(db, update)
      guard db.changesCount > 0 else { return nil }
    } else {
      guard try exists(db, info, id) else { return nil }
    }
    for (toMany, members) in changed.toManys {
      for statement in sql.replace(toMany, of: id, with: members) { try execute(db, statement) }
    }
    return try reads.resources(db, changes.type, ids: [changes.id]).first
  }

  // MARK: - Delete

  func delete(_ db: Database, _ type: String, id: String) throws -> Bool {
    guard let info = catalog.tables[type], let value = SQLiteIDs.value(id, kind: info.idKind),
      try exists(db, info, value)
    else { return false }
    for statement in sql.delete(info, id: value) { try execute(db, statement) }
    // The last statement deletes the row itself.
    return db.changesCount > 0
  }

  /// Deletes the resources `ids` in a few statements per chunk of ids; how many there were.
  func delete(_ db: Database, _ type: String, ids: [String]) throws -> Int {
    guard let info = catalog.tables[type] else { return 0 }
    var count = 0
    for chunk in sql.delete(info, ids: ids) {
      for statement in chunk { try execute(db, statement) }
      // The last statement deletes the rows themselves.
      count += db.changesCount
    }
    return count
  }

  /// Sets a to-one of many rows, one `UPDATE` per chunk of ids; how many rows there were.
  func setToOne(
    _ db: Database, _ relationship: String, of type: String, ids: [String],
    to target: JSONAPIResourceIdentifier?
  ) throws -> Int {
    let info = try catalog.table(type)
    guard let toOne = info.toOne(named: relationship),
      target.map({ $0.type == toOne.targetType }) ?? true
    else {
      throw JSONAPIStoreError.unstorableValue(
        member: relationship, reason: "it is not a to-one relationship of \(type) to that type")
    }
    var count = 0
    for statement in try sql.setToOne(toOne, of: info, ids: ids, to: target?.id, null: .null) {
      try execute(db, statement)
      count += db.changesCount
    }
    return count
  }

  // MARK: - To-many members

  /// Adds the members not already present, after the others (R84): the next places read first,
  /// then rows chosen by a `SELECT` over `VALUES` that skips members already present.
  func add(
    _ db: Database, _ identifiers: [JSONAPIResourceIdentifier], to relationship: String,
    of type: String, id: String
  ) throws -> Bool {
    let (info, toMany) = try catalog.toMany(relationship, of: type)
    guard let owner = SQLiteIDs.value(id, kind: info.idKind), try exists(db, info, owner) else {
      return false
    }
    let members = try info.targets(identifiers, of: toMany, SQLiteIDs.value).compactMap {
      SQLiteIDs.value($0, kind: toMany.targetIDKind)
    }
    guard !members.isEmpty else { return true }
    let join = toMany.join
    let ownerColumn = sqlQuoted(join.ownerColumn)
    let targetColumn = sqlQuoted(join.targetColumn)
    var next: Int64 = 0
    if let position = join.positionColumn {
      let last = SQL(
        """
        SELECT max(\(raw: sqlQuoted(position))) FROM \(raw: sqlQuoted(join.name)) \
        WHERE \(raw: ownerColumn) = \(owner)
        """)
      if let current = try Int64.fetchOne(db, sql: last.text, arguments: last.statementArguments) {
        next = try Self.following(current)
      }
    }
    let width = join.positionColumn == nil ? 2 : 3
    let perStatement = max(sqliteChunkSize / width, 1)
    for start in stride(from: 0, to: members.count, by: perStatement) {
      var rows: [SQLiteSQL] = []
      for member in members[start..<min(start + perStatement, members.count)] {
        var row: [SQLiteSQL] = ["\(owner)", "\(member)"]
        if join.positionColumn != nil {
          row.append("\(SQLiteValue.integer(next))")
          next = try Self.following(next)
        }
        rows.append("(\(SQLiteSQL.joined(row, separator: ", ")))")
      }
      let values = sqlQuoted("_v")
      var columns = [ownerColumn, targetColumn]
      if let position = join.positionColumn { columns.append(sqlQuoted(position)) }
      let selected = (1...width).map { "\(values).column\($0)" }
      let present = sqlQuoted("_e")
      try execute(
        db,
        """
        INSERT INTO \(raw: sqlQuoted(join.name)) (\(raw: columns.joined(separator: ", "))) \
        SELECT \(raw: selected.joined(separator: ", ")) \
        FROM (VALUES \(SQLiteSQL.joined(rows, separator: ", "))) AS \(raw: values) \
        WHERE NOT EXISTS (SELECT 1 FROM \(raw: sqlQuoted(join.name)) AS \(raw: present) \
        WHERE \(raw: present).\(raw: ownerColumn) = \(raw: values).column1 \
        AND \(raw: present).\(raw: targetColumn) = \(raw: values).column2)
        """)
    }
    return true
  }

  /// Removes the members given (R85).
  func remove(
    _ db: Database, _ identifiers: [JSONAPIResourceIdentifier], from relationship: String,
    of type: String, id: String
  ) throws -> Bool {
    let (info, toMany) = try catalog.toMany(relationship, of: type)
    guard let owner = SQLiteIDs.value(id, kind: info.idKind), try exists(db, info, owner) else {
      return false
    }
    // Identifiers of another type name no member: nothing to do.
    let ids = identifiers.filter { $0.type == toMany.targetType }.compactMap(\.id)
    for statement in sql.remove(ids, from: toMany, of: owner) { try execute(db, statement) }
    return true
  }

  // MARK: - Parts

  private func exists(_ db: Database, _ info: SQLiteTableInfo, _ id: SQLiteValue) throws -> Bool {
    let query = SQL(sql.rowCheck(info, id))
    return try Row.fetchOne(db, sql: query.text, arguments: query.statementArguments) != nil
  }

  private func execute(_ db: Database, _ fragment: SQLiteSQL) throws {
    let statement = SQL(fragment)
    try db.execute(sql: statement.text, arguments: statement.statementArguments)
  }

  private static func following(_ position: Int64) throws -> Int64 {
    let (next, overflow) = position.addingReportingOverflow(1)
    if overflow {
      throw JSONAPIStoreError.unstorableValue(
        member: "position", reason: "the relationship has no place left for new members")
    }
    return next
  }
}

// The bulk writes, on the writer connection inside the open transaction.
extension SQLiteTransaction {
  func delete(_ type: String, ids: [String]) async throws -> Int {
    let writes = self.writes
    return try await run { db in try writes.delete(db, type, ids: ids) }
  }

  func setToOne(
    _ relationship: String, of type: String, ids: [String], to target: JSONAPIResourceIdentifier?
  ) async throws -> Int {
    let writes = self.writes
    return try await run { db in
      try writes.setToOne(db, relationship, of: type, ids: ids, to: target)
    }
  }
}
