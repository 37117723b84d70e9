/// One JSON value in the tape: 12 bytes, no references, so the tape is a single allocation.
///
/// - `tag`: the kind (bits 0–2), a flag (bit 3), and for containers the element count (bits 4–31,
///   saturating at ``maxCount``; only a capacity hint beyond it).
///   Strings use bit 4 instead to say their decoded value has a non-ASCII scalar (``nonASCII``).
/// - `offset`: where the value starts in the input (strings: after the opening quote).
/// - `extent`: strings and numbers: their byte length (the flag says a string has escapes, a number a
///   fraction or exponent); arrays and objects: the tape index just past their last entry, so a
///   subtree is skipped in O(1). An object's members follow it as name entry, value entry, …
struct TapeEntry {
  var tag: UInt32
  var offset: UInt32
  var extent: UInt32

  static let flag: UInt32 = 0x8
  /// Strings only (containers keep their count there): the decoded value is not all ASCII.
  static let nonASCII: UInt32 = 0x10
  static let countShift: UInt32 = 4
  /// The largest element count a tag holds exactly.
  static let maxCount = Int(UInt32.max >> countShift)

  @inline(__always) var kind: ValueKind {
    ValueKind(rawValue: UInt8(truncatingIfNeeded: tag & 0x7)) ?? .null
  }
  @inline(__always) var hasFlag: Bool { tag & TapeEntry.flag != 0 }
  /// A string whose decoded value has a scalar beyond U+007F.
  @inline(__always) var isNonASCII: Bool { tag & TapeEntry.nonASCII != 0 }
  @inline(__always) var isContainer: Bool { tag & 0x7 <= UInt32(ValueKind.array.rawValue) }
  /// Byte length of a string or number.
  @inline(__always) var length: Int { Int(extent) }
  /// Tape index just past an array or object.
  @inline(__always) var containerEnd: Int { Int(extent) }
  /// Elements of an array, members of an object; exact unless ``isCountSaturated``.
  @inline(__always) var elementCount: Int { Int(tag >> TapeEntry.countShift) }
  @inline(__always) var isCountSaturated: Bool { elementCount == TapeEntry.maxCount }
}
