import GRDB
import JSONAPICodable

/// A collection's `filter`, `sort` and page, as parameterized SQL over the type's table: column
/// names come from the schema, every value from the request is a bound argument.
struct CollectionQuery: Sendable {
  /// One column of the sort order.
  struct SortKey: Sendable {
    var column: String
    var descending: Bool
    /// Whether the column holds integers (ids) rather than text.
    var isInteger: Bool { column == "id" || column.hasSuffix("_id") }
  }

  let type: ResourceType
  private var conditions: [String] = []
  private var arguments: [DatabaseValue] = []
  /// R69: the sort fields in order, most significant first, then the id, which breaks ties so
  /// that pages never overlap and every cursor names one place.
  private(set) var keys: [SortKey] = []

  /// At most this many ids in one `filter[…]` list.
  static let maxFilterIDs = 100

  /// - Parameters:
  ///   - scope: A column and the id it must hold: the comments of one article for
  ///     `/articles/1/comments`.
  /// - Throws: `JSONAPIQueryError` (400) for a filter value this server cannot read. The query
  ///   must have passed `type.collectionRules` first.
  init(_ type: ResourceType, _ query: JSONAPIQuery, scope: (column: String, id: Int64)? = nil)
    throws
  {
    self.type = type
    if let scope {
      conditions.append("\(scope.column) = ?")
      arguments.append(scope.id.databaseValue)
    }
    for member in query.filter.keys.sorted() {
      guard let filter = type.filters[member], let value = query.filter[member] else { continue }
      switch filter {
      case .ids(let column):
        let ids = try Self.ids(value, parameter: "filter[\(member)]")
        conditions.append("\(column) IN " + Graph.placeholders(ids.count))
        arguments += ids.map(\.databaseValue)
      case .contains(let column):
        conditions.append("\(column) LIKE ? ESCAPE '\\'")
        arguments.append(("%" + Self.escapingLike(value) + "%").databaseValue)
      }
    }
    for field in query.sort {
      guard let column = type.sortColumns[field.field],
        !keys.contains(where: { $0.column == column })
      else { continue }
      keys.append(SortKey(column: column, descending: field.isDescending))
    }
    if !keys.contains(where: { $0.column == "id" }) {
      keys.append(SortKey(column: "id", descending: false))
    }
  }

  /// How many resources the collection holds.
  func count(_ db: Database) throws -> Int64 {
    try Int64.fetchOne(
      db, sql: "SELECT COUNT(*) FROM \(type.table)" + Self.whereClause(conditions),
      arguments: StatementArguments(arguments)) ?? 0
  }

  /// The rows of `page`, in order; whether more lie in the direction of reading (after the page,
  /// or before it for `page[before]` alone; for a range, more in it than the page holds); and
  /// each row's cursor.
  ///
  /// - Throws: `JSONAPIPagingError.invalidValue` for a cursor this server did not make for this
  ///   sort order.
  func rows(_ page: JSONAPIPaging.Page, _ db: Database) throws
    -> (rows: [Row], hasMore: Bool, cursors: [String])
  {
    var conditions = conditions
    var arguments = arguments
    // `page[before]` alone reads backwards from the cursor: the nearest rows first, reversed
    // afterwards. Everything else reads forwards, from the start or from `page[after]`.
    let backwards = page.before != nil && page.after == nil
    for (member, text, forwards) in [("after", page.after, true), ("before", page.before, false)] {
      guard let text else { continue }
      let (condition, values) = try keyset(member, text, forwards: forwards)
      conditions.append(condition)
      arguments += values
    }
    let order = keys.map { key in
      key.column + (key.descending != backwards ? " DESC" : " ASC")
    }
    // One row more than the page holds says whether more follow.
    var sql =
      "SELECT * FROM \(type.table)" + Self.whereClause(conditions) + " ORDER BY "
      + order.joined(separator: ", ") + " LIMIT ?"
    arguments.append(Int64(page.size + 1).databaseValue)
    if page.after == nil, page.before == nil, let offset = page.offset {
      sql += " OFFSET ?"
      arguments.append(Int64(offset).databaseValue)
    }
    var rows = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments))
    let hasMore = rows.count > page.size
    rows = Array(rows.prefix(page.size))
    if backwards { rows.reverse() }
    return (rows, hasMore, rows.map { cursor(for: $0).text })
  }

  /// The place of `row` in this sort order.
  func cursor(for row: Row) -> Cursor {
    Cursor(
      values: keys.map { key in
        key.isInteger ? (row.integer(key.column).map { String($0) } ?? "") : row.text(key.column)
      })
  }

  /// The condition that keeps the rows after (`forwards`) or before the place a cursor names:
  /// in sort order, greater (or smaller) in the first key that differs.
  private func keyset(_ member: String, _ text: String, forwards: Bool) throws
    -> (String, [DatabaseValue])
  {
    guard let cursor = Cursor(text), cursor.values.count == keys.count else {
      throw JSONAPIPagingError.invalidValue(
        parameter: "page[\(member)]", value: text,
        reason: "it is not a cursor of this collection in this order")
    }
    var values: [DatabaseValue] = []
    for (key, value) in zip(keys, cursor.values) {
      if key.isInteger {
        guard let id = databaseID(value) else {
          throw JSONAPIPagingError.invalidValue(
            parameter: "page[\(member)]", value: text,
            reason: "it is not a cursor of this collection in this order")
        }
        values.append(id.databaseValue)
      } else {
        values.append(value.databaseValue)
      }
    }
    var alternatives: [String] = []
    var arguments: [DatabaseValue] = []
    for index in keys.indices {
      var parts = keys[..<index].map { "\($0.column) = ?" }
      let key = keys[index]
      parts.append(key.column + (key.descending != forwards ? " > ?" : " < ?"))
      alternatives.append("(" + parts.joined(separator: " AND ") + ")")
      arguments += values[...index]
    }
    return ("(" + alternatives.joined(separator: " OR ") + ")", arguments)
  }

  private static func whereClause(_ conditions: [String]) -> String {
    conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
  }

  /// `1,5,9` as ids: at most ``maxFilterIDs``, each a whole number (a resource that cannot
  /// exist, such as `abc`, is a client error here rather than an empty page).
  private static func ids(_ value: String, parameter: String) throws -> [Int64] {
    let parts = value.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count <= maxFilterIDs else {
      throw JSONAPIQueryError.malformedParameter(
        name: parameter, reason: "it lists more than \(maxFilterIDs) ids")
    }
    return try parts.map { part in
      guard let id = databaseID(part) else {
        throw JSONAPIQueryError.malformedParameter(
          name: parameter, reason: "`\(part)` is not an id: ids are whole numbers")
      }
      return id
    }
  }

  /// `text` matched literally by LIKE: its `%`, `_` and the escape character itself escaped.
  private static func escapingLike(_ text: String) -> String {
    var escaped = ""
    for character in text {
      if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
      escaped.append(character)
    }
    return escaped
  }
}
