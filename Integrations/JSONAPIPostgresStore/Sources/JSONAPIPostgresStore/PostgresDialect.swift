import JSONAPISQLStoreKit
import JSONAPIServer

/// PostgreSQL's SQL: `$n` placeholders, `TRUE` and `FALSE`, `COLLATE "C"` for byte order, typed
/// columns (`jsonb` for dates and any JSON), `strpos` for text search, one array for any number
/// of ids (`= ANY($1)`, `unnest`), `NULLS FIRST`, row locks (`FOR UPDATE`, `FOR NO KEY
/// UPDATE`), `ON CONFLICT` and `RETURNING`. Its text and `jsonb` hold no U+0000: values holding
/// it are refused on write and match nothing on read.
struct PostgresDialect: SQLDialect {
  typealias Column = PGColumnKind
  typealias Value = PGValue

  var alwaysTrue: PGSQL { "TRUE" }
  var alwaysFalse: PGSQL { "FALSE" }
  /// One bound array holds any number of ids.
  var idsPerStatement: Int { Int.max }
  var countAll: String { "count(*)" }
  var deleteSuffix: String { " RETURNING 1" }

  func integer(_ value: Int64) -> PGValue { .integer(value) }

  func idValue(_ id: String, kind: SQLIDKind) -> PGValue? { PGIDs.value(id, kind: kind) }

  func idMatch(_ expression: String, _ ids: [String], kind: SQLIDKind) -> PGSQL {
    "\(raw: expression) = ANY(\(PGIDs.array(ids, kind: kind)))"
  }

  func idContains(_ expression: String, _ needle: String) -> PGSQL {
    // Stored text holds no U+0000, so no text contains a needle that does.
    guard !needle.utf8.contains(0) else { return alwaysFalse }
    return """
      (strpos(lower(\(raw: pgBytewise(expression + "::text"))), \
      lower(\(PGValue.text(needle)) COLLATE "C")) > 0)
      """
  }

  func textIDOrder(_ expression: String, _ bound: String, greater: Bool) -> PGSQL {
    textOrder(pgBytewise(expression), bound, greater: greater)
  }

  func idText(_ expression: String) -> String { expression + "::text" }

  /// The id as text, each attribute (JSON as its text), each to-one relationship's id as text.
  func selection(_ table: PGTable, alias: String) -> String {
    var columns = ["\(alias).\(sqlQuoted(table.idColumn))::text"]
    for attribute in table.attributes {
      columns.append(attribute.kind.selected("\(alias).\(sqlQuoted(attribute.column))"))
    }
    for toOne in table.toOnes {
      columns.append("\(alias).\(sqlQuoted(toOne.column))::text")
    }
    return columns.joined(separator: ", ")
  }

  func bytewise(_ expression: String) -> String { pgBytewise(expression) }

  /// Text columns only: the others have no collation.
  func sortsBytewise(_ kind: PGColumnKind) -> Bool { kind == .text }

  /// Nulls first, as the other stores order them; descending turns the whole order around.
  func ordering(_ expression: String, descending: Bool) -> String {
    expression + (descending ? " DESC NULLS LAST" : " ASC NULLS FIRST")
  }

  /// A row lock until the transaction ends, so that two transactions changing one resource (from
  /// one server or from two) run one after the other: `FOR NO KEY UPDATE` for changes, which
  /// lets other transactions still name the row (foreign keys take a share lock); `FOR UPDATE`
  /// for a delete.
  func rowCheckSuffix(forDelete: Bool) -> String {
    forDelete ? " FOR UPDATE" : " FOR NO KEY UPDATE"
  }

  /// A given id that is taken inserts nothing (and returns no row); a made one never is.
  func insertSuffix(idColumn: String, givenID: Bool) -> String {
    let id = sqlQuoted(idColumn)
    return (givenID ? " ON CONFLICT (\(id)) DO NOTHING" : "") + " RETURNING \(id)::text"
  }

  /// One statement: the members as one array, their places from `WITH ORDINALITY`.
  func insertMembers(
    _ join: SQLJoinTable, owner: PGValue, _ members: [String], kind: SQLIDKind
  ) -> [PGSQL] {
    let position = join.positionColumn.map { ", " + sqlQuoted($0) } ?? ""
    return [
      """
      INSERT INTO \(raw: sqlQuoted(join.name)) \
      (\(raw: sqlQuoted(join.ownerColumn)), \(raw: sqlQuoted(join.targetColumn))\(raw: position)) \
      SELECT \(owner), m.target\(raw: position.isEmpty ? "" : ", m.place - 1") \
      FROM unnest(\(PGIDs.array(members, kind: kind))) WITH ORDINALITY AS m(target, place)
      """
    ]
  }

  // MARK: - Attributes

  func attributeCondition(
    _ comparison: JSONAPIFilterCondition.Comparison, _ values: [JSONAPIValue], column: String,
    kind: PGColumnKind
  ) -> PGSQL {
    switch comparison {
    case .equals:
      var parts: [PGSQL] = []
      if values.contains(.null) { parts.append("\(raw: column) IS NULL") }
      for value in values where value != .null {
        guard let compared = PGCodec.compared(value, kind: kind) else { continue }
        parts.append(
          kind == .text
            ? "\(raw: pgBytewise(column)) = \(compared)" : "\(raw: column) = \(compared)")
      }
      return any(parts)
    case .contains:
      let text: String
      switch kind {
      case .text: text = column
      case .json: text = Self.jsonString(column)
      case .integer, .real, .boolean: return alwaysFalse
      }
      // `strpos`, not `LIKE`: no pattern characters to escape.
      return any(
        values.compactMap(\.stringValue).map { needle in
          // Stored text holds no U+0000, so no text contains a needle that does.
          guard !needle.utf8.contains(0) else { return alwaysFalse }
          return """
            (strpos(lower(\(raw: pgBytewise(text))), lower(\(PGValue.text(needle)) COLLATE "C")) > 0)
            """
        })
    case .lessThan, .greaterThan:
      guard kind != .boolean else { return alwaysFalse }
      let greater = comparison == .greaterThan
      return any(
        values.compactMap { value in
          switch (kind, value) {
          case (.text, .string(let text)):
            return textOrder(pgBytewise(column), text, greater: greater)
          case (.integer, .integer), (.integer, .number), (.real, .integer), (.real, .number):
            return PGCodec.compared(value, kind: kind).map {
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
            return textOrder(pgBytewise(Self.jsonString(column)), text, greater: greater)
          default:
            return nil
          }
        })
    }
  }

  /// `NULL` first; a value of another kind than the column's falls by its kind (numbers, then
  /// text, then arrays and objects).
  func attributeBeyond(_ value: JSONAPIValue, column: String, kind: PGColumnKind, greater: Bool)
    -> PGSQL
  {
    guard let rank = PGCodec.rank(of: value) else {
      return greater ? "\(raw: column) IS NOT NULL" : alwaysFalse
    }
    let strictly: PGSQL
    if kind == .text, case .string(let text) = value {
      strictly = textOrder(pgBytewise(column), text, greater: greater)
    } else if let compared = PGCodec.compared(value, kind: kind) {
      strictly = "\(raw: column)\(raw: greater ? " > " : " < ")\(compared)"
    } else if kind == .json {
      // JSON the column cannot hold (U+0000): no row equals it; placed by its kind.
      strictly = rankOrder(column, columnRank: nil, valueRank: rank, greater: greater)
    } else {
      strictly = rankOrder(column, columnRank: kind.rank, valueRank: rank, greater: greater)
    }
    return greater ? strictly : any([strictly, "\(raw: column) IS NULL"])
  }

  func attributeEqual(_ value: JSONAPIValue, column: String, kind: PGColumnKind) -> PGSQL {
    attributeCondition(.equals, [value], column: column, kind: kind)
  }

  /// Non-null rows against a value of another kind: all after it or none.
  private func rankOrder(_ column: String, columnRank: Int?, valueRank: Int, greater: Bool)
    -> PGSQL
  {
    guard let columnRank else { return alwaysFalse }
    let isAfter = columnRank > valueRank
    return greater == isAfter ? "\(raw: column) IS NOT NULL" : alwaysFalse
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

  /// A `jsonb` column's string, as text; `NULL` for its other values.
  private static func jsonString(_ column: String) -> String {
    "(CASE WHEN jsonb_typeof(\(column)) = 'string' THEN \(column) #>> '{}' END)"
  }
}
