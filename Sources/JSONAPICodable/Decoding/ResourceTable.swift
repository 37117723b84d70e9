import Foundation

/// Hash index from a resource's identity, (`type`, `id`) or (`type`, `lid`), to the resource object.
///
/// Open addressing (``HashSlots``) over the tape's string entries: keys are compared as bytes in the
/// input, so building and probing create no Swift strings, and only when 32 bits of their hashes
/// match. Seeded hashing (`Hasher`) keeps crafted ids from colliding.
struct ResourceTable {
  private struct Key {
    var typeEntry: Int32
    var valueEntry: Int32
    var ordinal: Int32
    var isLocal: Bool
  }

  private var keys: [Key] = []
  private var slots: HashSlots

  init(expectedCount: Int) {
    slots = HashSlots(expectedCount: expectedCount)
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
    let probe = find(tape, type: type, value: value, isLocal: isLocal)
    if let index = probe.index { return keys[index].ordinal }
    keys.append(
      Key(
        typeEntry: Int32(truncatingIfNeeded: type), valueEntry: Int32(truncatingIfNeeded: value),
        ordinal: ordinal, isLocal: isLocal))
    slots.insert(probe)
    return nil
  }

  /// The ordinal of the resource with this identity, if the document has it.
  func lookup(_ tape: Tape, type: Int, value: Int, isLocal: Bool) -> Int32? {
    find(tape, type: type, value: value, isLocal: isLocal).index.map { keys[$0].ordinal }
  }

  /// The slot holding this identity (with its key's index), or the free slot where it would go.
  /// Keys are read only when 32 bits of their hash match.
  private func find(_ tape: Tape, type: Int, value: Int, isLocal: Bool) -> HashSlots.Probe {
    slots.find(hash: Self.hash(tape, type: type, value: value, isLocal: isLocal)) { index in
      let key = keys[index]
      return key.isLocal == isLocal && TapeStrings.equal(tape, Int(key.typeEntry), type)
        && TapeStrings.equal(tape, Int(key.valueEntry), value)
    }
  }
}
