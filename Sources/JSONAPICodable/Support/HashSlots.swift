/// Open-addressing slots from a key's hash to the key's index in the caller's own key list.
///
/// The caller keeps the keys (in insertion order, so index `n` is the `n`th key added) and answers
/// whether the key at an index is the one sought; the slots keep only indices and hash bits. Each
/// slot packs the key's index with the hash's low 32 bits: probing compares those bits without
/// touching the keys, and growing re-places slots without hashing or reading a key again. At
/// most half the slots are used, so probes stay short.
///
/// Both tables of a document's resources stand on it (the encoder's identities, the decoder's
/// ``ResourceTable``): they must stay cheap as they grow to hundreds of thousands, where a
/// `Dictionary` keyed by strings moves and rehashes every key each time it doubles. Indices take
/// 32 bits: far more keys than either table can meet (the tape's indices are 32-bit too).
struct HashSlots {
  /// Where a key is, or where it would go: what ``find(hash:matching:)`` found, to hand to
  /// ``insert(_:)`` while nothing was inserted in between.
  struct Probe {
    let hash: Int
    let slot: Int
    /// The key's index, or `nil` when it is absent.
    let index: Int?
  }

  // 0 is an empty slot; else `hashBits << 32 | (index + 1)`.
  private var slots: [UInt64]
  private var mask: Int
  private(set) var count = 0

  /// An empty table of the smallest size, grown by ``reserve(_:)`` or as keys are inserted.
  init() {
    let capacity = Self.capacity(for: 0)
    slots = Array(repeating: 0, count: capacity)
    mask = capacity - 1
  }

  /// Grows once, now, to hold `count` keys: cheaper than the doublings of inserting them.
  mutating func reserve(_ count: Int) {
    let capacity = Self.capacity(for: count)
    if capacity > slots.count { rebuild(capacity: capacity) }
  }

  /// The key with `hash` for which `matching` (given a key's index) is true, or the free slot
  /// where it would go.
  @inline(__always)
  func find(hash: Int, matching: (Int) -> Bool) -> Probe {
    let bits = UInt64(Self.bits(hash))
    var slot = Int(truncatingIfNeeded: bits) & mask
    while true {
      let entry = slots[slot]
      if entry == 0 { return Probe(hash: hash, slot: slot, index: nil) }
      if entry >> 32 == bits {
        let index = Self.index(of: entry)
        if matching(index) { return Probe(hash: hash, slot: slot, index: index) }
      }
      slot = (slot + 1) & mask
    }
  }

  /// Records the next key (index ``count``) where `probe`, which found it absent, says it goes;
  /// returns its index.
  @discardableResult
  mutating func insert(_ probe: Probe) -> Int {
    let index = count
    count += 1
    if count * 2 > slots.count {
      rebuild(capacity: slots.count * 2)
      place(Self.entry(hash: probe.hash, index: index))
    } else {
      slots[probe.slot] = Self.entry(hash: probe.hash, index: index)
    }
    return index
  }

  /// Slots for keys 0, 1, … whose hashes' ``bits(_:)`` are `hashBits`, in that order, all placed
  /// at once. `isDuplicate` (given a key's index and an earlier key's, whose hash bits match) says
  /// whether the key repeats the earlier one; a repeat is left out, and `firstDuplicate` is the
  /// smallest index of one. The table has room for `reservingFor` keys, or for these if more.
  ///
  /// Every key is found as if the keys had been inserted one by one (a key may sit in another
  /// slot of its run: linear probing allows any order), but the slots are filled range by range
  /// (``rangeSlots`` each), every key with the others whose probe starts in its range, in index
  /// order, and each range zeroed just before: its lines are in the cache while its keys land,
  /// instead of a random slot per key in a table larger than the cache (a miss nearly every
  /// time). A key's repeats hash alike, so they fall in its
  /// range, after it.
  init(
    hashBits: [UInt32], reservingFor expectedCount: Int = 0, firstDuplicate: inout Int?,
    isDuplicate: (_ later: Int, _ earlier: Int) -> Bool
  ) {
    let capacity = Self.capacity(for: max(hashBits.count, expectedCount))
    let mask = capacity - 1
    let rangeSize = min(capacity, Self.rangeSlots)
    var duplicate: Int?
    slots = [UInt64](unsafeUninitializedCapacity: capacity) { slots, initialized in
      // Slots below `zeroed` are initialized. Ranges are filled in ascending order and a probe
      // moves one slot at a time, so it meets `zeroed` exactly when it runs past the ranges
      // zeroed so far (and wraps only from the last range, to slot 0, zeroed first).
      var zeroed = 0
      func zeroRange() {
        let end = zeroed + rangeSize
        UnsafeMutableBufferPointer(rebasing: slots[zeroed..<end]).initialize(repeating: 0)
        zeroed = end
      }
      func place(_ entry: UInt64) {
        var slot = Int(truncatingIfNeeded: entry >> 32) & mask
        while zeroed <= slot { zeroRange() }
        while true {
          if slot == zeroed { zeroRange() }
          let found = slots[slot]
          if found == 0 {
            slots[slot] = entry
            return
          }
          if found >> 32 == entry >> 32 {
            let index = Self.index(of: entry)
            if isDuplicate(index, Self.index(of: found)) {
              duplicate = min(duplicate ?? index, index)
              return
            }
          }
          slot = (slot + 1) & mask
        }
      }
      if capacity == rangeSize {
        // One range, in the cache as a whole: the keys land in index order, with no sort (and
        // none of its buffers, which a document of one resource would pay for).
        for (index, bits) in hashBits.enumerated() { place(Self.entry(bits: bits, index: index)) }
      } else {
        for entry in Self.sortedByRange(hashBits, mask: mask, rangeSize: rangeSize) {
          place(entry)
        }
      }
      while zeroed < capacity { zeroRange() }
      initialized = capacity
    }
    self.mask = mask
    count = hashBits.count
    firstDuplicate = duplicate
  }

  /// The entries for keys with `hashBits`, counting-sorted by the range of `rangeSize` slots their
  /// probe starts in; stable, so index order within a range.
  private static func sortedByRange(_ hashBits: [UInt32], mask: Int, rangeSize: Int) -> [UInt64] {
    let rangeCount = (mask + 1) / rangeSize
    let shift = rangeSize.trailingZeroBitCount
    var next = [Int](repeating: 0, count: rangeCount + 1)
    for bits in hashBits { next[(Int(bits) & mask) >> shift + 1] += 1 }
    for range in 0..<rangeCount { next[range + 1] += next[range] }
    return [UInt64](unsafeUninitializedCapacity: hashBits.count) { buffer, initialized in
      for (index, bits) in hashBits.enumerated() {
        let range = (Int(bits) & mask) >> shift
        buffer.initializeElement(at: next[range], to: Self.entry(bits: bits, index: index))
        next[range] += 1
      }
      initialized = hashBits.count
    }
  }

  /// Slots per range of ``init(hashBits:firstDuplicate:isDuplicate:)`` (32 KiB): a range stays in
  /// the first-level cache of most cores while its keys land.
  private static let rangeSlots = 1 << 12

  private static func capacity(for count: Int) -> Int {
    var capacity = 16
    while capacity < count * 2 { capacity <<= 1 }
    return capacity
  }

  /// The hash bits a slot keeps, which also choose where the probe starts.
  @inline(__always)
  static func bits(_ hash: Int) -> UInt32 { UInt32(truncatingIfNeeded: hash) }

  @inline(__always)
  private static func entry(hash: Int, index: Int) -> UInt64 {
    entry(bits: bits(hash), index: index)
  }

  @inline(__always)
  private static func entry(bits: UInt32, index: Int) -> UInt64 {
    UInt64(bits) << 32 | UInt64(truncatingIfNeeded: index + 1)
  }

  /// The key index an occupied slot's entry holds (``entry(bits:index:)`` in reverse).
  @inline(__always)
  private static func index(of entry: UInt64) -> Int {
    Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
  }

  /// Puts `entry` in the first free slot from where its hash bits (its high 32 bits) point.
  private mutating func place(_ entry: UInt64) {
    var slot = Int(truncatingIfNeeded: entry >> 32) & mask
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] = entry
  }

  /// Re-places every slot in `capacity` slots. The low 32 hash bits kept in each slot are all a
  /// slot's position needs, as long as there are at most 2^32 slots.
  private mutating func rebuild(capacity: Int) {
    let old = slots
    slots = Array(repeating: 0, count: capacity)
    mask = capacity - 1
    for entry in old where entry != 0 { place(entry) }
  }
}
