/// Identity of a resource within one document: `type` with `id`, or with `lid` for a resource the
/// client is creating.
struct EncodedResourceIdentity: Hashable {
  let type: String
  let id: String
  let isLocal: Bool
}

/// Where a field's value sits, for error messages: `parent.name`, then optionally `.member` and
/// `[index]`. Kept in parts because most paths are never shown; the text is built on demand.
struct FieldPath {
  let parent: String
  let name: String
  var member: String?
  var index: Int?

  init(parent: String, name: String, member: String? = nil, index: Int? = nil) {
    self.parent = parent
    self.name = name
    self.member = member
    self.index = index
  }

  /// The same path one level down, at `member` of this value.
  func appending(member: String) -> FieldPath {
    FieldPath(parent: parent, name: name, member: member)
  }

  /// The same path at element `index` of this value.
  func appending(index: Int) -> FieldPath {
    FieldPath(parent: parent, name: name, member: member, index: index)
  }

  var text: String {
    var text = parent.isEmpty ? name : "\(parent).\(name)"
    if let member { text += ".\(member)" }
    if let index { text += "[\(index)]" }
    return text
  }
}

/// The members of a resource-shaped object that are not fields.
enum ReservedMember {
  case type, id, lid, meta, links

  /// The reserved member called `name`, if any. Lengths are compared first: a string comparison
  /// that fails is a call into the runtime, and most names are fields.
  @inline(__always)
  init?(_ name: String) {
    switch name.utf8.count {
    case 2 where name == "id": self = .id
    case 3 where name == "lid": self = .lid
    case 4 where name == "type": self = .type
    case 4 where name == "meta": self = .meta
    case 5 where name == "links": self = .links
    default: return nil
    }
  }
}

/// Something the writer writes as a JSON object straight from its parts, without building one.
protocol MemberSource {
  /// The members, in the order ``object()`` gives them.
  func forEachMember(_ body: (String, EncodedNode) throws -> Void) rethrows
  /// The members as an object, for `.sortedKeys`.
  func object() -> EncodedObject
}

/// A resource identifier object (`type`, `id`, `lid`, `meta`) in a relationship's `data`.
final class ResourceLinkage: MemberSource {
  let identifier: DocumentAssembler.ResourceIdentifier
  let meta: EncodedObject?

  init(identifier: DocumentAssembler.ResourceIdentifier, meta: EncodedObject?) {
    self.identifier = identifier
    self.meta = meta
  }

  /// The identifier object's members, in the order ``object()`` gives them.
  func forEachMember(_ body: (String, EncodedNode) throws -> Void) rethrows {
    try body("type", .string(identifier.type))
    if let id = identifier.id { try body("id", .string(id)) }
    if let lid = identifier.lid { try body("lid", .string(lid)) }
    if let meta { try body("meta", .object(meta)) }
  }

  /// The identifier object as an ordinary object (for sorted output).
  func object() -> EncodedObject {
    let object = EncodedObject(role: .dictionary)
    forEachMember { name, value in object.append(value, for: name) }
    return object
  }
}

/// A related resource met in a relationship, waiting to be turned into an included resource.
struct PendingResource {
  let object: EncodedObject
  let fieldPath: FieldPath

  /// The resource's coding path, such as `[0].comments[1].author`.
  var path: String { fieldPath.text }
}

/// A resource object taken apart into the members JSON:API gives it.
final class ResourceParts {
  let type: String
  let id: String?
  let lid: String?
  let attributes = EncodedObject(role: .dictionary)
  let relationships = EncodedObject(role: .dictionary)
  // Confined to one encode call on one thread: no dynamic exclusivity checks needed.
  /// The related resources behind the relationships, in the order of ``relationships``, each
  /// with its relationship's name. A list, not a dictionary: resources have few relationships,
  /// and hashing names cost more than it saved.
  @exclusivity(unchecked) var relatives: [(name: String, resource: PendingResource)] = []
  @exclusivity(unchecked) var meta: EncodedObject?
  @exclusivity(unchecked) var links: EncodedObject?

  init(type: String, id: String?, lid: String?) {
    self.type = type
    self.id = id
    self.lid = lid
  }

  var identity: EncodedResourceIdentity? {
    if let id { return EncodedResourceIdentity(type: type, id: id, isLocal: false) }
    if let lid { return EncodedResourceIdentity(type: type, id: lid, isLocal: true) }
    return nil
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

  /// The resource object's members, in the order ``resourceObject()`` gives them.
  func forEachMember(_ body: (String, EncodedNode) throws -> Void) rethrows {
    try body("type", .string(type))
    if let id { try body("id", .string(id)) }
    if let lid { try body("lid", .string(lid)) }
    if !attributes.isEmpty { try body("attributes", .object(attributes)) }
    if !relationships.isEmpty { try body("relationships", .object(relationships)) }
    if let links { try body("links", .object(links)) }
    if let meta { try body("meta", .object(meta)) }
  }

  /// The resource object: `type`, `id`, `lid`, `attributes`, `relationships`, `links`, `meta`;
  /// empty `attributes` and `relationships` are left out (servers reject `{}` there).
  func resourceObject() -> EncodedObject {
    let object = EncodedObject(role: .dictionary)
    object.append(.string(type), for: "type")
    if let id { object.append(.string(id), for: "id") }
    if let lid { object.append(.string(lid), for: "lid") }
    if !attributes.isEmpty { object.append(.object(attributes), for: "attributes") }
    if !relationships.isEmpty { object.append(.object(relationships), for: "relationships") }
    if let links { object.append(.object(links), for: "links") }
    if let meta { object.append(.object(meta), for: "meta") }
    return object
  }
}

extension ResourceParts: MemberSource {
  func object() -> EncodedObject { resourceObject() }
}
