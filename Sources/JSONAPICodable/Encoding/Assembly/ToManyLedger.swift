/// Keeps one member of one Swift model type one kind of field across a document: a member that
/// is a to-many relationship in one resource is one in every resource of that type, also where
/// it is empty (R20, R30: `"data": []`, not the attribute `[]`).
///
/// An empty array says nothing about its elements, and Codable erases their type: an empty
/// `[Comment]` of plain `{id, type}` structs is undecided. (One whose element type is
/// ``JSONAPIRelationshipExpressible`` or ``JSONAPIResource`` is decided by the type,
/// ``EncodedArray/holdsRelatedResources``, and so is one of scalars or other values that are
/// never resources, ``EncodedArray/holdsNoResources``.) The classifier marks an undecided member an
/// attribute and defers it here, keyed by its resource's model type
/// (``EncodedObject/modelSlot``) and its name; a non-empty to-many relationship of the same
/// type and name, met before or after, turns it into the empty relationship. A member that is
/// empty in every resource of the document stays the attribute `[]`.
///
/// Work per to-many relationship is an array index and a scan of the few names learnt for its
/// model type (a set past ``namesScannedUpTo``); per undecided member, one entry. A document is
/// settled before it is written: ``settleAll()`` once every resource is taken apart, and while
/// primary data streams, ``settleHead()`` tells which resources can be written already.
final class ToManyLedger {
  /// The names of a model type's members seen as non-empty to-many relationships.
  private struct Names {
    var list: [String] = []
    var set: Set<String>?

    func contains(_ name: String) -> Bool {
      if let set { return set.contains(name) }
      return list.contains(name)
    }

    mutating func insert(_ name: String) {
      if set != nil {
        set?.insert(name)
        return
      }
      list.append(name)
      if list.count > ToManyLedger.namesScannedUpTo {
        set = Set(list)
        list = []
      }
    }
  }

  /// An undecided member: member `position` of the fields of `parts`, whose model type has
  /// `slot`.
  private struct Deferred {
    let parts: ResourceParts
    let position: Int
    let slot: Int
  }

  /// Names scanned one by one per model type (most have one or two to-many members); past this
  /// many, a set (members named at run time could otherwise make the scans quadratic).
  fileprivate static let namesScannedUpTo = 8

  // Confined to one encode call on one thread: no dynamic exclusivity checks needed.
  /// By model slot (``EncodedObject/modelSlot``), grown on demand.
  @exclusivity(unchecked) private var learnt: [Names] = []
  /// In the order the members were met; `nil` once settled.
  @exclusivity(unchecked) private var deferred: [Deferred?] = []
  /// The first deferred member that may still be undecided: those before it are settled.
  @exclusivity(unchecked) private var head = 0

  /// Whether a deferred member may still be undecided.
  var hasUndecided: Bool { head < deferred.count }

  /// Records that member `name` of a resource of model type `slot` is a non-empty to-many
  /// relationship.
  @inline(__always)
  func learn(_ name: String, slot: Int32) {
    guard slot >= 0 else { return }
    let slot = Int(slot)
    if slot < learnt.count {
      if learnt[slot].contains(name) { return }
    } else {
      learnt.append(contentsOf: repeatElement(Names(), count: slot + 1 - learnt.count))
    }
    learnt[slot].insert(name)
  }

  /// Whether member `name` of model type `slot` has been seen as a non-empty to-many
  /// relationship.
  func isToMany(_ name: String, slot: Int) -> Bool {
    slot < learnt.count && learnt[slot].contains(name)
  }

  /// Classifies member `position` of `parts`, an empty array whose element type says nothing:
  /// the empty to-many relationship when its member is one elsewhere in the document already,
  /// else an attribute until ``settleHead()`` or ``settleAll()`` finds that it is.
  func classifyEmpty(_ position: Int, of parts: ResourceParts) {
    let slot = Int(parts.fields.modelSlot)
    if isToMany(parts.fields.members[position].key, slot: slot) {
      parts.markRelationship(position, .toManyRelationship([]))
      return
    }
    parts.markAttribute(position)
    if slot >= 0 { deferred.append(Deferred(parts: parts, position: position, slot: slot)) }
  }

  /// Defers member `position` of `parts`, an attribute merged in from another copy of the
  /// resource, which is an empty array of model type `slot`: see ``ResourceParts/merge(_:ledger:)``.
  func deferMerged(_ position: Int, of parts: ResourceParts, slot: Int32) {
    guard slot >= 0 else { return }
    deferred.append(Deferred(parts: parts, position: position, slot: Int(slot)))
  }

  /// Settles the deferred members from the first on, as far as each is a to-many relationship by
  /// now, and returns the resource of the first that is not yet (`nil`: none is left). Resources
  /// taken apart before that one are settled for good and may be written.
  func settleHead() -> ResourceParts? {
    while head < deferred.count {
      guard let entry = deferred[head] else {
        head += 1
        continue
      }
      guard settle(entry) else {
        if head >= 64, head * 2 >= deferred.count {
          // Drop the entries settled, in amortised constant time.
          deferred.removeSubrange(0..<head)
          head = 0
        }
        return entry.parts
      }
      deferred[head] = nil
      head += 1
    }
    // All settled: let go of the entries (and the resources they hold) at once.
    deferred.removeAll()
    head = 0
    return nil
  }

  /// Settles every deferred member once the document's resources are all taken apart: the
  /// members seen as to-many relationships become empty ones, the others stay attributes.
  /// Returns whether any became a relationship.
  @discardableResult
  func settleAll() -> Bool {
    var changed = false
    for case let entry? in deferred[head...] where settle(entry) { changed = true }
    deferred.removeAll()
    head = 0
    return changed
  }

  /// Turns `entry` into the empty to-many relationship when its member is one elsewhere; returns
  /// whether it did.
  private func settle(_ entry: Deferred) -> Bool {
    let fields = entry.parts.fields
    guard isToMany(fields.members[entry.position].key, slot: entry.slot) else { return false }
    entry.parts.markEmptyToMany(entry.position)
    return true
  }
}
