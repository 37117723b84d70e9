import Foundation
import GRDB
import JSONAPICodable

/// The writes of the store on the writer connection, inside the transaction the store opened.
struct SQLiteWrites: Sendable {
  let reads: SQLiteReads
  var catalog: SQLiteCatalog { reads.catalog }

  // MARK: - Create

  func create(_ db: Database, _ record: JSONAPIResourceRecord) throws -> JSONAPIResourceRecord {
    let info = try table(record.type)
    var columns: [String] = []
    var values: [SQL] = []
    var id: SQLiteValue?
    if record.id.isEmpty {
      if info.idKind == .text { id = .text(UUID().uuidString.lowercased()) }
    } else {
      let given = try Self.id(record.id, kind: info.idKind, member: "id")
      if try exists(db, info, given) {
        throw JSONAPIStoreError.alreadyExists(type: record.type, id: record.id)
      }
      id = given
    }
    if let id {
      columns.append(quoted(info.idColumn))
      values.append(id.sql)
    }
    let (assignments, toManys) = try changes(record, info)
    for (column, value) in assignments {
      columns.append(column)
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
    for (toMany, members) in toManys {
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
    let info = try table(changes.type)
    guard let id = SQLiteIDs.value(changes.id, kind: info.idKind) else { return nil }
    let (assignments, toManys) = try self.changes(changes, info)
    if assignments.isEmpty {
      guard try exists(db, info, id) else { return nil }
    } else {
      let sets = assignments.map { (column, value) -> SQL in "\(raw: column) = \(value)" }
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
    let (info, toMany) = try toMany(relationship, of: type)
    guard let owner = SQLiteIDs.value(id, kind: info.idKind), try exists(db, info, owner) else {
      return false
    }
    let members = try targets(identifiers, of: toMany)
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
    let (info, toMany) = try toMany(relationship, of: type)
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

  private func table(_ type: String) throws -> SQLiteTableInfo {
    guard let info = catalog.tables[type] else {
      throw JSONAPIStoreError.unstorableValue(
        member: "type", reason: "no table of this store holds resources of type \(type)")
    }
    return info
  }

  private func exists(_ db: Database, _ info: SQLiteTableInfo, _ id: SQLiteValue) throws -> Bool {
    let query: SQL = """
      SELECT 1 FROM \(raw: quoted(info.table)) WHERE \(raw: quoted(info.idColumn)) = \(id) LIMIT 1
      """
    return try Row.fetchOne(db, sql: query.text, arguments: query.statementArguments) != nil
  }

  private func execute(_ db: Database, _ statement: SQL) throws {
    try db.execute(sql: statement.text, arguments: statement.statementArguments)
  }

  /// The column assignments and to-many linkage that `record` holds, checked against the table.
  ///
  /// - Throws: `JSONAPIStoreError.unstorableValue` for a member without a column, a value the
  ///   column cannot keep exactly, or linkage the relationship cannot hold.
  private func changes(_ record: JSONAPIResourceRecord, _ info: SQLiteTableInfo) throws -> (
    [(column: String, value: SQLiteValue)], [(SQLiteToMany, [SQLiteValue])]
  ) {
    var assignments: [(column: String, value: SQLiteValue)] = []
    for name in record.attributes.keys.sorted() {
      guard let attribute = info.attribute(named: name) else {
        throw JSONAPIStoreError.unstorableValue(
          member: name, reason: "\(info.type) has no column for this attribute")
      }
      do {
        assignments.append(
          (
            quoted(attribute.column),
            try SQLiteCodec.stored(record.attributes[name] ?? .null, kind: attribute.kind)
          ))
      } catch {
        throw JSONAPIStoreError.unstorableValue(member: name, reason: error.reason)
      }
    }
    var toManys: [(SQLiteToMany, [SQLiteValue])] = []
    for name in record.relationships.keys.sorted() {
      let linkage = record.relationships[name] ?? .toOne(nil)
      if let toOne = info.toOne(named: name) {
        guard case .toOne(let identifier) = linkage else {
          throw JSONAPIStoreError.unstorableValue(
            member: name, reason: "it is a to-one relationship; its linkage names one resource")
        }
        var value = SQLiteValue.null
        if let identifier {
          guard identifier.type == toOne.targetType, let id = identifier.id else {
            throw JSONAPIStoreError.unstorableValue(
              member: name, reason: "it names resources of type \(toOne.targetType) by id")
          }
          value = try Self.id(id, kind: toOne.targetIDKind, member: name)
        }
        assignments.append((quoted(toOne.column), value))
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

  /// The ids of `identifiers` in the join table's target column, each once, in order.
  private func targets(_ identifiers: [JSONAPIResourceIdentifier], of toMany: SQLiteToMany)
    throws -> [SQLiteValue]
  {
    var seen: Set<[UInt8]> = []
    var values: [SQLiteValue] = []
    for identifier in identifiers {
      guard identifier.type == toMany.targetType, let id = identifier.id else {
        throw JSONAPIStoreError.unstorableValue(
          member: toMany.name, reason: "it names resources of type \(toMany.targetType) by id")
      }
      let value = try Self.id(id, kind: toMany.targetIDKind, member: toMany.name)
      if seen.insert(SQLiteIDs.key(id)).inserted { values.append(value) }
    }
    return values
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

  /// The SQL value of an id given in a record or linkage.
  ///
  /// - Throws: `JSONAPIStoreError.unstorableValue` when the column cannot hold it.
  private static func id(_ id: String, kind: JSONAPISQLiteTable.IDKind, member: String) throws
    -> SQLiteValue
  {
    guard let value = SQLiteIDs.value(id, kind: kind) else {
      throw JSONAPIStoreError.unstorableValue(
        member: member,
        reason: "\(id.debugDescription) is not a decimal integer id (without leading zeros, in "
          + "Int64's range), which this table's integer ids must be")
    }
    return value
  }

  private static func following(_ position: Int64) throws -> Int64 {
    let (next, overflow) = position.addingReportingOverflow(1)
    if overflow {
      throw JSONAPIStoreError.unstorableValue(
        member: "position", reason: "the relationship has no place left for new members")
    }
    return next
  }

  private func toMany(_ relationship: String, of type: String) throws -> (
    SQLiteTableInfo, SQLiteToMany
  ) {
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
