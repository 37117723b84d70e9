import Foundation

/// The scanned document: the input bytes and the tape of values over them.
///
/// The bytes are borrowed from the caller's buffer for the duration of one decode call: copying them
/// up front would cost a pass and a document's worth of memory on every call. Codable lets a model
/// keep its `Decoder`, a container or a `superDecoder()` past `init(from:)`, though, so when a decode
/// call ends with anything but itself holding the tape, it copies the bytes into storage of its own
/// (``takeOwnershipOfBytes()``) before the borrowed buffer goes away, as Foundation's `JSONDecoder`
/// does.
///
/// Tape entries are immutable once scanned (``TapeBuilder`` fills them), so that the hot decoding
/// paths read them without bounds, exclusivity or reference-counting traffic. Every index the tape
/// hands out comes from the scanner and is in range; offsets, lengths and indices are 32-bit, which
/// ``JSONScanner/maxByteCount`` guarantees (an entry needs at least one byte of input).
package final class Tape {
  /// The input, non-empty (empty input is rejected before a tape is made). Replaced once, by
  /// ``takeOwnershipOfBytes()``, on the decoding thread at the end of the call.
  @exclusivity(unchecked) private(set) var base: UnsafePointer<UInt8>
  let byteCount: Int
  private let entries: UnsafeMutablePointer<TapeEntry>
  let count: Int
  /// The copy of the input this tape owns, once it has taken ownership.
  @exclusivity(unchecked) private var ownedBytes: UnsafeMutablePointer<UInt8>?

  init(
    base: UnsafePointer<UInt8>, byteCount: Int, entries: UnsafeMutablePointer<TapeEntry>, count: Int
  ) {
    self.base = base
    self.byteCount = byteCount
    self.entries = entries
    self.count = count
  }

  deinit {
    entries.deallocate()
    ownedBytes?.deallocate()
  }

  @inline(__always) subscript(index: Int) -> TapeEntry {
    entries[index]
  }

  /// Copies the borrowed input into storage the tape owns, so that decoders and containers that
  /// outlive the decode call keep reading valid memory.
  func takeOwnershipOfBytes() {
    guard ownedBytes == nil else { return }
    let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: byteCount)
    copy.initialize(from: base, count: byteCount)
    ownedBytes = copy
    base = UnsafePointer(copy)
  }
}
