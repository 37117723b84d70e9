import Foundation

/// SQL text and the values bound to it, built by interpolation: `"\(raw: column) = \(value)"`
/// binds `value` as a parameter, while `raw:` text comes only from schemas (names, always quoted)
/// and from the store itself, never from a request.
///
/// Each store turns a fragment into its driver's statement: its placeholders (`?` or `$1`), and
/// how each value is bound.
///
/// ```swift
/// let query: SQLFragment<MyValue> = "SELECT 1 FROM \(raw: quoted("people")) WHERE \"id\" = \(id)"
/// ```
public struct SQLFragment<Value: Sendable>: Sendable, ExpressibleByStringInterpolation {
  /// A piece of a fragment.
  public enum Part: Sendable {
    /// SQL text, as it is.
    case raw(String)
    /// A value bound as a parameter.
    case value(Value)
  }

  /// The pieces, in order.
  public var parts: [Part]

  /// A fragment of `parts`.
  @inlinable public init(parts: [Part]) { self.parts = parts }

  /// SQL text without values.
  @inlinable public init(stringLiteral value: String) { parts = [.raw(value)] }

  /// Text, values and fragments, in order.
  @inlinable public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

  /// What a fragment literal is built from.
  public struct StringInterpolation: StringInterpolationProtocol {
    @usableFromInline var parts: [Part] = []

    /// Room for the pieces of a literal with `interpolationCount` interpolations.
    @inlinable public init(literalCapacity: Int, interpolationCount: Int) {
      parts.reserveCapacity(2 * interpolationCount + 1)
    }

    /// The literal's text, as it is.
    @inlinable public mutating func appendLiteral(_ literal: String) { parts.append(.raw(literal)) }

    /// SQL text (quoted names, keywords), never request data.
    @inlinable public mutating func appendInterpolation(raw text: String) { parts.append(.raw(text)) }

    /// A value, bound as a parameter.
    @inlinable public mutating func appendInterpolation(_ value: Value) { parts.append(.value(value)) }

    /// Another fragment, with its values.
    @inlinable public mutating func appendInterpolation(_ fragment: SQLFragment) { parts += fragment.parts }
  }

  /// The fragments with `separator` between them.
  @inlinable
  public static func joined(_ pieces: [SQLFragment], separator: String) -> SQLFragment {
    var parts: [Part] = []
    for (index, piece) in pieces.enumerated() {
      if index > 0 { parts.append(.raw(separator)) }
      parts += piece.parts
    }
    return SQLFragment(parts: parts)
  }

  /// One fragment after the other.
  @inlinable
  public static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
    SQLFragment(parts: lhs.parts + rhs.parts)
  }

  /// The text with each value written by `placeholder` (given the value and its 0-based index
  /// among the values), and the values in order.
  @inlinable
  public func rendered(_ placeholder: (Value, Int) -> String) -> (text: String, values: [Value]) {
    var text = ""
    var values: [Value] = []
    for part in parts {
      switch part {
      case .raw(let raw): text += raw
      case .value(let value):
        text += placeholder(value, values.count)
        values.append(value)
      }
    }
    return (text, values)
  }
}

/// An SQL identifier, quoted: `"name"` with inner quotes doubled (SQLite and PostgreSQL quote
/// alike). Names come only from schemas and mappings, never from requests, and hold no U+0000:
/// the catalog checks.
@inlinable
public func sqlQuoted(_ name: String) -> String {
  var quoted = String.UnicodeScalarView()
  quoted.append("\"")
  // By scalars, not characters: a quote followed by a combining mark is still doubled.
  for scalar in name.unicodeScalars {
    quoted.append(scalar)
    if scalar == "\"" { quoted.append(scalar) }
  }
  quoted.append("\"")
  return String(quoted)
}

/// A value shared by the tasks of a store (a counter, a flag, a set of kept statements), read
/// and written under a lock.
public final class SQLStoreLocked<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value  // read and written only while `lock` is held

  /// A value to share.
  public init(_ value: Value) { self.value = value }

  /// Runs `body` with the value, which it may change, under the lock.
  public func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try lock.withLock { try body(&value) }
  }
}
