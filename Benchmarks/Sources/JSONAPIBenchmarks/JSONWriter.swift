/// A minimal JSON byte writer for generating inputs (not timed). Hand-written so that the documents
/// do not depend on Foundation's output choices (key order, number formatting, slash escaping).
struct JSONWriter {
  private(set) var bytes: [UInt8] = []

  init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

  mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Writes `"name":`.
  mutating func key(_ name: StaticString) {
    bytes.append(UInt8(ascii: "\""))
    raw(name)
    raw("\":")
  }

  mutating func string(_ value: String) {
    bytes.append(UInt8(ascii: "\""))
    for byte in value.utf8 {
      switch byte {
      case UInt8(ascii: "\""): raw("\\\"")
      case UInt8(ascii: "\\"): raw("\\\\")
      case UInt8(ascii: "\n"): raw("\\n")
      case UInt8(ascii: "\t"): raw("\\t")
      case UInt8(ascii: "\r"): raw("\\r")
      case 0..<0x20:
        raw("\\u00")
        bytes.append(Self.hexDigit(byte >> 4))
        bytes.append(Self.hexDigit(byte & 0xF))
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  mutating func int(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

  /// Swift prints the shortest text that reads back as the same Double, which JSON accepts.
  mutating func double(_ value: Double) { bytes.append(contentsOf: value.description.utf8) }

  mutating func comma() { bytes.append(UInt8(ascii: ",")) }

  /// Writes `[e0,e1,...]`, calling `element` for each value.
  mutating func array<S: Sequence>(_ values: S, _ element: (inout JSONWriter, S.Element) -> Void) {
    bytes.append(UInt8(ascii: "["))
    var first = true
    for value in values {
      if !first { comma() }
      first = false
      element(&self, value)
    }
    bytes.append(UInt8(ascii: "]"))
  }

  private static func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
  }
}
