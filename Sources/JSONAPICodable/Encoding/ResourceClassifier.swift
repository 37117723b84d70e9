/// Classification of a resource's members: `type`/`id`/`lid`/`meta`/`links` go to the resource
/// itself; every other member becomes a relationship or an attribute, decided by its value.
extension DocumentAssembler {
  /// The identifier members of a value that is shaped like a resource: a plain object with a
  /// string `type` and a string or numeric `id` (or a string `lid`). `nil` for anything else.
  static func identifier(of object: EncodedObject) -> ResourceIdentifier? {
    guard object.role == .plain, case .string(let type)? = object["type"] else { return nil }
    var id: String?
    switch object["id"] {
    case .string(let value)?: id = value
    case .number(let value)?: id = value
    default: id = nil
    }
    var lid: String?
    if case .string(let value)? = object["lid"] { lid = value }
    guard id != nil || lid != nil else { return nil }
    return ResourceIdentifier(type: type, id: id, lid: lid)
  }

  /// The identifier members of a resource-shaped object.
  struct ResourceIdentifier {
    let type: String
    let id: String?
    let lid: String?
  }

  /// Takes a resource-shaped object apart. Relationship fields collect their related resources in
  /// ``ResourceParts/relatives`` (when `included` is wanted) for the caller to queue.
  ///
  /// - Throws: ``JSONAPIError/missingResourceType(swiftType:codingPath:)`` without a `type`;
  ///   ``JSONAPIError/invalidValue(reason:codingPath:)`` for an `id`, `lid` or `type` that is not a
  ///   string (or number, for `id`) and for a ``JSONAPIRelationship`` whose data is not resources.
  func resource(from object: EncodedObject, path: String) throws -> ResourceParts {
    let swiftType = object.swiftType.map { "\($0)" } ?? "an encoded object"
    guard let typeNode = object["type"], !Self.isNull(typeNode) else {
      throw JSONAPIError.missingResourceType(swiftType: swiftType, codingPath: path)
    }
    guard case .string(let type) = typeNode else {
      throw JSONAPIError.invalidValue(
        reason: "`type` of \(swiftType) must encode as a string",
        codingPath: Self.join(path, "type"))
    }
    let parts = ResourceParts(
      type: type, id: try Self.identifierMember("id", of: object, path: path, numbers: true),
      lid: try Self.identifierMember("lid", of: object, path: path, numbers: false))
    // An empty dictionary would still hash the type on every look-up.
    let fieldset = options.sparseFieldsets.isEmpty ? nil : options.sparseFieldsets[type]
    for (name, value) in object.pairs {
      switch ReservedMember(name) {
      case .type?, .id?, .lid?:
        continue
      case let reserved?:  // meta or links
        if case .object(let member) = value {
          if reserved == .meta { parts.meta = member } else { parts.links = member }
          continue
        }
        if Self.isNull(value) { continue }
      case nil:
        break
      }
      if let fieldset, !fieldset.contains(name) { continue }
      try classifyField(name, value, into: parts, path: FieldPath(parent: path, name: name))
    }
    return parts
  }

  private func classifyField(
    _ name: String, _ value: EncodedNode, into parts: ResourceParts, path: FieldPath
  ) throws {
    switch value {
    case .nullRelated:
      parts.relationships.append(.object(Self.relationship(data: .null)), for: name)
    case .object(let object) where object.role == .relationship:
      if let relationship = try relationshipObject(
        fromWrapper: object, into: parts, name: name,
        path: path)
      {
        parts.relationships.append(.object(relationship), for: name)
      }
    case .object(let object):
      // Each identifier is worked out once: it takes three member look-ups.
      if let identifier = Self.identifier(of: object) {
        let linkage = linkage(
          for: object, identifier: identifier, path: path, into: parts, name: name)
        parts.relationships.append(.object(Self.relationship(data: linkage)), for: name)
      } else {
        parts.attributes.append(value, for: name)
      }
    case .array(let array):
      if let identifiers = Self.toManyIdentifiers(array) {
        let data = EncodedArray()
        data.elements.reserveCapacity(identifiers.count)
        for (index, element) in array.elements.enumerated() {
          if case .object(let object) = element {
            data.elements.append(
              linkage(
                for: object, identifier: identifiers[index], path: path.appending(index: index),
                into: parts, name: name))
          }
        }
        parts.relationships.append(.object(Self.relationship(data: .array(data))), for: name)
      } else {
        parts.attributes.append(value, for: name)
      }
    default:
      parts.attributes.append(value, for: name)
    }
  }

  /// Whether an array is a to-many relationship: every element resource-shaped, or empty with a
  /// ``JSONAPIRelationshipExpressible`` element type.
  /// Returns the elements' identifiers, in order; `nil` when the array is not a relationship.
  private static func toManyIdentifiers(_ array: EncodedArray) -> [ResourceIdentifier]? {
    if array.elements.isEmpty { return array.holdsRelatedResources ? [] : nil }
    var identifiers: [ResourceIdentifier] = []
    identifiers.reserveCapacity(array.elements.count)
    for element in array.elements {
      guard case .object(let object) = element, let identifier = identifier(of: object) else {
        return nil
      }
      identifiers.append(identifier)
    }
    return identifiers
  }

  /// The relationship object for a ``JSONAPIRelationship`` value; `nil` when it would be empty.
  private func relationshipObject(
    fromWrapper wrapper: EncodedObject, into parts: ResourceParts, name: String, path: FieldPath
  ) throws -> EncodedObject? {
    let relationship = EncodedObject(role: .dictionary)
    let dataPath = path.appending(member: "data")
    switch wrapper["data"] {
    case nil:
      break
    case .null?, .nullRelated?:
      relationship.append(.null, for: "data")
    case .object(let object)?:
      guard let identifier = Self.identifier(of: object) else {
        throw JSONAPIError.invalidValue(
          reason: "the data of a JSONAPIRelationship must be a resource with `type` and `id`, "
            + "an array of them, or nil", codingPath: dataPath.text)
      }
      relationship.append(
        linkage(for: object, identifier: identifier, path: dataPath, into: parts, name: name),
        for: "data")
    case .array(let array)?:
      let data = EncodedArray()
      for (index, element) in array.elements.enumerated() {
        guard case .object(let object) = element, let identifier = Self.identifier(of: object)
        else {
          throw JSONAPIError.invalidValue(
            reason: "the data of a JSONAPIRelationship must be resources with `type` and `id`",
            codingPath: dataPath.appending(index: index).text)
        }
        data.elements.append(
          linkage(
            for: object, identifier: identifier, path: dataPath.appending(index: index),
            into: parts, name: name))
      }
      relationship.append(.array(data), for: "data")
    default:
      throw JSONAPIError.invalidValue(
        reason: "the data of a JSONAPIRelationship must be a resource with `type` and `id`, "
          + "an array of them, or nil", codingPath: dataPath.text)
    }
    for member in ["links", "meta"] {
      switch wrapper[member] {
      case .object(let object)?: relationship.append(.object(object), for: member)
      case nil, .null?, .nullRelated?: break
      default:
        throw JSONAPIError.invalidValue(
          reason: "`\(member)` must encode as a JSON object",
          codingPath: path.appending(member: member).text)
      }
    }
    return relationship.isEmpty ? nil : relationship
  }

  /// The resource identifier object for a related resource, queueing the resource for `included`
  /// when it carries more than its identifier (and its meta, which then rides on the identifier).
  private func linkage(
    for object: EncodedObject, identifier: ResourceIdentifier, path: FieldPath,
    into parts: ResourceParts, name: String
  ) -> EncodedNode {
    // Bare: nothing beyond the identifier and an object `meta`, which then rides on the linkage.
    var isBare = true
    var meta: EncodedObject?
    for member in object.members {
      switch ReservedMember(member.key) {
      case .type?, .id?, .lid?: continue
      case .meta?:
        if case .object(let object) = member.value { meta = object } else { isBare = false }
      default: isBare = false
      }
      if !isBare { break }
    }
    if !isBare {
      meta = nil
      if options.includesRelatedResources {
        parts.relatives.append((name, PendingResource(object: object, fieldPath: path)))
      }
    }
    return .linkage(ResourceLinkage(identifier: identifier, meta: meta))
  }

  private static func relationship(data: EncodedNode) -> EncodedObject {
    let relationship = EncodedObject(role: .dictionary)
    // Most relationships in a document are these: an eighth of the default member array.
    relationship.reserveCapacity(1)
    relationship.append(data, for: "data")
    return relationship
  }

  private static func identifierMember(
    _ name: String, of object: EncodedObject, path: String, numbers: Bool
  ) throws -> String? {
    switch object[name] {
    case nil, .null?, .nullRelated?: return nil
    case .string(let value)?: return value
    case .number(let value)? where numbers: return value
    default:
      throw JSONAPIError.invalidValue(
        reason: numbers
          ? "`\(name)` must encode as a string or a number" : "`\(name)` must encode as a string",
        codingPath: join(path, name))
    }
  }

  static func isNull(_ node: EncodedNode) -> Bool {
    switch node {
    case .null, .nullRelated: return true
    default: return false
    }
  }

  static func join(_ path: String, _ name: String) -> String {
    path.isEmpty ? name : "\(path).\(name)"
  }
}
