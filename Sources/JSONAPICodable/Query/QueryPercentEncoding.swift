/// Percent-encoding for query parameters, independent of the platform's Foundation.
///
/// Everything but RFC 3986's unreserved characters is encoded, so `[`, `]`, `&`, `=`, `+`, `#`
/// and spaces (as `%20`) can never change how a server splits the query. Values keep `,` as
/// the list separator JSON:API uses in `include`, `fields` and `sort` (R124).
package enum QueryPercentEncoding {
  enum Kept {
    /// Parameter names: unreserved characters only, so brackets become `%5B` and `%5D`.
    case name
    /// Parameter values: unreserved characters and `,`.
    case value
  }

  static func encode(_ text: String, keeping kept: Kept) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      if isUnreserved(byte) || (kept == .value && byte == UInt8(ascii: ",")) {
        output.append(byte)
      } else {
        Hexadecimal.appendPercentEscape(byte, to: &output)
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Decodes a name or value the way WHATWG's `application/x-www-form-urlencoded` parser does
  /// (R72): `+` is a space, `%` with two hex digits is that byte, any other `%` stays as it is,
  /// and bytes that are not UTF-8 become U+FFFD. Never fails; linear in the input.
  package static func decode(_ text: Substring) -> String {
    let bytes = Array(text.utf8)
    guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
      return String(text)
    }
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "+") {
        output.append(UInt8(ascii: " "))
      } else if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
        let decoded = Hexadecimal.byte(bytes[index + 1], bytes[index + 2])
      {
        output.append(decoded)
        index += 3
        continue
      } else {
        output.append(byte)
      }
      index += 1
    }
    return String(decoding: output, as: UTF8.self)
  }

  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      return true
    default:
      return false
    }
  }
}
