import Foundation

/// Builds and writes `atomic:operations` and `atomic:results` documents. Each resource inside goes
/// through the same pipeline as ``JSONAPIEncoder/encode(_:)`` (the model's `encode(to:)`, then
/// classification into members) with `included` turned off, so it comes out exactly as the primary
/// data of a create or update body would.
struct AtomicDocumentWriter {
  private let call: EncodingCall
  private var options: EncodingOptions { call.options }

  init(call: EncodingCall) {
    // A resource object inside an operation or result never brings `included` (R99).
    self.call = call.adjusted { $0.includesRelatedResources = false }
  }

  /// `{"atomic:operations": [...], "meta": ..., "jsonapi": ...}`.
  func operations(
    _ operations: [JSONAPIOperation], meta: JSONAPIValue?, jsonapi: JSONAPIObject?
  ) throws -> Data {
    let member = "atomic:operations"
    var array: [PlannedNode] = []
    for (index, operation) in operations.enumerated() {
      let path = EncodingPath.topLevel.appending(member).appending(index: index)
      array.append(.object(try operationObject(operation, at: path)))
    }
    return try write(member: member, array, meta: meta, jsonapi: jsonapi)
  }

  /// `{"atomic:results": [...], "meta": ..., "jsonapi": ...}`.
  func results(
    _ results: [JSONAPIOperationResult], meta: JSONAPIValue?, jsonapi: JSONAPIObject?
  ) throws -> Data {
    let member = "atomic:results"
    var array: [PlannedNode] = []
    for (index, result) in results.enumerated() {
      let path = EncodingPath.topLevel.appending(member).appending(index: index)
      var object: [PlannedMember] = []
      if let data = try data(of: result.payload, at: path.appending("data"), requireResource: false)
      {
        object.append(PlannedMember("data", data))
      }
      if let meta = result.meta {
        object.append(PlannedMember("meta", try metaNode(meta, at: path.appending("meta"))))
      }
      array.append(.object(object))
    }
    return try write(member: member, array, meta: meta, jsonapi: jsonapi)
  }

  /// `{"atomic:results": [{"data": value}]}`, `value` written member for member: the data of a
  /// result that another decoder read, for this library to read again.
  func results(wrappingData value: JSONAPIValue) throws -> Data {
    let result = PlannedNode.object([PlannedMember("data", .value(try node(for: value)))])
    return try write(member: "atomic:results", [result], meta: nil, jsonapi: nil)
  }

  /// Writes the document: `member` holding `array`, then `meta` and `jsonapi` when given.
  func write(
    member: String, _ array: [PlannedNode], meta: JSONAPIValue?, jsonapi: JSONAPIObject?
  ) throws -> Data {
    guard !array.isEmpty else {
      throw JSONAPIError.invalidValue(
        reason: SpecSection.cite(
          "\(member) needs at least one element", SpecSection.atomicOperations),
        codingPath: member)
    }
    var document = [PlannedMember(member, .array(array))]
    if let meta {
      document.append(
        PlannedMember("meta", try metaNode(meta, at: EncodingPath.topLevel.appending("meta"))))
    }
    if let jsonapi { document.append(PlannedMember("jsonapi", .value(try node(for: jsonapi)))) }
    // The atomic array and the operation object are two levels more than a resource document has.
    return try DocumentWriter.text(
      of: PlannedDocument(data: nil, others: document), options: options, extraLevels: 2)
  }

  // MARK: - Operations

  /// `op`, `ref`, `href`, `data`, `meta`, in this order (R101-R103).
  private func operationObject(_ operation: JSONAPIOperation, at path: EncodingPath) throws
    -> [PlannedMember]
  {
    var object = [PlannedMember("op", .value(.string(operation.op.rawValue)))]
    if operation.ref != nil && operation.href != nil {
      throw Self.invalid("an operation must not contain both ref and href", at: path)
    }
    if let ref = operation.ref {
      object.append(PlannedMember("ref", try refObject(ref, at: path.appending("ref"))))
    }
    if let href = operation.href { object.append(PlannedMember("href", .value(.string(href)))) }
    let targetsResource = operation.ref?.relationship == nil
    if operation.op == .remove && operation.ref == nil && operation.href == nil {
      throw Self.invalid("a remove operation needs ref or href", at: path)
    }
    if let data = try data(
      of: operation.payload, at: path.appending("data"),
      requireResource: targetsResource && operation.op != .remove)
    {
      object.append(PlannedMember("data", data))
    } else if operation.op != .remove {
      throw Self.invalid("an \(operation.op.rawValue) operation needs data", at: path)
    }
    if let meta = operation.meta {
      object.append(PlannedMember("meta", try metaNode(meta, at: path.appending("meta"))))
    }
    return object
  }

  /// `type`, `id` or `lid` (as every identifier is written), then `relationship` (R102).
  private func refObject(_ ref: JSONAPIOperationReference, at path: EncodingPath) throws
    -> PlannedNode
  {
    guard (ref.id == nil) != (ref.lid == nil) else {
      throw Self.invalid("ref needs exactly one of id and lid", at: path)
    }
    var members = EncodedResourceIdentifier(type: ref.type, id: ref.id, lid: ref.lid)
      .plannedMembers
    if let relationship = ref.relationship {
      members.append(PlannedMember("relationship", .value(.string(relationship))))
    }
    return .object(members)
  }

  // MARK: - Data

  /// The `data` member for `payload`; `nil` when there is none. With `requireResource`, a value must
  /// encode as one resource object (the data of an `add` or `update` of a resource, R104/R105).
  private func data(of payload: AtomicPayload, at path: EncodingPath, requireResource: Bool)
    throws -> PlannedNode?
  {
    switch payload {
    case .none:
      return nil
    case .value(let value):
      let node = try value.primaryData(by: self, at: path)
      if requireResource {
        guard case .resource = node else {
          throw Self.invalid(
            "the data of this operation must be a single resource object", at: path)
        }
      }
      return node
    case .identifier(let identifier):
      guard let identifier else { return .value(.null) }
      return try linkage(identifier, at: path)
    case .identifiers(let identifiers):
      var array: [PlannedNode] = []
      for (index, identifier) in identifiers.enumerated() {
        array.append(try linkage(identifier, at: path.appending(index: index)))
      }
      return .array(array)
    case .received(let document, let index):
      // Passed on as read, member for member: read from the received tape by this library.
      guard let value = try document.jsonValue(entry: index) else { return nil }
      return .value(try node(for: value))
    }
  }

  /// `value` as the primary data of a document, without `included`.
  func primaryData<T: Encodable>(_ value: T, at path: EncodingPath) throws -> PlannedNode {
    do {
      let tree = try call.root(for: T.self).wrap(value, key: nil)
      var assembler = DocumentAssembler(options: options)
      return try assembler.assemble(tree, rootType: T.self).data ?? .value(.null)
    } catch let error as JSONAPIError {
      throw Self.error(error, under: path)
    }
  }

  /// A resource identifier object: `type`, `id` and/or `lid`, `meta` (R34), written as linkage
  /// is everywhere.
  private func linkage(_ identifier: JSONAPIResourceIdentifier, at path: EncodingPath) throws
    -> PlannedNode
  {
    guard identifier.id != nil || identifier.lid != nil else {
      throw JSONAPIError.invalidValue(
        reason: SpecSection.cite(
          "a resource identifier needs an id or a lid", SpecSection.identifierObjects),
        codingPath: path.text)
    }
    var meta: EncodedObject?
    if let value = identifier.meta {
      try Self.checkMeta(value, at: path.appending("meta"))
      if case .object(let object) = try node(for: value) { meta = object }
    }
    return .linkage(
      ResourceLinkage(
        identifier: EncodedResourceIdentifier(
          type: identifier.type, id: identifier.id, lid: identifier.lid),
        meta: meta))
  }

  // MARK: - Members

  private func metaNode(_ meta: JSONAPIValue, at path: EncodingPath) throws -> PlannedNode {
    try Self.checkMeta(meta, at: path)
    return .value(try node(for: meta))
  }

  private static func checkMeta(_ meta: JSONAPIValue, at path: EncodingPath) throws {
    guard case .object = meta else {
      throw JSONAPIError.invalidValue(
        reason: SpecSection.cite("`meta` must be a JSON object", SpecSection.meta),
        codingPath: path.text)
    }
  }

  /// A library value written member for member (these types keep their keys as written).
  private func node<T: Encodable>(for value: T) throws -> EncodedNode {
    try call.root(for: T.self).wrap(value, key: nil)
  }

  private static func invalid(_ reason: String, at path: EncodingPath) -> JSONAPIError {
    .invalidValue(
      reason: SpecSection.cite(reason, SpecSection.atomicOperations), codingPath: path.text)
  }

  /// `error`, thrown while encoding a resource on its own, with its coding path placed under `path`.
  private static func error(_ error: JSONAPIError, under path: EncodingPath) -> JSONAPIError {
    func placed(_ codingPath: String) -> String {
      let prefix = path.text
      if codingPath.isEmpty || codingPath == EncodingPath.topLevelText { return prefix }
      return codingPath.hasPrefix("[") ? prefix + codingPath : "\(prefix).\(codingPath)"
    }
    switch error {
    case .missingResourceType(let swiftType, let codingPath):
      return .missingResourceType(swiftType: swiftType, codingPath: placed(codingPath))
    case .encodingNestingTooDeep(let limit, let codingPath):
      return .encodingNestingTooDeep(limit: limit, codingPath: placed(codingPath))
    case .invalidValue(let reason, let codingPath):
      return .invalidValue(reason: reason, codingPath: placed(codingPath))
    default:
      return error
    }
  }
}
