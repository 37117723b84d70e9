import Foundation

/// Turning string entries of the tape into Swift strings, and comparing them without doing so.
///
/// The scanner has validated every string (UTF-8, escapes, surrogates), so these functions never fail.
enum TapeStrings {
  /// The decoded value of a string entry.
  static func string(_ tape: some TapeStorage, _ entry: TapeEntry) -> String {
    let raw = tape.rawBytes(entry)
    let isASCII = !entry.isNonASCII
    guard entry.hasFlag else { return validString(raw, isASCII: isASCII) }
    // Escapes never lengthen a string, so the result fits in the raw length.
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, raw.count)) { buffer in
      let count = unescape(raw, into: buffer)
      return validString(UnsafeBufferPointer(rebasing: buffer[..<count]), isASCII: isASCII)
    }
  }

  /// A String of UTF-8 that the scanner has validated, copied without validating it again
  /// (`String(decoding:as:)` would validate every byte a second time).
  ///
  /// Safe because every caller passes bytes of one string entry of a finished scan — the scanner
  /// rejected invalid UTF-8, overlongs, encoded surrogates and lone `\u` surrogates — or their
  /// unescaped form, which `unescape` writes as well-formed UTF-8. `isASCII` comes from the scanner
  /// too. The bytes are copied before the call returns, so no pointer outlives its buffer.
  @inline(__always) private static func validString(
    _ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool
  ) -> String {
    // `UTF8Span` is in the standard library from Swift 6.2 (the package's tools version is 6.0).
    #if compiler(>=6.2)
      if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
        return String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: isASCII))
      }
    #endif
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whether the string entry at `index` equals the UTF-8 bytes of `key`.
  @inline(__always) static func equals(
    _ tape: some TapeStorage, _ entry: TapeEntry, _ key: UnsafeBufferPointer<UInt8>
  )
    -> Bool
  {
    if entry.hasFlag { return unescaped(tape.rawBytes(entry)).elementsEqual(key) }
    guard entry.length == key.count else { return false }
    guard let keyBase = key.baseAddress else { return true }
    return memcmp(tape.base + Int(entry.offset), keyBase, key.count) == 0
  }

  /// Whether two string entries hold the same string.
  static func equal(_ tape: some TapeStorage, _ a: Int, _ b: Int) -> Bool {
    let first = tape[a]
    let second = tape[b]
    if !first.hasFlag && !second.hasFlag {
      return first.length == second.length
        && memcmp(tape.base + Int(first.offset), tape.base + Int(second.offset), first.length)
          == 0
    }
    return decodedBytes(tape, first) == decodedBytes(tape, second)
  }

  /// A hash of the decoded bytes of a string entry (randomly seeded, as Swift's `Hasher` is).
  static func hash(_ tape: some TapeStorage, _ index: Int) -> Int {
    var hasher = Hasher()
    combine(tape, tape[index], into: &hasher)
    return hasher.finalize()
  }

  /// Feeds the decoded bytes of a string entry to `hasher`.
  @inline(__always) static func combine(
    _ tape: some TapeStorage, _ entry: TapeEntry, into hasher: inout Hasher
  ) {
    if entry.hasFlag {
      unescaped(tape.rawBytes(entry)).withUnsafeBytes { hasher.combine(bytes: $0) }
    } else {
      hasher.combine(bytes: UnsafeRawBufferPointer(tape.rawBytes(entry)))
    }
  }

  static func decodedBytes(_ tape: some TapeStorage, _ entry: TapeEntry) -> [UInt8] {
    entry.hasFlag ? unescaped(tape.rawBytes(entry)) : Array(tape.rawBytes(entry))
  }

  /// Resolves escapes of a validated string body into UTF-8 bytes.
  static func unescaped(_ raw: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: raw.count) { buffer, count in
      count = unescape(raw, into: buffer)
    }
  }

  /// Writes the unescaped bytes of a validated string body into `out` (at least `raw.count` long)
  /// and returns how many it wrote. Runs without a backslash are copied whole.
  static func unescape(
    _ raw: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>
  )
    -> Int
  {
    guard let source = raw.baseAddress, let target = out.baseAddress else { return 0 }
    let n = raw.count
    var j = 0
    var written = 0
    while j < n {
      let runEnd =
        memchr(source + j, Int32(UInt8(ascii: "\\")), n - j).map {
          UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - source
        } ?? n
      if runEnd > j {
        (target + written).update(from: source + j, count: runEnd - j)
        written += runEnd - j
        j = runEnd
      }
      guard j + 1 < n else { break }
      let escape = raw[j + 1]
      j += 2
      switch escape {
      case UInt8(ascii: "b"): write(0x08)
      case UInt8(ascii: "f"): write(0x0C)
      case UInt8(ascii: "n"): write(0x0A)
      case UInt8(ascii: "r"): write(0x0D)
      case UInt8(ascii: "t"): write(0x09)
      case UInt8(ascii: "u"):
        var scalar = UInt32(hexQuad(raw, j))
        j += 4
        if (0xD800...0xDBFF).contains(scalar), j + 6 <= n {
          let low = UInt32(hexQuad(raw, j + 2))
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          j += 6
        }
        writeUTF8(scalar)
      default: write(escape)  // \" \\ \/
      }
    }
    return written

    func write(_ byte: UInt8) {
      target[written] = byte
      written += 1
    }

    func writeUTF8(_ scalar: UInt32) {
      switch scalar {
      case 0..<0x80:
        write(UInt8(scalar))
      case 0x80..<0x800:
        write(UInt8(0xC0 | scalar >> 6))
        write(UInt8(0x80 | scalar & 0x3F))
      case 0x800..<0x10000:
        write(UInt8(0xE0 | scalar >> 12))
        write(UInt8(0x80 | scalar >> 6 & 0x3F))
        write(UInt8(0x80 | scalar & 0x3F))
      default:
        write(UInt8(0xF0 | scalar >> 18 & 0x07))
        write(UInt8(0x80 | scalar >> 12 & 0x3F))
        write(UInt8(0x80 | scalar >> 6 & 0x3F))
        write(UInt8(0x80 | scalar & 0x3F))
      }
    }
  }

  /// A validated `\u` escape's four digits (the scanner has checked them).
  @inline(__always) private static func hexQuad(_ raw: UnsafeBufferPointer<UInt8>, _ j: Int)
    -> UInt16
  {
    guard let base = raw.baseAddress,
      case .success(let value) = Hexadecimal.value(base, count: raw.count, at: j)
    else { return 0xFFFD }
    return value
  }
}
