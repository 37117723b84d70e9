/// Gathers the related resources of a document into `included`: one resource object per identity,
/// in the order they are first met (breadth first from the primary data), never a primary resource.
///
/// Related resources wait in a queue read with a moving head index, so long chains cost no
/// recursion and no `removeFirst`.
struct IncludedCollector {
  private(set) var resources: [ResourceParts] = []
  /// Every identity met, in the order met, with its position in ``resources`` or ``primary`` for
  /// a primary resource; ``slots`` finds them by hash. One table, so each check hashes the
  /// identity once.
  private var identities: [(identity: EncodedResourceIdentity, position: Int)] = []
  private var slots = HashSlots()
  private static var primary: Int { -1 }
  /// `nil` once read: ``next()`` moves each resource out.
  private var queue: [PendingResource?] = []
  /// For requested include paths: each identity with each path node it was taken apart at, so a
  /// resource met again on another path still has that path's relationships followed, and met
  /// again on the same one costs one look-up.
  private var visits: Set<IncludeVisit> = []
  private var head = 0
  /// How many primary resources are coming, when known: the table is sized once for them instead
  /// of rehashing every identity as it doubles.
  var expectedPrimaryCount = 0

  /// Records a primary resource; returns `false` when one with that identity was recorded before.
  mutating func addPrimary(_ identity: EncodedResourceIdentity) -> Bool {
    if identities.isEmpty {
      slots.reserve(expectedPrimaryCount)
      identities.reserveCapacity(expectedPrimaryCount)
    }
    let probe = find(identity)
    // Primary resources are recorded before any related one, so a hit is always a primary.
    guard probe.index == nil else { return false }
    record(identity, position: Self.primary, at: probe)
    return true
  }

  /// Where `identity` is recorded, or where it would go.
  private func find(_ identity: EncodedResourceIdentity) -> HashSlots.Probe {
    slots.find(hash: identity.hashValue) { identities[$0].identity == identity }
  }

  private mutating func record(
    _ identity: EncodedResourceIdentity, position: Int, at probe: HashSlots.Probe
  ) {
    slots.insert(probe)
    identities.append((identity, position))
  }

  /// Queues related resources to look at. With `skippingRedundant`, those that
  /// ``isRedundant(_:)`` already now are dropped: redundancy only grows as resources are accepted,
  /// so they would be skipped when their turn came anyway.
  ///
  /// Takes a resource's named relatives as they are, so no array is made per resource.
  mutating func enqueue(_ relatives: [ResourceParts.Relative], skippingRedundant: Bool = false) {
    if !skippingRedundant || identities.isEmpty {
      for relative in relatives { queue.append(relative.resource) }
      return
    }
    for relative in relatives where !isRedundant(relative.resource) {
      queue.append(relative.resource)
    }
  }

  /// Sizes the identity table for every resource queued now, before the queue is read: a
  /// collection's related resources are mostly queued by then, and a table that doubles as they
  /// are accepted moves every identity it holds each time.
  mutating func reserveForQueued() {
    let count = identities.count + queue.count - head
    slots.reserve(count)
    identities.reserveCapacity(count)
  }

  /// The next related resource to look at, or `nil` when all have been.
  mutating func next() -> PendingResource? {
    guard head < queue.count else {
      queue.removeAll()
      head = 0
      return nil
    }
    // Drop the entries already read (now `nil`) as the queue is read, in amortised constant time.
    if head >= 4096 && head * 2 >= queue.count {
      queue.removeSubrange(0..<head)
      head = 0
    }
    defer { head += 1 }
    // Moved out, not copied: a copy retains the resource's object and linkage, built long before
    // and cold by now, with locked instructions that hold up the loads around them; and the
    // resource (with its tree) goes as soon as the caller is done with it.
    return queue[head].take()
  }

  /// Whether taking `pending` apart and passing it to ``accept(_:)`` would change nothing: it is a
  /// primary resource, or a copy whose every field the recorded copy already has. Answers `false`
  /// whenever taking it apart could throw or add `meta`/`links`, so skipping stays exact.
  ///
  /// Shared related resources (one author on many articles) are met over and over; this check
  /// reads a few members instead of classifying every field of every copy again.
  func isRedundant(_ pending: PendingResource) -> Bool {
    triage(pending).isRedundant
  }

  /// ``isRedundant(_:)`` for a resource whose identity is recorded at `position`.
  private func isRedundant(_ object: EncodedObject, knownAt position: Int) -> Bool {
    let existing = position == Self.primary ? nil : resources[position]
    // By position: copying whole members would retain every value of every copy.
    for member in 0..<object.count {
      let name = object.members[member].key
      if let reserved = ResourceMemberName(name) {
        if reserved.isIdentity { continue }
        if reserved == .meta || reserved == .links { return false }
      }
      // Only a JSONAPIRelationship field can throw while being classified.
      if case .object(let value) = object.members[member].value, value.role == .relationship {
        return false
      }
      if let existing, !existing.fields.hasField(name) {
        return false
      }
    }
    return true
  }

  /// The included resources, handed over for writing: the collector keeps none, so each can go
  /// as soon as it is written.
  mutating func takeResources() -> [ResourceParts] {
    defer { resources = [] }
    return resources
  }

  /// Records that the resource `identity` is being followed from include-path node `node`;
  /// `false` when it was before.
  mutating func visit(_ identity: EncodedResourceIdentity, node: Int) -> Bool {
    visits.insert(IncludeVisit(identity: identity, node: node)).inserted
  }

  /// Where the identity of the queued resource `pending` is recorded, or would be (`nil`: it
  /// has none), and whether taking it apart would change nothing (``isRedundant(_:)``). Hand the
  /// probe to ``accept(_:at:)``: taking the resource apart records nothing, so it still holds,
  /// and the identity is hashed and looked up once for both.
  func triage(_ pending: PendingResource) -> (isRedundant: Bool, probe: HashSlots.Probe?) {
    guard let identity = pending.identifier.identity else { return (false, nil) }
    let probe = find(identity)
    guard let index = probe.index else { return (false, probe) }
    return (isRedundant(pending.object, knownAt: identities[index].position), probe)
  }

  /// Takes `parts` into `included`, merging it into an earlier copy of the same resource.
  /// Returns the relatives of whatever was newly written, which must be collected in turn.
  mutating func accept(_ parts: ResourceParts) -> [ResourceParts.Relative] {
    guard let identity = parts.identifier.identity else { return [] }
    return accept(parts, at: find(identity))
  }

  /// ``accept(_:)`` with the probe ``triage(_:)`` gave for the identity of `parts` (`nil`: it has
  /// none).
  mutating func accept(_ parts: ResourceParts, at probe: HashSlots.Probe?)
    -> [ResourceParts.Relative]
  {
    guard let probe, let identity = parts.identifier.identity else { return [] }
    if let index = probe.index {
      let position = identities[index].position
      return position == Self.primary ? [] : resources[position].merge(parts)
    }
    record(identity, position: resources.count, at: probe)
    resources.append(parts)
    return parts.takeRelatives()
  }
}
