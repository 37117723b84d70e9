/// Plans a JSON:API document from the encoded value tree: resources split into members, linkage
/// in `relationships`, related resources in `included`; or, for an error document, the checked
/// `errors`. Both kinds get their top-level members in one order: `data` (with `included`) or
/// `errors`, then `meta`, `links`, `jsonapi`. ``DocumentWriter`` writes the plan.
struct DocumentAssembler {
  private let classifier: ResourceClassifier
  private var collector: IncludedCollector

  init(options: EncodingOptions) {
    classifier = ResourceClassifier(options: options)
    collector = IncludedCollector(ledger: classifier.toMany)
  }

  /// The document for `root`, the tree of a value of type `rootType`: its primary data as a value
  /// and its other top-level members.
  ///
  /// - Throws: ``JSONAPIError/missingResourceType(swiftType:codingPath:)`` when primary data is not
  ///   resource-shaped; ``JSONAPIError/invalidValue(reason:codingPath:)`` for members JSON:API
  ///   cannot express (a `meta` that is not an object, a primary resource given twice, an error
  ///   object without members, …).
  ///
  /// With `streamed`, the primary data is that array, whose elements ``primaryElement(_:at:rootType:)``
  /// has taken apart, the caller has written and ``checkPrimaryIdentities()`` has checked: the
  /// document gets every member but `data`.
  mutating func assemble(
    _ root: EncodedNode, rootType: Any.Type, streamed: EncodedArray? = nil
  ) throws -> PlannedDocument {
    // A JSONAPIRelationship at the top level is a relationship endpoint's body: its linkage, links
    // and meta, nothing included.
    if case .object(let wrapper) = root, wrapper.role == .relationship {
      let body = try classifier.relationshipObject(
        fromWrapper: wrapper, into: nil, name: "", path: ResourcePaths.topLevel)
      return PlannedDocument(data: body?.data, others: body?.others ?? [])
    }
    // A JSONAPIDocument or an error document brings its top-level members; anything else is data.
    guard case .object(let members) = root, members.role == .document else {
      return try documentOfData(root, swiftType: rootType, streamed: streamed)
    }
    var document: PlannedDocument
    if let errors = members["errors"] {
      try Self.checkErrors(errors)
      document = PlannedDocument(data: nil, others: [PlannedMember("errors", .value(errors))])
    } else {
      document = try documentOfData(
        members["data"] ?? .null, swiftType: rootType, streamed: streamed)
    }
    for name in ["meta", "links", "jsonapi"] {
      switch members[name] {
      case nil, .null?, .nullRelated?:
        continue
      case .object(let object)?:
        document.others.append(PlannedMember(name, .value(.object(object))))
      default:
        throw JSONAPIError.invalidValue(
          reason: SpecSection.cite("`\(name)` must encode as a JSON object", SpecSection.topLevel),
          codingPath: EncodingPath.topLevel.appending(name).text)
      }
    }
    return document
  }

  /// The array in the primary data slot of `root`, the tree ``assemble(_:rootType:streamed:)``
  /// plans: the tree itself, or a document's `data`; `nil` when the primary data is not an array.
  static func primaryArray(of root: EncodedNode) -> EncodedArray? {
    switch root {
    case .array(let array): return array
    case .object(let object) where object.role == .document && object["errors"] == nil:
      if case .array(let array)? = object["data"] { return array }
      return nil
    default: return nil
    }
  }

  /// A document with `data` for `node` and, when wanted and there are any, the `included`
  /// resources.
  private mutating func documentOfData(
    _ node: EncodedNode, swiftType: Any.Type, streamed: EncodedArray?
  ) throws -> PlannedDocument {
    var document: PlannedDocument
    if let streamed {
      // The primary data must be the array that streamed; nothing else can have written it.
      guard case .array(let array) = node, array === streamed else {
        throw JSONAPIError.invalidValue(
          reason: "the primary data changed after its resources were written",
          codingPath: EncodingPath.topLevel.appending("data").text)
      }
      document = PlannedDocument(data: nil)
    } else {
      document = PlannedDocument(data: try primaryData(node, swiftType: swiftType))
      try checkPrimaryIdentities()
    }
    if classifier.options.includeTree != nil {
      try collectRequested()
      // Every resource is taken apart: settle the undecided empty arrays before any is written.
      classifier.toMany.settleAll()
      // R67 (1.1): a response to `include` has `included`, even when it is empty.
      appendIncluded(to: &document)
      return document
    }
    collector.reserveForQueued()
    let classifier = self.classifier
    while let pending = collector.next() {
      let found = collector.lookUp(pending)
      if let recorded = found?.recorded, classifier.addsNothing(pending, to: recorded.parts) {
        continue
      }
      let parts = try classifier.resource(pending)
      let relatives = collector.accept(parts, at: found?.probe)
      collector.enqueue(relatives) { classifier.addsNothing($0, to: $1.parts) }
    }
    // Every resource is taken apart: settle the undecided empty arrays before any is written.
    classifier.toMany.settleAll()
    if classifier.options.includesRelatedResources, !collector.resources.isEmpty {
      appendIncluded(to: &document)
    }
    return document
  }

  /// Appends `included` with the collected resources, handed over so that the writer can let go
  /// of each as it writes it.
  private mutating func appendIncluded(to document: inout PlannedDocument) {
    document.others.append(
      PlannedMember("included", .included(IncludedResources(collector.takeResources()))))
  }

  /// Collects exactly the resources on the requested include paths (R38, R67): each related
  /// resource is taken apart at the path node it was reached at, so only the relationships the
  /// paths continue with are followed, and primary resources on a path are passed through.
  private mutating func collectRequested() throws {
    collector.reserveForQueued()
    while let pending = collector.next() {
      // The identity first, which is cheap: a resource already followed from this node is done.
      if let identity = pending.identifier.identity,
        !collector.visit(identity, node: pending.includeNode)
      {
        continue
      }
      let parts = try classifier.resource(pending)
      // Every relative is followed on this path, also when the resource was included before.
      let relatives = parts.takeRelatives()
      _ = collector.accept(parts)
      collector.enqueue(relatives)
    }
  }

  /// Checks the `errors` member: every error object needs at least one member (JSON:API 1.1).
  private static func checkErrors(_ errors: EncodedNode) throws {
    guard case .array(let array) = errors else { return }
    for (index, element) in array.elements.enumerated() {
      if case .object(let object) = element, object.isEmpty {
        throw JSONAPIError.invalidValue(
          reason: SpecSection.cite(
            "an error object needs at least one member", SpecSection.errorObjects),
          codingPath: EncodingPath.topLevel.appending("errors").appending(index: index).text)
      }
    }
  }

  private mutating func primaryData(_ node: EncodedNode, swiftType: Any.Type) throws
    -> PlannedNode
  {
    switch node {
    case .null, .nullRelated:
      return .value(.null)
    case .object(let object):
      return .resource(try primaryResource(object, at: nil))
    case .array(let array):
      var data: [PlannedNode] = []
      data.reserveCapacity(array.elements.count)
      for (index, element) in array.elements.enumerated() {
        do {
          data.append(.resource(try primaryElement(element, at: index, rootType: swiftType)))
        } catch {
          throw firstPrimaryError(error)
        }
      }
      return .array(data)
    default:
      throw Self.notAResource(rootType: swiftType, element: nil)
    }
  }

  /// Element `index` of an array of primary data taken apart (``primaryResource(_:at:)``), for a
  /// document ``PrimaryDataStream`` writes and for a value planned whole (the data of an atomic
  /// operation): the one rule for an element, so both name its errors alike.
  ///
  /// - Throws: ``JSONAPIError/missingResourceType(swiftType:codingPath:)`` naming `rootType` when
  ///   the element is not an object; what taking it apart throws.
  mutating func primaryElement(_ element: EncodedNode, at index: Int, rootType: Any.Type) throws
    -> ResourceParts
  {
    guard case .object(let object) = element else {
      throw Self.notAResource(rootType: rootType, element: index)
    }
    return try primaryResource(object, at: index)
  }

  /// The error for primary data that is not a resource (element `element` of a collection, or
  /// the whole data): named by the type encoded, or `Any` for a document's data, whose type the
  /// document does not say.
  private static func notAResource(rootType: Any.Type, element: Int?) -> JSONAPIError {
    let name = rootType is any JSONAPIDocumentMarker.Type ? "\(Any.self)" : "\(rootType)"
    let path = element.map { EncodingPath.topLevel.appending(index: $0) } ?? EncodingPath.topLevel
    return .missingResourceType(swiftType: name, codingPath: path.text)
  }

  /// Sizes the tables for `count` primary resources, a collection's length known before its
  /// elements are encoded.
  mutating func expectPrimaryResources(_ count: Int) {
    collector.expectedPrimaryCount = count
  }

  /// A primary resource taken apart, its identity recorded and its related resources queued for
  /// `included`: element `index` of the primary data, or the primary data itself when `nil`.
  /// Whether the identity repeats an earlier one is checked by ``checkPrimaryIdentities()``.
  private mutating func primaryResource(_ object: EncodedObject, at index: Int?) throws
    -> ResourceParts
  {
    let path = index.map(ResourcePaths.primary) ?? ResourcePaths.topLevel
    let parts = try classifier.resource(from: object, at: path)
    if let identity = parts.identifier.identity {
      collector.addPrimary(identity, element: index ?? 0)
    }
    // All queued: until the primary identities are placed nothing can be looked up, and a related
    // resource that is a primary one is passed over when its turn comes.
    collector.enqueue(parts.takeRelatives())
    return parts
  }

  /// While the primary data streams: the first primary resource taken apart that must wait to be
  /// written, because one of its members is an empty array still undecided (``ToManyLedger``);
  /// `nil` when none must. Those taken apart before it are settled and may be written.
  func firstUnsettledPrimary() -> ResourceParts? {
    classifier.toMany.hasUndecided ? classifier.toMany.settleHead() : nil
  }

  /// Checks the primary resources taken apart so far, all at once: a resource given twice in the
  /// primary data (R40) is an error at its second element. Call it once the primary data is
  /// taken apart, and before throwing any other error from taking it apart, which a repeat at an
  /// earlier element precedes.
  ///
  /// - Throws: ``JSONAPIError/invalidValue(reason:codingPath:)`` for the first element that
  ///   repeats an earlier one.
  mutating func checkPrimaryIdentities() throws {
    guard let (identity, element) = collector.placePrimaries() else { return }
    throw JSONAPIError.invalidValue(
      reason: SpecSection.cite(
        "the resource \(identity.type)/\(identity.id) appears twice in the primary data",
        SpecSection.compoundDocuments),
      codingPath: classifier.paths.path(ResourcePaths.primary(element)).text)
  }

  /// ``checkPrimaryIdentities()`` for `error`, thrown taking an element of the primary data apart:
  /// the error to report, which is the repeat if one came before.
  mutating func firstPrimaryError(_ failure: any Error) -> any Error {
    do { try checkPrimaryIdentities() } catch { return error }
    return failure
  }
}
