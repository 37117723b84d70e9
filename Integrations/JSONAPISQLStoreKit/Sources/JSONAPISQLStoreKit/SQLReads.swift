import JSONAPIServer

/// The alias of the table a read selects from.
private let row = sqlQuoted("_r")
/// The alias of the linkage a relationship filter looks into.
private let linked = sqlQuoted("_m")

/// The statements of a store's reads, built once for every dialect: by ids, pages (filters,
/// scope, sort, offset and keyset windows, totals) and to-many linkage. The driver runs them and
/// reads rows; ``SQLPagePlan`` and ``records(_:_:id:attribute:toOne:)`` turn rows into the
/// store's answers.
public struct SQLReads<Dialect: SQLDialect>: Sendable {
  /// A table of the catalog.
  public typealias Table = SQLStoreCatalog<Dialect.Column>.Table
  /// A to-many relationship of the catalog.
  public typealias ToMany = SQLStoreCatalog<Dialect.Column>.ToMany
  /// A statement of the dialect.
  public typealias SQL = SQLFragment<Dialect.Value>

  /// Where every type lives.
  public let catalog: SQLStoreCatalog<Dialect.Column>
  /// The database's differences.
  public let dialect: Dialect
  /// What every read of a type selects, by type: written once, not per read.
  private let selections: [String: String]

  /// Reads over `catalog` in `dialect`.
  public init(catalog: SQLStoreCatalog<Dialect.Column>, dialect: Dialect) {
    self.catalog = catalog
    self.dialect = dialect
    selections = catalog.tables.mapValues { dialect.selection($0, alias: row) }
  }

  // MARK: - Resources by id

  /// The `SELECT`s of the resources of `type` among `ids`: one per ``SQLDialect/idsPerStatement``
  /// ids the id column can hold (each once); none for an unknown type.
  public func resources(_ type: String, ids: [String]) -> (Table, [SQL])? {
    guard let info = catalog.tables[type] else { return nil }
    let held = ids.filter { dialect.idValue($0, kind: info.idKind) != nil }
    let statements = dialect.chunks(held).map { chunk -> SQL in
      """
      SELECT \(raw: selection(info)) FROM \(raw: sqlQuoted(info.table)) AS \(raw: row) \
      WHERE \(dialect.idMatch(Self.id(info), chunk, kind: info.idKind))
      """
    }
    return (info, statements)
  }

  // MARK: - Pages

  /// The statements of one page: its `SELECT` (with a `LIMIT` one past the window, to learn
  /// whether more follow) and, when the query counts, its count.
  public func page(_ query: JSONAPIStoreQuery) -> SQLPagePlan<Dialect>? {
    guard let info = catalog.tables[query.type] else { return nil }
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
      dialect.ordering(
        orderExpression(field.field, info) ?? "NULL",
        descending: field.isDescending != isBackwards)
    }
    let fetched = limit < Int.max ? limit + 1 : limit
    let select: SQL = """
      SELECT \(raw: selection(info)) FROM \(raw: sqlQuoted(info.table)) AS \(raw: row) \
      WHERE \(dialect.all(conditions + bounds)) ORDER BY \(raw: order.joined(separator: ", ")) \
      LIMIT \(dialect.integer(Int64(fetched))) OFFSET \(dialect.integer(Int64(offset)))
      """
    let count: SQL? =
      query.countsTotal
      ? """
      SELECT \(raw: dialect.countAll) FROM \(raw: sqlQuoted(info.table)) AS \(raw: row) \
      WHERE \(dialect.all(conditions))
      """ : nil
    return SQLPagePlan(
      table: info, select: select, count: count, limit: limit, isBackwards: isBackwards)
  }

  // MARK: - Rows to records

  /// The id column of the table read.
  public static func id(_ info: Table) -> String { "\(row).\(sqlQuoted(info.idColumn))" }

  private func selection(_ info: Table) -> String {
    selections[info.type] ?? dialect.selection(info, alias: row)
  }

  /// A record from one row selected by ``SQLDialect/selection(_:alias:)``, without to-many
  /// linkage: `id` reads the id, `attribute` each attribute (by its index among the table's
  /// attributes), `toOne` each to-one relationship's id (by its index); `nil` for a row without
  /// an id.
  public func record<Row>(
    _ info: Table, _ fetched: Row, id: (Row) throws -> String?,
    attribute: (Row, Int, SQLStoreCatalog<Dialect.Column>.Attribute) throws -> JSONAPIValue,
    toOne: (Row, Int) throws -> String?
  ) rethrows -> JSONAPIResourceRecord? {
    guard let id = try id(fetched) else { return nil }
    var record = JSONAPIResourceRecord(type: info.type, id: id)
    for (index, member) in info.attributes.enumerated() {
      record.attributes[member.name] = try attribute(fetched, index, member)
    }
    for (index, member) in info.toOnes.enumerated() {
      record.relationships[member.name] = .toOne(
        try toOne(fetched, index).map {
          JSONAPIResourceIdentifier(type: member.targetType, id: $0)
        })
    }
    return record
  }

  /// The statements that read the linkage of `toMany` for the `owners` (ids of the table that
  /// owns it): `owner, target` rows, both read as text, in order.
  public func linkage(_ toMany: ToMany, of info: Table, owners: [String]) -> [SQL] {
    let join = toMany.join
    let owner = sqlQuoted(join.ownerColumn)
    let target = sqlQuoted(join.targetColumn)
    let order = "\(owner), \(join.positionColumn.map(sqlQuoted) ?? target)"
    return dialect.chunks(owners).map { chunk in
      """
      SELECT \(raw: dialect.idText(owner)), \(raw: dialect.idText(target)) \
      FROM \(raw: sqlQuoted(join.name)) WHERE \(dialect.idMatch(owner, chunk, kind: info.idKind)) \
      ORDER BY \(raw: order)
      """
    }
  }

  // MARK: - Filters

  /// The SQL of one filter condition, with the memory store's meaning (see
  /// ``SQLDialect/attributeCondition(_:_:column:kind:)``); relationships compare linkage ids.
  public func condition(_ condition: JSONAPIFilterCondition, _ info: Table) -> SQL {
    if condition.isRelationship { return relationshipCondition(condition, info) }
    if condition.member == "id" {
      return idCondition(Self.id(info), kind: info.idKind, condition.comparison, condition.values)
    }
    guard let attribute = info.attribute(named: condition.member) else {
      // No column: the member is `null` everywhere.
      let matchesNull = condition.comparison == .equals && condition.values.contains(.null)
      return matchesNull ? dialect.alwaysTrue : dialect.alwaysFalse
    }
    return dialect.attributeCondition(
      condition.comparison, condition.values, column: "\(row).\(sqlQuoted(attribute.column))",
      kind: attribute.kind)
  }

  /// A relationship condition: the linkage ids compared as ids; `equals` with `null` also matches
  /// empty linkage.
  private func relationshipCondition(_ condition: JSONAPIFilterCondition, _ info: Table) -> SQL {
    let matchesEmpty = condition.comparison == .equals && condition.values.contains(.null)
    if let toOne = info.toOne(named: condition.member) {
      let column = "\(row).\(sqlQuoted(toOne.column))"
      let compared = idCondition(
        column, kind: toOne.targetIDKind, condition.comparison, condition.values)
      let named: SQL = "(\(raw: column) IS NOT NULL AND \(compared))"
      return matchesEmpty ? dialect.any(["\(raw: column) IS NULL", named]) : named
    }
    let members: (table: String, owner: String, target: String, kind: SQLIDKind)
    if let toMany = info.toMany(named: condition.member) {
      members = (
        toMany.join.name, toMany.join.ownerColumn, toMany.join.targetColumn, toMany.targetIDKind
      )
    } else if let inverse = info.inverse(named: condition.member) {
      members = (inverse.targetTable, inverse.column, inverse.targetIDColumn, inverse.targetIDKind)
    } else {
      return matchesEmpty ? dialect.alwaysTrue : dialect.alwaysFalse
    }
    let from =
      "SELECT 1 FROM \(sqlQuoted(members.table)) AS \(linked) "
      + "WHERE \(linked).\(sqlQuoted(members.owner)) = \(Self.id(info))"
    let compared = idCondition(
      "\(linked).\(sqlQuoted(members.target))", kind: members.kind, condition.comparison,
      condition.values)
    let named: SQL = "EXISTS (\(raw: from) AND \(compared))"
    return matchesEmpty ? dialect.any(["NOT EXISTS (\(raw: from))", named]) : named
  }

  /// Ids against filter values, in the memory store's order of ids: an integer column's ids are
  /// decimal integers, which come before any other text and compare by value; a text column's
  /// compare by their UTF-8 bytes.
  public func idCondition(
    _ expression: String, kind: SQLIDKind, _ comparison: JSONAPIFilterCondition.Comparison,
    _ values: [JSONAPIValue]
  ) -> SQL {
    switch comparison {
    case .equals:
      return dialect.idMatch(expression, values.compactMap(sqlIDText(of:)), kind: kind)
    case .contains:
      return dialect.any(
        values.compactMap(\.stringValue).map { dialect.idContains(expression, $0) })
    case .lessThan, .greaterThan:
      return dialect.any(
        values.compactMap(sqlIDText(of:)).map {
          idOrder(expression, kind: kind, $0, greater: comparison == .greaterThan)
        })
    }
  }

  /// Ids strictly after (`greater`) or before `bound` in the order of ids.
  private func idOrder(_ expression: String, kind: SQLIDKind, _ bound: String, greater: Bool)
    -> SQL
  {
    if kind == .text { return dialect.textIDOrder(expression, bound, greater: greater) }
    switch SQLIntegerIDBound(bound, greater: greater) {
    case .everyID: return dialect.alwaysTrue
    case .noID: return dialect.alwaysFalse
    case .compared(let symbol, let value):
      return "\(raw: expression)\(raw: symbol)\(dialect.integer(value))"
    }
  }

  /// The resources a scope's owner names: through its join table, or (for an inverse) the rows
  /// whose to-one column names the owner.
  private func scopeCondition(_ scope: JSONAPIStoreQuery.Scope, _ info: Table) -> SQL {
    guard let ownerInfo = catalog.tables[scope.owner.type], let ownerID = scope.owner.id,
      let owner = dialect.idValue(ownerID, kind: ownerInfo.idKind)
    else { return dialect.alwaysFalse }
    if let toMany = ownerInfo.toMany(named: scope.relationship), toMany.targetType == info.type {
      let join = toMany.join
      return """
        \(raw: Self.id(info)) IN (SELECT \(raw: sqlQuoted(join.targetColumn)) \
        FROM \(raw: sqlQuoted(join.name)) WHERE \(raw: sqlQuoted(join.ownerColumn)) = \(owner))
        """
    }
    if let inverse = ownerInfo.inverse(named: scope.relationship), inverse.targetType == info.type {
      return "\(raw: row).\(raw: sqlQuoted(inverse.column)) = \(owner)"
    }
    return dialect.alwaysFalse
  }

  // MARK: - Order and keyset bounds

  /// The expression a sort field orders by; `nil` for a member without a column (`null`
  /// everywhere).
  private func orderExpression(_ field: String, _ info: Table) -> String? {
    if field == "id" {
      return info.idKind == .text ? dialect.bytewise(Self.id(info)) : Self.id(info)
    }
    return info.attribute(named: field).map { attribute in
      let column = "\(row).\(sqlQuoted(attribute.column))"
      return dialect.sortsBytewise(attribute.kind) ? dialect.bytewise(column) : column
    }
  }

  /// The rows strictly after (`after`) or strictly before `bound` in the sort: the row comparison
  /// expanded field by field, each in its direction.
  private func keyset(
    _ bound: [JSONAPIValue], fields: [JSONAPIQuery.SortField], _ info: Table, after: Bool
  ) -> SQL {
    var alternatives: [SQL] = []
    var equalSoFar: [SQL] = []
    for (field, value) in zip(fields, bound) {
      let greater = after != field.isDescending
      alternatives.append(
        dialect.all(equalSoFar + [beyond(field.field, value, info, greater: greater)]))
      equalSoFar.append(equal(field.field, value, info))
    }
    return dialect.any(alternatives)
  }

  /// The rows whose `field` is after (`greater`) or before `value` in the order `ORDER BY` uses.
  private func beyond(_ field: String, _ value: JSONAPIValue, _ info: Table, greater: Bool)
    -> SQL
  {
    if field == "id" {
      guard let text = sqlIDText(of: value) else {
        // Null, booleans and numbers come before every id; arrays and objects after.
        let isBefore = value.arrayValue == nil && value.objectValue == nil
        return greater == isBefore ? dialect.alwaysTrue : dialect.alwaysFalse
      }
      return idOrder(Self.id(info), kind: info.idKind, text, greater: greater)
    }
    guard let attribute = info.attribute(named: field) else {
      // `null` everywhere: after nothing, before every value but `null`.
      return greater || value == .null ? dialect.alwaysFalse : dialect.alwaysTrue
    }
    return dialect.attributeBeyond(
      value, column: "\(row).\(sqlQuoted(attribute.column))", kind: attribute.kind,
      greater: greater)
  }

  /// The rows whose `field` equals `value` in the sort's order.
  private func equal(_ field: String, _ value: JSONAPIValue, _ info: Table) -> SQL {
    if field == "id" {
      return idCondition(Self.id(info), kind: info.idKind, .equals, [value])
    }
    guard let attribute = info.attribute(named: field) else {
      return value == .null ? dialect.alwaysTrue : dialect.alwaysFalse
    }
    return dialect.attributeEqual(
      value, column: "\(row).\(sqlQuoted(attribute.column))", kind: attribute.kind)
  }
}

/// The statements of one page and what to do with the rows they read.
public struct SQLPagePlan<Dialect: SQLDialect>: Sendable {
  /// The table read.
  public var table: SQLStoreCatalog<Dialect.Column>.Table
  /// The page's rows: at most one more than ``limit``.
  public var select: SQLFragment<Dialect.Value>
  /// The total's count, when the query asked for it.
  public var count: SQLFragment<Dialect.Value>?
  /// The most rows the page holds.
  public var limit: Int
  /// Whether the rows were read backwards (a keyset window with only `before`).
  public var isBackwards: Bool

  /// The page's rows from what ``select`` read, in order, and whether more follow.
  public func rows<Row>(_ fetched: [Row]) -> (rows: [Row], hasMore: Bool) {
    var rows = fetched
    let hasMore = rows.count > limit
    if hasMore { rows.removeLast(rows.count - limit) }
    if isBackwards { rows.reverse() }
    return (rows, hasMore)
  }
}

extension SQLReads {
  /// `records` with the linkage of `toMany` from `pairs` (owner id, target id, in order), an
  /// empty one for owners without members.
  public func attach(
    _ pairs: [(owner: String, target: String)], of toMany: ToMany,
    to records: inout [JSONAPIResourceRecord]
  ) {
    var members: [[UInt8]: [JSONAPIResourceIdentifier]] = [:]
    for (owner, target) in pairs {
      members[Array(owner.utf8), default: []].append(
        JSONAPIResourceIdentifier(type: toMany.targetType, id: target))
    }
    for index in records.indices {
      records[index].relationships[toMany.name] = .toMany(
        members[Array(records[index].id.utf8)] ?? [])
    }
  }
}
