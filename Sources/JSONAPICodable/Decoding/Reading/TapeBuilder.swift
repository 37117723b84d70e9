import Foundation

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
    // One value per 6 bytes of input, fewer bytes than the densest JSON:API text has per value
    // (resources with one short attribute, chains of linkage): a growth would copy every entry, out
    // of the cache for a large document, while pages reserved and never touched cost no memory.
    capacity = max(16, byteCount / 6)
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
