/// Tests on eight bytes of text at once, read as one `UInt64`: each gives the high bit of every
/// byte that passes. The lowest bit set is exact (a borrow runs only towards higher bytes, and only
/// from a byte that passes), so a result is exact both as `!= 0` for the whole word and, for a
/// little-endian load, as the position of the first byte that passes. The one home of these tests,
/// for the scanner reading strings and the writer escaping them.
enum ByteWord {
  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highBits: UInt64 = 0x8080_8080_8080_8080

  /// The bytes of `word` equal to `byte`.
  @inline(__always) static func bytes(_ word: UInt64, equalTo byte: UInt8) -> UInt64 {
    let difference = word ^ (ones &* UInt64(byte))
    return (difference &- ones) & ~difference & highBits
  }

  /// The bytes of `word` below 0x20: control characters, which JSON strings must escape.
  @inline(__always) static func controlBytes(_ word: UInt64) -> UInt64 {
    (word &- ones &* 0x20) & ~word & highBits
  }

  /// The bytes of `word` from 0x80 up: parts of UTF-8 sequences beyond ASCII.
  @inline(__always) static func nonASCIIBytes(_ word: UInt64) -> UInt64 {
    word & highBits
  }
}
