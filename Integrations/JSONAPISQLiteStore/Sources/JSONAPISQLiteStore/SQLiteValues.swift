import Foundation
import GRDB
import JSONAPISQLStoreKit
import JSONAPIServer

/// A value bound to a statement.
///
/// Text goes through `CAST(? AS TEXT)`: GRDB binds a Swift string up to its first U+0000, so text
/// holding U+0000 is bound as its UTF-8 bytes (a blob) and cast back to text — SQLite then keeps
/// every byte, and compares text by `memcmp` over its whole length.
enum SQLiteValue: Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  /// Bytes kept as a `BLOB`: the JSON text of booleans, arrays and objects in an ``SQLiteColumnKind/any``
  /// column.
  case blob(Data)

  /// The value's placeholder in a statement's text: text through `CAST(? AS TEXT)` (see above).
  var placeholder: String {
    if case .text = self { return "CAST(? AS TEXT)" }
    return "?"
  }

  var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The value GRDB binds.
  var argument: DatabaseValue {
    switch self {
    case .null: return .null
    case .integer(let value): return value.databaseValue
    case .real(let value): return value.databaseValue
    case .text(let text):
      // An empty blob would bind as NULL: text without U+0000 (the empty one included) binds as
      // text, whole.
      return text.utf8.contains(0) ? Data(text.utf8).databaseValue : text.databaseValue
    case .blob(let data): return data.databaseValue
    }
  }
}

/// The most parameters one `IN (…)` list binds, and the most ids one read names: far below
/// SQLite's limit on parameters (32766), and large enough that a page or an include level takes
/// one statement.
let sqliteChunkSize = 500

/// `CASE WHEN typeof(e) = 'text' THEN CAST(e AS BLOB) ELSE e END`: text read as its bytes (GRDB
/// would read it up to its first U+0000), other values as they are.
func sqlWholeText(_ expression: String) -> String {
  "CASE WHEN typeof(\(expression)) = 'text' THEN CAST(\(expression) AS BLOB) ELSE \(expression) END"
}

// MARK: - Ids

/// Resource ids as their columns keep them.
enum SQLiteIDs {
  /// The SQL value of `id` in a column of `kind`; `nil` when such a column cannot hold it (an
  /// integer column holds only the decimal text of an `Int64`, without leading zeros or `+`).
  static func value(_ id: String, kind: JSONAPISQLiteTable.IDKind) -> SQLiteValue? {
    switch kind {
    case .text: return .text(id)
    case .integer:
      guard let number = Int64(id), String(number) == id else { return nil }
      return .integer(number)
    }
  }

  /// The id a column value stands for; `nil` for `NULL`.
  static func decode(_ value: DatabaseValue) -> String? {
    switch value.storage {
    case .null: return nil
    case .int64(let number): return String(number)
    case .double(let number):
      if let whole = Int64(exactly: number) { return String(whole) }
      return String(number)
    case .string(let text): return text
    case .blob(let data): return String(decoding: data, as: UTF8.self)
    }
  }
}

// MARK: - Attribute values

/// Attribute values as their columns keep them.
enum SQLiteCodec {
  /// The SQL value that stores `value` in a column of `kind`.
  ///
  /// - Throws: The reason, when the column cannot keep the value exactly.
  static func stored(_ value: JSONAPIValue, kind: SQLiteColumnKind) throws(SQLUnstorable)
    -> SQLiteValue
  {
    if case .null = value { return .null }
    switch (kind, value) {
    case (.text, .string(let text)), (.date, .string(let text)), (.any, .string(let text)):
      return .text(text)
    case (.integer, .integer(let number)), (.date, .integer(let number)),
      (.any, .integer(let number)):
      return .integer(Int64(number))
    case (.integer, .number(let number)):
      guard number.isFinite else { throw SQLUnstorable("it is not a finite number") }
      if let whole = Int64(exactly: number) { return .integer(whole) }
      return .real(number)
    case (.real, .number(let number)), (.date, .number(let number)), (.any, .number(let number)):
      guard number.isFinite else { throw SQLUnstorable("it is not a finite number") }
      return .real(number)
    case (.real, .integer(let number)):
      guard let exact = Double(exactly: number) else {
        throw SQLUnstorable("\(number) has no exact value in a REAL column")
      }
      return .real(exact)
    case (.boolean, .bool(let flag)):
      return .integer(flag ? 1 : 0)
    case (.structured, .array), (.structured, .object):
      return .text(try SQLiteJSON.text(of: value))
    case (.any, .bool), (.any, .array), (.any, .object):
      return .blob(Data(try SQLiteJSON.text(of: value).utf8))
    default:
      throw SQLUnstorable("a \(kind) column cannot keep \(SQLUnstorable.describe(value))")
    }
  }

  /// The SQL value `value` is compared as in a column of `kind`; `nil` when no value of the column
  /// can equal it (a string against a number column, say), so that no comparison matches.
  static func compared(_ value: JSONAPIValue, kind: SQLiteColumnKind) -> SQLiteValue? {
    switch (kind, value) {
    case (.real, .integer(let number)): return .integer(Int64(number))
    default: return try? stored(value, kind: kind)
    }
  }

  /// `value` as the column of an ``SQLiteColumnKind/any`` would keep it, for a cursor value the
  /// column's own kind cannot hold: so that it still falls in SQLite's order of storage classes.
  static func generic(_ value: JSONAPIValue) -> SQLiteValue {
    (try? stored(value, kind: .any)) ?? .null
  }

  /// The attribute value of a column value: `typeName` is `typeof(column)`, and `value` the column
  /// read through ``sqlWholeText(_:)`` (text arrives as its bytes).
  static func decode(typeName: String, value: DatabaseValue, kind: SQLiteColumnKind)
    -> JSONAPIValue
  {
    switch value.storage {
    case .null: return .null
    case .int64(let number):
      if kind == .boolean { return .bool(number != 0) }
      if let exact = Int(exactly: number) { return .integer(exact) }
      return .number(Double(number))
    case .double(let number): return .number(number)
    case .string(let text):
      return kind == .structured
        ? SQLiteJSON.value(of: Data(text.utf8)) ?? .string(text) : .string(text)
    case .blob(let bytes):
      let isJSON = typeName == "text" ? kind == .structured : kind == .structured || kind == .any
      if isJSON, let parsed = SQLiteJSON.value(of: bytes) { return parsed }
      return .string(String(decoding: bytes, as: UTF8.self))
    }
  }
}

// MARK: - JSON text

/// Canonical JSON text of the values kept as JSON (object members sorted by the UTF-8 bytes of
/// their names, whole numbers written as integers), so that equal values have equal text.
enum SQLiteJSON {
  /// - Throws: `SQLUnstorable` for a number that is not finite (JSON has none).
  static func text(of value: JSONAPIValue) throws(SQLUnstorable) -> String {
    var output = ""
    try append(value, to: &output)
    return output
  }

  /// The value JSON text stands for; `nil` when it is not JSON.
  static func value(of bytes: Data) -> JSONAPIValue? {
    try? JSONDecoder().decode(JSONAPIValue.self, from: bytes)
  }

  private static func append(_ value: JSONAPIValue, to output: inout String)
    throws(SQLUnstorable)
  {
    switch value {
    case .null: output += "null"
    case .bool(let flag): output += flag ? "true" : "false"
    case .integer(let number): output += String(number)
    case .number(let number):
      guard number.isFinite else { throw SQLUnstorable("it holds a number that is not finite") }
      if let whole = Int(exactly: number) { output += String(whole) } else { output += "\(number)" }
    case .string(let text): appendString(text, to: &output)
    case .array(let elements):
      output += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { output += "," }
        try append(element, to: &output)
      }
      output += "]"
    case .object(let members):
      output += "{"
      let names = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      for (index, name) in names.enumerated() {
        if index > 0 { output += "," }
        appendString(name, to: &output)
        output += ":"
        try append(members[name] ?? .null, to: &output)
      }
      output += "}"
    }
  }

  private static func appendString(_ text: String, to output: inout String) {
    output += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          output.unicodeScalars.append(scalar)
        }
      }
    }
    output += "\""
  }
}
