import Foundation
import GRDB
import JSONAPIServer
import JSONAPISQLStoreKit

/// The writes of the store on the writer connection, inside the transaction the store opened.
struct SQLiteWrites: Sendable {
  let reads: SQLiteReads
  var catalog: SQLiteCatalog { reads.catalog }

  // MARK: - Create

  func create(_ db: Database, _ record: JSONAPIResourceRecord) throws -> JSONAPIResourceRecord {
    let info = try catalog.table(record.type)
    var columns: [String] = []
    var values: [SQL] = []
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
    if let id {
      columns.append(quoted(info.idColumn))
      values.append(id.sql)
    }
    let changes = try self.changes(record, info)
    for (column, value) in changes.assignments {
      columns.append(quoted(column))
      values.append(value.sql)
    }
    let insert: SQL =
      columns.isEmpty
      ? "INSERT INTO \(raw: quoted(info.table)) DEFAULT VALUES"
      : """
      INSERT INTO \(raw: quoted(info.table)) (\(raw: columns.joined(separator: ", "))) \
      VALUES (\(SQL.joined(values, separator: ", ")))
      """
    try db.execute(sql: insert.text, arguments: insert.statementArguments)
    let stored = id ?? .integer(db.lastInsertedRowID)
    for (toMany, members) in changes.toManys {
      try replace(db, toMany, of: stored, with: members)
    }
    guard let storedID = SQLiteIDs.decode(stored.sql.arguments.first ?? .null),
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
    let (assignments, toManys) = try self.changes(changes, info)
    if assignments.isEmpty {
      guard try exists(db, info, id) else { return nil }
    } else {
      let sets = assignments.map { (column, value) -> SQL in "\(raw: quoted(column)) = \(value)" }
      let update: SQL = """
        UPDATE \(raw: quoted(info.table)) SET \(SQL.joined(sets, separator: ", ")) \
        WHERE \(raw: quoted(info.idColumn)) = \(id)
        """
      try db.execute(sql: update.text, arguments: update.statementArguments)
      guard db.changesCount > 0 else { return nil }
    }
    for (toMany, members) in toManys {
      try replace(db, toMany, of: id, with: members)
    }
    return try reads.resources(db, changes.type, ids: [changes.id]).first
  }

  // MARK: - Delete

  /// Clears every linkage naming the resource (to-one columns set to `NULL`, join rows removed),
  /// then deletes its row: so a schema's `ON DELETE CASCADE` never removes the resources that
  /// named it, as the store protocol asks.
  func delete(_ db: Database, _ type: String, id: String) throws -> Bool {
    guard let info = catalog.tables[type], let value = SQLiteIDs.value(id, kind: info.idKind),
      try exists(db, info, value)
    else { return false }
    for other in catalog.ordered {
      for toOne in other.toOnes where toOne.targetType == type {
        try execute(
          db,
          """
          UPDATE \(raw: quoted(other.table)) SET \(raw: quoted(toOne.column)) = NULL \
          WHERE \(raw: quoted(toOne.column)) = \(value)
          """)
      }
      for toMany in other.toManys where toMany.targetType == type {
        try execute(
          db,
          """
          DELETE FROM \(raw: quoted(toMany.join.name)) \
          WHERE \(raw: quoted(toMany.join.targetColumn)) = \(value)
          """)
      }
    }
    for toMany in info.toManys {
      try execute(
        db,
        """
        DELETE FROM \(raw: quoted(toMany.join.name)) \
        WHERE \(raw: quoted(toMany.join.ownerColumn)) = \(value)
        """)
    }
    try execute(
      db, "DELETE FROM \(raw: quoted(info.table)) WHERE \(raw: quoted(info.idColumn)) = \(value)")
    return db.changesCount > 0
  }

  // MARK: - To-many members

  /// Adds the members not already present, after the others (R84).
  func add(
    _ db: Database, _ identifiers: [JSONAPIResourceIdentifier], to relationship: String,
    of type: String, id: String
  ) throws -> Bool {
    let (info, toMany) = try catalog.toMany(relationship, of: type)
    guard let owner = SQLiteIDs.value(id, kind: info.idKind), try exists(db, info, owner) else {
      return false
    }
    let members = try targets(identifiers, of: toMany, info)
    guard !members.isEmpty else { return true }
    let join = toMany.join
    let ownerColumn = quoted(join.ownerColumn)
    let targetColumn = quoted(join.targetColumn)
    var next: Int64 = 0
    if let position = join.positionColumn {
      let last: SQL = """
        SELECT max(\(raw: quoted(position))) FROM \(raw: quoted(join.name)) \
        WHERE \(raw: ownerColumn) = \(owner)
        """
      if let current = try Int64.fetchOne(db, sql: last.text, arguments: last.statementArguments) {
        next = try Self.following(current)
      }
    }
    // Rows are chosen by a SELECT over VALUES that skips members already present.
    let width = join.positionColumn == nil ? 2 : 3
    let chunks = stride(from: 0, to: members.count, by: max(sqliteChunkSize / width, 1))
    for start in chunks {
      let end = min(start + sqliteChunkSize / width, members.count)
      var rows: [SQL] = []
      for member in members[start..<end] {
        var row: [SQL] = [owner.sql, member.sql]
        if join.positionColumn != nil {
          row.append("\(SQLiteValue.integer(next))")
          next = try Self.following(next)
        }
        rows.append("(\(SQL.joined(row, separator: ", ")))")
      }
      let values = quoted("_v")
      var columns = [ownerColumn, targetColumn]
      if let position = join.positionColumn { columns.append(quoted(position)) }
      let selected = (1...width).map { "\(values).column\($0)" }
      let present = quoted("_e")
      let insert: SQL = """
        INSERT INTO \(raw: quoted(join.name)) (\(raw: columns.joined(separator: ", "))) \
        SELECT \(raw: selected.joined(separator: ", ")) \
        FROM (VALUES \(SQL.joined(rows, separator: ", "))) AS \(raw: values) \
        WHERE NOT EXISTS (SELECT 1 FROM \(raw: quoted(join.name)) AS \(raw: present) \
        WHERE \(raw: present).\(raw: ownerColumn) = \(raw: values).column1 \
        AND \(raw: present).\(raw: targetColumn) = \(raw: values).column2)
        """
      try db.execute(sql: insert.text, arguments: insert.statementArguments)
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
    // Identifiers of another type, or ids the column cannot hold, name no member: nothing to do.
    let members = identifiers.filter { $0.type == toMany.targetType }.compactMap { identifier in
      identifier.id.flatMap { SQLiteIDs.value($0, kind: toMany.targetIDKind) }
    }
    var start = 0
    while start < members.count {
      let end = min(start + sqliteChunkSize, members.count)
      try execute(
        db,
        """
        DELETE FROM \(raw: quoted(toMany.join.name)) \
        WHERE \(raw: quoted(toMany.join.ownerColumn)) = \(owner) \
        AND \(sqlIn(quoted(toMany.join.targetColumn), Array(members[start..<end])))
        """)
      start = end
    }
    return true
  }

  // MARK: - Parts

  private func exists(_ db: Database, _ info: SQLiteTableInfo, _ id: SQLiteValue) throws -> Bool {
    let query: SQL = """
      SELECT 1 FROM \(raw: quoted(info.table)) WHERE \(raw: quoted(info.idColumn)) = \(id) LIMIT 1
      """
    return try Row.fetchOne(db, sql: query.text, arguments: query.statementArguments) != nil
  }

  private func execute(_ db: Database, _ statement: SQL) throws {
    try db.execute(sql: statement.text, arguments: statement.statementArguments)
  }

  /// The column values and to-many linkage that `record` holds, checked against the table (the
  /// SQL stores' shared rules), as SQLite values.
  ///
  /// - Throws: `JSONAPIStoreError.unstorableValue` for a member without a column, a value the
  ///   column cannot keep exactly, or linkage the relationship cannot hold.
  private func changes(_ record: JSONAPIResourceRecord, _ info: SQLiteTableInfo) throws
    -> (
      assignments: [(column: String, value: SQLiteValue)], toManys: [(SQLiteToMany, [SQLiteValue])]
    )
  {
    let changes = try info.changes(
      record, null: SQLiteValue.null, value: SQLiteCodec.stored, id: SQLiteIDs.value)
    return (
      changes.assignments,
      changes.toManys.map { toMany, ids in
        (toMany, ids.compactMap { SQLiteIDs.value($0, kind: toMany.targetIDKind) })
      }
    )
  }

  /// The ids of `identifiers` in the join table's target column, each once, in order.
  private func targets(
    _ identifiers: [JSONAPIResourceIdentifier], of toMany: SQLiteToMany, _ info: SQLiteTableInfo
  ) throws -> [SQLiteValue] {
    try info.targets(identifiers, of: toMany, SQLiteIDs.value).compactMap {
      SQLiteIDs.value($0, kind: toMany.targetIDKind)
    }
  }

  /// Makes the owner's linkage exactly `members`, in order.
  private func replace(
    _ db: Database, _ toMany: SQLiteToMany, of owner: SQLiteValue, with members: [SQLiteValue]
  ) throws {
    let join = toMany.join
    try execute(
      db, "DELETE FROM \(raw: quoted(join.name)) WHERE \(raw: quoted(join.ownerColumn)) = \(owner)")
    var columns = [quoted(join.ownerColumn), quoted(join.targetColumn)]
    if let position = join.positionColumn { columns.append(quoted(position)) }
    let rowsPerStatement = max(sqliteChunkSize / columns.count, 1)
    var start = 0
    while start < members.count {
      let end = min(start + rowsPerStatement, members.count)
      var rows: [SQL] = []
      for index in start..<end {
        var row = [owner.sql, members[index].sql]
        if join.positionColumn != nil { row.append("\(SQLiteValue.integer(Int64(index)))") }
        rows.append("(\(SQL.joined(row, separator: ", ")))")
      }
      try execute(
        db,
        """
        INSERT INTO \(raw: quoted(join.name)) (\(raw: columns.joined(separator: ", "))) \
        VALUES \(SQL.joined(rows, separator: ", "))
        """)
      start = end
    }
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
