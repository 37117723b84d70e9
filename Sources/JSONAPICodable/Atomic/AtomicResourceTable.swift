/// The resource objects of every entry of a received `atomic:operations` or `atomic:results`
/// document, by identity: built once when the document is read, so that decoding an entry looks up
/// the resources its relationships name instead of assembling a document from all the others.
///
/// Resources join in document order, and one whose identity, (`type`, `id`) or (`type`, `lid`),
/// is already taken is left out as a whole: the first one met wins, as it would in one document
/// holding them all, where a second resource with one identity is an error (R40). Which entries an
/// entry may see (the earlier ones, or all the others) is the decoding entry's concern
/// (``ReceivedAtomicDocument``).
///
/// Keys are the tape's string entries, compared as decoded bytes and hashed with a seeded
/// `Hasher`, as ``ResourceTable`` does for a document's own resources.
struct AtomicResourceTable {
  private struct Key {
    var typeEntry: Int32
    var valueEntry: Int32
    var isLocal: Bool
    /// The resource, an index into ``AtomicResourceTable/resources``.
    var resource: Int32
  }

  /// A resource that joined: its object in the tape and the entry whose data holds it.
  struct Resource {
    var object: Int32
    var entry: Int32
  }

  private(set) var resources: [Resource] = []
  private var keys: [Key] = []
  private var slots = HashSlots()

  /// Adds the resource object at `object` (inside the data of entry `entry`) unless it has no valid
  /// identity, or shares one with a resource added before.
  mutating func add(objectAt object: Int, entry: Int, tape: Tape) {
    // A resource without a readable identity resolves nothing; decoding its own entry reports it.
    guard let identity = try? ResourceIdentity(tape: tape, object: object, pointer: { "" }) else {
      return
    }
    let identities = [
      identity.id.map { (value: $0, isLocal: false) },
      identity.lid.map { (value: $0, isLocal: true) },
    ].compactMap { $0 }
    guard !identities.isEmpty else { return }
    let taken = identities.contains {
      find(tape, type: identity.type, value: $0.value, isLocal: $0.isLocal).index != nil
    }
    if taken { return }
    let resource = Int32(truncatingIfNeeded: resources.count)
    resources.append(
      Resource(
        object: Int32(truncatingIfNeeded: object), entry: Int32(truncatingIfNeeded: entry)))
    for key in identities {
      // Found again: the insert of the first key may have moved the slots.
      let probe = find(tape, type: identity.type, value: key.value, isLocal: key.isLocal)
      keys.append(
        Key(
          typeEntry: Int32(truncatingIfNeeded: identity.type),
          valueEntry: Int32(truncatingIfNeeded: key.value), isLocal: key.isLocal,
          resource: resource))
      slots.insert(probe)
    }
  }

  /// The resource with this identity (tape indices of its `type` and `id` or `lid` strings), if one
  /// joined.
  func resource(_ tape: Tape, type: Int, value: Int, isLocal: Bool) -> Resource? {
    find(tape, type: type, value: value, isLocal: isLocal).index.map {
      resources[Int(keys[$0].resource)]
    }
  }

  private func find(_ tape: Tape, type: Int, value: Int, isLocal: Bool) -> HashSlots.Probe {
    slots.find(hash: ResourceTable.hash(tape, type: type, value: value, isLocal: isLocal)) {
      index in
      let key = keys[index]
      return key.isLocal == isLocal && TapeStrings.equal(tape, Int(key.typeEntry), type)
        && TapeStrings.equal(tape, Int(key.valueEntry), value)
    }
  }
}
