/// A resource object taken apart into the members JSON:API gives it.
///
/// The attributes stay in the resource's encoded object, each member marked attribute or
/// relationship: no new object per resource. A relationship's object goes to ``relationships``, and
/// its encoded value (the related model's tree) is let go of in the encoded object.
final class ResourceParts: MemberSource {
  let identifier: EncodedResourceIdentifier
  /// The resource's encoded object, its members marked by ``FieldKind``.
  let fields: EncodedObject
  // Confined to one encode call on one thread: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) private(set) var attributeCount = 0
  /// The first relationship object, kept in the parts themselves: most resources have at most
  /// one, and an array for it would be one more allocation to fill, to read cold when the
  /// resource is written, and to free.
  @exclusivity(unchecked) private var firstRelationship: PlannedMember?
  /// The relationship objects after the first, in order.
  @exclusivity(unchecked) private var laterRelationships: [PlannedMember] = []
  /// A related resource behind a relationship, with the relationship's name.
  /// A struct, not a tuple: an array of tuples looks up its element type's metadata at run time
  /// each time one is allocated.
  struct Relative {
    let name: String
    let resource: PendingResource
  }

  /// The related resources behind the relationships, in the order of the relationships, until
  /// they are handed over to be queued (``takeRelatives()``). A list, not a dictionary: resources
  /// have few relationships, and hashing names cost more than it saved.
  @exclusivity(unchecked) var relatives: [Relative] = []
  @exclusivity(unchecked) var meta: EncodedObject?
  @exclusivity(unchecked) var links: EncodedObject?
  /// The include-path node this copy was taken apart at: which relationships' resources to
  /// collect.
  @exclusivity(unchecked) var includeNode = IncludeTree.root

  init(identifier: EncodedResourceIdentifier, fields: EncodedObject) {
    self.identifier = identifier
    self.fields = fields
  }

  /// Hands over ``relatives`` and keeps none: a resource kept for `included` would otherwise keep
  /// every copy it pointed at (each comment its copy of the author) until it is written.
  func takeRelatives() -> [Relative] {
    defer { relatives = [] }
    return relatives
  }

  /// Marks member `position` of ``fields`` as an attribute.
  func markAttribute(_ position: Int) {
    fields.classify(position, as: .attribute)
    attributeCount += 1
  }

  /// Marks member `position` of ``fields`` as a relationship written as `relationship`.
  func markRelationship(_ position: Int, _ relationship: PlannedNode) {
    addRelationship(PlannedMember(fields.members[position].key, relationship))
    fields.classify(position, as: .relationship, value: .null)
  }

  /// Adds an attribute after the fields so far: for a resource built from parts (a change set, a
  /// graph's new resource) rather than taken apart.
  func appendAttribute(_ value: EncodedNode, for name: String) {
    fields.append(value, for: name)
    markAttribute(fields.count - 1)
  }

  /// Adds a relationship written as `relationship` after the fields so far, as
  /// ``appendAttribute(_:for:)`` adds an attribute.
  func appendRelationship(_ relationship: PlannedNode, for name: String) {
    fields.append(.null, for: name)
    markRelationship(fields.count - 1, relationship)
  }

  /// Turns member `position` of ``fields``, an attribute that is an empty array, into the empty
  /// to-many relationship `"data": []` (R30), placed among the relationships in member order, as
  /// if it had been classified one (``ToManyLedger``).
  func markEmptyToMany(_ position: Int) {
    guard fields.members[position].kind == .attribute else { return }
    // Relationships are added in the order of their members: this one goes after those before it.
    var rank = 0
    for index in 0..<position where fields.members[index].kind == .relationship { rank += 1 }
    let relationship = PlannedMember(fields.members[position].key, .toManyRelationship([]))
    fields.classify(position, as: .relationship, value: .null)
    attributeCount -= 1
    if rank > 0, firstRelationship != nil {
      laterRelationships.insert(relationship, at: min(rank - 1, laterRelationships.count))
      return
    }
    if let firstRelationship { laterRelationships.insert(firstRelationship, at: 0) }
    firstRelationship = relationship
  }

  private func addRelationship(_ relationship: PlannedMember) {
    if firstRelationship == nil {
      firstRelationship = relationship
    } else {
      laterRelationships.append(relationship)
    }
  }

  /// The relationship objects, in order, as a new array: for the graph planner and change sets,
  /// which walk them once per resource; the writer uses ``forEachRelationship(_:)``.
  var relationships: [PlannedMember] {
    guard let firstRelationship else { return [] }
    return [firstRelationship] + laterRelationships
  }

  /// Whether the resource has a relationship.
  var hasRelationships: Bool { firstRelationship != nil }

  /// Calls `body` with each relationship object, in order.
  func forEachRelationship<E: Error>(_ body: (PlannedMember) throws(E) -> Void) throws(E) {
    guard let firstRelationship else { return }
    try body(firstRelationship)
    for relationship in laterRelationships { try body(relationship) }
  }

  /// Adds the fields and meta/links members of `other` (the same resource encoded again) that this
  /// one lacks: the first-encoded value wins each conflict. Returns the related resources of the
  /// relationships added, which must be collected in turn. An undecided empty array added (an
  /// attribute for now) is deferred in `ledger` here, where it is written.
  func merge(_ other: ResourceParts, ledger: ToManyLedger) -> [Relative] {
    for member in other.fields.members
    where member.kind == .attribute && !fields.hasField(member.key) {
      fields.append(member.value, for: member.key, kind: .attribute)
      attributeCount += 1
      if case .array(let array) = member.value, array.elements.isEmpty,
        !array.holdsRelatedResources, !array.holdsNoResources
      {
        ledger.deferMerged(fields.count - 1, of: self, slot: other.fields.modelSlot)
      }
    }
    var added: [String] = []
    other.forEachRelationship { relationship in
      guard !fields.hasField(relationship.key) else { return }
      fields.append(.null, for: relationship.key, kind: .relationship)
      addRelationship(relationship)
      added.append(relationship.key)
    }
    meta = Self.merged(meta, other.meta)
    links = Self.merged(links, other.links)
    if added.isEmpty { return [] }
    return other.relatives.filter { relative in added.contains(relative.name) }
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
  func forEachMember<E: Error>(_ body: (String, PlannedNode) throws(E) -> Void) throws(E) {
    try identifier.forEachMember(body)
    if attributeCount > 0 { try body(ResourceMemberName.attributes.text, .attributes(self)) }
    if hasRelationships {
      try body(ResourceMemberName.relationships.text, .relationships(self))
    }
    if let links { try body(ResourceMemberName.links.text, .value(.object(links))) }
    if let meta { try body(ResourceMemberName.meta.text, .value(.object(meta))) }
  }
}

/// A resource's `relationships` object, written from its parts.
struct RelationshipMembers: MemberSource {
  let parts: ResourceParts

  func forEachMember<E: Error>(_ body: (String, PlannedNode) throws(E) -> Void) throws(E) {
    try parts.forEachRelationship { (member) throws(E) in try body(member.key, member.value) }
  }
}

/// What a member of a resource's encoded object became when the resource was taken apart.
enum FieldKind: UInt8 {
  /// Not a field: an identity member, the resource's own `meta` or `links`, a field a sparse
  /// fieldset leaves out, or a member of an object that is no resource.
  case none
  /// An attribute: written in `attributes`.
  case attribute
  /// A relationship: its relationship object is in ``ResourceParts/relationships``, and its
  /// encoded value is let go of.
  case relationship
}
