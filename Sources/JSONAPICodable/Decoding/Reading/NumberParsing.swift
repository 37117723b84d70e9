import Foundation

/// Converting the validated bytes of a number entry into Swift numbers, only when a model asks.
enum NumberParsing {
  /// The value of an integer literal (no fraction or exponent), or `nil` when it does not fit in `Int64`.
  static func int64(_ raw: UnsafeBufferPointer<UInt8>) -> Int64? {
    var j = 0
    let negative = raw.first == UInt8(ascii: "-")
    if negative { j = 1 }
    guard j < raw.count else { return nil }
    // Accumulate negatively so that Int64.min fits.
    var value: Int64 = 0
    while j < raw.count {
      let digit = Int64(raw[j] &- UInt8(ascii: "0"))
      guard digit < 10 else { return nil }
      let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (next, overflow2) = shifted.subtractingReportingOverflow(digit)
      if overflow1 || overflow2 { return nil }
      value = next
      j += 1
    }
    if negative { return value }
    return value == Int64.min ? nil : -value
  }

  /// The value of an integer literal for unsigned targets, or `nil` when it does not fit in `UInt64`.
  static func uint64(_ raw: UnsafeBufferPointer<UInt8>) -> UInt64? {
    guard let first = raw.first, first != UInt8(ascii: "-") else {
      // "-0" is zero; any other negative does not fit.
      return raw.count == 2 && raw[1] == UInt8(ascii: "0") ? 0 : nil
    }
    var value: UInt64 = 0
    for byte in raw {
      let digit = UInt64(byte &- UInt8(ascii: "0"))
      guard digit < 10 else { return nil }
      let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (next, overflow2) = shifted.addingReportingOverflow(digit)
      if overflow1 || overflow2 { return nil }
      value = next
    }
    return value
  }

  private static let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// The correctly rounded `Double` of a number literal (infinite when out of range).
  ///
  /// Literals with at most 15 significant digits and a small exponent take the exact fast path
  /// (both operands are exact doubles, so one rounding gives the right answer); others go to the
  /// standard library's correctly rounding parser.
  static func double(_ raw: UnsafeBufferPointer<UInt8>) -> Double {
    var j = 0
    let negative = raw.first == UInt8(ascii: "-")
    if negative { j = 1 }
    var mantissa: UInt64 = 0
    var digits = 0
    var exponent = 0
    var fast = true
    while j < raw.count, raw[j] &- UInt8(ascii: "0") < 10 {
      if mantissa != 0 || raw[j] != UInt8(ascii: "0") { digits += 1 }
      mantissa = mantissa &* 10 &+ UInt64(raw[j] &- UInt8(ascii: "0"))
      j += 1
    }
    if j < raw.count, raw[j] == UInt8(ascii: ".") {
      j += 1
      while j < raw.count, raw[j] &- UInt8(ascii: "0") < 10 {
        if mantissa != 0 || raw[j] != UInt8(ascii: "0") { digits += 1 }
        mantissa = mantissa &* 10 &+ UInt64(raw[j] &- UInt8(ascii: "0"))
        exponent -= 1
        j += 1
      }
    }
    if j < raw.count {  // exponent part
      fast = false
    }
    if fast && digits <= 15 && exponent >= -22 {
      let value = exponent == 0 ? Double(mantissa) : Double(mantissa) / exactPowersOfTen[-exponent]
      return negative ? -value : value
    }
    return Double(String(decoding: raw, as: UTF8.self)) ?? .nan
  }
}
