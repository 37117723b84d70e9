/// The update of a resource from one version to another: `type`, `id` and only the fields whose
/// encoded value differs, as ``JSONAPIEncoder/encode(changesFrom:to:)`` sends them.
///
/// Both versions are taken apart by the one ``ResourceClassifier`` (so a field is an attribute or
/// a relationship exactly as `encode` decides) and compared member by member as JSON values
/// (``EncodedNode/writesSameJSON(as:)``):
/// - an attribute is sent whole when its value differs, or as `null` when `old` has it and `new`
///   does not (R80 makes an absent attribute "unchanged", so a removal must be said);
/// - a relationship is sent when its linkage (`data`) differs, compared whole (a to-many as one
///   list, in order), or cleared (`"data": null`, to-many `"data": []`, R83/R84/R120) when `old`
///   has linkage and `new` has none; its own `links` and `meta` are the server's to give and do
///   not count as a change (they are sent with a changed relationship, as `encode` writes them);
/// - a relationship in `new` without `data` (``JSONAPIRelationship/hasData`` false) says nothing
///   about its linkage and is never sent (R76: a request's relationship needs `data`);
/// - an empty array or `null` in `new` where `old` has a relationship clears it: an empty array of
///   a type that is not ``JSONAPIRelationshipExpressible`` is classified as an attribute, but the
///   same field in `old` says what it is.
/// The resource's own `meta` and `links`, and fields that sparse fieldsets leave out, are never
/// sent.
struct ChangeSet {
  /// The resource of the update document: the identifier of `new` (`type` and `id`) and the
  /// changed fields.
  let resource: ResourceParts

  /// Whether no field changed: the update would carry `type` and `id` alone.
  var isEmpty: Bool { resource.attributeCount == 0 && !resource.hasRelationships }

  /// The changes from `old` to `new`, two versions of one resource taken apart.
  ///
  /// - Throws: ``JSONAPIError/invalidValue(reason:codingPath:)`` when the two are not the same
  ///   resource (another `type` or `id`), or `new` has no `id` to update.
  init(from old: ResourceParts, to new: ResourceParts) throws {
    let identifier = try Self.identifier(of: old.identifier, and: new.identifier)
    let resource = ResourceParts(
      identifier: identifier,
      fields: EncodedObject(role: .plain, capacity: new.fields.count + old.fields.count))
    self.resource = resource
    let oldRelationships = Dictionary(
      old.relationships.lazy.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    var relationships: [PlannedMember] = []

    // Attributes of `new`, in its order.
    let newFields = new.fields
    for position in 0..<newFields.count where newFields.members[position].kind == .attribute {
      let member = newFields.members[position]
      switch Self.field(member.key, of: old) {
      case .attribute(let before)?:
        if !before.writesSameJSON(as: member.value) {
          resource.appendAttribute(member.value, for: member.key)
        }
      case .relationship?:
        guard ResourceClassifier.emptiesRelationship(member.value) else {
          resource.appendAttribute(member.value, for: member.key)
          continue
        }
        // An empty or null value where `old` has a relationship: that relationship emptied (when
        // `old` had linkage to empty).
        if let before = oldRelationships[member.key],
          let cleared = ResourceClassifier.emptied(before),
          Self.differs(cleared, from: before)
        {
          relationships.append(PlannedMember(member.key, cleared))
        }
      case nil:
        resource.appendAttribute(member.value, for: member.key)
      }
    }

    // Relationships of `new`, in its order.
    for relationship in new.relationships {
      // No `data`: nothing to say about the linkage (R76).
      guard relationship.value.relationshipLinkage != nil else { continue }
      if let before = oldRelationships[relationship.key],
        !Self.differs(relationship.value, from: before)
      {
        continue
      }
      relationships.append(relationship)
    }

    // Fields of `old` that `new` no longer has: said, since an absent field is unchanged (R80).
    let oldFields = old.fields
    for position in 0..<oldFields.count where oldFields.members[position].kind == .attribute {
      let member = oldFields.members[position]
      if newFields.hasField(member.key) || ResourceClassifier.isNull(member.value) { continue }
      resource.appendAttribute(.null, for: member.key)
    }
    for relationship in old.relationships where !newFields.hasField(relationship.key) {
      if let cleared = ResourceClassifier.emptied(relationship.value),
        Self.differs(cleared, from: relationship.value)
      {
        relationships.append(PlannedMember(relationship.key, cleared))
      }
    }

    for relationship in relationships {
      resource.appendRelationship(relationship.value, for: relationship.key)
    }
  }

  /// The identifier of the update: `new`'s `type` and `id`, once both are checked to be `old`'s.
  private static func identifier(
    of old: EncodedResourceIdentifier, and new: EncodedResourceIdentifier
  ) throws -> EncodedResourceIdentifier {
    guard let id = new.id else {
      throw JSONAPIError.invalidValue(
        reason: SpecSection.cite(
          "an update names its resource by `id`, and the new version of the \(new.type) resource "
            + "has none; encode(changesFrom:to:) updates a resource the server has (create a new "
            + "one with encode(_:) or encodeRequestBody(_:))", SpecSection.updating),
        codingPath: EncodingPath.topLevel.appending(ResourceMemberName.id.text).text)
    }
    guard old.type == new.type, old.id == id else {
      let before = "\(old.type)/\(old.id ?? "(no id)")"
      throw JSONAPIError.invalidValue(
        reason:
          "encode(changesFrom:to:) compares two versions of one resource, but the old one is "
          + "\(before) and the new one is \(new.type)/\(id); pass as `old` the resource as the "
          + "server has it and as `new` an edited copy of it, with the same `type` and `id`",
        codingPath: EncodingPath.topLevel.appending(
          old.type == new.type ? ResourceMemberName.id.text : ResourceMemberName.type.text
        ).text)
    }
    // An update names its resource by `id` alone.
    return EncodedResourceIdentifier(type: new.type, id: id, lid: nil)
  }

  /// What field `name` is in `parts`: an attribute with its value, a relationship, or `nil` when
  /// `parts` has no such field.
  private enum Field {
    case attribute(EncodedNode)
    case relationship
  }

  private static func field(_ name: String, of parts: ResourceParts) -> Field? {
    guard let position = parts.fields.position(of: name) else { return nil }
    let member = parts.fields.members[position]
    switch member.kind {
    case .attribute: return .attribute(member.value)
    case .relationship: return .relationship
    case .none: return nil
    }
  }

  /// Whether two relationships have different linkage; one without `data` differs from any other.
  private static func differs(_ relationship: PlannedNode, from other: PlannedNode) -> Bool {
    guard let first = linkage(of: relationship), let second = linkage(of: other) else {
      return true
    }
    return !first.writesSameJSON(as: second)
  }

  /// The JSON value of a relationship's `data`, as the writer would write it; `nil` when the
  /// relationship has no `data`.
  private static func linkage(of relationship: PlannedNode) -> EncodedNode? {
    switch relationship.relationshipLinkage {
    case .toOne(let linkage?)?: return json(linkage)
    case .toOne(nil)?: return .null
    case .toMany(let linkage)?: return array(linkage.map(json))
    case nil: return nil
    }
  }

  /// A resource identifier object as JSON: `type`, `id`, `lid` and the `meta` riding on it.
  private static func json(_ linkage: ResourceLinkage) -> EncodedNode {
    let object = EncodedObject(role: .dictionary, capacity: 4)
    linkage.forEachMember { name, value in
      if case .value(let value) = value { object.append(value, for: name) }
    }
    return .object(object)
  }

  private static func array(_ elements: [EncodedNode]) -> EncodedNode {
    let array = EncodedArray()
    array.elements = elements
    return .array(array)
  }
}
