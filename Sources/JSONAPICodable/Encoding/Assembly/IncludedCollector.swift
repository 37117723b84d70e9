/// Gathers the related resources of a document into `included`: one resource object per identity,
/// in the order they are first met (breadth first from the primary data), never a primary resource.
///
/// Related resources wait in a queue read with a moving head index, so long chains cost no
/// recursion and no `removeFirst`.
struct IncludedCollector {
  private(set) var resources: [ResourceParts] = []
  /// Where the undecided empty arrays that merges add are deferred (the classifier's).
  private let ledger: ToManyLedger
  /// Every identity met, in the order met, with the bits of its hash the slots keep
  /// (``HashSlots/bits(_:)``: in the identity's padding, so an entry takes no more room) and its
  /// position in ``resources``, or for a primary resource -1 minus its element of the primary data
  /// (``primaryElement(_:)``); ``slots`` finds them by hash. One table, so each check hashes the
  /// identity once.
  private var identities: [(identity: EncodedResourceIdentity, hashBits: UInt32, position: Int)] =
    []
  /// The table over ``identities``. Primary identities are recorded as the primary data streams
  /// and placed by ``placePrimaries()``, after it: those from ``HashSlots/count`` on are unplaced.
  private var slots = HashSlots()
  /// `nil` once read: ``next()`` moves each resource out.
  private var queue: [PendingResource?] = []
  /// For requested include paths: each identity with each path node it was taken apart at, so a
  /// resource met again on another path still has that path's relationships followed, and met
  /// again on the same one costs one look-up.
  private var visits: Set<IncludeVisit> = []
  private var head = 0
  /// How many primary resources are coming, when known: their identities are reserved for once.
  var expectedPrimaryCount = 0
  /// Up to how many primary identities are placed one by one: their table (up to 4 096 slots,
  /// 32 kB) stays in the cache while they land, and placing them all at once would take an array
  /// of their hash bits from every small document.
  private static let placedOneByOneUpTo = 2048

  init(ledger: ToManyLedger) {
    self.ledger = ledger
  }

  /// Records the identity of the primary resource at `element` of the primary data (0 for a single
  /// resource). Whether it repeats an earlier one is known once ``placePrimaries()`` has run.
  mutating func addPrimary(_ identity: EncodedResourceIdentity, element: Int) {
    if identities.isEmpty { identities.reserveCapacity(expectedPrimaryCount) }
    identities.append((identity, HashSlots.bits(identity.hashValue), -1 - element))
  }

  /// The element of the primary data at a position of ``identities``, or `nil` for a related
  /// resource (a position in ``resources``).
  private static func primaryElement(_ position: Int) -> Int? {
    position < 0 ? -1 - position : nil
  }

  /// Puts the primary identities recorded so far in the table, with room for the related
  /// resources queued by now, and returns the first (by element) that repeats an earlier one.
  /// Related resources are looked up only after this: before, they would miss the primaries.
  ///
  /// Many primary resources are placed all at once, range by range, instead of a random slot of a
  /// table larger than the cache per resource while the primary data streams through the cache.
  mutating func placePrimaries() -> (identity: EncodedResourceIdentity, element: Int)? {
    let room = identities.count + queue.count - head
    var repeated: Int?
    if slots.count == 0, identities.count > Self.placedOneByOneUpTo {
      // Nothing but primary identities is recorded yet, so key n of the table is identity n.
      slots = HashSlots(
        hashBits: identities.map(\.hashBits), reservingFor: room,
        firstDuplicate: &repeated
      ) { identities[$0].identity == identities[$1].identity }
    } else {
      slots.reserve(room)
      for index in slots.count..<identities.count {
        // The slots see only a hash's low 32 bits: those kept stand for the whole hash.
        let probe = slots.find(hash: Int(identities[index].hashBits)) {
          identities[$0].identity == identities[index].identity
        }
        if probe.index != nil { repeated = min(repeated ?? index, index) }
        // A repeat is placed too, so that each key's index stays its place in `identities`.
        slots.insert(probe)
      }
    }
    guard let repeated, let element = Self.primaryElement(identities[repeated].position) else {
      return nil
    }
    return (identities[repeated].identity, element)
  }

  /// Where `identity` is recorded, or where it would go.
  private func find(_ identity: EncodedResourceIdentity) -> HashSlots.Probe {
    slots.find(hash: identity.hashValue) { identities[$0].identity == identity }
  }

  private mutating func record(
    _ identity: EncodedResourceIdentity, position: Int, at probe: HashSlots.Probe
  ) {
    slots.insert(probe)
    identities.append((identity, HashSlots.bits(probe.hash), position))
  }

  /// Queues related resources to look at. Takes a resource's named relatives as they are, so no
  /// array is made per resource.
  ///
  /// Primary resources queue their relatives this way: nothing can be looked up before
  /// ``placePrimaries()``, and while the primary data streams only a primary could have been
  /// found, at a look-up per related resource in a table larger than the cache.
  mutating func enqueue(_ relatives: [ResourceParts.Relative]) {
    for relative in relatives { queue.append(relative.resource) }
  }

  /// Queues related resources to look at, but for those whose identity is recorded and which
  /// `skipping` says need not be: that only grows as resources are accepted, so they would be
  /// skipped when their turn came anyway.
  mutating func enqueue(
    _ relatives: [ResourceParts.Relative], skipping: (PendingResource, Recorded) -> Bool
  ) {
    for relative in relatives {
      if let recorded = lookUp(relative.resource)?.recorded, skipping(relative.resource, recorded) {
        continue
      }
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

  /// What is recorded under the identity of a resource met again: a primary resource, which
  /// related copies never change, or the included copy that later copies merge into.
  enum Recorded {
    case primary
    case included(ResourceParts)

    /// The included copy; `nil` for a primary resource.
    var parts: ResourceParts? {
      if case .included(let parts) = self { return parts }
      return nil
    }
  }

  /// Where the identity of the queued resource `pending` is recorded, or would go (`nil`: it has
  /// none), and what is recorded there. Hand the probe to ``accept(_:at:)``: taking the resource
  /// apart records nothing, so it still holds, and the identity is hashed and looked up once.
  func lookUp(_ pending: PendingResource) -> (probe: HashSlots.Probe, recorded: Recorded?)? {
    guard let identity = pending.identifier.identity else { return nil }
    let probe = find(identity)
    guard let index = probe.index else { return (probe, nil) }
    let position = identities[index].position
    return (probe, Self.primaryElement(position) == nil ? .included(resources[position]) : .primary)
  }

  /// Takes `parts` into `included`, merging it into an earlier copy of the same resource.
  /// Returns the relatives of whatever was newly written, which must be collected in turn.
  mutating func accept(_ parts: ResourceParts) -> [ResourceParts.Relative] {
    guard let identity = parts.identifier.identity else { return [] }
    return accept(parts, at: find(identity))
  }

  /// ``accept(_:)`` with the probe ``lookUp(_:)`` gave for the identity of `parts` (`nil`: it has
  /// none).
  mutating func accept(_ parts: ResourceParts, at probe: HashSlots.Probe?)
    -> [ResourceParts.Relative]
  {
    guard let probe, let identity = parts.identifier.identity else { return [] }
    if let index = probe.index {
      let position = identities[index].position
      return Self.primaryElement(position) == nil
        ? resources[position].merge(parts, ledger: ledger) : []
    }
    record(identity, position: resources.count, at: probe)
    resources.append(parts)
    return parts.takeRelatives()
  }
}

/// A resource reached at a node of the requested include paths (see ``IncludedCollector``).
struct IncludeVisit: Hashable {
  let identity: EncodedResourceIdentity
  let node: Int
}

/// A related resource met in a relationship, waiting to be turned into an included resource.
struct PendingResource {
  let object: EncodedObject
  /// Its resource identifier object in the relationship it was met in. It holds the resource's
  /// identifier, worked out once when the relationship was classified: the queue's checks and
  /// taking the resource apart read it instead of looking up `type`, `id` and `lid` again.
  let linkage: ResourceLinkage
  /// Where it was met, such as `[0].comments[1].author`: a step that becomes a row of the
  /// assembly's paths only if the resource is taken apart.
  let path: ResourcePaths.Step
  /// The node of the requested include paths it was reached at (``IncludeTree/root`` when every
  /// related resource is included).
  var includeNode = IncludeTree.root

  var identifier: EncodedResourceIdentifier { linkage.identifier }
}
