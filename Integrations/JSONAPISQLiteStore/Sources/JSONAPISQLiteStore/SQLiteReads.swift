import Foundation
import GRDB
import JSONAPIServer
import JSONAPISQLStoreKit

/// The alias of the table a read selects from.
private let row = quoted("_r")

/// The reads of the store on one connection: `resources(_:ids:)` and `page(_:)`, in a bounded
/// number of statements.
struct SQLiteReads: Sendable {
  let catalog: SQLiteCatalog
  /// What every read of a type selects (``columns(_:)``), by type: written once, not per read.
  private let selections: [String: String]
  private let statements = SQLiteStatements()

  init(catalog: SQLiteCatalog) {
    self.catalog = catalog
    selections = catalog.tables.mapValues(Self.columns)
  }

  // MARK: - Resources by id

  /// One `SELECT` per ``sqliteChunkSize`` ids, and one per non-inverse to-many relationship and
  /// chunk for the linkage; ids that the id column cannot hold name nothing.
  func resources(_ db: Database, _ type: String, ids: [String]) throws -> [JSONAPIResourceRecord] {
    guard let info = catalog.tables[type] else { return [] }
    var seen: Set<[UInt8]> = []
    let values = ids.compactMap { id -> SQLiteValue? in
      guard seen.insert(SQLiteIDs.key(id)).inserted else { return nil }
      return SQLiteIDs.value(id, kind: info.idKind)
    }
    var rows: [Row] = []
    var start = 0
    while start < values.count {
      let end = min(start + sqliteChunkSize, values.count)
      let query: SQL = """
        SELECT \(raw: selections[info.type] ?? Self.columns(info)) FROM \(raw: quoted(info.table)) AS \(raw: row) \
        WHERE \(sqlIn(Self.idExpression(info), Array(values[start..<end])))
        """
      rows += try Row.fetchAll(statements.prepared(query, db), arguments: query.statementArguments)
      start = end
    }
    return try records(db, info, rows)
  }

  // MARK: - Pages

  /// One `SELECT` for the page (LIMITed), one `COUNT(*)` when the query counts, and one per
  /// non-inverse to-many relationship for the linkage.
  func page(_ db: Database, _ query: JSONAPIStoreQuery) throws -> JSONAPIStorePage {
    guard let info = catalog.tables[query.type] else {
      return JSONAPIStorePage(resources: [], hasMore: false, total: query.countsTotal ? 0 : nil)
    }
    var conditions = query.filters.map { condition($0, info) }
    if let scope = query.scope { conditions.append(scopeCondition(scope, info)) }
    let fields =
      query.sort.contains { $0.field == "id" } ? query.sort : query.sort + [.ascending("id")]
    var bounds: [SQL] = []
    var isBackwards = false
    let limit: Int
    var offset = 0
    switch query.window {
    case .offset(let start, let size):
      offset = max(start, 0)
      limit = max(size, 0)
    case .keyset(let after, let before, let size):
      limit = max(size, 0)
      if let after { bounds.append(keyset(after, fields: fields, info, after: true)) }
      if let before { bounds.append(keyset(before, fields: fields, info, after: false)) }
      // Only `before`: the last `limit` before it, read backwards and turned around.
      isBackwards = after == nil && before != nil
    }
    let order = fields.map { field in
      let descending = field.isDescending != isBackwards
      return (orderExpression(field.field, info) ?? "NULL") + (descending ? " DESC" : " ASC")
    }
    let fetched = limit < Int.max ? limit + 1 : limit
    let select: SQL = """
      SELECT \(raw: selections[info.type] ?? Self.columns(info)) FROM \(raw: quoted(info.table)) AS \(raw: row) \
      WHERE \(SQL.all(conditions + bounds)) ORDER BY \(raw: order.joined(separator: ", ")) \
      LIMIT \(SQLiteValue.integer(Int64(fetched))) OFFSET \(SQLiteValue.integer(Int64(offset)))
      """
    var rows = try Row.fetchAll(
      statements.prepared(select, db), arguments: select.statementArguments)
    let hasMore = rows.count > limit
    if hasMore { rows.removeLast(rows.count - limit) }
    if isBackwards { rows.reverse() }
    var total: Int?
    if query.countsTotal {
      let count: SQL = """
        SELECT COUNT(*) FROM \(raw: quoted(info.table)) AS \(raw: row) \
        WHERE \(SQL.all(conditions))
        """
      total =
        try Int.fetchOne(statements.prepared(count, db), arguments: count.statementArguments) ?? 0
    }
    return JSONAPIStorePage(resources: try records(db, info, rows), hasMore: hasMore, total: total)
  }

  // MARK: - Rows to records

  /// The columns every read selects: the id, then `typeof` and the value of each attribute, then
  /// each to-one relationship's id.
  static func columns(_ info: SQLiteTableInfo) -> String {
    var columns = [sqlWholeText(idExpression(info))]
    for attribute in info.attributes {
      let column = "\(row).\(quoted(attribute.column))"
      columns += ["typeof(\(column))", sqlWholeText(column)]
    }
    for toOne in info.toOnes {
      columns.append(sqlWholeText("\(row).\(quoted(toOne.column))"))
    }
    return columns.joined(separator: ", ")
  }

  static func idExpression(_ info: SQLiteTableInfo) -> String {
    "\(row).\(quoted(info.idColumn))"
  }

  /// Records from rows selected with ``columns(_:)``, with the linkage of every non-inverse
  /// to-many relationship (one statement per relationship and chunk of ids).
  func records(_ db: Database, _ info: SQLiteTableInfo, _ rows: [Row]) throws
    -> [JSONAPIResourceRecord]
  {
    var records: [JSONAPIResourceRecord] = []
    records.reserveCapacity(rows.count)
    for fetched in rows {
      guard let id = SQLiteIDs.decode(fetched[0]) else { continue }
      var record = JSONAPIResourceRecord(type: info.type, id: id)
      var index = 1
      for attribute in info.attributes {
        let typeName: String = (fetched[index] as String?) ?? "null"
        record.attributes[attribute.name] = SQLiteCodec.decode(
          typeName: typeName, value: fetched[index + 1], kind: attribute.kind)
        index += 2
      }
      for toOne in info.toOnes {
        record.relationships[toOne.name] = .toOne(
          SQLiteIDs.decode(fetched[index]).map {
            JSONAPIResourceIdentifier(type: toOne.targetType, id: $0)
          })
        index += 1
      }
      records.append(record)
    }
    guard !info.toManys.isEmpty, !records.isEmpty else { return records }
    let owners = records.compactMap { SQLiteIDs.value($0.id, kind: info.idKind) }
    for toMany in info.toManys {
      let members = try linkage(db, toMany, owners: owners)
      for index in records.indices {
        records[index].relationships[toMany.name] = .toMany(
          members[SQLiteIDs.key(records[index].id)] ?? [])
      }
    }
    return records
  }

  /// The members of a to-many relationship of each owner, in order, by the owner id's bytes.
  func linkage(_ db: Database, _ toMany: SQLiteToMany, owners: [SQLiteValue]) throws
    -> [[UInt8]: [JSONAPIResourceIdentifier]]
  {
    let join = toMany.join
    let owner = quoted(join.ownerColumn)
    let target = quoted(join.targetColumn)
    let order = "\(owner), \(join.positionColumn.map(quoted) ?? target)"
    var members: [[UInt8]: [JSONAPIResourceIdentifier]] = [:]
    var start = 0
    while start < owners.count {
      let end = min(start + sqliteChunkSize, owners.count)
      let query: SQL = """
        SELECT \(raw: sqlWholeText(owner)), \(raw: sqlWholeText(target)) \
        FROM \(raw: quoted(join.name)) WHERE \(sqlIn(owner, Array(owners[start..<end]))) \
        ORDER BY \(raw: order)
        """
      let rows = try Row.fetchAll(
        statements.prepared(query, db), arguments: query.statementArguments)
      for fetched in rows {
        guard let ownerID = SQLiteIDs.decode(fetched[0]),
          let targetID = SQLiteIDs.decode(fetched[1])
        else { continue }
        members[SQLiteIDs.key(ownerID), default: []].append(
          JSONAPIResourceIdentifier(type: toMany.targetType, id: targetID))
      }
      start = end
    }
    return members
  }

  // MARK: - Filters

  /// The SQL of one filter condition, with the memory store's meaning: `equals` is the same JSON
  /// value (text byte for byte, numbers by value, `null` for `NULL`); `contains` needs text and
  /// ignores ASCII case only; `lessThan` and `greaterThan` compare two numbers or two texts.
  func condition(_ condition: JSONAPIFilterCondition, _ info: SQLiteTableInfo) -> SQL {
    if condition.isRelationship { return relationshipCondition(condition, info) }
    if condition.member == "id" {
      return idCondition(
        Self.idExpression(info), kind: info.idKind, condition.comparison, condition.values)
    }
    guard let attribute = info.attribute(named: condition.member) else {
      // No column: the member is `null` everywhere.
      let matchesNull = condition.comparison == .equals && condition.values.contains(.null)
      return matchesNull ? .alwaysTrue : .alwaysFalse
    }
    let column = "\(row).\(quoted(attribute.column))"
    let compared = condition.values.compactMap { SQLiteCodec.compared($0, kind: attribute.kind) }
    switch condition.comparison {
    case .equals:
      var parts: [SQL] = []
      if compared.contains(where: \.isNull) { parts.append("\(raw: column) IS NULL") }
      let texts = compared.filter { if case .text = $0 { return true } else { return false } }
      let numbers = compared.filter {
        switch $0 {
        case .integer, .real: return true
        default: return false
        }
      }
      let blobs = compared.filter { if case .blob = $0 { return true } else { return false } }
      if !texts.isEmpty {
        parts.append(
          "(typeof(\(raw: column)) = 'text' AND \(sqlIn(column + " COLLATE BINARY", texts)))")
      }
      if !numbers.isEmpty {
        parts.append(
          "(typeof(\(raw: column)) IN ('integer', 'real') AND \(sqlIn(column, numbers)))")
      }
      if !blobs.isEmpty {
        parts.append("(typeof(\(raw: column)) = 'blob' AND \(sqlIn(column, blobs)))")
      }
      return SQL.any(parts)
    case .contains:
      guard attribute.kind == .text || attribute.kind == .date || attribute.kind == .any else {
        return .alwaysFalse
      }
      return SQL.any(
        condition.values.compactMap(\.stringValue).map { needle in
          """
          (typeof(\(raw: column)) = 'text' \
          AND instr(lower(\(raw: column)), lower(\(SQLiteValue.text(needle)))) > 0)
          """
        })
    case .lessThan, .greaterThan:
      guard attribute.kind != .boolean, attribute.kind != .structured else { return .alwaysFalse }
      let symbol = condition.comparison == .lessThan ? " < " : " > "
      return SQL.any(
        compared.compactMap { value in
          switch value {
          case .integer, .real:
            return """
              (typeof(\(raw: column)) IN ('integer', 'real') \
              AND +\(raw: column)\(raw: symbol)\(value.plainSQL))
              """
          case .text:
            return """
              (typeof(\(raw: column)) = 'text' \
              AND +\(raw: column) COLLATE BINARY\(raw: symbol)\(value.plainSQL))
              """
          case .null, .blob:
            return nil
          }
        })
    }
  }

  /// A relationship condition: the linkage ids compared as ids; `equals` with `null` also matches
  /// empty linkage.
  private func relationshipCondition(_ condition: JSONAPIFilterCondition, _ info: SQLiteTableInfo)
    -> SQL
  {
    let matchesEmpty = condition.comparison == .equals && condition.values.contains(.null)
    let id = Self.idExpression(info)
    if let toOne = info.toOne(named: condition.member) {
      let column = "\(row).\(quoted(toOne.column))"
      let compared = idCondition(
        column, kind: toOne.targetIDKind, condition.comparison, condition.values)
      let named: SQL = "(\(raw: column) IS NOT NULL AND \(compared))"
      return matchesEmpty ? SQL.any(["\(raw: column) IS NULL", named]) : named
    }
    let members: (table: String, owner: String, target: String, kind: JSONAPISQLiteTable.IDKind)
    if let toMany = info.toMany(named: condition.member) {
      members = (
        toMany.join.name, toMany.join.ownerColumn, toMany.join.targetColumn, toMany.targetIDKind
      )
    } else if let inverse = info.inverse(named: condition.member) {
      members = (inverse.targetTable, inverse.column, inverse.targetIDColumn, inverse.targetIDKind)
    } else {
      return matchesEmpty ? .alwaysTrue : .alwaysFalse
    }
    let linked = quoted("_m")
    let from =
      "SELECT 1 FROM \(quoted(members.table)) AS \(linked) "
      + "WHERE \(linked).\(quoted(members.owner)) = \(id)"
    let compared = idCondition(
      "\(linked).\(quoted(members.target))", kind: members.kind, condition.comparison,
      condition.values)
    let named: SQL = "EXISTS (\(raw: from) AND \(compared))"
    return matchesEmpty ? SQL.any(["NOT EXISTS (\(raw: from))", named]) : named
  }

  /// Ids against filter values, in the memory store's order of ids: an integer column's ids are
  /// decimal integers, which come before any other text and compare by value; a text column's
  /// compare by their UTF-8 bytes.
  func idCondition(
    _ expression: String, kind: JSONAPISQLiteTable.IDKind,
    _ comparison: JSONAPIFilterCondition.Comparison, _ values: [JSONAPIValue]
  ) -> SQL {
    switch comparison {
    case .equals:
      let ids = values.compactMap(SQLiteIDs.text).compactMap { SQLiteIDs.value($0, kind: kind) }
      return sqlIn(expression + (kind == .text ? " COLLATE BINARY" : ""), ids)
    case .contains:
      return SQL.any(
        values.compactMap(\.stringValue).map { needle in
          "(instr(lower(CAST(\(raw: expression) AS TEXT)), lower(\(SQLiteValue.text(needle)))) > 0)"
        })
    case .lessThan, .greaterThan:
      return SQL.any(
        values.compactMap(SQLiteIDs.text).map {
          idOrder(expression, kind: kind, $0, greater: comparison == .greaterThan)
        })
    }
  }

  /// Ids strictly after (`greater`) or before `bound` in the order of ids.
  private func idOrder(
    _ expression: String, kind: JSONAPISQLiteTable.IDKind, _ bound: String, greater: Bool
  ) -> SQL {
    if kind == .text {
      return
        "\(raw: expression) COLLATE BINARY \(raw: greater ? ">" : "<") \(SQLiteValue.text(bound))"
    }
    switch SQLIntegerIDBound(bound, greater: greater) {
    case .everyID: return .alwaysTrue
    case .noID: return .alwaysFalse
    case .compared(let symbol, let value):
      return "\(raw: expression)\(raw: symbol)\(SQLiteValue.integer(value))"
    }
  }

  /// The resources a scope's owner names: through its join table, or (for an inverse) the rows
  /// whose to-one column names the owner.
  private func scopeCondition(_ scope: JSONAPIStoreQuery.Scope, _ info: SQLiteTableInfo) -> SQL {
    guard let ownerInfo = catalog.tables[scope.owner.type], let ownerID = scope.owner.id,
      let owner = SQLiteIDs.value(ownerID, kind: ownerInfo.idKind)
    else { return .alwaysFalse }
    if let toMany = ownerInfo.toMany(named: scope.relationship), toMany.targetType == info.type {
      let join = toMany.join
      return """
        \(raw: Self.idExpression(info)) IN (SELECT \(raw: quoted(join.targetColumn)) \
        FROM \(raw: quoted(join.name)) WHERE \(raw: quoted(join.ownerColumn)) = \(owner))
        """
    }
    if let inverse = ownerInfo.inverse(named: scope.relationship), inverse.targetType == info.type {
      return "\(raw: row).\(raw: quoted(inverse.column)) = \(owner)"
    }
    return .alwaysFalse
  }

  // MARK: - Order and keyset bounds

  /// The expression a sort field orders by; `nil` for a member without a column (`null`
  /// everywhere).
  private func orderExpression(_ field: String, _ info: SQLiteTableInfo) -> String? {
    if field == "id" {
      return Self.idExpression(info) + (info.idKind == .text ? " COLLATE BINARY" : "")
    }
    return info.attribute(named: field).map { "\(row).\(quoted($0.column)) COLLATE BINARY" }
  }

  /// The rows strictly after (`after`) or strictly before `bound` in the sort: the row comparison
  /// expanded field by field, each in its direction.
  private func keyset(
    _ bound: [JSONAPIValue], fields: [JSONAPIQuery.SortField], _ info: SQLiteTableInfo,
    after: Bool
  ) -> SQL {
    var alternatives: [SQL] = []
    var equalSoFar: [SQL] = []
    for (field, value) in zip(fields, bound) {
      let greater = after != field.isDescending
      alternatives.append(
        SQL.all(equalSoFar + [beyond(field.field, value, info, greater: greater)]))
      equalSoFar.append(equal(field.field, value, info))
    }
    return SQL.any(alternatives)
  }

  /// The rows whose `field` is greater (or less) than `value`, in SQLite's order: `NULL` first,
  /// then numbers, text (by bytes), blobs — the order `ORDER BY` uses.
  private func beyond(
    _ field: String, _ value: JSONAPIValue, _ info: SQLiteTableInfo, greater: Bool
  )
    -> SQL
  {
    if field == "id" {
      guard let text = SQLiteIDs.text(of: value) else {
        // Null, booleans and numbers come before every id; arrays and objects after.
        let isBefore = value.arrayValue == nil && value.objectValue == nil
        return greater == isBefore ? .alwaysTrue : .alwaysFalse
      }
      return idOrder(Self.idExpression(info), kind: info.idKind, text, greater: greater)
    }
    guard let attribute = info.attribute(named: field) else {
      // `null` everywhere: after nothing, before every value but `null`.
      return greater || value == .null ? .alwaysFalse : .alwaysTrue
    }
    let column = "\(row).\(quoted(attribute.column))"
    let compared = SQLiteCodec.compared(value, kind: attribute.kind) ?? SQLiteCodec.generic(value)
    if compared.isNull {
      return greater ? "\(raw: column) IS NOT NULL" : .alwaysFalse
    }
    if greater {
      return "(+\(raw: column) COLLATE BINARY > \(compared.plainSQL))"
    }
    return "(+\(raw: column) COLLATE BINARY < \(compared.plainSQL) OR \(raw: column) IS NULL)"
  }

  /// The rows whose `field` equals `value` in the sort's order.
  private func equal(_ field: String, _ value: JSONAPIValue, _ info: SQLiteTableInfo) -> SQL {
    if field == "id" {
      return idCondition(Self.idExpression(info), kind: info.idKind, .equals, [value])
    }
    guard let attribute = info.attribute(named: field) else {
      return value == .null ? .alwaysTrue : .alwaysFalse
    }
    let column = "\(row).\(quoted(attribute.column))"
    let compared = SQLiteCodec.compared(value, kind: attribute.kind) ?? SQLiteCodec.generic(value)
    if compared.isNull { return "\(raw: column) IS NULL" }
    return "(+\(raw: column) COLLATE BINARY = \(compared.plainSQL))"
  }
}

/// The prepared statements of the store's reads, kept by GRDB on each connection
/// (`cachedStatement(sql:)`) for at most ``limit`` texts per store: the texts a request can make
/// are many (filters, sorts and list widths combine), so the first ``limit`` are kept and later
/// ones are prepared for each use. Preparing a statement costs more than running these reads.
final class SQLiteStatements: Sendable {
  static let limit = 256
  private let kept = SQLiteLocked<Set<String>>([])

  /// A statement for `query`'s text on `db`, prepared once per connection when it is kept.
  func prepared(_ query: SQL, _ db: Database) throws -> Statement {
    let isKept = kept.withValue { texts in
      if texts.contains(query.text) { return true }
      guard texts.count < Self.limit else { return false }
      texts.insert(query.text)
      return true
    }
    return isKept ? try db.cachedStatement(sql: query.text) : try db.makeStatement(sql: query.text)
  }
}
