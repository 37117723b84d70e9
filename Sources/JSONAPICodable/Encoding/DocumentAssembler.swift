/// Turns the encoded value tree into a JSON:API document: resources split into members, linkage
/// in `relationships`, related resources in `included`.
struct DocumentAssembler {
  let options: EncodingOptions
  private var collector = IncludedCollector()

  init(options: EncodingOptions) {
    self.options = options
  }

  /// The top-level object for `root`, the tree of a value of type `rootType`.
  ///
  /// - Throws: ``JSONAPIError/missingResourceType(swiftType:codingPath:)`` when primary data is not
  ///   resource-shaped; ``JSONAPIError/invalidValue(reason:codingPath:)`` for members JSON:API
  ///   cannot express (a `meta` that is not an object, a primary resource given twice, …).
  mutating func assemble(_ root: EncodedNode, rootType: Any.Type) throws -> EncodedObject {
    var dataNode = root
    var dataType = rootType
    var documentMembers: EncodedObject?
    if case .object(let object) = root, object.role == .document {
      dataNode = object["data"] ?? .null
      documentMembers = object
      dataType = Any.self
    }
    let document = EncodedObject(role: .dictionary)
    document.append(try primaryData(dataNode, swiftType: dataType), for: "data")
    while let pending = collector.next() {
      if collector.isRedundant(pending.object) { continue }
      let parts = try resource(from: pending.object, path: pending.path)
      collector.enqueue(collector.accept(parts))
    }
    if options.includesRelatedResources, !collector.resources.isEmpty {
      let included = EncodedArray()
      included.elements = collector.resources.map { .resource($0) }
      document.append(.array(included), for: "included")
    }
    if let documentMembers {
      try Self.copyObjectMember("meta", from: documentMembers, to: document, path: "meta")
      try Self.copyObjectMember("links", from: documentMembers, to: document, path: "links")
      try Self.copyObjectMember("jsonapi", from: documentMembers, to: document, path: "jsonapi")
    }
    return document
  }

  /// The error document `{"errors": [...]}` with its optional top-level members.
  static func errorDocument(
    errors: EncodedNode, members: EncodedObject
  ) throws -> EncodedObject {
    if case .array(let array) = errors {
      for (index, element) in array.elements.enumerated() {
        if case .object(let object) = element, object.isEmpty {
          throw JSONAPIError.invalidValue(
            reason: "an error object needs at least one member (JSON:API 1.1)",
            codingPath: "errors[\(index)]")
        }
      }
    }
    let document = EncodedObject(role: .dictionary)
    document.append(errors, for: "errors")
    try copyObjectMember("meta", from: members, to: document, path: "meta")
    try copyObjectMember("jsonapi", from: members, to: document, path: "jsonapi")
    try copyObjectMember("links", from: members, to: document, path: "links")
    return document
  }

  /// Copies a member that JSON:API requires to be an object; `null` counts as absent.
  private static func copyObjectMember(
    _ name: String, from source: EncodedObject, to target: EncodedObject, path: String
  ) throws {
    switch source[name] {
    case nil, .null?, .nullRelated?:
      return
    case .object(let object)?:
      target.append(.object(object), for: name)
    default:
      throw JSONAPIError.invalidValue(
        reason: "`\(name)` must encode as a JSON object", codingPath: path)
    }
  }

  private mutating func primaryData(_ node: EncodedNode, swiftType: Any.Type) throws
    -> EncodedNode
  {
    switch node {
    case .null, .nullRelated:
      return .null
    case .object(let object):
      return .resource(try primaryResource(object, path: ""))
    case .array(let array):
      let data = EncodedArray()
      for (index, element) in array.elements.enumerated() {
        guard case .object(let object) = element else {
          throw JSONAPIError.missingResourceType(
            swiftType: "\(swiftType)", codingPath: "[\(index)]")
        }
        data.elements.append(.resource(try primaryResource(object, path: "[\(index)]")))
      }
      return .array(data)
    default:
      throw JSONAPIError.missingResourceType(swiftType: "\(swiftType)", codingPath: "")
    }
  }

  private mutating func primaryResource(_ object: EncodedObject, path: String) throws
    -> ResourceParts
  {
    let parts = try resource(from: object, path: path)
    if let identity = parts.identity, !collector.addPrimary(identity) {
      throw JSONAPIError.invalidValue(
        reason: "the resource \(identity.type)/\(identity.id) appears twice in the primary data",
        codingPath: path)
    }
    collector.enqueue(parts.relatives.map(\.resource))
    return parts
  }
}
