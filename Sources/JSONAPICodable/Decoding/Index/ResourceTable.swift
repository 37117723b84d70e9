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
  /// The slot bits of every key's hash, by index.
  private var hashBits: [UInt32] = []

  /// Slots of a table none of whose keys are placed yet: every table starts from this one, which
  /// ``placeAdded(_:)`` replaces, so that a decode call does not allocate slots it throws away.
  private static let unplaced = HashSlots()

  init(expectedCount: Int) {
    slots = Self.unplaced
    keys.reserveCapacity(expectedCount)
    hashBits.reserveCapacity(expectedCount)
  }

  static func hash(_ tape: Tape, type: Int, value: Int, isLocal: Bool) -> Int {
    var hasher = Hasher()
    TapeStrings.combine(tape, tape[type], into: &hasher)
    hasher.combine(isLocal ? 0xFF as UInt8 : 0xFE)
    TapeStrings.combine(tape, tape[value], into: &hasher)
    return hasher.finalize()
  }

  /// Adds an identity, findable once ``placeAdded(_:)`` places it with the others.
  mutating func add(_ tape: Tape, type: Int, value: Int, isLocal: Bool, ordinal: Int32) {
    keys.append(
      Key(
        typeEntry: Int32(truncatingIfNeeded: type), valueEntry: Int32(truncatingIfNeeded: value),
        ordinal: ordinal, isLocal: isLocal))
    hashBits.append(HashSlots.bits(Self.hash(tape, type: type, value: value, isLocal: isLocal)))
  }

  /// Makes every identity added so far findable, all at once (``HashSlots`` fills its slots range
  /// by range, not at a random place per identity). Returns the first one, in the order added,
  /// that repeats an earlier identity of another resource (R40), or `nil`.
  mutating func placeAdded(_ tape: Tape) -> (type: Int, value: Int, ordinal: Int32)? {
    let keys = keys
    var repeated: Int?
    slots = HashSlots(hashBits: hashBits, firstDuplicate: &repeated) { later, earlier in
      let key = keys[later]
      let other = keys[earlier]
      return key.isLocal == other.isLocal && key.ordinal != other.ordinal
        && TapeStrings.equal(tape, Int(key.typeEntry), Int(other.typeEntry))
        && TapeStrings.equal(tape, Int(key.valueEntry), Int(other.valueEntry))
    }
    return repeated.map { (Int(keys[$0].typeEntry), Int(keys[$0].valueEntry), keys[$0].ordinal) }
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
