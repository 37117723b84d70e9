/// Gathers the related resources of a document into `included`: one resource object per identity,
/// in the order they are first met (breadth first from the primary data), never a primary resource.
///
/// Related resources wait in a queue read with a moving head index, so long chains cost no
/// recursion and no `removeFirst`.
struct IncludedCollector {
  private(set) var resources: [ResourceParts] = []
  private var positions: [EncodedResourceIdentity: Int] = [:]
  private var primaryIdentities: Set<EncodedResourceIdentity> = []
  private var queue: [PendingResource] = []
  private var head = 0

  /// Records a primary resource; returns `false` when one with that identity was recorded before.
  mutating func addPrimary(_ identity: EncodedResourceIdentity) -> Bool {
    primaryIdentities.insert(identity).inserted
  }

  mutating func enqueue(_ relatives: [PendingResource]) {
    queue.append(contentsOf: relatives)
  }

  /// The next related resource to look at, or `nil` when all have been.
  mutating func next() -> PendingResource? {
    guard head < queue.count else { return nil }
    defer { head += 1 }
    return queue[head]
  }

  /// Takes `parts` into `included`, merging it into an earlier copy of the same resource.
  /// Returns the relatives of whatever was newly written, which must be collected in turn.
  mutating func accept(_ parts: ResourceParts) -> [PendingResource] {
    guard let identity = parts.identity, !primaryIdentities.contains(identity) else { return [] }
    if let position = positions[identity] {
      let existing = resources[position]
      return existing.merge(parts).flatMap { existing.relatives[$0] ?? [] }
    }
    positions[identity] = resources.count
    resources.append(parts)
    return parts.relationships.keys.flatMap { parts.relatives[$0] ?? [] }
  }
}
