import JSONAPIServer
import PostgresNIO

/// A value bound to a statement as a parameter, never written into its text.
enum PGValue: Sendable, Hashable {
  case null
  case text(String)
  case integer(Int64)
  case real(Double)
  case boolean(Bool)
  /// JSON text, bound as text and cast to `jsonb`.
  case json(String)
  case texts([String])
  case integers([Int64])
}

/// SQL text and the values bound to it, built by interpolation: `"\(raw: column) = \(value)"`
/// binds `value` as a parameter (`$n`, numbered when the statement is made), while `raw:` text
/// comes only from schemas (names, always quoted) and from the store itself.
struct PGSQL: Sendable, ExpressibleByStringInterpolation {
  enum Part: Sendable {
    case raw(String)
    case value(PGValue)
  }

  var parts: [Part]

  init(parts: [Part]) { self.parts = parts }
  init(stringLiteral value: String) { parts = [.raw(value)] }
  init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

  struct StringInterpolation: StringInterpolationProtocol {
    var parts: [Part] = []
    init(literalCapacity: Int, interpolationCount: Int) {}
    mutating func appendLiteral(_ literal: String) { parts.append(.raw(literal)) }
    mutating func appendInterpolation(raw text: String) { parts.append(.raw(text)) }
    mutating func appendInterpolation(_ value: PGValue) { parts.append(.value(value)) }
    mutating func appendInterpolation(_ sql: PGSQL) { parts += sql.parts }
  }

  static let alwaysTrue: PGSQL = "TRUE"
  static let alwaysFalse: PGSQL = "FALSE"

  /// Every condition (`TRUE` for none).
  static func all(_ conditions: [PGSQL]) -> PGSQL {
    conditions.isEmpty ? alwaysTrue : "(" + joined(conditions, separator: " AND ") + ")"
  }

  /// Any condition (`FALSE` for none).
  static func any(_ conditions: [PGSQL]) -> PGSQL {
    conditions.isEmpty ? alwaysFalse : "(" + joined(conditions, separator: " OR ") + ")"
  }

  static func joined(_ pieces: [PGSQL], separator: String) -> PGSQL {
    var parts: [Part] = []
    for (index, piece) in pieces.enumerated() {
      if index > 0 { parts.append(.raw(separator)) }
      parts += piece.parts
    }
    return PGSQL(parts: parts)
  }

  static func + (lhs: PGSQL, rhs: PGSQL) -> PGSQL { PGSQL(parts: lhs.parts + rhs.parts) }

  /// The statement: parameters numbered in order, typed by their Swift values (arrays and JSON
  /// cast in the text, so that PostgreSQL never has to guess).
  var query: PostgresQuery {
    var text = ""
    var binds = PostgresBindings(capacity: parts.count)
    for part in parts {
      switch part {
      case .raw(let raw): text += raw
      case .value(let value):
        text += "$\(binds.count + 1)"
        switch value {
        case .null: binds.appendNull()
        case .text(let string): binds.append(string)
        case .integer(let number): binds.append(number)
        case .real(let number): binds.append(number)
        case .boolean(let flag): binds.append(flag)
        case .json(let json):
          binds.append(json)
          text += "::jsonb"
        case .texts(let strings):
          binds.append(strings)
          text += "::text[]"
        case .integers(let numbers):
          binds.append(numbers)
          text += "::bigint[]"
        }
      }
    }
    return PostgresQuery(unsafeSQL: text, binds: binds)
  }
}

/// An SQL identifier, quoted: `"name"` with inner quotes doubled. Names come only from schemas,
/// never from requests (and hold no U+0000: the catalog checks).
func pgQuoted(_ name: String) -> String {
  "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// Text compared by its bytes (UTF-8 in the database), whatever the database's collation.
func pgBytewise(_ expression: String) -> String { "(\(expression)) COLLATE \"C\"" }
