import Foundation

/// What string helpers need from a tape, finished (``Tape``) or still being scanned (``TapeBuilder``).
protocol TapeStorage {
  var base: UnsafePointer<UInt8> { get }
  var byteCount: Int { get }
  subscript(index: Int) -> TapeEntry { get }
}

extension Tape: TapeStorage {}
extension TapeBuilder: TapeStorage {}

extension TapeStorage {
  /// The raw bytes of a string or number entry.
  @inline(__always) func rawBytes(_ entry: TapeEntry) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: base + Int(entry.offset), count: entry.length)
  }

  /// Line and column of a byte offset, computed only when an error needs them.
  func location(ofByte offset: Int) -> JSONAPISourceLocation {
    SourceLocating.location(of: offset, in: UnsafeRawBufferPointer(start: base, count: byteCount))
  }

  /// The tape index just past the value at `index`: its sibling, or its container's end.
  @inline(__always) func next(after index: Int) -> Int {
    let entry = self[index]
    return entry.isContainer ? entry.containerEnd : index + 1
  }
}
