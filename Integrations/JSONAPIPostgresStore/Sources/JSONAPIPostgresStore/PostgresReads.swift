import JSONAPIServer
import JSONAPISQLStoreKit
import Logging
import PostgresNIO

/// The alias of the table a read selects from.
private let row = pgQuoted("_r")

/// One connection in use by a read or a write: statements run one after another on it.
struct PGSession: Sendable {
  let connection: PostgresConnection
  let logger: Logger

  /// Runs `sql` and returns its rows, each as its cells.
  func rows(_ sql: PGSQL) async throws -> [[PostgresCell]] {
    try await connection.query(sql.query, logger: logger).collect().map { Array($0) }
  }

  func execute(_ sql: PGSQL) async throws {
    _ = try await connection.query(sql.query, logger: logger).collect()
  }
}

/// The reads of the store: `resources(_:ids:)` and `page(_:)`, in a bounded number of
/// statements whatever the number of ids or resources.
struct PGReads: Sendable {
  let catalog: PGCatalog

  // MARK: - Resources by id

  /// One `SELECT` for the rows, one per non-inverse to-many relationship for the linkage.
  func resources(_ session: PGSession, _ type: String, ids: [String]) async throws
    -> [JSONAPIResourceRecord]
  {
    guard let info = catalog.tables[type], !ids.isEmpty else { return [] }
    let rows = try await session.rows(
      """
      SELECT \(raw: Self.columns(info)) FROM \(raw: pgQuoted(info.table)) AS \(raw: row) \
      WHERE \(raw: Self.id(info)) = ANY(\(PGIDs.array(ids, kind: info.idKind)))
      """)
    return try await records(session, info, rows)
  }

  // MARK: - Pages

  /// One `SELECT` for the page (with a `LIMIT`), one `count(*)` when the query counts, and one
  /// per non-inverse to-many relationship for the linkage.
  func page(_ session: PGSession, _ query: JSONAPIStoreQuery) async throws -> JSONAPIStorePage {
    guard let info = catalog.tables[query.type] else {
      return JSONAPIStorePage(resources: [], hasMore: false, total: query.countsTotal ? 0 : nil)
    }
    var conditions = query.filters.map { condition($0, info) }
    if let scope = query.scope { conditions.append(scopeCondition(scope, info)) }
    let fields =
      query.sort.contains { $0.field == "id" } ? query.sort : query.sort + [.ascending("id")]
    var bounds: [PGSQL] = []
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
    // Nulls first, as the other stores order them; descending turns the whole order around.
    let order = fields.map { field in
      let expression = orderExpression(field.field, info) ?? "NULL"
      return field.isDescending != isBackwards
        ? expression + " DESC NULLS LAST" : expression + " ASC NULLS FIRST"
    }
    let fetched = limit < Int.max ? limit + 1 : limit
    var rows = try await session.rows(
      """
      SELECT \(raw: Self.columns(info)) FROM \(raw: pgQuoted(info.table)) AS \(raw: row) \
      WHERE \(PGSQL.all(conditions + bounds)) ORDER BY \(raw: order.joined(separator: ", ")) \
      LIMIT \(PGValue.integer(Int64(fetched))) OFFSET \(PGValue.integer(Int64(offset)))
      """)
    let hasMore = rows.count > limit
    if hasMore { rows.removeLast(rows.count - limit) }
    if isBackwards { rows.reverse() }
    var total: Int?
    if query.countsTotal {
      let counted = try await session.rows(
        """
        SELECT count(*) FROM \(raw: pgQuoted(info.table)) AS \(raw: row) \
        WHERE \(PGSQL.all(conditions))
        """)
      let count = try counted.first?.first?.decode(Int64.self) ?? 0
      total = Int(exactly: count) ?? Int.max
    }
    return JSONAPIStorePage(
      resources: try await records(session, info, rows), hasMore: hasMore, total: total)
  }

  // MARK: - Rows to records

  /// What every read selects: the id as text, each attribute, each to-one relationship's id as
  /// text.
  static func columns(_ info: PGTable) -> String {
    var columns = [Self.id(info) + "::text"]
    for attribute in info.attributes {
      columns.append(attribute.kind.selected("\(row).\(pgQuoted(attribute.column))"))
    }
    for toOne in info.toOnes {
      columns.append("\(row).\(pgQuoted(toOne.column))::text")
    }
    return columns.joined(separator: ", ")
  }

  /// The id column of the table read.
  static func id(_ info: PGTable) -> String { "\(row).\(pgQuoted(info.idColumn))" }

  /// Records from rows selected with ``columns(_:)``, with the linkage of every non-inverse
  /// to-many relationship (one statement per relationship).
  func records(_ session: PGSession, _ info: PGTable, _ rows: [[PostgresCell]]) async throws
    -> [JSONAPIResourceRecord]
  {
    var records: [JSONAPIResourceRecord] = []
    records.reserveCapacity(rows.count)
    for cells in rows where cells.count == 1 + info.attributes.count + info.toOnes.count {
      guard let id = try cells[0].decode(String?.self) else { continue }
      var record = JSONAPIResourceRecord(type: info.type, id: id)
      for (offset, attribute) in info.attributes.enumerated() {
        record.attributes[attribute.name] = PGCodec.decode(
          try Self.cell(cells[1 + offset], kind: attribute.kind), kind: attribute.kind)
      }
      for (offset, toOne) in info.toOnes.enumerated() {
        let target = try cells[1 + info.attributes.count + offset].decode(String?.self)
        record.relationships[toOne.name] = .toOne(
          target.map { JSONAPIResourceIdentifier(type: toOne.targetType, id: $0) })
      }
      records.append(record)
    }
    guard !info.toManys.isEmpty, !records.isEmpty else { return records }
    let owners = PGIDs.array(records.map(\.id), kind: info.idKind)
    for toMany in info.toManys {
      let members = try await linkage(session, toMany, owners: owners)
      for index in records.indices {
        records[index].relationships[toMany.name] = .toMany(members[records[index].id] ?? [])
      }
    }
    return records
  }

  private static func cell(_ cell: PostgresCell, kind: PGColumnKind) throws -> PostgresCellValue {
    switch kind {
    case .text, .json: return try cell.decode(String?.self).map { .text($0) } ?? .null
    case .integer: return try cell.decode(Int64?.self).map { .integer($0) } ?? .null
    case .real: return try cell.decode(Double?.self).map { .real($0) } ?? .null
    case .boolean: return try cell.decode(Bool?.self).map { .boolean($0) } ?? .null
    }
  }

  /// The members of a to-many relationship of each owner, in order, by owner id.
  func linkage(_ session: PGSession, _ toMany: PGToMany, owners: PGValue) async throws
    -> [String: [JSONAPIResourceIdentifier]]
  {
    let join = toMany.join
    let owner = pgQuoted(join.ownerColumn)
    let target = pgQuoted(join.targetColumn)
    let rows = try await session.rows(
      """
      SELECT \(raw: owner)::text, \(raw: target)::text FROM \(raw: pgQuoted(join.name)) \
      WHERE \(raw: owner) = ANY(\(owners)) \
      ORDER BY \(raw: owner), \(raw: join.positionColumn.map(pgQuoted) ?? target)
      """)
    var members: [String: [JSONAPIResourceIdentifier]] = [:]
    for cells in rows where cells.count == 2 {
      guard let owner = try cells[0].decode(String?.self),
        let target = try cells[1].decode(String?.self)
      else { continue }
      members[owner, default: []].append(
        JSONAPIResourceIdentifier(type: toMany.targetType, id: target))
    }
    return members
  }

  // MARK: - Filters

  /// The SQL of one filter condition, with the memory store's meaning: `equals` is the same JSON
  /// value (text byte for byte, numbers by value, `null` for `NULL`); `contains` needs text and
  /// ignores ASCII case only; `lessThan` and `greaterThan` compare two numbers or two texts.
  func condition(_ condition: JSONAPIFilterCondition, _ info: PGTable) -> PGSQL {
    if condition.isRelationship { return relationshipCondition(condition, info) }
    if condition.member == "id" {
      return idCondition(Self.id(info), kind: info.idKind, condition.comparison, condition.values)
    }
    guard let attribute = info.attribute(named: condition.member) else {
      // No column: the member is `null` everywhere.
      let matchesNull = condition.comparison == .equals && condition.values.contains(.null)
      return matchesNull ? .alwaysTrue : .alwaysFalse
    }
    let column = "\(row).\(pgQuoted(attribute.column))"
    switch condition.comparison {
    case .equals:
      var parts: [PGSQL] = []
      if condition.values.contains(.null) { parts.append("\(raw: column) IS NULL") }
      for value in condition.values where value != .null {
        guard let compared = PGCodec.compared(value, kind: attribute.kind) else { continue }
        parts.append(
          attribute.kind == .text
            ? "\(raw: pgBytewise(column)) = \(compared)" : "\(raw: column) = \(compared)")
      }
      return PGSQL.any(parts)
    case .contains:
      let text: String
      switch attribute.kind {
      case .text: text = column
      case .json:
        text = "(CASE WHEN jsonb_typeof(\(column)) = 'string' THEN \(column) #>> '{}' END)"
      case .integer, .real, .boolean: return .alwaysFalse
      }
      return PGSQL.any(
        condition.values.compactMap(\.stringValue).map { needle in
          // Stored text holds no U+0000, so no text contains a needle that does.
          guard !needle.utf8.contains(0) else { return .alwaysFalse }
          return """
            (strpos(lower(\(raw: pgBytewise(text))), lower(\(PGValue.text(needle)) COLLATE "C")) > 0)
            """
        })
    case .lessThan, .greaterThan:
      guard attribute.kind != .boolean else { return .alwaysFalse }
      let greater = condition.comparison == .greaterThan
      return PGSQL.any(
        condition.values.compactMap { value in
          switch (attribute.kind, value) {
          case (.text, .string(let text)):
            return textOrder(pgBytewise(column), text, greater: greater)
          case (.integer, .integer), (.integer, .number), (.real, .integer), (.real, .number):
            return PGCodec.compared(value, kind: attribute.kind).map {
              "\(raw: column)\(raw: greater ? " > " : " < ")\($0)"
            }
          case (.json, .integer), (.json, .number):
            return PGCodec.compared(value, kind: .json).map {
              """
              (jsonb_typeof(\(raw: column)) = 'number' \
              AND \(raw: column)\(raw: greater ? " > " : " < ")\($0))
              """
            }
          case (.json, .string(let text)):
            let inner = "(CASE WHEN jsonb_typeof(\(column)) = 'string' THEN \(column) #>> '{}' END)"
            return textOrder(pgBytewise(inner), text, greater: greater)
          default:
            return nil
          }
        })
    }
  }

  /// Text strictly after (`greater`) or before `bound` by bytes. A bound holding U+0000 cannot be
  /// bound, and no stored text holds it: compared with its part before the first U+0000, `p`,
  /// a stored text is after the bound when it is after `p`, and before it when it is `p` or
  /// before.
  private func textOrder(_ expression: String, _ bound: String, greater: Bool) -> PGSQL {
    guard let nul = bound.utf8.firstIndex(of: 0) else {
      return "\(raw: expression)\(raw: greater ? " > " : " < ")\(PGValue.text(bound))"
    }
    let prefix = String(decoding: bound.utf8[..<nul], as: UTF8.self)
    return "\(raw: expression)\(raw: greater ? " > " : " <= ")\(PGValue.text(prefix))"
  }

  /// A relationship condition: the linkage ids compared as ids; `equals` with `null` also matches
  /// empty linkage.
  private func relationshipCondition(_ condition: JSONAPIFilterCondition, _ info: PGTable)
    -> PGSQL
  {
    let matchesEmpty = condition.comparison == .equals && condition.values.contains(.null)
    if let toOne = info.toOne(named: condition.member) {
      let column = "\(row).\(pgQuoted(toOne.column))"
      let compared = idCondition(
        column, kind: toOne.targetIDKind, condition.comparison, condition.values)
      let named: PGSQL = "(\(raw: column) IS NOT NULL AND \(compared))"
      return matchesEmpty ? PGSQL.any(["\(raw: column) IS NULL", named]) : named
    }
    let members: (table: String, owner: String, target: String, kind: SQLIDKind)
    if let toMany = info.toMany(named: condition.member) {
      members = (
        toMany.join.name, toMany.join.ownerColumn, toMany.join.targetColumn, toMany.targetIDKind
      )
    } else if let inverse = info.inverse(named: condition.member) {
      members = (inverse.targetTable, inverse.column, inverse.targetIDColumn, inverse.targetIDKind)
    } else {
      return matchesEmpty ? .alwaysTrue : .alwaysFalse
    }
    let linked = pgQuoted("_m")
    let from =
      "SELECT 1 FROM \(pgQuoted(members.table)) AS \(linked) "
      + "WHERE \(linked).\(pgQuoted(members.owner)) = \(Self.id(info))"
    let compared = idCondition(
      "\(linked).\(pgQuoted(members.target))", kind: members.kind, condition.comparison,
      condition.values)
    let named: PGSQL = "EXISTS (\(raw: from) AND \(compared))"
    return matchesEmpty ? PGSQL.any(["NOT EXISTS (\(raw: from))", named]) : named
  }

  /// Ids against filter values, in the memory store's order of ids: an integer column's ids are
  /// decimal integers, which come before any other text and compare by value; a text column's
  /// compare by their UTF-8 bytes.
  func idCondition(
    _ expression: String, kind: SQLIDKind,
    _ comparison: JSONAPIFilterCondition.Comparison, _ values: [JSONAPIValue]
  ) -> PGSQL {
    switch comparison {
    case .equals:
      let ids = values.compactMap(PGIDs.text(of:))
      return "\(raw: expression) = ANY(\(PGIDs.array(ids, kind: kind)))"
    case .contains:
      return PGSQL.any(
        values.compactMap(\.stringValue).map { needle in
          guard !needle.utf8.contains(0) else { return .alwaysFalse }
          return """
            (strpos(lower(\(raw: pgBytewise(expression + "::text"))), \
            lower(\(PGValue.text(needle)) COLLATE "C")) > 0)
            """
        })
    case .lessThan, .greaterThan:
      return PGSQL.any(
        values.compactMap(PGIDs.text(of:)).map {
          idOrder(expression, kind: kind, $0, greater: comparison == .greaterThan)
        })
    }
  }

  /// Ids strictly after (`greater`) or before `bound` in the order of ids.
  private func idOrder(
    _ expression: String, kind: SQLIDKind, _ bound: String, greater: Bool
  ) -> PGSQL {
    if kind == .text { return textOrder(pgBytewise(expression), bound, greater: greater) }
    switch SQLIntegerIDBound(bound, greater: greater) {
    case .everyID: return .alwaysTrue
    case .noID: return .alwaysFalse
    case .compared(let symbol, let value):
      return "\(raw: expression)\(raw: symbol)\(PGValue.integer(value))"
    }
  }

  /// The resources a scope's owner names: through its join table, or (for an inverse) the rows
  /// whose to-one column names the owner.
  private func scopeCondition(_ scope: JSONAPIStoreQuery.Scope, _ info: PGTable) -> PGSQL {
    guard let ownerInfo = catalog.tables[scope.owner.type], let ownerID = scope.owner.id,
      let owner = PGIDs.value(ownerID, kind: ownerInfo.idKind)
    else { return .alwaysFalse }
    if let toMany = ownerInfo.toMany(named: scope.relationship), toMany.targetType == info.type {
      let join = toMany.join
      return """
        \(raw: Self.id(info)) IN (SELECT \(raw: pgQuoted(join.targetColumn)) \
        FROM \(raw: pgQuoted(join.name)) WHERE \(raw: pgQuoted(join.ownerColumn)) = \(owner))
        """
    }
    if let inverse = ownerInfo.inverse(named: scope.relationship), inverse.targetType == info.type {
      return "\(raw: row).\(raw: pgQuoted(inverse.column)) = \(owner)"
    }
    return .alwaysFalse
  }

  // MARK: - Order and keyset bounds

  /// The expression a sort field orders by; `nil` for a member without a column (`null`
  /// everywhere).
  private func orderExpression(_ field: String, _ info: PGTable) -> String? {
    if field == "id" {
      return info.idKind == .text ? pgBytewise(Self.id(info)) : Self.id(info)
    }
    return info.attribute(named: field).map { attribute in
      let column = "\(row).\(pgQuoted(attribute.column))"
      return attribute.kind == .text ? pgBytewise(column) : column
    }
  }

  /// The rows strictly after (`after`) or strictly before `bound` in the sort: the row comparison
  /// expanded field by field, each in its direction.
  private func keyset(
    _ bound: [JSONAPIValue], fields: [JSONAPIQuery.SortField], _ info: PGTable, after: Bool
  ) -> PGSQL {
    var alternatives: [PGSQL] = []
    var equalSoFar: [PGSQL] = []
    for (field, value) in zip(fields, bound) {
      let greater = after != field.isDescending
      alternatives.append(
        PGSQL.all(equalSoFar + [beyond(field.field, value, info, greater: greater)]))
      equalSoFar.append(equal(field.field, value, info))
    }
    return PGSQL.any(alternatives)
  }

  /// The rows whose `field` is after (`greater`) or before `value` in the order `ORDER BY` uses:
  /// `NULL` first; a value of another kind than the column's falls by its kind (numbers, then
  /// text, then arrays and objects).
  private func beyond(_ field: String, _ value: JSONAPIValue, _ info: PGTable, greater: Bool)
    -> PGSQL
  {
    if field == "id" {
      guard let text = PGIDs.text(of: value) else {
        // Null, booleans and numbers come before every id; arrays and objects after.
        let isBefore = value.arrayValue == nil && value.objectValue == nil
        return greater == isBefore ? .alwaysTrue : .alwaysFalse
      }
      return idOrder(Self.id(info), kind: info.idKind, text, greater: greater)
    }
    guard let attribute = info.attribute(named: field) else {
      // `null` everywhere: after nothing, before every value but `null`.
      return greater || value == .null ? .alwaysFalse : .alwaysTrue
    }
    let column = "\(row).\(pgQuoted(attribute.column))"
    guard let rank = PGCodec.rank(of: value) else {
      return greater ? "\(raw: column) IS NOT NULL" : .alwaysFalse
    }
    let strictly: PGSQL
    if attribute.kind == .text, case .string(let text) = value {
      strictly = textOrder(pgBytewise(column), text, greater: greater)
    } else if let compared = PGCodec.compared(value, kind: attribute.kind) {
      strictly = "\(raw: column)\(raw: greater ? " > " : " < ")\(compared)"
    } else if attribute.kind == .json {
      // JSON the column cannot hold (U+0000): no row equals it; placed by its kind.
      strictly = rankOrder(column, columnRank: nil, valueRank: rank, greater: greater)
    } else {
      strictly = rankOrder(
        column, columnRank: attribute.kind.rank, valueRank: rank, greater: greater)
    }
    return greater ? strictly : PGSQL.any([strictly, "\(raw: column) IS NULL"])
  }

  /// Non-null rows against a value of another kind: all after it or none.
  private func rankOrder(_ column: String, columnRank: Int?, valueRank: Int, greater: Bool)
    -> PGSQL
  {
    guard let columnRank else { return .alwaysFalse }
    let isAfter = columnRank > valueRank
    return greater == isAfter ? "\(raw: column) IS NOT NULL" : .alwaysFalse
  }

  /// The rows whose `field` equals `value` in the sort's order.
  private func equal(_ field: String, _ value: JSONAPIValue, _ info: PGTable) -> PGSQL {
    if field == "id" {
      return idCondition(Self.id(info), kind: info.idKind, .equals, [value])
    }
    guard info.attribute(named: field) != nil else {
      return value == .null ? .alwaysTrue : .alwaysFalse
    }
    return condition(
      JSONAPIFilterCondition(member: field, comparison: .equals, values: [value]), info)
  }
}
