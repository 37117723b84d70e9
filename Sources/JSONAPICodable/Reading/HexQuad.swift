/// The four hexadecimal digits of a `\u` escape: the one parser of them, for the scanner (which
/// validates) and for unescaping (which reads what the scanner validated).
enum HexQuad {
  /// The value of the digit `byte`, or nil when it is not one.
  @inline(__always) static func digit(_ byte: UInt8) -> UInt16? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt16(byte &- UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt16(byte &- UInt8(ascii: "a") &+ 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt16(byte &- UInt8(ascii: "A") &+ 10)
    default: return nil
    }
  }

  /// The code unit spelled by the four digits at `start`, or the offset of the first byte that is
  /// not a digit (the count when fewer than four remain).
  @inline(__always) static func value(
    _ bytes: UnsafePointer<UInt8>, count: Int, at start: Int
  ) -> Result<UInt16, InvalidDigit> {
    guard start + 4 <= count else { return .failure(InvalidDigit(offset: count)) }
    var value: UInt16 = 0
    for k in start..<(start + 4) {
      guard let digit = digit(bytes[k]) else { return .failure(InvalidDigit(offset: k)) }
      value = value << 4 | digit
    }
    return .success(value)
  }

  /// Where a `\u` escape stops being four hexadecimal digits.
  struct InvalidDigit: Error {
    let offset: Int
  }
}
