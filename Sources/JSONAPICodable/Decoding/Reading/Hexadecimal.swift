/// Hexadecimal digits: the one parser of them, for `\u` escapes (the scanner validates, unescaping
/// reads what it validated), UUID strings and percent-encoded query text; and the one writer of
/// percent escapes.
enum Hexadecimal {
  /// The value of the digit `byte`, or nil when it is not one.
  @inline(__always) static func digit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte &- UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte &- UInt8(ascii: "a") &+ 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte &- UInt8(ascii: "A") &+ 10
    default: return nil
    }
  }

  /// The byte spelled by the two digits `high` and `low`, or nil when either is not a digit.
  @inline(__always) static func byte(_ high: UInt8, _ low: UInt8) -> UInt8? {
    guard let high = digit(high), let low = digit(low) else { return nil }
    return high << 4 | low
  }

  /// Appends `byte` percent-encoded, `%` and two uppercase digits (RFC 3986 §2.1 prefers
  /// uppercase), for query parameters and URI references.
  static func appendPercentEscape(_ byte: UInt8, to output: inout [UInt8]) {
    func digit(_ nibble: UInt8) -> UInt8 {
      nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "A") &+ nibble &- 10
    }
    output.append(UInt8(ascii: "%"))
    output.append(digit(byte >> 4))
    output.append(digit(byte & 0x0F))
  }

  /// The `\u` code unit spelled by the four digits at `start`, or the offset of the first byte that is
  /// not a digit (the count when fewer than four remain).
  @inline(__always) static func value(
    _ bytes: UnsafePointer<UInt8>, count: Int, at start: Int
  ) -> Result<UInt16, InvalidDigit> {
    guard start + 4 <= count else { return .failure(InvalidDigit(offset: count)) }
    var value: UInt16 = 0
    for k in start..<(start + 4) {
      guard let digit = digit(bytes[k]) else { return .failure(InvalidDigit(offset: k)) }
      value = value << 4 | UInt16(digit)
    }
    return .success(value)
  }

  /// Where a `\u` escape stops being four hexadecimal digits.
  struct InvalidDigit: Error {
    let offset: Int
  }
}
