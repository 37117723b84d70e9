import JSONAPIServer

/// The aliases of one nesting level of a statement: the table read at that level, the linkage
/// a relationship filter of that level looks into, and the join table a row condition crosses to
/// reach that level. Level 0 is the table a read selects from (`_r`, `_m`); a row condition's
/// subquery one level down reads `_r1` (through `_j1`), and so on, so that no subquery's alias
/// hides one that a condition inside it still names.
@usableFromInline
struct SQLAliases: Sendable {
  /// The table read at this level.
  @usableFromInline let row: String
  /// The linkage a relationship filter of this level looks into.
  @usableFromInline let linked: String
  /// The join table a subquery crosses to reach this level's table.
  @usableFromInline let join: String
  /// The nesting level (0: the statement's own table).
  @usableFromInline let level: Int

  @inlinable
  init(level: Int) {
    self.level = level
    let suffix = level == 0 ? "" : String(level)
    row = sqlQuoted("_r" + suffix)
    linked = sqlQuoted("_m" + suffix)
    join = sqlQuoted("_j" + suffix)
  }

  /// The aliases of the statement's own table.
  @usableFromInline static let top = SQLAliases(level: 0)

  /// The aliases of the level below.
  @inlinable var next: SQLAliases { SQLAliases(level: level + 1) }
}

/// The alias of the table a read selects from.
@usableFromInline let row = SQLAliases.top.row

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
  @usableFromInline let selections: [String: String]

  /// Reads over `catalog` in `dialect`.
  public init(catalog: SQLStoreCatalog<Dialect.Column>, dialect: Dialect) {
    self.catalog = catalog
    self.dialect = dialect
    selections = catalog.tables.mapValues { dialect.selection($0, alias: row) }
  }

  // MARK: - Resources by id

  /// The `SELECT`s of the resources of `type` among `ids`: one per ``SQLDialect/idsPerStatement``
  /// ids the id column can hold (each once); none for an unknown type.
  @inlinable
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
  @inlinable
  public func page(_ query: JSONAPIStoreQuery) -> SQLPagePlan<Dialect>? {
    guard let info = catalog.tables[query.type] else { return nil }
    var conditions = query.filters.map { condition($0, info) }
    if let scope = query.scope { conditions.append(scopeCondition(scope, info)) }
    // With the filters, so that the page, its `hasMore` and its count hold visible rows only.
    let visibility = query.visibility.map { rowCondition($0, info) }
    if let visibility { conditions.append(visibility.condition) }
    let with = visibility?.prefix ?? ""
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
      \(with)SELECT \(raw: selection(info)) FROM \(raw: sqlQuoted(info.table)) AS \(raw: row) \
      WHERE \(dialect.all(conditions + bounds)) ORDER BY \(raw: order.joined(separator: ", ")) \
      LIMIT \(dialect.integer(Int64(fetched))) OFFSET \(dialect.integer(Int64(offset)))
      """
    let count: SQL? =
      query.countsTotal
      ? """
      \(with)SELECT \(raw: dialect.countAll) FROM \(raw: sqlQuoted(info.table)) AS \(raw: row) \
      WHERE \(dialect.all(conditions))
      """ : nil
    return SQLPagePlan(
      table: info, select: select, count: count, limit: limit, isBackwards: isBackwards)
  }

  // MARK: - Rows to records

  /// The id column of the table read.
  @inlinable
  public static func id(_ info: Table) -> String { id(info, row) }

  /// The id column of `info` read as `alias`.
  @inlinable
  static func id(_ info: Table, _ alias: String) -> String {
    "\(alias).\(sqlQuoted(info.idColumn))"
  }

  @inlinable
  func selection(_ info: Table) -> String {
    selections[info.type] ?? dialect.selection(info, alias: row)
  }

  /// A record from one row selected by ``SQLDialect/selection(_:alias:)``, without to-many
  /// linkage: `id` reads the id, `attribute` each attribute (by its index among the table's
  /// attributes), `toOne` each to-one relationship's id (by its index); `nil` for a row without
  /// an id.
  // Inlinable, as the other per-row parts below: a store's module then specialises it for its
  // dialect and row type, where an unspecialised generic call asks the runtime for generic
  // metadata on every row.
  @inlinable
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
  @inlinable
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

  /// The statements that read the linkage of `toMany` for `owners`: whole
  /// (``linkage(_:of:owners:)``), or within `bound` (``boundedLinkage(_:of:owners:limit:visibility:)``
  /// with the bound's visibility of the target type). Inlinable, as the whole read is: the
  /// stores call this one, and a generic call here would take the whole read's statements out of
  /// their specialised path.
  @inlinable
  public func linkage(
    _ toMany: ToMany, of info: Table, owners: [String], bound: JSONAPIStoreLinkageBound?
  ) -> [SQL] {
    guard let bound else { return linkage(toMany, of: info, owners: owners) }
    return boundedLinkage(
      toMany, of: info, owners: owners, limit: bound.limit,
      visibility: bound.visibility[toMany.targetType])
  }

  /// The most owners one statement of ``boundedLinkage(_:of:owners:limit:visibility:)`` reads:
  /// each is a `SELECT` of its own in a compound one, and SQLite takes at most 500 of those.
  public static var boundedLinkageOwnersPerStatement: Int { 100 }

  /// The statements that read at most `limit` members of `toMany` for each of `owners`, the first
  /// in the linkage's order, among the target rows `visibility` admits (every one for `nil`):
  /// `owner, target` rows as ``linkage(_:of:owners:)`` reads them, in order.
  ///
  /// Each owner is a `SELECT … ORDER BY … LIMIT` of its own, the owners of one statement joined
  /// by `UNION ALL`, so that the database reads at most `limit` members per owner where the join
  /// table has an index that starts with its owner column (the stores' tables do), however many
  /// the relationship names.
  public func boundedLinkage(
    _ toMany: ToMany, of info: Table, owners: [String], limit: Int,
    visibility: JSONAPIRowCondition?
  ) -> [SQL] {
    let join = toMany.join
    let alias = sqlQuoted("_l")
    let owner = "\(alias).\(sqlQuoted(join.ownerColumn))"
    let target = "\(alias).\(sqlQuoted(join.targetColumn))"
    let position = join.positionColumn.map { "\(alias).\(sqlQuoted($0))" } ?? target
    // The visibility of the target's rows: once per statement, the same in every part.
    var visible: (condition: RowCondition, table: Table)?
    if let visibility {
      guard let targetInfo = catalog.tables[toMany.targetType],
        targetInfo.idKind == toMany.targetIDKind
      else { return [] }
      visible = (rowCondition(visibility, targetInfo), targetInfo)
    }
    let size = max(min(dialect.idsPerStatement, Self.boundedLinkageOwnersPerStatement), 1)
    var statements: [SQL] = []
    var parts: [SQL] = []
    func flush() {
      guard !parts.isEmpty else { return }
      statements.append(
        (visible?.condition.prefix ?? "") + .joined(parts, separator: " UNION ALL ")
          + " ORDER BY \"o\", \"p\"")
      parts = []
    }
    for id in dialect.chunks(owners).joined() {
      guard let value = dialect.idValue(id, kind: info.idKind) else { continue }
      var conditions: [SQL] = ["\(raw: owner) = \(value)"]
      if let visible {
        let tie = idsEqual(Self.id(visible.table, row), target, kind: visible.table.idKind)
        conditions.append(
          """
          EXISTS (SELECT 1 FROM \(raw: sqlQuoted(visible.table.table)) AS \(raw: row) \
          WHERE \(raw: tie) AND \(visible.condition.condition))
          """)
      }
      parts.append(
        """
        SELECT * FROM (SELECT \(raw: dialect.idText(owner)) AS "o", \
        \(raw: dialect.idText(target)) AS "t", \(raw: position) AS "p" \
        FROM \(raw: sqlQuoted(join.name)) AS \(raw: alias) WHERE \(dialect.all(conditions)) \
        ORDER BY \(raw: position) LIMIT \(dialect.integer(Int64(max(limit, 0))))) \
        AS \(raw: sqlQuoted("_l\(parts.count)"))
        """)
      if parts.count == size { flush() }
    }
    flush()
    return statements
  }

  // MARK: - Filters

  /// The SQL of one filter condition, with the memory store's meaning (see
  /// ``SQLDialect/attributeCondition(_:_:column:kind:)``); relationships compare linkage ids.
  @inlinable
  public func condition(_ condition: JSONAPIFilterCondition, _ info: Table) -> SQL {
    self.condition(condition, info, at: .top)
  }

  /// ``condition(_:_:)`` on the rows of `info` read at the nesting level of `aliases`.
  @inlinable
  func condition(_ condition: JSONAPIFilterCondition, _ info: Table, at aliases: SQLAliases)
    -> SQL
  {
    let row = aliases.row
    if condition.isRelationship { return relationshipCondition(condition, info, at: aliases) }
    if condition.member == "id" {
      return idCondition(
        Self.id(info, row), kind: info.idKind, condition.comparison, condition.values)
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
  @inlinable
  func relationshipCondition(
    _ condition: JSONAPIFilterCondition, _ info: Table, at aliases: SQLAliases
  ) -> SQL {
    let row = aliases.row
    let linked = aliases.linked
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
      + "WHERE \(linked).\(sqlQuoted(members.owner)) = \(Self.id(info, row))"
    let compared = idCondition(
      "\(linked).\(sqlQuoted(members.target))", kind: members.kind, condition.comparison,
      condition.values)
    let named: SQL = "EXISTS (\(raw: from) AND \(compared))"
    return matchesEmpty ? dialect.any(["NOT EXISTS (\(raw: from))", named]) : named
  }

  /// Ids against filter values, in the memory store's order of ids: an integer column's ids are
  /// decimal integers, which come before any other text and compare by value; a text column's
  /// compare by their UTF-8 bytes.
  @inlinable
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
  @inlinable
  func idOrder(_ expression: String, kind: SQLIDKind, _ bound: String, greater: Bool)
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
  @inlinable
  func scopeCondition(_ scope: JSONAPIStoreQuery.Scope, _ info: Table) -> SQL {
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

  // MARK: - Row conditions

  /// The deepest a row condition is translated; what lies deeper admits no row (fail closed). The
  /// server never sends one this deep (it stops at a shallower depth), so only a query built by
  /// hand meets it, and the translation's own recursion stays bounded.
  public static var maxRowConditionDepth: Int { 64 }

  /// The most `all` and `any` nest inside one part of a statement before the rest of the tree
  /// moves to a `WITH` part of its own: SQLite's parser has a fixed stack (a few dozen nested
  /// parentheses), which a statement's nesting must stay well within.
  @usableFromInline static var maxInlineNesting: Int { 6 }

  /// A row condition as SQL: the parts of the statement's `WITH` clause it needs, each defined
  /// before the parts that name it, and the condition on the statement's own rows.
  @usableFromInline
  struct RowCondition {
    var with: [SQL] = []
    @usableFromInline var condition: SQL

    /// `WITH …` and a space, or nothing.
    @usableFromInline var prefix: SQL { with.isEmpty ? "" : "WITH " + .joined(with, separator: ", ") + " " }
  }

  /// The SQL of a row condition (``JSONAPIStoreQuery/visibility``) on the rows of `info`, with
  /// the memory store's meaning: filters as ``condition(_:_:)``, `all` and `any` as `AND` and
  /// `OR`, and each `related` or `namedBy` step as a `WITH` part holding the ids it admits (read
  /// once per statement, as the memory store reads one id set per step), so that the statement
  /// nests no deeper however deep the condition does. `visible` (which the server replaces before
  /// a store sees it), an undeclared relationship or type, and a join of ids of two kinds admit no
  /// row.
  @usableFromInline
  func rowCondition(_ condition: JSONAPIRowCondition, _ info: Table) -> RowCondition {
    var with = Parts()
    let sql = rowCondition(condition, info, at: .top, depth: 0, nesting: 0, with: &with)
    return RowCondition(with: with.sql, condition: sql)
  }

  private func rowCondition(
    _ condition: JSONAPIRowCondition, _ info: Table, at aliases: SQLAliases, depth: Int,
    nesting: Int, with: inout Parts
  ) -> SQL {
    guard depth < Self.maxRowConditionDepth else { return dialect.alwaysFalse }
    switch condition {
    case .always: return dialect.alwaysTrue
    case .never, .visible: return dialect.alwaysFalse
    case .filter(let filter): return self.condition(filter, info, at: aliases)
    case .all, .any:
      guard nesting < Self.maxInlineNesting else {
        // The rest of the tree in a part of its own: the ids of the rows of `info` it admits.
        let (name, below) = with.next()
        let inner = rowCondition(condition, info, at: below, depth: depth, nesting: 0, with: &with)
        with.append(
          """
          \(raw: name)("v") AS (SELECT \(raw: Self.id(info, below.row)) \
          FROM \(raw: sqlQuoted(info.table)) AS \(raw: below.row) WHERE \(inner))
          """)
        return idIn(Self.id(info, aliases.row), name, kind: info.idKind)
      }
      let isAll: Bool
      if case .all = condition { isAll = true } else { isAll = false }
      let parts = flattened(condition, isAll: isAll, depth: depth).map { part, partDepth in
        rowCondition(part, info, at: aliases, depth: partDepth, nesting: nesting + 1, with: &with)
      }
      return isAll ? dialect.all(parts) : dialect.any(parts)
    case .related(let name, let inner):
      return step(
        relatedStep(name, of: info), inner, from: aliases, naming: info, depth: depth,
        with: &with)
    case .namedBy(let other, let name, let inner):
      return step(
        namingStep(other, name, naming: info), inner, from: aliases, naming: info, depth: depth,
        with: &with)
    }
  }

  /// The parts of an `all` (`isAll`) or `any`, with the parts of the same kind nested in them
  /// lifted up (`a AND (b AND c)` is `a AND b AND c`), and a single part unwrapped: each with its
  /// depth, which counts every level lifted, so that the depth bound holds as without lifting.
  private func flattened(_ condition: JSONAPIRowCondition, isAll: Bool, depth: Int)
    -> [(JSONAPIRowCondition, Int)]
  {
    var lifted: [(JSONAPIRowCondition, Int)] = []
    var stack: [(JSONAPIRowCondition, Int)] = [(condition, depth)]
    while let (next, level) = stack.popLast() {
      switch next {
      case .all(let parts) where isAll && level < Self.maxRowConditionDepth,
        .any(let parts) where !isAll && level < Self.maxRowConditionDepth:
        stack += parts.reversed().map { ($0, level + 1) }
      case .all(let parts) where parts.count == 1 && level < Self.maxRowConditionDepth,
        .any(let parts) where parts.count == 1 && level < Self.maxRowConditionDepth:
        stack.append((parts[0], level + 1))
      default:
        lifted.append((next, level))
      }
    }
    return lifted
  }

  /// The `WITH` parts of one statement, in the order they name each other, and how many have
  /// been named (a part is named before the parts its body needs, and appended after them).
  struct Parts {
    var sql: [SQL] = []
    var named = 0

    /// A new part's name (`_v1`, `_v2`…) and the aliases its body reads with: a body names only
    /// its own aliases and earlier parts.
    mutating func next() -> (String, SQLAliases) {
      named += 1
      return (sqlQuoted("_v\(named)"), SQLAliases(level: named))
    }

    mutating func append(_ part: SQL) { sql.append(part) }
  }

  /// `expression` is one of the ids the part `name` holds (ids of `kind`, text by its bytes).
  private func idIn(_ expression: String, _ name: String, kind: SQLIDKind) -> SQL {
    let compared = kind == .text ? dialect.bytewise(expression) : expression
    return "\(raw: compared) IN (SELECT \"v\" FROM \(raw: name))"
  }

  /// How the rows of one type reach the rows of another, read in a `WITH` part of their own:
  /// the other table, what the part selects, what its `FROM` adds, what ties them, and what of
  /// the row the part's ids are compared with.
  private struct Step {
    /// The rows the inner condition is about.
    var target: Table
    /// What the part selects, of the target (`_rN`) or of a join table (`_jN`), given the
    /// part's aliases.
    var selected: (SQLAliases) -> String
    /// A join table the part reads beside the target, and the equality that ties them.
    var join: (table: String, tie: (SQLAliases) -> String)?
    /// The row's column compared with the part's ids (its id, or its to-one column), and how
    /// those ids are kept.
    var compared: (SQLAliases) -> String
    var kind: SQLIDKind
  }

  /// The rows of `info` that a step reaches a row of it from meeting `inner`: the step's ids in a
  /// `WITH` part, and the row's column among them.
  private func step(
    _ step: Step?, _ inner: JSONAPIRowCondition, from aliases: SQLAliases, naming info: Table,
    depth: Int, with: inout Parts
  ) -> SQL {
    guard let step else { return dialect.alwaysFalse }
    let (name, below) = with.next()
    var conditions: [SQL] = []
    var from = "\(sqlQuoted(step.target.table)) AS \(below.row)"
    if let join = step.join {
      from = "\(sqlQuoted(join.table)) AS \(below.join), " + from
      conditions.append("\(raw: join.tie(below))")
    }
    if inner != .always {
      conditions.append(
        rowCondition(inner, step.target, at: below, depth: depth + 1, nesting: 0, with: &with))
    }
    let selected = step.selected(below)
    with.append(
      """
      \(raw: name)("v") AS (SELECT \(raw: selected) FROM \(raw: from) \
      WHERE \(dialect.all(conditions + ["\(raw: selected) IS NOT NULL"])))
      """)
    return idIn(step.compared(aliases), name, kind: step.kind)
  }

  /// Two id columns equal, both holding ids of `kind` (text ones by their bytes).
  private func idsEqual(_ lhs: String, _ rhs: String, kind: SQLIDKind) -> String {
    kind == .text ? "\(dialect.bytewise(lhs)) = \(rhs)" : "\(lhs) = \(rhs)"
  }

  /// The step of `info`'s relationship `name`: to the target of a to-one column, to the members
  /// of a join table, or for an inverse to the rows whose to-one names the row. `nil` when `name`
  /// is none of these or the step would compare ids of two kinds.
  private func relatedStep(_ name: String, of info: Table) -> Step? {
    let owner = { (aliases: SQLAliases) in Self.id(info, aliases.row) }
    if let toOne = info.toOne(named: name) {
      guard let target = catalog.tables[toOne.targetType], target.idKind == toOne.targetIDKind
      else { return nil }
      return Step(
        target: target, selected: { Self.id(target, $0.row) }, join: nil,
        compared: { "\($0.row).\(sqlQuoted(toOne.column))" }, kind: target.idKind)
    }
    if let toMany = info.toMany(named: name) {
      guard let target = catalog.tables[toMany.targetType], target.idKind == toMany.targetIDKind
      else { return nil }
      return joinStep(
        target, toMany.join, selected: toMany.join.ownerColumn, tied: toMany.join.targetColumn,
        comparedWith: info)
    }
    if let inverse = info.inverse(named: name) {
      guard let target = catalog.tables[inverse.targetType],
        target.toOnes.contains(where: {
          $0.column == inverse.column && $0.targetType == info.type
            && $0.targetIDKind == info.idKind
        })
      else { return nil }
      return Step(
        target: target, selected: { "\($0.row).\(sqlQuoted(inverse.column))" }, join: nil,
        compared: owner, kind: info.idKind)
    }
    return nil
  }

  /// A step across a join table: the part reads `join` beside `target`, ties the target's id to
  /// the join's column `tied`, and selects the join's column `selected`, ids of `info`'s rows.
  private func joinStep(
    _ target: Table, _ join: SQLJoinTable, selected: String, tied: String,
    comparedWith info: Table
  ) -> Step {
    Step(
      target: target, selected: { "\($0.join).\(sqlQuoted(selected))" },
      join: (
        join.name,
        {
          self.idsEqual(
            Self.id(target, $0.row), "\($0.join).\(sqlQuoted(tied))", kind: target.idKind)
        }
      ), compared: { Self.id(info, $0.row) }, kind: info.idKind)
  }

  /// The step to the rows of `other` whose relationship `name` names a row of `info`: by their
  /// to-one column, their join table, or (for an inverse of `other`) the row's own to-one. `nil`
  /// when `name` is not a relationship of `other` to `info`'s type or the step would compare ids
  /// of two kinds.
  private func namingStep(_ other: String, _ name: String, naming info: Table) -> Step? {
    guard let source = catalog.tables[other] else { return nil }
    let owner = { (aliases: SQLAliases) in Self.id(info, aliases.row) }
    if let toOne = source.toOne(named: name) {
      guard toOne.targetType == info.type, toOne.targetIDKind == info.idKind else { return nil }
      return Step(
        target: source, selected: { "\($0.row).\(sqlQuoted(toOne.column))" }, join: nil,
        compared: owner, kind: info.idKind)
    }
    if let toMany = source.toMany(named: name) {
      guard toMany.targetType == info.type, toMany.targetIDKind == info.idKind else { return nil }
      return joinStep(
        source, toMany.join, selected: toMany.join.targetColumn, tied: toMany.join.ownerColumn,
        comparedWith: info)
    }
    if let inverse = source.inverse(named: name) {
      guard inverse.targetType == info.type,
        let toOne = info.toOnes.first(where: { $0.column == inverse.column }),
        toOne.targetType == other, toOne.targetIDKind == source.idKind
      else { return nil }
      return Step(
        target: source, selected: { Self.id(source, $0.row) }, join: nil,
        compared: { "\($0.row).\(sqlQuoted(toOne.column))" }, kind: source.idKind)
    }
    return nil
  }

  // MARK: - Order and keyset bounds

  /// The expression a sort field orders by; `nil` for a member without a column (`null`
  /// everywhere).
  @inlinable
  func orderExpression(_ field: String, _ info: Table) -> String? {
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
  @inlinable
  func keyset(
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
  @inlinable
  func beyond(_ field: String, _ value: JSONAPIValue, _ info: Table, greater: Bool)
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
  @inlinable
  func equal(_ field: String, _ value: JSONAPIValue, _ info: Table) -> SQL {
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

  /// A plan of `select` (and `count`) reading at most `limit` rows of `table`.
  @inlinable
  public init(
    table: SQLStoreCatalog<Dialect.Column>.Table, select: SQLFragment<Dialect.Value>,
    count: SQLFragment<Dialect.Value>?, limit: Int, isBackwards: Bool
  ) {
    self.table = table
    self.select = select
    self.count = count
    self.limit = limit
    self.isBackwards = isBackwards
  }

  /// The page's rows from what ``select`` read, in order, and whether more follow.
  @inlinable
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
  @inlinable
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
