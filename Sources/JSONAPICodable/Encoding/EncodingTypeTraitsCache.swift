/// The traits of every type one `encode` call meets, each worked out once, and how many members an
/// object of each type has had at most, so the next one reserves its member array that wide.
final class EncodingTypeTraitsCache {
  /// A type's traits and its slot for ``memberCount(slot:)``.
  struct Entry {
    let traits: EncodingTypeTraits
    let slot: Int
  }

  // Confined to one encode call on one thread: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) private var known: [ObjectIdentifier: Entry] = [:]
  // Most members per object, by slot. Sizing arrays by type, not a fixed width, keeps small
  // objects small: member arrays were most of the encoder's heap.
  @exclusivity(unchecked) private var memberCounts: [Int] = []

  func entry(of type: Any.Type) -> Entry {
    let identifier = ObjectIdentifier(type)
    if let entry = known[identifier] { return entry }
    let entry = Entry(traits: EncodingTypeTraits.of(type), slot: memberCounts.count)
    memberCounts.append(0)
    known[identifier] = entry
    return entry
  }

  func traits(of type: Any.Type) -> EncodingTypeTraits { entry(of: type).traits }

  /// The most members an object of the slot's type has had; 0 before the first.
  func memberCount(slot: Int) -> Int { memberCounts[slot] }

  func noteMemberCount(_ count: Int, slot: Int) {
    if count > memberCounts[slot] { memberCounts[slot] = count }
  }
}
