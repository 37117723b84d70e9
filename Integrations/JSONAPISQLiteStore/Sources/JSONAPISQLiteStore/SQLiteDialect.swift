import Foundation
import GRDB
import JSONAPISQLStoreKit
import JSONAPIServer

/// A fragment of SQLite SQL (the shared builder's statements, with SQLite's values).
typealias SQLiteSQL = SQLFragment<SQLiteValue>

/// SQLite's SQL: `?` placeholders (text cast, see ``SQLiteValue``), `1` and `0`, `COLLATE
/// BINARY`, `typeof` to tell the storage classes of a column apart, `instr` for text search,
/// chunked `IN` lists (``sqliteChunkSize``), and no row locks: the store runs one write at a
/// time on its writer connection (`BEGIN IMMEDIATE`).
struct SQLiteDialect: SQLDialect {
  typealias Column = SQLiteColumnKind
  typealias Value = SQLiteValue

  var alwaysTrue: SQLiteSQL { "1" }
  var alwaysFalse: SQLiteSQL { "0" }
  var idsPerStatement: Int { sqliteChunkSize }
  var countAll: String { "COUNT(*)" }
  var deleteSuffix: String { "" }

  func integer(_ value: Int64) -> SQLiteValue { .integer(value) }

  func idValue(_ id: String, kind: SQLIDKind) -> SQLiteValue? { SQLiteIDs.value(id, kind: kind) }

  func idMatch(_ expression: String, _ ids: [String], kind: SQLIDKind) -> SQLiteSQL {
    // Text ids by their bytes, whatever collation an existing table declares.
    sqliteIn(
      expression + (kind == .text ? " COLLATE BINARY" : ""),
      ids.compactMap { SQLiteIDs.value($0, kind: kind) })
  }

  func idContains(_ expression: String, _ needle: String) -> SQLiteSQL {
    "(instr(lower(CAST(\(raw: expression) AS TEXT)), lower(\(SQLiteValue.text(needle)))) > 0)"
  }

  func textIDOrder(_ expression: String, _ bound: String, greater: Bool) -> SQLiteSQL {
    "\(raw: expression) COLLATE BINARY \(raw: greater ? ">" : "<") \(SQLiteValue.text(bound))"
  }

  func idText(_ expression: String) -> String { sqlWholeText(expression) }

  /// The id, then `typeof` and the value of each attribute, then each to-one relationship's id:
  /// text read as its bytes (``sqlWholeText(_:)``).
  func selection(_ table: SQLiteTableInfo, alias: String) -> String {
    var columns = [sqlWholeText("\(alias).\(sqlQuoted(table.idColumn))")]
    for attribute in table.attributes {
      let column = "\(alias).\(sqlQuoted(attribute.column))"
      columns += ["typeof(\(column))", sqlWholeText(column)]
    }
    for toOne in table.toOnes {
      columns.append(sqlWholeText("\(alias).\(sqlQuoted(toOne.column))"))
    }
    return columns.joined(separator: ", ")
  }

  func bytewise(_ expression: String) -> String { expression + " COLLATE BINARY" }

  /// Every column: SQLite orders `NULL`, numbers, text (here by bytes), blobs.
  func sortsBytewise(_ kind: SQLiteColumnKind) -> Bool { true }

  /// SQLite already sorts `NULL` first ascending and last descending.
  func ordering(_ expression: String, descending: Bool) -> String {
    expression + (descending ? " DESC" : " ASC")
  }

  func rowCheckSuffix(forDelete: Bool) -> String { " LIMIT 1" }

  /// Nothing: the store checks a given id first, and reads a made one from its connection.
  func insertSuffix(idColumn: String, givenID: Bool) -> String { "" }

  /// Rows of `VALUES`, as many per statement as fit ``sqliteChunkSize`` parameters.
  func insertMembers(
    _ join: SQLJoinTable, owner: SQLiteValue, _ members: [String], kind: SQLIDKind
  ) -> [SQLiteSQL] {
    let values = members.compactMap { SQLiteIDs.value($0, kind: kind) }
    var columns = [sqlQuoted(join.ownerColumn), sqlQuoted(join.targetColumn)]
    if let position = join.positionColumn { columns.append(sqlQuoted(position)) }
    let rowsPerStatement = max(sqliteChunkSize / columns.count, 1)
    return stride(from: 0, to: values.count, by: rowsPerStatement).map { start in
      let rows = (start..<min(start + rowsPerStatement, values.count)).map { index -> SQLiteSQL in
        let place: SQLiteSQL =
          join.positionColumn == nil ? "" : ", \(SQLiteValue.integer(Int64(index)))"
        return "(\(owner), \(values[index])\(place))"
      }
      return """
        INSERT INTO \(raw: sqlQuoted(join.name)) (\(raw: columns.joined(separator: ", "))) \
        VALUES \(SQLiteSQL.joined(rows, separator: ", "))
        """
    }
  }

  // MARK: - Attributes

  func attributeCondition(
    _ comparison: JSONAPIFilterCondition.Comparison, _ values: [JSONAPIValue], column: String,
    kind: SQLiteColumnKind
  ) -> SQLiteSQL {
    let compared = values.compactMap { SQLiteCodec.compared($0, kind: kind) }
    switch comparison {
    case .equals:
      // Each storage class apart, so that text never equals a number.
      var parts: [SQLiteSQL] = []
      if compared.contains(where: \.isNull) { parts.append("\(raw: column) IS NULL") }
      var texts: [SQLiteValue] = []
      var numbers: [SQLiteValue] = []
      var blobs: [SQLiteValue] = []
      for value in compared {
        switch value {
        case .text: texts.append(value)
        case .integer, .real: numbers.append(value)
        case .blob: blobs.append(value)
        case .null: break
        }
      }
      if !texts.isEmpty {
        parts.append(
          "(typeof(\(raw: column)) = 'text' AND \(sqliteIn(column + " COLLATE BINARY", texts)))")
      }
      if !numbers.isEmpty {
        parts.append(
          "(typeof(\(raw: column)) IN ('integer', 'real') AND \(sqliteIn(column, numbers)))")
      }
      if !blobs.isEmpty {
        parts.append("(typeof(\(raw: column)) = 'blob' AND \(sqliteIn(column, blobs)))")
      }
      return any(parts)
    case .contains:
      guard kind == .text || kind == .date || kind == .any else { return alwaysFalse }
      // `instr`, not `LIKE`: no pattern characters to escape, and text compared whole.
      return any(
        values.compactMap(\.stringValue).map { needle in
          """
          (typeof(\(raw: column)) = 'text' \
          AND instr(lower(\(raw: column)), lower(\(SQLiteValue.text(needle)))) > 0)
          """
        })
    case .lessThan, .greaterThan:
      guard kind != .boolean, kind != .structured else { return alwaysFalse }
      let symbol = comparison == .lessThan ? " < " : " > "
      return any(
        compared.compactMap { value in
          switch value {
          case .integer, .real:
            return """
              (typeof(\(raw: column)) IN ('integer', 'real') \
              AND +\(raw: column)\(raw: symbol)\(plain(value)))
              """
          case .text:
            return """
              (typeof(\(raw: column)) = 'text' \
              AND +\(raw: column) COLLATE BINARY\(raw: symbol)\(plain(value)))
              """
          case .null, .blob:
            return nil
          }
        })
    }
  }

  /// In SQLite's order: `NULL` first, then numbers, text (by bytes), blobs — the order `ORDER
  /// BY` uses; a cursor value the column's kind cannot hold falls by its storage class.
  func attributeBeyond(
    _ value: JSONAPIValue, column: String, kind: SQLiteColumnKind, greater: Bool
  ) -> SQLiteSQL {
    let compared = SQLiteCodec.compared(value, kind: kind) ?? SQLiteCodec.generic(value)
    if compared.isNull {
      return greater ? "\(raw: column) IS NOT NULL" : alwaysFalse
    }
    if greater {
      return "(+\(raw: column) COLLATE BINARY > \(plain(compared)))"
    }
    return "(+\(raw: column) COLLATE BINARY < \(plain(compared)) OR \(raw: column) IS NULL)"
  }

  func attributeEqual(_ value: JSONAPIValue, column: String, kind: SQLiteColumnKind)
    -> SQLiteSQL
  {
    let compared = SQLiteCodec.compared(value, kind: kind) ?? SQLiteCodec.generic(value)
    if compared.isNull { return "\(raw: column) IS NULL" }
    return "(+\(raw: column) COLLATE BINARY = \(plain(compared)))"
  }

  /// A value without type affinity, so that SQLite compares it with a column by storage class
  /// and value alone (`+CAST(? AS TEXT)`: a plain `CAST` would make a number column's value
  /// compare as text).
  private func plain(_ value: SQLiteValue) -> SQLiteSQL {
    if case .text = value { return "+\(value)" }
    return "\(value)"
  }
}

// MARK: - Statements as GRDB runs them

/// A statement's text (`?` placeholders) and its arguments, in order: a fragment as GRDB runs
/// it.
struct SQL: Sendable {
  var text: String
  var arguments: [DatabaseValue]

  init(text: String, arguments: [DatabaseValue] = []) {
    self.text = text
    self.arguments = arguments
  }

  /// The fragment with SQLite's placeholders.
  init(_ fragment: SQLiteSQL) {
    let (text, values) = fragment.rendered { value, _ in value.placeholder }
    self.init(text: text, arguments: values.map(\.argument))
  }

  var statementArguments: StatementArguments { StatementArguments(arguments) }
}

/// `expression IN (values)` as GRDB runs it (see ``sqliteIn(_:_:)``).
func sqlIn(_ expression: String, _ values: [SQLiteValue]) -> SQL {
  SQL(sqliteIn(expression, values))
}

/// `expression IN (values)`; a longer list than ``sqliteChunkSize`` is bound as one JSON array
/// (read by `json_each`) when it holds only integers and text, or as several lists otherwise.
///
/// A list is padded with its last value to a power of two (or to ``sqliteChunkSize``), which
/// changes nothing it matches: reads then have a few shapes of SQL text, whose prepared
/// statements ``SQLiteStatements`` keeps.
func sqliteIn(_ expression: String, _ values: [SQLiteValue]) -> SQLiteSQL {
  let dialect = SQLiteDialect()
  guard let last = values.last else { return dialect.alwaysFalse }
  if values.count <= sqliteChunkSize {
    var width = 1
    while width < values.count { width *= 2 }
    let padded = values + repeatElement(last, count: min(width, sqliteChunkSize) - values.count)
    let list = SQLiteSQL.joined(padded.map { value -> SQLiteSQL in "\(value)" }, separator: ", ")
    return "\(raw: expression) IN (\(list))"
  }
  // Integers and text only: SQLite's JSON reader is exact for those.
  let elements: [JSONAPIValue] = values.compactMap { value in
    switch value {
    case .integer(let number): return Int(exactly: number).map(JSONAPIValue.integer)
    case .text(let text): return .string(text)
    case .null, .real, .blob: return nil
    }
  }
  if elements.count == values.count, let json = try? SQLiteJSON.text(of: .array(elements)) {
    return "\(raw: expression) IN (SELECT value FROM json_each(\(SQLiteValue.text(json))))"
  }
  return dialect.any(
    stride(from: 0, to: values.count, by: sqliteChunkSize).map { start in
      sqliteIn(expression, Array(values[start..<min(start + sqliteChunkSize, values.count)]))
    })
}
