import Foundation

/// Hash index from a resource's identity, (`type`, `id`) or (`type`, `lid`), to the resource object.
///
/// Open addressing over the tape's string entries: keys are compared as bytes in the input, so building
/// and probing create no Swift strings. Seeded hashing (`Hasher`) keeps crafted ids from colliding.
struct ResourceTable {
  private struct Key {
    var typeEntry: Int32
    var valueEntry: Int32
    var isLocal: Bool
    var hash: Int
    var ordinal: Int32
  }

  private var keys: [Key] = []
  private var slots: [Int32] = []  // index into `keys` + 1; 0 is empty
  private var mask = 0

  init(expectedCount: Int) {
    var capacity = 16
    while capacity < expectedCount * 2 { capacity <<= 1 }
    slots = Array(repeating: 0, count: capacity)
    mask = capacity - 1
    keys.reserveCapacity(expectedCount)
  }

  static func hash(_ tape: Tape, type: Int, value: Int, isLocal: Bool) -> Int {
    var hasher = Hasher()
    TapeStrings.combine(tape, tape[type], into: &hasher)
    hasher.combine(isLocal ? 0xFF as UInt8 : 0xFE)
    TapeStrings.combine(tape, tape[value], into: &hasher)
    return hasher.finalize()
  }

  /// Adds an identity; returns the ordinal already stored under it when it is taken.
  mutating func insert(_ tape: Tape, type: Int, value: Int, isLocal: Bool, ordinal: Int32) -> Int32?
  {
    if keys.count * 2 >= slots.count { grow() }
    let hash = Self.hash(tape, type: type, value: value, isLocal: isLocal)
    let probe = find(tape, type: type, value: value, isLocal: isLocal, hash: hash)
    if let existing = probe.ordinal { return existing }
    keys.append(
      Key(
        typeEntry: Int32(truncatingIfNeeded: type), valueEntry: Int32(truncatingIfNeeded: value),
        isLocal: isLocal, hash: hash, ordinal: ordinal))
    slots[probe.slot] = Int32(truncatingIfNeeded: keys.count)
    return nil
  }

  /// The ordinal of the resource with this identity, if the document has it.
  func lookup(_ tape: Tape, type: Int, value: Int, isLocal: Bool) -> Int32? {
    let hash = Self.hash(tape, type: type, value: value, isLocal: isLocal)
    return find(tape, type: type, value: value, isLocal: isLocal, hash: hash).ordinal
  }

  /// Linear probing: the slot holding this identity (with its ordinal), or the empty slot where it
  /// would go.
  private func find(_ tape: Tape, type: Int, value: Int, isLocal: Bool, hash: Int)
    -> (slot: Int, ordinal: Int32?)
  {
    var slot = hash & mask
    while slots[slot] != 0 {
      let key = keys[Int(slots[slot]) - 1]
      if key.hash == hash && key.isLocal == isLocal
        && TapeStrings.equal(tape, Int(key.typeEntry), type)
        && TapeStrings.equal(tape, Int(key.valueEntry), value)
      {
        return (slot, key.ordinal)
      }
      slot = (slot + 1) & mask
    }
    return (slot, nil)
  }

  private mutating func grow() {
    let capacity = slots.count * 2
    slots = Array(repeating: 0, count: capacity)
    mask = capacity - 1
    for (position, key) in keys.enumerated() {
      var slot = key.hash & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = Int32(truncatingIfNeeded: position + 1)
    }
  }
}
