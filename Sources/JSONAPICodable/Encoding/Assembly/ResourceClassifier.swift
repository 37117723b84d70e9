/// Takes resource objects apart: `type`/`id`/`lid`/`meta`/`links` go to the resource itself; every
/// other member becomes a relationship or an attribute, decided by its value.
struct ResourceClassifier {
  let options: EncodingOptions
  /// The paths of the resources taken apart, for errors and for the related resources queued.
  let paths = ResourcePaths()
  /// Where members that are to-many relationships are learnt, and undecided empty arrays wait for
  /// them, for the whole document.
  let toMany = ToManyLedger()

  /// Takes a resource-shaped object apart. Relationship fields collect their related resources in
  /// ``ResourceParts/relatives`` (when `included` is wanted) for the caller to queue.
  ///
  /// - Throws: ``JSONAPIError/missingResourceType(swiftType:codingPath:)`` without a `type`;
  ///   ``JSONAPIError/invalidValue(reason:codingPath:)`` for an `id`, `lid` or `type` that is not a
  ///   string (or number, for `id`) and for a ``JSONAPIRelationship`` whose data is not resources;
  ///   for a field that holds a related resource by its type (``EncodedObject/isDeclaredRelated``)
  ///   and does not identify it, see ``refuseUnidentified(_:at:)``.
  func resource(
    from object: EncodedObject, at path: ResourcePaths.Index, includeNode: Int = IncludeTree.root
  ) throws -> ResourceParts {
    let identifier: EncodedResourceIdentifier
    do {
      identifier = try EncodedResourceIdentifier(of: object)
    } catch {
      throw error.error(
        swiftType: object.swiftType.map { "\($0)" } ?? "an encoded object", at: paths.path(path))
    }
    return try resource(from: object, identifier: identifier, at: path, includeNode: includeNode)
  }

  /// Takes a related resource apart, with the identifier its linkage already holds.
  ///
  /// - Throws: as ``resource(from:at:includeNode:)``, for its fields.
  func resource(_ pending: PendingResource) throws -> ResourceParts {
    try resource(
      from: pending.object, identifier: pending.identifier, at: paths.row(pending.path),
      includeNode: pending.includeNode)
  }

  @inline(__always)
  private func resource(
    from object: EncodedObject, identifier: EncodedResourceIdentifier, at path: ResourcePaths.Index,
    includeNode: Int
  ) throws -> ResourceParts {
    let parts = ResourceParts(identifier: identifier, fields: object)
    parts.includeNode = includeNode
    let fieldset = self.fieldset(of: identifier.type)
    // By position, not over `members`: iterating would hold the array, and marking a member
    // would then copy it.
    for position in 0..<object.count {
      switch role(ofMember: position, of: object, fieldset: fieldset) {
      case .identity, .none:
        continue
      case .meta(let meta):
        parts.meta = meta
      case .links(let links):
        parts.links = links
      case .field:
        // A scalar is an attribute whatever it holds: decided without copying the value.
        if object.members[position].value.isScalar {
          parts.markAttribute(position)
        } else {
          try classifyField(
            object.members[position].key, object.members[position].value, at: position,
            into: parts, resourcePath: path)
        }
      }
    }
    return parts
  }

  /// What a member of a resource's encoded object is, from its name and value: the one place
  /// that decides which members are the resource's own and which are fields.
  enum MemberRole {
    /// `type`, `id` or `lid`: the resource's identifier.
    case identity
    /// The resource's own `meta` or `links` (an object).
    case meta(EncodedObject)
    case links(EncodedObject)
    /// Written nowhere: a `null` `meta` or `links`, or a field the sparse fieldset leaves out.
    case none
    /// An attribute or a relationship, which ``classifyField(_:_:at:into:resourcePath:)``
    /// decides; `mayThrow` when classifying it can throw (a ``JSONAPIRelationship``).
    case field(mayThrow: Bool)
  }

  /// The role of member `position` of `object`, under `fieldset` (``fieldset(of:)``).
  @inline(__always)
  func role(ofMember position: Int, of object: EncodedObject, fieldset: Set<String>?)
    -> MemberRole
  {
    let name = object.members[position].key
    if let reserved = ResourceMemberName(name) {
      if reserved.isIdentity { return .identity }
      if reserved == .meta || reserved == .links {
        // An object is the resource's own member; `null` is none; anything else is a field.
        if case .object(let member) = object.members[position].value {
          return reserved == .meta ? .meta(member) : .links(member)
        }
        if Self.isNull(object.members[position].value) { return .none }
      }
    }
    if let fieldset, !fieldset.contains(name) { return .none }
    // Only a JSONAPIRelationship field can throw while being classified.
    if case .object(let value) = object.members[position].value, value.role == .relationship {
      return .field(mayThrow: true)
    }
    return .field(mayThrow: false)
  }

  /// The sparse fieldset of resources of `type`, if there is one.
  @inline(__always)
  func fieldset(of type: String) -> Set<String>? {
    // An empty dictionary would still hash the type on every look-up.
    options.sparseFieldsets.isEmpty ? nil : options.sparseFieldsets[type]
  }

  /// Whether taking `pending` (a copy of a resource met again) apart and merging it into
  /// `recorded`, the copy taken apart before (`nil`: the resource is a primary one, which related
  /// copies never change), would change nothing and could not throw: then it need not be taken
  /// apart. Shared related resources (one author on many articles) are met over and over; this
  /// reads a few members instead of classifying every field of every copy again.
  func addsNothing(_ pending: PendingResource, to recorded: ResourceParts?) -> Bool {
    let object = pending.object
    let fieldset = self.fieldset(of: pending.identifier.type)
    // By position: copying whole members would retain every value of every copy.
    for position in 0..<object.count {
      switch role(ofMember: position, of: object, fieldset: fieldset) {
      case .identity, .none:
        continue
      case .meta, .links, .field(mayThrow: true):
        // Merging `meta` or `links` may add members; a relationship may throw.
        return false
      case .field(mayThrow: false):
        if let recorded, !recorded.fields.hasField(object.members[position].key) { return false }
      }
    }
    return true
  }

  private func classifyField(
    _ name: String, _ value: EncodedNode, at position: Int, into parts: ResourceParts,
    resourcePath: ResourcePaths.Index
  ) throws {
    switch value {
    case .nullRelated:
      parts.markRelationship(position, .nullRelationship)
    case .object(let object) where object.role == .relationship:
      if let relationship = try relationshipObject(
        fromWrapper: object, into: parts, name: name, path: paths.appending(name, to: resourcePath))
      {
        parts.markRelationship(position, .relationship(relationship))
      } else {
        // An empty relationship object is left out, as the wrapper's encoded object would be.
        parts.fields.classify(position, as: .none, value: .null)
      }
    case .object(let object):
      // Each identifier is worked out once: it takes three member look-ups.
      if let identifier = relatedIdentifier(of: object) {
        let linkage = linkage(
          for: object, identifier: identifier, path: .member(name, of: resourcePath), into: parts,
          name: name)
        parts.markRelationship(position, .toOneRelationship(linkage))
      } else if object.isDeclaredRelated {
        throw refuseUnidentified(object, at: paths.path(.member(name, of: resourcePath)))
      } else {
        parts.markAttribute(position)
      }
    case .array(let array):
      if array.holdsNoResources {
        // `[String]` and the like: the element type says it is no relationship, empty or not.
        parts.markAttribute(position)
      } else if array.elements.isEmpty, !array.holdsRelatedResources {
        // No element and no element type to tell: the rest of the document decides (R30).
        toMany.classifyEmpty(position, of: parts)
      } else if let identifiers = toManyIdentifiers(array) {
        var data: [ResourceLinkage] = []
        data.reserveCapacity(identifiers.count)
        // The relationship's step of the path is made once for all its elements, and only when
        // one of them is queued.
        var relationshipPath: ResourcePaths.Index?
        func elementPath(_ index: Int) -> ResourcePaths.Step {
          let path = relationshipPath ?? paths.appending(name, to: resourcePath)
          relationshipPath = path
          return .element(index, of: path)
        }
        for (index, element) in array.elements.enumerated() {
          if case .object(let object) = element {
            data.append(
              linkage(
                for: object, identifier: identifiers[index], path: elementPath(index),
                into: parts, name: name))
          }
        }
        parts.markRelationship(position, .toManyRelationship(data))
        // An element type that is no related-resource type leaves empty arrays of the member
        // undecided: they follow this one.
        if !array.holdsRelatedResources, !data.isEmpty {
          toMany.learn(name, slot: parts.fields.modelSlot)
        }
      } else {
        // Not a relationship, so an attribute: unless an element is a related resource by its
        // type, which must never be written as an attribute.
        try refuseUnidentifiedElement(of: array, name: name, resourcePath: resourcePath)
        parts.markAttribute(position)
      }
    default:
      parts.markAttribute(position)
    }
  }

  /// The identifier of an object that is shaped like a related resource: a plain object (not a
  /// dictionary or attribute type) whose identifier members are valid and include `id` or `lid`,
  /// or (``EncodingOptions/typedValuesAreResources``, in a graph) only `type`. `nil` for anything
  /// else, which is then an attribute.
  func relatedIdentifier(of object: EncodedObject) -> EncodedResourceIdentifier? {
    guard object.role == .plain, let identifier = try? EncodedResourceIdentifier(of: object),
      options.typedValuesAreResources || identifier.id != nil || identifier.lid != nil
    else { return nil }
    return identifier
  }

  /// Whether an array is a to-many relationship: every element resource-shaped, or empty with a
  /// ``JSONAPIRelationshipExpressible`` or ``JSONAPIResource`` element type.
  /// Returns the elements' identifiers, in order; `nil` when the array is not a relationship.
  private func toManyIdentifiers(_ array: EncodedArray) -> [EncodedResourceIdentifier]? {
    if array.elements.isEmpty { return array.holdsRelatedResources ? [] : nil }
    var identifiers: [EncodedResourceIdentifier] = []
    identifiers.reserveCapacity(array.elements.count)
    for element in array.elements {
      guard case .object(let object) = element,
        let identifier = relatedIdentifier(of: object)
      else {
        return nil
      }
      identifiers.append(identifier)
    }
    return identifiers
  }

  /// Throws ``refuseUnidentified(_:at:)`` for the first element of `array`, an array that is no
  /// relationship, that holds a related resource by its type and does not identify it. Out of
  /// line: it runs only for arrays that are attributes.
  @inline(never)
  private func refuseUnidentifiedElement(
    of array: EncodedArray, name: String, resourcePath: ResourcePaths.Index
  ) throws {
    for (index, element) in array.elements.enumerated() {
      guard case .object(let object) = element, object.isDeclaredRelated,
        relatedIdentifier(of: object) == nil
      else { continue }
      let elementPath = ResourcePaths.Step.element(
        index, of: paths.appending(name, to: resourcePath))
      throw refuseUnidentified(object, at: paths.path(elementPath))
    }
  }

  /// The error for `object`, a value of a ``JSONAPIResource`` or
  /// ``JSONAPIRelationshipExpressible`` type where a relationship goes (a field of a resource,
  /// or an element of one), which does not identify the resource it stands for: such a value is
  /// never written as an attribute, where the server would miss the relationship (R20, R23).
  ///
  /// Without `id` and `lid`, an `EncodingError.invalidValue` (its value the Swift type) that
  /// names the path and what to do: a resource identifier needs an `id`, or a `lid` for a
  /// resource created in the same request (R34), which ``JSONAPIEncoder/encode(graph:)`` sends.
  /// (There, ``EncodingOptions/typedValuesAreResources``, the `type` is enough: such a value is
  /// a new resource, never refused.) With a `type`, `id` or `lid` of the wrong kind, the error a
  /// resource gets for it (``EncodedResourceIdentifier/Problem``).
  @inline(never)
  func refuseUnidentified(_ object: EncodedObject, at path: EncodingPath) -> any Error {
    let swiftType = object.swiftType ?? Any.self
    do {
      _ = try EncodedResourceIdentifier(of: object)
    } catch {
      return error.error(swiftType: "\(swiftType)", at: path)
    }
    let declaration =
      swiftType is any JSONAPIResource.Type ? "JSONAPIResource" : "JSONAPIRelationshipExpressible"
    return EncodingError.invalidValue(
      swiftType,
      EncodingError.Context(
        codingPath: path.codingPath,
        debugDescription: SpecSection.cite(
          "The value at `\(path.text)` is a \(swiftType), a \(declaration): a related resource, "
            + "which needs an `id`, or a `lid`, to be written as a relationship, and is never "
            + "written as an attribute. Give it an `id`; or, for a new resource, a `lid`, and "
            + "send it with create(graph:at:) (JSONAPIEncoder.encode(graph:)), which creates it "
            + "in the same request", SpecSection.identifierObjects)))
  }

  /// The relationship object for a ``JSONAPIRelationship`` value at `path`; `nil` when it would be
  /// empty. Related resources are queued in `parts` (none without: a relationship endpoint's body
  /// carries linkage only).
  func relationshipObject(
    fromWrapper wrapper: EncodedObject, into parts: ResourceParts?, name: String,
    path: @autoclosure () -> ResourcePaths.Index
  ) throws -> PlannedRelationship? {
    var relationship = PlannedRelationship(data: nil, others: [])
    let data = "data"
    // Made when first asked for: most relationships queue nothing and throw nothing.
    var madePath: ResourcePaths.Index?
    func relationshipPath() -> ResourcePaths.Index {
      let made = madePath ?? path()
      madePath = made
      return made
    }
    var dataPath: ResourcePaths.Index?
    func pathOfData() -> ResourcePaths.Index {
      let made = dataPath ?? paths.appending(data, to: relationshipPath())
      dataPath = made
      return made
    }
    switch wrapper[data] {
    case nil:
      break
    case .null?, .nullRelated?:
      relationship.data = .value(.null)
    case .object(let object)?:
      guard
        let identifier = relatedIdentifier(of: object)
      else {
        throw Self.notResources(at: paths.path(.member(data, of: relationshipPath())))
      }
      let linkage = linkage(
        for: object, identifier: identifier, path: .member(data, of: relationshipPath()),
        into: parts, name: name)
      relationship.data = .linkage(linkage)
    case .array(let array)?:
      var elements: [PlannedNode] = []
      for (index, element) in array.elements.enumerated() {
        guard case .object(let object) = element,
          let identifier = relatedIdentifier(of: object)
        else {
          throw Self.notResources(at: paths.path(.element(index, of: pathOfData())))
        }
        elements.append(
          .linkage(
            linkage(
              for: object, identifier: identifier,
              path: .element(index, of: pathOfData()), into: parts, name: name)))
      }
      relationship.data = .array(elements)
    default:
      throw Self.notResources(at: paths.path(.member(data, of: relationshipPath())))
    }
    for member in [ResourceMemberName.links, .meta] {
      switch wrapper[member.text] {
      case .object(let object)?:
        relationship.others.append(PlannedMember(member.text, .value(.object(object))))
      case nil, .null?, .nullRelated?: break
      default:
        throw JSONAPIError.invalidValue(
          reason: SpecSection.cite(
            "`\(member.text)` must encode as a JSON object",
            member == .meta ? SpecSection.meta : SpecSection.links),
          codingPath: paths.path(.member(member.text, of: relationshipPath())).text)
      }
    }
    return relationship.isEmpty ? nil : relationship
  }

  private static func notResources(at path: EncodingPath) -> JSONAPIError {
    .invalidValue(
      reason: SpecSection.cite(
        "the data of a JSONAPIRelationship must be a resource with `type` and `id`, an array of "
          + "them, or nil", SpecSection.linkage),
      codingPath: path.text)
  }

  /// The resource identifier object for a related resource, queueing the resource for `included`
  /// when it carries more than its identifier (and its meta, which then rides on the identifier).
  private func linkage(
    for object: EncodedObject, identifier: EncodedResourceIdentifier,
    path: @autoclosure () -> ResourcePaths.Step, into parts: ResourceParts?, name: String
  ) -> ResourceLinkage {
    // Bare: nothing beyond the identifier and an object `meta`, which then rides on the linkage.
    var isBare = true
    var meta: EncodedObject?
    // By position, reading each name alone: copying whole members would retain every value.
    for position in 0..<object.count {
      switch ResourceMemberName(object.members[position].key) {
      case let reserved? where reserved.isIdentity: continue
      case .meta?:
        if case .object(let object) = object.members[position].value {
          meta = object
        } else {
          isBare = false
        }
      default: isBare = false
      }
      if !isBare { break }
    }
    // A graph's new resource without `id` or `lid` is never bare: it has no identity to point
    // at, so it is queued as a resource of its own whatever members it has.
    if isBare, identifier.identity != nil {
      return ResourceLinkage(identifier: identifier, meta: meta)
    }
    let linkage = ResourceLinkage(identifier: identifier, meta: nil)
    if let tree = options.includeTree {
      // Only the requested paths (R67): the relationship must lead on from this node.
      if let parts, let next = tree.child(of: parts.includeNode, named: name) {
        parts.relatives.append(
          ResourceParts.Relative(
            name: name,
            resource: PendingResource(
              object: object, linkage: linkage, path: path(), includeNode: next))
        )
      }
    } else if options.includesRelatedResources, let parts {
      parts.relatives.append(
        ResourceParts.Relative(
          name: name, resource: PendingResource(object: object, linkage: linkage, path: path())))
    }
    return linkage
  }

  static func isNull(_ node: EncodedNode) -> Bool {
    switch node {
    case .null, .nullRelated: return true
    default: return false
    }
  }
}

// MARK: - What the walk marks

extension ResourceClassifier {
  /// Marks what the static type of a value tells about its node, as the Codable walk builds it:
  /// the classifier's first decision, made where the type is known (the rest are made when
  /// resources are taken apart). A document, a relationship wrapper or an attribute type gives
  /// the object its role; a related-resource type marks a plain object as one that must identify
  /// the resource it stands for; a model that declares its `type` and encodes none gets the
  /// declared one; `nil` of an optional related resource is an empty to-one relationship.
  static func marked(_ node: EncodedNode?, of type: Any.Type, traits: EncodingTypeTraits)
    -> EncodedNode
  {
    guard let node else {
      // A value that encodes nothing is an empty object, as with JSONEncoder.
      return .object(EncodedObject(swiftType: type))
    }
    switch node {
    case .object(let object):
      if traits.contains(.document) {
        object.role = .document
      } else if traits.contains(.relationship) {
        object.role = .relationship
      } else if traits.contains(.attribute) {
        object.role = .attribute
      } else if object.role == .plain, !traits.isDisjoint(with: .declaredRelated) {
        // Nested in a resource, it must then identify the related resource it stands for.
        object.isDeclaredRelated = true
      }
      // A model that declares its type stores none: give the object the declared one.
      if traits.contains(.declaresResourceType), object[ResourceMemberName.type.text] == nil,
        let declared = (type as? any JSONAPIResource.Type)?.jsonAPIType
      {
        object.append(.string(declared), for: ResourceMemberName.type.text)
      }
    case .null:
      if traits.contains(.optionalOfRelated) { return .nullRelated }
    default:
      break
    }
    return node
  }
}

// MARK: - Between two versions of a resource

extension ResourceClassifier {
  /// Whether a value classified as an attribute in one version of a resource empties the
  /// relationship of that name in another version (``ChangeSet``): `null`, or an empty array —
  /// which is an attribute when its element type does not say it is related resources, while the
  /// other version says what the field is.
  static func emptiesRelationship(_ value: EncodedNode) -> Bool {
    switch value {
    case .null, .nullRelated: return true
    case .array(let array): return array.elements.isEmpty
    default: return false
    }
  }

  /// The relationship that empties `relationship`: `"data": null` for a to-one, `"data": []` for
  /// a to-many; `nil` for one without `data`, which says neither.
  static func emptied(_ relationship: PlannedNode) -> PlannedNode? {
    switch relationship.relationshipLinkage {
    case .toMany?: return .toManyRelationship([])
    case .toOne?: return .nullRelationship
    case nil: return nil
    }
  }
}
