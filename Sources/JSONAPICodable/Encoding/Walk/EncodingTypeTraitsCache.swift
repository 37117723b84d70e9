import Foundation

/// The traits of every type an encoder meets, each worked out once, and how many members an object
/// of each type has had at most, so the next one reserves its member array that wide.
///
/// One call works on its own copy (no locks on the hot path); what a call learnt goes to
/// ``learnt`` for the next call of any encoder (``snapshot``): traits depend on the type alone, so
/// the runtime is asked about a type's conformances once per process, also when an app makes an
/// encoder for each call (`try JSONAPIEncoder().encode(…)`). Those checks weigh most on small
/// documents.
final class EncodingTypeTraitsCache {
  /// A type's traits and its slot for ``memberCount(slot:)``.
  struct Entry {
    let traits: EncodingTypeTraits
    let slot: Int
  }

  /// What one call hands the next.
  struct Snapshot: Sendable {
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

extension EncodingTypeTraitsCache {
  /// What the process's encoders have learnt so far, shared by all of them.
  static let learnt = LearntTraits()

  /// The process's snapshot behind a lock: read once when a call starts, replaced when a call
  /// learnt something. Two calls that learnt different types at once keep the later one's
  /// snapshot; what the other learnt is learnt again by a later call (traits are facts, so no
  /// call ever sees a wrong one). Its size is bounded by the program's types, not by any input.
  final class LearntTraits: @unchecked Sendable {
    private let lock = NSLock()
    private var snapshot = Snapshot()  // read and written only while `lock` is held

    /// A new cache for one call, starting from what is known.
    func cacheForCall() -> EncodingTypeTraitsCache {
      EncodingTypeTraitsCache(lock.withLock { snapshot })
    }

    /// Keeps what `cache`'s call learnt, when it learnt anything.
    func keep(_ cache: EncodingTypeTraitsCache) {
      guard cache.changed else { return }
      let learnt = cache.snapshot
      lock.withLock { snapshot = learnt }
    }
  }
}
