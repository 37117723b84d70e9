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

  /// Whether taking `object` apart and passing it to ``accept(_:)`` would change nothing: it is a
  /// primary resource, or a copy whose every field the recorded copy already has. Answers `false`
  /// whenever taking it apart could throw or add `meta`/`links`, so skipping stays exact.
  ///
  /// Shared related resources (one author on many articles) are met over and over; this check
  /// reads a few members instead of classifying every field of every copy again.
  func isRedundant(_ object: EncodedObject) -> Bool {
    guard let identity = Self.identity(of: object) else { return false }
    let isPrimary = primaryIdentities.contains(identity)
    let existing = isPrimary ? nil : positions[identity].map { resources[$0] }
    guard isPrimary || existing != nil else { return false }
    for (name, value) in object.pairs {
      switch ReservedMember(name) {
      case .type?, .id?, .lid?: continue
      case .meta?, .links?: return false
      case nil: break
      }
      // Only a JSONAPIRelationship field can throw while being classified.
      if case .object(let member) = value, member.role == .relationship { return false }
      if let existing, existing.attributes[name] == nil, existing.relationships[name] == nil {
        return false
      }
    }
    return true
  }

  /// The identity ``ResourceParts/identity`` would give `object`; `nil` when there is none or when
  /// taking the object apart would throw on its `id` or `lid`.
  private static func identity(of object: EncodedObject) -> EncodedResourceIdentity? {
    guard case .string(let type)? = object["type"] else { return nil }
    var lid: String?
    switch object["lid"] {
    case .string(let value)?: lid = value
    case nil, .null?, .nullRelated?: lid = nil
    default: return nil
    }
    switch object["id"] {
    case .string(let id)?, .number(let id)?:
      return EncodedResourceIdentity(type: type, id: id, isLocal: false)
    case nil, .null?, .nullRelated?:
      return lid.map { EncodedResourceIdentity(type: type, id: $0, isLocal: true) }
    default:
      return nil
    }
  }

  /// Takes `parts` into `included`, merging it into an earlier copy of the same resource.
  /// Returns the relatives of whatever was newly written, which must be collected in turn.
  mutating func accept(_ parts: ResourceParts) -> [PendingResource] {
    guard let identity = parts.identity, !primaryIdentities.contains(identity) else { return [] }
    if let position = positions[identity] {
      let existing = resources[position]
      return existing.merge(parts)
    }
    positions[identity] = resources.count
    resources.append(parts)
    return parts.relatives.map(\.resource)
  }
}
