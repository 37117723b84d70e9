import Foundation
import JSONAPISQLStoreKit
import JSONAPIServer

/// How an attribute's values are kept in its column (from its schema's value kind).
enum PGColumnKind: SQLColumnKind {
  /// Strings and enumerations: `text`, compared by bytes.
  case text
  /// Whole numbers: `bigint`.
  case integer
  /// Numbers: `double precision`.
  case real
  /// `boolean`.
  case boolean
  /// Dates (strings or numbers, as the encoder writes them), arrays, objects and any JSON value:
  /// `jsonb`.
  case json

  init(_ kind: JSONAPIResourceSchema.ValueKind) {
    // Every kind PostgreSQL has no column type of its own for is kept as jsonb.
    self =
      switch kind {
      case .date, .array, .object, .any: .json
      case .string, .enumeration: .text
      case .integer: .integer
      case .number: .real
      case .boolean: .boolean
      }
  }

  /// The type of a column the store creates.
  var declaredType: String {
    switch self {
    case .text: return "text COLLATE \"C\""
    case .integer: return "bigint"
    case .real: return "double precision"
    case .boolean: return "boolean"
    case .json: return "jsonb"
    }
  }

  /// The expression a read selects for a column: JSON as its text, the others as they are.
  func selected(_ column: String) -> String {
    self == .json ? "\(column)::text" : column
  }

  /// Where values of the column fall among others when a cursor value is of another kind:
  /// numbers (booleans as 0 and 1) before text, text before arrays and objects.
  var rank: Int {
    switch self {
    case .integer, .real, .boolean: return 1
    case .text: return 2
    case .json: return 3
    }
  }
}

/// Attribute values as their columns keep them.
enum PGCodec {
  /// The bound value that stores `value` in a column of `kind`.
  ///
  /// - Throws: The reason, when the column cannot keep the value exactly: another kind, a number
  ///   that is not finite or not whole for an integer column, text holding U+0000 (PostgreSQL's
  ///   text and `jsonb` cannot hold it).
  static func stored(_ value: JSONAPIValue, kind: PGColumnKind) throws(SQLUnstorable) -> PGValue {
    if case .null = value { return .null }
    switch (kind, value) {
    case (.text, .string(let text)):
      guard !text.utf8.contains(0) else { throw SQLUnstorable(noNUL) }
      return .text(text)
    case (.integer, .integer(let number)):
      return .integer(Int64(number))
    case (.integer, .number(let number)):
      guard let whole = Int64(exactly: number) else {
        throw SQLUnstorable("\(number) is not a whole number in Int64's range")
      }
      return .integer(whole)
    case (.real, .number(let number)):
      guard number.isFinite else { throw SQLUnstorable("it is not a finite number") }
      return .real(number)
    case (.real, .integer(let number)):
      guard let exact = Double(exactly: number) else {
        throw SQLUnstorable("\(number) has no exact value in a double precision column")
      }
      return .real(exact)
    case (.boolean, .bool(let flag)):
      return .boolean(flag)
    case (.json, _):
      let text = try PGJSON.text(of: value)
      // jsonb refuses the escape \u0000.
      guard !text.contains("\\u0000") else { throw SQLUnstorable(noNUL) }
      return .json(text)
    default:
      throw SQLUnstorable("a \(kind) column cannot keep \(SQLUnstorable.describe(value))")
    }
  }

  /// The value `value` is compared as in a column of `kind`; `nil` when no value of the column
  /// can equal it (a string against a number column, text holding U+0000).
  static func compared(_ value: JSONAPIValue, kind: PGColumnKind) -> PGValue? {
    switch (kind, value) {
    case (.integer, .number(let number)) where number.isFinite && Int64(exactly: number) == nil:
      return .real(number)
    case (.real, .integer(let number)):
      return .integer(Int64(number))
    default:
      return try? stored(value, kind: kind)
    }
  }

  /// Where a cursor or filter value falls among kinds (see ``PGColumnKind/rank``); `nil` for
  /// `null`.
  static func rank(of value: JSONAPIValue) -> Int? {
    switch value {
    case .null: return nil
    case .bool, .integer, .number: return 1
    case .string: return 2
    case .array, .object: return 3
    }
  }

  /// The attribute value of a column read as ``PGColumnKind/selected(_:)`` selects it.
  static func decode(_ cell: PostgresCellValue, kind: PGColumnKind) -> JSONAPIValue {
    switch cell {
    case .null: return .null
    case .text(let text):
      return kind == .json ? PGJSON.value(of: text) ?? .string(text) : .string(text)
    case .integer(let number):
      if let exact = Int(exactly: number) { return .integer(exact) }
      return .number(Double(number))
    case .real(let number): return .number(number)
    case .boolean(let flag): return .bool(flag)
    }
  }

  static let noNUL = "PostgreSQL text cannot hold U+0000"
}

/// One cell as the store reads it.
enum PostgresCellValue: Sendable, Hashable {
  case null
  case text(String)
  case integer(Int64)
  case real(Double)
  case boolean(Bool)
}

/// Resource ids as their columns keep them.
enum PGIDs {
  /// The bound value of `id` in an id column of `kind`; `nil` when such a column cannot hold it
  /// (an integer column holds only the decimal text of an `Int64`, without leading zeros or `+`;
  /// no column holds U+0000).
  static func value(_ id: String, kind: SQLIDKind) -> PGValue? {
    switch kind {
    case .text:
      return id.utf8.contains(0) ? nil : .text(id)
    case .integer:
      guard let number = Int64(id), String(number) == id else { return nil }
      return .integer(number)
    }
  }

  /// Several ids as one array value (those the column cannot hold left out).
  static func array(_ ids: [String], kind: SQLIDKind) -> PGValue {
    var texts: [String] = []
    var integers: [Int64] = []
    for id in ids {
      switch value(id, kind: kind) {
      case .text(let text)?: texts.append(text)
      case .integer(let number)?: integers.append(number)
      default: break
      }
    }
    return kind == .text ? .texts(texts) : .integers(integers)
  }
}

/// JSON text of values kept as `jsonb`.
enum PGJSON {
  /// - Throws: ``SQLUnstorable`` for a number that is not finite (JSON has none).
  static func text(of value: JSONAPIValue) throws(SQLUnstorable) -> String {
    if case .number(let number) = value, !number.isFinite {
      throw SQLUnstorable("it holds a number that is not finite")
    }
    do {
      return String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    } catch {
      throw SQLUnstorable("it holds a number that is not finite")
    }
  }

  /// The value JSON text stands for; `nil` when it is not JSON.
  static func value(of text: String) -> JSONAPIValue? {
    try? JSONDecoder().decode(JSONAPIValue.self, from: Data(text.utf8))
  }
}
