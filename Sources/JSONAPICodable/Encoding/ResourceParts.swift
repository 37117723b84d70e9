/// A resource object taken apart into the members JSON:API gives it.
final class ResourceParts: MemberSource {
  let identifier: EncodedResourceIdentifier
  let attributes = EncodedObject(role: .dictionary)
  let relationships = EncodedObject(role: .dictionary)
  // Confined to one encode call on one thread: no dynamic exclusivity checks needed.
  /// The related resources behind the relationships, in the order of ``relationships``, each
  /// with its relationship's name. A list, not a dictionary: resources have few relationships,
  /// and hashing names cost more than it saved.
  @exclusivity(unchecked) var relatives: [(name: String, resource: PendingResource)] = []
  @exclusivity(unchecked) var meta: EncodedObject?
  @exclusivity(unchecked) var links: EncodedObject?
  /// The include-path node this copy was taken apart at: which relationships' resources to
  /// collect.
  @exclusivity(unchecked) var includeNode = IncludeTree.root

  init(identifier: EncodedResourceIdentifier) {
    self.identifier = identifier
  }

  /// Adds the fields and meta/links members of `other` (the same resource encoded again) that this
  /// one lacks: the first-encoded value wins each conflict. Returns the related resources of the
  /// relationships added, which must be collected in turn.
  func merge(_ other: ResourceParts) -> [PendingResource] {
    for (name, value) in other.attributes.pairs
    where relationships[name] == nil {
      attributes.addIfAbsent(value, for: name)
    }
    var added: [String] = []
    for (name, value) in other.relationships.pairs
    where attributes[name] == nil && relationships.addIfAbsent(value, for: name) {
      added.append(name)
    }
    meta = Self.merged(meta, other.meta)
    links = Self.merged(links, other.links)
    if added.isEmpty { return [] }
    let newRelatives = other.relatives.filter { relative in added.contains(relative.name) }
    relatives.append(contentsOf: newRelatives)
    return newRelatives.map(\.resource)
  }

  private static func merged(_ first: EncodedObject?, _ second: EncodedObject?) -> EncodedObject? {
    guard let first else { return second }
    guard let second else { return first }
    let result = EncodedObject(role: .dictionary)
    for (name, value) in first.pairs { result.append(value, for: name) }
    for (name, value) in second.pairs { result.addIfAbsent(value, for: name) }
    return result
  }

  /// The resource object's members: `type`, `id`, `lid`, `attributes`, `relationships`, `links`,
  /// `meta`; empty `attributes` and `relationships` are left out (servers reject `{}` there).
  func forEachMember<E: Error>(_ body: (String, EncodedNode) throws(E) -> Void) throws(E) {
    try identifier.forEachMember(body)
    if !attributes.isEmpty { try body(ResourceMemberName.attributes.text, .object(attributes)) }
    if !relationships.isEmpty {
      try body(ResourceMemberName.relationships.text, .object(relationships))
    }
    if let links { try body(ResourceMemberName.links.text, .object(links)) }
    if let meta { try body(ResourceMemberName.meta.text, .object(meta)) }
  }
}
