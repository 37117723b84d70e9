import Foundation

/// Any JSON value, for open-ended members such as `meta`.
///
/// `JSONAPIValue` is what you reach for when a member's shape is not known in advance:
/// resource-level, relationship-level or document-level `meta`, or an attribute whose
/// content varies. It is `Codable` with any coder, and literals build it directly:
///
/// ```swift
/// let meta: JSONAPIValue = ["total": 42, "tags": ["a", "b"], "draft": false]
/// meta["total"]?.intValue   // 42
/// ```
///
/// Integers that fit in `Int` decode as ``integer(_:)``; every other number as ``number(_:)``.
/// JSON has one number type, so numbers compare by value: `.integer(2) == .number(2.0)` (an
/// encoder may well write `2.0` as `2`).
public enum JSONAPIValue: Sendable, Hashable {
  /// JSON `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number written without fraction or exponent that fits in `Int`.
  case integer(Int)
  /// Any other number.
  case number(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONAPIValue])
  /// An object. Member order is not significant in JSON and is not kept.
  case object([String: JSONAPIValue])

  /// The member named `key` when this is an object, else `nil`.
  public subscript(key: String) -> JSONAPIValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  /// The element at `index` when this is an array and the index is in range, else `nil`.
  public subscript(index: Int) -> JSONAPIValue? {
    if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
    return nil
  }

  /// The string, when this is a string.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The number as an `Int`, when this is an integer or an integral number that fits.
  public var intValue: Int? {
    switch self {
    case .integer(let value): return value
    case .number(let value):
      guard value.rounded() == value, let exact = Int(exactly: value) else { return nil }
      return exact
    default: return nil
    }
  }

  /// The number as a `Double`, when this is a number.
  public var doubleValue: Double? {
    switch self {
    case .integer(let value): return Double(value)
    case .number(let value): return value
    default: return nil
    }
  }

  /// The Boolean, when this is `true` or `false`.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The elements, when this is an array.
  public var arrayValue: [JSONAPIValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The members, when this is an object.
  public var objectValue: [String: JSONAPIValue]? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// Whether this is JSON `null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// Equal when both are the same JSON value; numbers compare by value whatever their case.
  public static func == (lhs: JSONAPIValue, rhs: JSONAPIValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.integer(let a), .integer(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.integer(let a), .number(let b)), (.number(let b), .integer(let a)):
      return Int(exactly: b) == a
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)): return a == b
    default: return false
    }
  }

  /// Hashes consistently with `==`: an integral number hashes as the integer it equals.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let value): hasher.combine(value)
    case .integer(let value): hasher.combine(value)
    case .number(let value):
      if let exact = Int(exactly: value) { hasher.combine(exact) } else { hasher.combine(value) }
    case .string(let value): hasher.combine(value)
    case .array(let value): hasher.combine(value)
    case .object(let value): hasher.combine(value)
    }
  }
}

extension JSONAPIValue: Codable {
  /// Decodes any JSON value. Works with every `Decoder`; ``JSONAPIDecoder`` reads it straight from its tape.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONAPIValue].self) {
      self = .array(value)
    } else if let value = try? container.decode([String: JSONAPIValue].self) {
      self = .object(value)
    } else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "Expected a JSON value.")
    }
  }

  /// Encodes the value as the JSON it stands for.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}

extension JSONAPIValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  /// `nil` stands for JSON `null`.
  public init(nilLiteral: ()) { self = .null }
  /// A Boolean literal.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// An integer literal.
  public init(integerLiteral value: Int) { self = .integer(value) }
  /// A floating-point literal.
  public init(floatLiteral value: Double) { self = .number(value) }
  /// A string literal.
  public init(stringLiteral value: String) { self = .string(value) }
  /// An array literal.
  public init(arrayLiteral elements: JSONAPIValue...) { self = .array(elements) }
  /// A dictionary literal; a repeated key keeps its last value.
  public init(dictionaryLiteral elements: (String, JSONAPIValue)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}
