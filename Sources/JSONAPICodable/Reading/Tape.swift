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

/// One JSON value in the tape: 16 bytes, no references, so the tape is a single allocation.
///
/// - Strings: `offset`/`length` are the bytes between the quotes; the flag says escapes are present.
/// - Numbers: `offset`/`length` are the literal's bytes; the flag says it has a fraction or exponent.
/// - Containers: `offset` is the opening bracket, `length` the element (or member) count.
/// - Every entry: `end` is the tape index just past the value, so a subtree is skipped in O(1).
///   An object's members follow it as key entry, value entry, key entry, …
struct TapeEntry {
  var tag: UInt32
  var offset: UInt32
  var length: UInt32
  var end: UInt32

  static let flag: UInt32 = 0x100

  @inline(__always) var kind: ValueKind {
    ValueKind(rawValue: UInt8(truncatingIfNeeded: tag)) ?? .null
  }
  @inline(__always) var hasFlag: Bool { tag & TapeEntry.flag != 0 }
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

  /// The raw bytes of a string or number entry.
  @inline(__always) func rawBytes(_ entry: TapeEntry) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: base + Int(entry.offset), count: Int(entry.length))
  }

  /// Line and column of a byte offset, computed only when an error needs them.
  func location(ofByte offset: Int) -> JSONAPISourceLocation {
    SourceLocating.location(of: offset, in: UnsafeRawBufferPointer(start: base, count: byteCount))
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

  @inline(__always) mutating func setEnd(of index: Int, length: UInt32) {
    entries[index].length = length
    entries[index].end = UInt32(truncatingIfNeeded: count)
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

  func location(ofByte offset: Int) -> JSONAPISourceLocation {
    SourceLocating.location(of: offset, in: UnsafeRawBufferPointer(start: base, count: byteCount))
  }

  func rawBytes(_ entry: TapeEntry) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: base + Int(entry.offset), count: Int(entry.length))
  }
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
