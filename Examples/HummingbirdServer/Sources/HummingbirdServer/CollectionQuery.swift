import GRDB
import JSONAPICodable

/// A collection's `filter` and `sort`, as parameterized SQL over the type's table: column names
/// come from the schema, every value from the request is a bound argument.
struct CollectionQuery: Sendable {
  let type: ResourceType
  private var conditions: [String] = []
  private var arguments: [DatabaseValue] = []
  private var order: [String] = []

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
    // R69: the sort fields in order, most significant first; the id breaks ties so that pages
    // never overlap.
    for field in query.sort {
      guard let column = type.sortColumns[field.field] else { continue }
      order.append(column + (field.isDescending ? " DESC" : " ASC"))
    }
    if !query.sort.contains(where: { $0.field == "id" }) { order.append("id ASC") }
  }

  private var whereClause: String {
    conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
  }

  /// How many resources the collection holds.
  func count(_ db: Database) throws -> Int64 {
    try Int64.fetchOne(
      db, sql: "SELECT COUNT(*) FROM \(type.table)" + whereClause,
      arguments: StatementArguments(arguments)) ?? 0
  }

  /// The rows of one page, in order.
  func rows(_ window: Paging.Window, _ db: Database) throws -> [Row] {
    guard let offset = window.offset else { return [] }
    let sql =
      "SELECT * FROM \(type.table)" + whereClause + " ORDER BY " + order.joined(separator: ", ")
      + " LIMIT ? OFFSET ?"
    return try Row.fetchAll(
      db, sql: sql,
      arguments: StatementArguments(arguments + [window.size.databaseValue, offset.databaseValue]))
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
