import Foundation

/// The kinds of JSON value a tape entry can describe.
enum ValueKind: UInt8 {
  case object = 1
  case array
  case string
  case number
  case `true`
  case `false`
  case null
}

/// One JSON value in the tape: 12 bytes, no references, so the tape is a single allocation.
///
/// - `tag`: the kind (bits 0–2), a flag (bit 3), and for containers the element count (bits 4–31,
///   saturating at ``maxCount``; only a capacity hint beyond it).
/// - `offset`: where the value starts in the input (strings: after the opening quote).
/// - `extent`: strings and numbers: their byte length (the flag says a string has escapes, a number a
///   fraction or exponent); arrays and objects: the tape index just past their last entry, so a
///   subtree is skipped in O(1). An object's members follow it as name entry, value entry, …
struct TapeEntry {
  var tag: UInt32
  var offset: UInt32
  var extent: UInt32

  static let flag: UInt32 = 0x8
  static let countShift: UInt32 = 4
  /// The largest element count a tag holds exactly.
  static let maxCount = Int(UInt32.max >> countShift)

  @inline(__always) var kind: ValueKind {
    ValueKind(rawValue: UInt8(truncatingIfNeeded: tag & 0x7)) ?? .null
  }
  @inline(__always) var hasFlag: Bool { tag & TapeEntry.flag != 0 }
  @inline(__always) var isContainer: Bool { tag & 0x7 <= UInt32(ValueKind.array.rawValue) }
  /// Byte length of a string or number.
  @inline(__always) var length: Int { Int(extent) }
  /// Tape index just past an array or object.
  @inline(__always) var containerEnd: Int { Int(extent) }
  /// Elements of an array, members of an object; exact unless ``isCountSaturated``.
  @inline(__always) var elementCount: Int { Int(tag >> TapeEntry.countShift) }
  @inline(__always) var isCountSaturated: Bool { elementCount == TapeEntry.maxCount }
}

/// The scanned document: the input bytes (borrowed for the duration of one decode call) and the tape.
///
/// Immutable once scanned (``TapeBuilder`` fills it), so that the hot decoding paths read entries
/// through `let` storage: no bounds checks, no exclusivity checks, no retain/release traffic. Every
/// index it hands out comes from the scanner and is in range.
final class Tape {
  /// The input, non-empty (empty input is rejected before a tape is made).
  let base: UnsafePointer<UInt8>
  let byteCount: Int
  private let entries: UnsafeMutablePointer<TapeEntry>
  let count: Int

  fileprivate init(
    base: UnsafePointer<UInt8>, byteCount: Int, entries: UnsafeMutablePointer<TapeEntry>, count: Int
  ) {
    self.base = base
    self.byteCount = byteCount
    self.entries = entries
    self.count = count
  }

  deinit { entries.deallocate() }

  @inline(__always) subscript(index: Int) -> TapeEntry {
    entries[index]
  }
}

/// Growable entry storage used while scanning; hands its storage to a ``Tape`` when done.
struct TapeBuilder {
  let base: UnsafePointer<UInt8>
  let byteCount: Int
  private var entries: UnsafeMutablePointer<TapeEntry>
  private(set) var count = 0
  private var capacity: Int
  private var finished = false

  init(base: UnsafePointer<UInt8>, byteCount: Int) {
    self.base = base
    self.byteCount = byteCount
    // Roughly one value per 8 bytes of typical JSON:API text; untouched pages cost no memory.
    capacity = max(16, byteCount / 8)
    entries = .allocate(capacity: capacity)
  }

  @inline(__always) subscript(index: Int) -> TapeEntry {
    entries[index]
  }

  @inline(__always) mutating func append(_ entry: TapeEntry) {
    if count == capacity { grow() }
    (entries + count).initialize(to: entry)
    count += 1
  }

  /// Closes the container at `index`: its end is the current count, its element count saturates.
  @inline(__always) mutating func close(_ index: Int, elementCount: UInt32) {
    let saturated = min(elementCount, UInt32(TapeEntry.maxCount))
    entries[index].tag |= saturated << TapeEntry.countShift
    entries[index].extent = UInt32(truncatingIfNeeded: count)
  }

  private mutating func grow() {
    let newCapacity = capacity * 2
    let newEntries = UnsafeMutablePointer<TapeEntry>.allocate(capacity: newCapacity)
    newEntries.moveInitialize(from: entries, count: count)
    entries.deallocate()
    entries = newEntries
    capacity = newCapacity
  }

  /// The finished tape, which now owns the storage.
  consuming func finish() -> Tape {
    Tape(base: base, byteCount: byteCount, entries: entries, count: count)
  }

  /// Frees the storage of a scan that failed.
  consuming func discard() { entries.deallocate() }
}

enum SourceLocating {
  static func location(of offset: Int, in bytes: UnsafeRawBufferPointer) -> JSONAPISourceLocation {
    let clamped = min(max(offset, 0), bytes.count)
    var line = 1
    var lineStart = 0
    for index in 0..<clamped where bytes[index] == UInt8(ascii: "\n") {
      line += 1
      lineStart = index + 1
    }
    return JSONAPISourceLocation(offset: clamped, line: line, column: clamped - lineStart + 1)
  }
}
