import JSONAPIServer

/// The statements of a store's writes, built once for every dialect: the row check (or lock)
/// before a change, the `INSERT` and `UPDATE` of a resource's row, what a delete clears, and the
/// linkage of to-many relationships. The driver runs them inside the transaction it opened, in
/// the order given.
public struct SQLWrites<Dialect: SQLDialect>: Sendable {
  /// A table of the catalog.
  public typealias Table = SQLStoreCatalog<Dialect.Column>.Table
  /// A to-many relationship of the catalog.
  public typealias ToMany = SQLStoreCatalog<Dialect.Column>.ToMany
  /// A statement of the dialect.
  public typealias SQL = SQLFragment<Dialect.Value>

  /// The reads the writes read back with.
  public let reads: SQLReads<Dialect>
  /// Where every type lives.
  public var catalog: SQLStoreCatalog<Dialect.Column> { reads.catalog }
  /// The database's differences.
  public var dialect: Dialect { reads.dialect }

  /// Writes over the catalog and dialect of `reads`.
  public init(reads: SQLReads<Dialect>) { self.reads = reads }

  /// The column values and to-many linkage that `record` holds, checked against the table (the
  /// SQL stores' shared rules), with `value` making an attribute's bound value.
  ///
  /// - Throws: `JSONAPIStoreError.unstorableValue` for a member without a column, a value the
  ///   column cannot keep exactly, or linkage the relationship cannot hold.
  public func changes(
    _ record: JSONAPIResourceRecord, _ info: Table, null: Dialect.Value,
    value: (JSONAPIValue, Dialect.Column) throws(SQLUnstorable) -> Dialect.Value
  ) throws -> SQLRecordChanges<Dialect.Column, Dialect.Value> {
    let dialect = self.dialect
    return try info.changes(record, null: null, value: value, id: dialect.idValue)
  }

  /// `SELECT 1` of the row `id` of `info`, with the dialect's lock (``SQLDialect/rowCheckSuffix(forDelete:)``):
  /// a row comes back when there is one.
  public func rowCheck(_ info: Table, _ id: Dialect.Value, forDelete: Bool = false) -> SQL {
    """
    SELECT 1 FROM \(raw: sqlQuoted(info.table)) WHERE \(raw: sqlQuoted(info.idColumn)) = \(id)\
    \(raw: dialect.rowCheckSuffix(forDelete: forDelete))
    """
  }

  /// The `INSERT` of a new resource's row: its id when given, and each assignment.
  public func insert(
    _ info: Table, id: Dialect.Value?, _ assignments: [(column: String, value: Dialect.Value)]
  ) -> SQL {
    var columns: [String] = []
    var values: [SQL] = []
    if let id {
      columns.append(sqlQuoted(info.idColumn))
      values.append("\(id)")
    }
    for (column, value) in assignments {
      columns.append(sqlQuoted(column))
      values.append("\(value)")
    }
    let insert: SQL =
      columns.isEmpty
      ? "INSERT INTO \(raw: sqlQuoted(info.table)) DEFAULT VALUES"
      : """
      INSERT INTO \(raw: sqlQuoted(info.table)) (\(raw: columns.joined(separator: ", "))) \
      VALUES (\(SQL.joined(values, separator: ", ")))
      """
    return insert + "\(raw: dialect.insertSuffix(idColumn: info.idColumn, givenID: id != nil))"
  }

  /// The `UPDATE` of the named columns only (a concurrent change to another member is never
  /// written over); `nil` when there is nothing to set.
  public func update(
    _ info: Table, id: Dialect.Value, _ assignments: [(column: String, value: Dialect.Value)]
  ) -> SQL? {
    guard !assignments.isEmpty else { return nil }
    let sets = assignments.map { (column, value) -> SQL in "\(raw: sqlQuoted(column)) = \(value)" }
    return """
      UPDATE \(raw: sqlQuoted(info.table)) SET \(SQL.joined(sets, separator: ", ")) \
      WHERE \(raw: sqlQuoted(info.idColumn)) = \(id)
      """
  }

  /// What deleting the resource `id` of `info` runs: every linkage naming it cleared (to-one
  /// columns set to `NULL`, join rows removed), its own join rows, then its row (with the
  /// dialect's ``SQLDialect/deleteSuffix``) last. So a schema's `ON DELETE CASCADE` never removes
  /// the resources that named it, as the store protocol asks.
  public func delete(_ info: Table, id value: Dialect.Value) -> [SQL] {
    var statements: [SQL] = []
    for other in catalog.ordered {
      for toOne in other.toOnes where toOne.targetType == info.type {
        statements.append(
          """
          UPDATE \(raw: sqlQuoted(other.table)) SET \(raw: sqlQuoted(toOne.column)) = NULL \
          WHERE \(raw: sqlQuoted(toOne.column)) = \(value)
          """)
      }
      for toMany in other.toManys where toMany.targetType == info.type {
        statements.append(
          """
          DELETE FROM \(raw: sqlQuoted(toMany.join.name)) \
          WHERE \(raw: sqlQuoted(toMany.join.targetColumn)) = \(value)
          """)
      }
    }
    for toMany in info.toManys {
      statements.append(clear(toMany, of: value))
    }
    statements.append(
      """
      DELETE FROM \(raw: sqlQuoted(info.table)) WHERE \(raw: sqlQuoted(info.idColumn)) = \(value)\
      \(raw: dialect.deleteSuffix)
      """)
    return statements
  }

  /// What deleting the resources `ids` of `info` runs, as ``delete(_:id:)`` for one, in one
  /// list of statements per chunk of ids (``SQLDialect/chunks(_:)``) rather than per id: the
  /// linkage naming them cleared, their join rows, then their rows (with the dialect's
  /// ``SQLDialect/deleteSuffix``) last, so the driver counts the rows each chunk deleted from its
  /// last statement. Ids the id column cannot hold name nothing.
  public func delete(_ info: Table, ids: [String]) -> [[SQL]] {
    dialect.chunks(ids).map { chunk in
      var statements: [SQL] = []
      for other in catalog.ordered {
        for toOne in other.toOnes where toOne.targetType == info.type {
          let named = dialect.idMatch(sqlQuoted(toOne.column), chunk, kind: toOne.targetIDKind)
          statements.append(
            """
            UPDATE \(raw: sqlQuoted(other.table)) SET \(raw: sqlQuoted(toOne.column)) = NULL \
            WHERE \(named)
            """)
        }
        for toMany in other.toManys where toMany.targetType == info.type {
          let named = dialect.idMatch(
            sqlQuoted(toMany.join.targetColumn), chunk, kind: toMany.targetIDKind)
          statements.append("DELETE FROM \(raw: sqlQuoted(toMany.join.name)) WHERE \(named)")
        }
      }
      for toMany in info.toManys {
        let owned = dialect.idMatch(sqlQuoted(toMany.join.ownerColumn), chunk, kind: info.idKind)
        statements.append("DELETE FROM \(raw: sqlQuoted(toMany.join.name)) WHERE \(owned)")
      }
      let rows = dialect.idMatch(sqlQuoted(info.idColumn), chunk, kind: info.idKind)
      statements.append(
        "DELETE FROM \(raw: sqlQuoted(info.table)) WHERE \(rows)\(raw: dialect.deleteSuffix)")
      return statements
    }
  }

  /// The `UPDATE` that sets the to-one `toOne` of the rows `ids` of `info` to `target` (an id of
  /// its target type, or `nil` for `NULL`): one statement per chunk of ids, never one per row,
  /// ending with the dialect's ``SQLDialect/deleteSuffix`` so that the driver counts the rows
  /// changed as it counts deleted ones.
  ///
  /// - Throws: `JSONAPIStoreError.unstorableValue` when the target's id column cannot hold
  ///   `target`.
  public func setToOne(
    _ toOne: SQLStoreCatalog<Dialect.Column>.ToOne, of info: Table, ids: [String],
    to target: String?, null: Dialect.Value
  ) throws -> [SQL] {
    var value = null
    if let target {
      guard let held = dialect.idValue(target, kind: toOne.targetIDKind) else {
        throw JSONAPIStoreError.unstorableValue(
          member: toOne.name, reason: "`\(target)` is not an id of \(toOne.targetType)")
      }
      value = held
    }
    return dialect.chunks(ids).map { chunk in
      let rows = dialect.idMatch(sqlQuoted(info.idColumn), chunk, kind: info.idKind)
      return """
        UPDATE \(raw: sqlQuoted(info.table)) SET \(raw: sqlQuoted(toOne.column)) = \(value) \
        WHERE \(rows)\(raw: dialect.deleteSuffix)
        """
    }
  }

  /// The statements that make the linkage of `owner` exactly `members` (target ids, each once),
  /// in order.
  public func replace(_ toMany: ToMany, of owner: Dialect.Value, with members: [String]) -> [SQL] {
    let inserts =
      members.isEmpty
      ? [] : dialect.insertMembers(toMany.join, owner: owner, members, kind: toMany.targetIDKind)
    return [clear(toMany, of: owner)] + inserts
  }

  /// The statements that remove `members` (target ids; those the column cannot hold name no
  /// member) from the linkage of `owner`.
  public func remove(_ members: [String], from toMany: ToMany, of owner: Dialect.Value) -> [SQL] {
    let held = members.filter { dialect.idValue($0, kind: toMany.targetIDKind) != nil }
    return dialect.chunks(held).map { chunk in
      """
      DELETE FROM \(raw: sqlQuoted(toMany.join.name)) \
      WHERE \(raw: sqlQuoted(toMany.join.ownerColumn)) = \(owner) \
      AND \(dialect.idMatch(sqlQuoted(toMany.join.targetColumn), chunk, kind: toMany.targetIDKind))
      """
    }
  }

  private func clear(_ toMany: ToMany, of owner: Dialect.Value) -> SQL {
    """
    DELETE FROM \(raw: sqlQuoted(toMany.join.name)) \
    WHERE \(raw: sqlQuoted(toMany.join.ownerColumn)) = \(owner)
    """
  }
}
