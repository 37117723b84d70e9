import JSONAPISQLStoreKit
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

/// A fragment of PostgreSQL SQL (the shared builder's statements, with PostgreSQL's values).
typealias PGSQL = SQLFragment<PGValue>

extension SQLFragment where Value == PGValue {
  /// The statement: parameters numbered in order, typed by their Swift values (arrays and JSON
  /// cast in the text, so that PostgreSQL never has to guess).
  var query: PostgresQuery {
    var binds = PostgresBindings(capacity: parts.count)
    let (text, _) = rendered { value, index in
      // `$n`, then a cast for what PostgreSQL should not have to guess.
      switch value {
      case .null: binds.appendNull()
      case .text(let string): binds.append(string)
      case .integer(let number): binds.append(number)
      case .real(let number): binds.append(number)
      case .boolean(let flag): binds.append(flag)
      case .json(let json):
        binds.append(json)
        return "$\(index + 1)::jsonb"
      case .texts(let strings):
        binds.append(strings)
        return "$\(index + 1)::text[]"
      case .integers(let numbers):
        binds.append(numbers)
        return "$\(index + 1)::bigint[]"
      }
      return "$\(index + 1)"
    }
    return PostgresQuery(unsafeSQL: text, binds: binds)
  }
}

/// Text compared by its bytes (UTF-8 in the database), whatever the database's collation.
func pgBytewise(_ expression: String) -> String { "(\(expression)) COLLATE \"C\"" }
