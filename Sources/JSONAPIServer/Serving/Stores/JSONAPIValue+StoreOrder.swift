import Foundation

// The one ordering of stored values: `JSONAPIMemoryStore` sorts pages by it, compares keyset
// bounds (`JSONAPIStoreQuery.Window.keyset`) with it and decides filter equality with it, so a
// cursor made from a page's last resource finds exactly the resources the sort puts after it
// (R64: page order follows the sort order of R69).

extension JSONAPIValue {
  /// Orders two attribute values for sorting and paging; `nil` (an absent attribute) is `null`.
  ///
  /// Kinds rank `null` < booleans < numbers < strings < arrays and objects. Within a kind:
  /// `false` < `true`; numbers by value, exactly (``integer(_:)`` and ``number(_:)`` mix, `2` is
  /// `2.0`, NaN after every number); strings by their UTF-8 bytes (no Unicode folding, U+0000 is a
  /// byte like any other); arrays and objects by their canonical JSON text (object members sorted
  /// by the UTF-8 bytes of their names). `.orderedSame` means the same JSON value, so the store's
  /// `equals` filter uses this too: text equal byte for byte, numbers equal by value.
  static func storeOrder(_ lhs: JSONAPIValue?, _ rhs: JSONAPIValue?) -> ComparisonResult {
    let left = lhs ?? .null
    let right = rhs ?? .null
    let leftRank = left.storeRank
    let rightRank = right.storeRank
    if leftRank != rightRank {
      return leftRank < rightRank ? .orderedAscending : .orderedDescending
    }
    switch (left, right) {
    case (.bool(let a), .bool(let b)):
      return a == b ? .orderedSame : (b ? .orderedAscending : .orderedDescending)
    case (.string(let a), .string(let b)):
      return storeBytesOrder(a, b)
    case (.integer, _), (.number, _):
      return storeNumberOrder(left, right)
    case (.array, _), (.object, _):
      return storeBytesOrder(left.storeJSONText, right.storeJSONText)
    default:
      return .orderedSame  // both null
    }
  }

  /// Orders two resource ids: both decimal integers (ASCII digits only) by their value, so "2"
  /// comes before "10"; otherwise by UTF-8 bytes. Decimal ids come before all others, which keeps
  /// the order total: comparing "2" and "1a" by bytes but "2" and "10" by value would otherwise
  /// make a cycle ("2" < "10" < "1a" < "2"). Equal values with different text ("7", "007") are
  /// told apart by their bytes, so only the same id is `.orderedSame`.
  static func storeIDOrder(_ lhs: String, _ rhs: String) -> ComparisonResult {
    switch (decimalDigits(lhs), decimalDigits(rhs)) {
    case (let a?, let b?):
      // Compare values without parsing (ids may exceed any integer type): drop leading zeros,
      // then the longer number is larger, and equal lengths compare digit by digit.
      let trimmedA = a.drop { $0 == UInt8(ascii: "0") }
      let trimmedB = b.drop { $0 == UInt8(ascii: "0") }
      if trimmedA.count != trimmedB.count {
        return trimmedA.count < trimmedB.count ? .orderedAscending : .orderedDescending
      }
      let byValue = storeBytesOrder(trimmedA, trimmedB)
      return byValue == .orderedSame ? storeBytesOrder(a, b) : byValue
    case (.some, nil): return .orderedAscending
    case (nil, .some): return .orderedDescending
    case (nil, nil): return storeBytesOrder(lhs, rhs)
    }
  }

  /// The text a value stands for when it is compared with resource ids (member `id` and
  /// relationship linkage): a string as it is, an integer as its decimal text; `nil` otherwise.
  var storeIDText: String? {
    switch self {
    case .string(let text): return text
    case .integer(let value): return String(value)
    default: return nil
    }
  }

  /// Whether `text` contains `needle`, ignoring ASCII case only, compared on UTF-8 bytes (so
  /// U+0000 and every other scalar are matched whole, never dropped or folded).
  static func storeText(_ text: String, containsCaseInsensitive needle: String) -> Bool {
    let haystack = text.utf8.map(asciiLowercased)
    let pattern = needle.utf8.map(asciiLowercased)
    guard !pattern.isEmpty else { return true }
    guard pattern.count <= haystack.count else { return false }
    let lastStart = haystack.count - pattern.count  // ≥ 0: checked just above
    var start = 0
    while start <= lastStart {
      if haystack[start..<(start + pattern.count)].elementsEqual(pattern) { return true }
      start += 1
    }
    return false
  }

  // MARK: - Parts

  /// The rank of the value's kind in ``storeOrder(_:_:)``.
  private var storeRank: Int {
    switch self {
    case .null: return 0
    case .bool: return 1
    case .integer, .number: return 2
    case .string: return 3
    case .array, .object: return 4
    }
  }

  /// Exact numeric order of two numbers (both `.integer` or `.number`); NaN after every number.
  private static func storeNumberOrder(_ lhs: JSONAPIValue, _ rhs: JSONAPIValue) -> ComparisonResult
  {
    switch (lhs, rhs) {
    case (.integer(let a), .integer(let b)):
      return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
    case (.integer(let a), .number(let b)):
      return integer(a, comparedWith: b)
    case (.number(let a), .integer(let b)):
      return reversed(integer(b, comparedWith: a))
    case (.number(let a), .number(let b)):
      if a.isNaN || b.isNaN {
        return a.isNaN == b.isNaN
          ? .orderedSame : (a.isNaN ? .orderedDescending : .orderedAscending)
      }
      return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
    default:
      return .orderedSame
    }
  }

  /// Compares an `Int` with a `Double` without converting the integer (which could round).
  private static func integer(_ a: Int, comparedWith b: Double) -> ComparisonResult {
    if b.isNaN { return .orderedAscending }
    let whole = b.rounded(.down)
    // Beyond Int's range (or infinite): every Int lies on one side of it.
    guard let wholeInt = Int(exactly: whole) else {
      return whole > 0 ? .orderedAscending : .orderedDescending
    }
    if a != wholeInt { return a < wholeInt ? .orderedAscending : .orderedDescending }
    return whole == b ? .orderedSame : .orderedAscending  // b has a fraction above a
  }

  private static func reversed(_ order: ComparisonResult) -> ComparisonResult {
    switch order {
    case .orderedAscending: return .orderedDescending
    case .orderedDescending: return .orderedAscending
    case .orderedSame: return .orderedSame
    }
  }

  /// Byte order of two UTF-8 sequences: the first differing byte decides, a prefix comes first.
  private static func storeBytesOrder<A: Sequence<UInt8>, B: Sequence<UInt8>>(_ lhs: A, _ rhs: B)
    -> ComparisonResult
  {
    var left = lhs.makeIterator()
    var right = rhs.makeIterator()
    while true {
      switch (left.next(), right.next()) {
      case (nil, nil): return .orderedSame
      case (nil, .some): return .orderedAscending
      case (.some, nil): return .orderedDescending
      case (let a?, let b?):
        if a != b { return a < b ? .orderedAscending : .orderedDescending }
      }
    }
  }

  private static func storeBytesOrder(_ lhs: String, _ rhs: String) -> ComparisonResult {
    storeBytesOrder(lhs.utf8, rhs.utf8)
  }

  /// The UTF-8 bytes of `text` when it is a non-empty run of ASCII digits.
  private static func decimalDigits(_ text: String) -> [UInt8]? {
    let bytes = Array(text.utf8)
    guard !bytes.isEmpty, bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    return bytes
  }

  private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
  }

  /// Canonical JSON text (members sorted by name bytes, integral numbers that fit in `Int`
  /// written as integers), so that values equal by ``storeOrder(_:_:)`` have equal text.
  private var storeJSONText: [UInt8] {
    var output: [UInt8] = []
    appendStoreJSON(to: &output)
    return output
  }

  private func appendStoreJSON(to output: inout [UInt8]) {
    switch self {
    case .null: output.append(contentsOf: "null".utf8)
    case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
    case .integer(let value): output.append(contentsOf: String(value).utf8)
    case .number(let value):
      if let exact = Int(exactly: value) {
        output.append(contentsOf: String(exact).utf8)
      } else {
        output.append(contentsOf: String(describing: value).utf8)
      }
    case .string(let value): Self.appendStoreJSONString(value, to: &output)
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        element.appendStoreJSON(to: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      output.append(UInt8(ascii: "{"))
      let sorted = members.sorted { Self.storeBytesOrder($0.key, $1.key) == .orderedAscending }
      for (index, member) in sorted.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        Self.appendStoreJSONString(member.key, to: &output)
        output.append(UInt8(ascii: ":"))
        member.value.appendStoreJSON(to: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
  }

  private static func appendStoreJSONString(_ text: String, to output: inout [UInt8]) {
    let hex = Array("0123456789abcdef".utf8)
    output.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        output.append(UInt8(ascii: "\\"))
        output.append(byte)
      case 0..<0x20:
        output.append(contentsOf: "\\u00".utf8)
        output.append(hex[Int(byte >> 4)])
        output.append(hex[Int(byte & 0x0F)])
      default:
        output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}
