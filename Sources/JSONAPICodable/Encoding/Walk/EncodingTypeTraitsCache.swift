/// The traits of every type an encoder meets, each worked out once, and how many members an object
/// of each type has had at most, so the next one reserves its member array that wide.
///
/// One call works on its own copy (no locks on the hot path); the encoder keeps what a call learnt
/// for the next (``snapshot``), so an encoder that writes the same page again and again asks the
/// runtime about conformances only the first time: those checks weigh most on small documents.
final class EncodingTypeTraitsCache {
  /// A type's traits and its slot for ``memberCount(slot:)``.
  struct Entry {
    let traits: EncodingTypeTraits
    let slot: Int
  }

  /// What one call hands the next through its encoder.
  struct Snapshot {
    fileprivate var known: [ObjectIdentifier: Entry] = [:]
    // Most members per object (elements per array), by slot. Sizing arrays by type, not a fixed
    // width, keeps small objects small: member arrays were most of the encoder's heap.
    fileprivate var memberCounts: [Int] = []
  }

  // Confined to one encode call on one thread: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) private(set) var snapshot: Snapshot
  /// Whether this call learnt something its encoder should keep.
  @exclusivity(unchecked) private(set) var changed = false

  init(_ snapshot: Snapshot = Snapshot()) {
    self.snapshot = snapshot
  }

  func entry(of type: Any.Type) -> Entry {
    let identifier = ObjectIdentifier(type)
    if let entry = snapshot.known[identifier] { return entry }
    let entry = Entry(traits: EncodingTypeTraits.of(type), slot: snapshot.memberCounts.count)
    snapshot.memberCounts.append(0)
    snapshot.known[identifier] = entry
    changed = true
    return entry
  }

  /// The most members an object of the slot's type has had, or elements an array of it; 0 before
  /// the first.
  func memberCount(slot: Int) -> Int { snapshot.memberCounts[slot] }

  func noteMemberCount(_ count: Int, slot: Int) {
    if count > snapshot.memberCounts[slot] {
      snapshot.memberCounts[slot] = count
      changed = true
    }
  }
}
