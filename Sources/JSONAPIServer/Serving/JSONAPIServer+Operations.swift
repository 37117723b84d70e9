import Foundation

extension JSONAPIErrorObject {
  /// This error object with its `source.pointer` moved into operation `index` of an Atomic
  /// Operations request: `/data/attributes/title` becomes
  /// `/atomic:operations/2/data/attributes/title`, and an error without a pointer points at the
  /// operation (R113).
  ///
  /// A server that runs each operation as it would run the same request alone uses it to make
  /// the operation's errors point into the request it received:
  ///
  /// ```swift
  /// do {
  ///   try run(operation)
  /// } catch {
  ///   throw JSONAPIErrorObject(describing: error).pointingInto(operation: index)
  /// }
  /// ```
  public func pointingInto(operation index: Int) -> JSONAPIErrorObject {
    var object = self
    let prefix = "/atomic:operations/\(index)"
    if object.source?.parameter != nil || object.source?.header != nil { return object }
    let inner = object.source?.pointer ?? ""
    object.source = Source(
      pointer: inner.hasPrefix(prefix) ? inner : prefix + (inner == "/" ? "" : inner))
    return object
  }
}

/// One operation of an Atomic Operations request as read once from its body: the codec's
/// operation (its rules R99–R108 checked, with pointers) and its `data` as a value.
struct ServedOperation: Sendable {
  /// Where it is in `atomic:operations`.
  let index: Int
  let operation: JSONAPIOperation
  /// Its `data` member (`null` included); `nil` without one.
  let data: JSONAPIValue?
}

// `POST /operations`: the Atomic Operations extension, every operation in one store transaction,
// each turned into the typed change (`ServedChange`) the write endpoints make and run by the same
// write service (`apply(_:to:pointer:transaction:exchange:)`).
extension JSONAPIServer {
  func operations(query: JSONAPIQuery, exchange: ServedExchange) async throws
    -> JSONAPIServerResponse
  {
    _ = try ServedQuery(query, type: nil, server: self)
    try refuseOperationsPreconditions(exchange)
    let request = exchange.request
    // R98: the request declares the extension in its Content-Type.
    let sent = JSONAPIContentNegotiation.requestMediaType(
      headers: request.headers.lazy.map { ($0.name, $0.value) })
    guard sent?.extensions.contains(JSONAPIMediaType.atomicExtension) == true else {
      throw JSONAPINegotiationError.unsupportedMediaType(
        contentType: request.header("Content-Type") ?? "",
        reason: "an Atomic Operations request declares the extension: send Content-Type: "
          + JSONAPIMediaType.atomicOperations.headerValue)
    }
    let operations = try readOperations(request.body)
    let results = try await transaction { transaction in
      var lids = ServedLids()
      var results: [JSONAPIResourceRecord?] = []
      results.reserveCapacity(operations.count)
      for operation in operations {
        do {
          let (declaration, change, lid) = try self.change(of: operation, lids: lids)
          try await self.authorize(change, declaration, exchange: exchange)
          let result = try await self.apply(
            change, to: declaration, pointer: "/data", transaction: transaction,
            exchange: exchange)
          if let lid, let result { lids.assign(type: result.type, lid: lid, id: result.id) }
          results.append(result)
        } catch {
          throw ServedRefusal(
            objects: Self.errorObjects(error).map { $0.pointingInto(operation: operation.index) })
        }
      }
      return results
    }
    var body = ServedDocument()
    try body.openObject()
    body.key("atomic:results")
    try body.array(results) { body, result in
      try body.openObject()
      if let result {
        body.key("data")
        try resource(result, into: &body, fields: [:])
      }
      body.closeObject()
    }
    body.closeObject()
    return try Self.ok(body, mediaType: exchange.mediaType)
  }

  /// The operations of a request body, read once: the codec reads the document and checks the
  /// extension's rules (R99–R108, with pointers); each operation's `data` comes from the same
  /// read.
  ///
  /// - Throws: `400` for a body that is no operations document; `413` for more than
  ///   `maxOperations` operations.
  func readOperations(_ body: Data) throws -> [ServedOperation] {
    // An empty body gets the answer every write endpoint gives it.
    if body.isEmpty { _ = try bodyDocument(body) }
    let operations = try options.decoder.decodeOperations(from: body)
    guard operations.count <= options.maxOperations else {
      throw JSONAPIError.tooManyOperations(count: operations.count, limit: options.maxOperations)
    }
    if operations.isEmpty {
      // The codec reads a document without `atomic:operations` as no operations; a request
      // must hold the member (an empty array is fine). Only this rare answer reads again.
      guard case .array? = try bodyDocument(body)["atomic:operations"] else {
        throw JSONAPIError.invalidDocument(
          reason: SpecSection.cite(
            "an Atomic Operations request holds `atomic:operations`, an array",
            SpecSection.atomicOperations), pointer: "")
      }
    }
    return try operations.enumerated().map { index, operation in
      ServedOperation(index: index, operation: operation, data: try operation.dataValue())
    }
  }

  /// The typed change an operation asks for, with `lid`s read as the ids earlier operations
  /// gave; and the `lid` of a resource it creates.
  func change(of operation: ServedOperation, lids: ServedLids) throws -> (
    JSONAPIResourceDeclaration, ServedChange, lid: String?
  ) {
    let data = operation.data
    let target = try target(of: operation.operation, data: data, lids: lids)
    guard let declaration = resources[target.type] else {
      throw Self.notFound("There is no resource type `\(target.type)`")
    }
    if let name = target.relationship {
      guard let relationship = declaration.schema.relationship(named: name), let id = target.id
      else { throw JSONAPIRequestError.relationshipNotFound(name: name) }
      guard let data else {
        throw JSONAPIError.invalidDocument(
          reason: SpecSection.cite(
            "a relationship operation needs `data`", SpecSection.atomicOperations),
          pointer: "")
      }
      let kind: ServedLinkageChange
      switch operation.operation.op {
      case .add: kind = .add
      case .remove: kind = .remove
      case .update: kind = .replace
      }
      guard kind == .replace || relationship.isToMany else {
        throw JSONAPIErrorObject(
          status: "403", code: "to-one-members", title: "Forbidden",
          detail: "`\(name)` is a to-one relationship: replace it with op `update`")
      }
      let linkage = try readLinkage(data, pointer: "/data", relationship: relationship, lids: lids)
      return (declaration, .linkage(id: id, relationship: relationship, kind, linkage), nil)
    }
    switch operation.operation.op {
    case .add:
      guard let data else {
        throw JSONAPIError.invalidDocument(
          reason: SpecSection.cite("an `add` operation needs `data`", SpecSection.atomicOperations),
          pointer: "")
      }
      let (record, lid) = try readResource(
        data, pointer: "/data", declaration: declaration, mode: .create, lids: lids)
      return (declaration, .create(record), lid)
    case .update:
      guard var sent = data else {
        throw JSONAPIError.invalidDocument(
          reason: SpecSection.cite(
            "an `update` operation needs `data`", SpecSection.atomicOperations), pointer: "")
      }
      // A resource known by its lid is updated under the id it was given.
      if case .object(var object) = sent, object["id"] == nil, let id = target.id {
        object["id"] = JSONAPIValue.string(id)
        object["lid"] = nil
        sent = .object(object)
      }
      guard let id = target.id ?? sent["id"]?.stringValue else {
        throw JSONAPIRequestError.missingID(pointer: "/data")
      }
      let (changes, _) = try readResource(
        sent, pointer: "/data", declaration: declaration, mode: .update(id: id), lids: lids)
      return (declaration, .update(changes), nil)
    case .remove:
      guard let id = target.id else { throw JSONAPIRequestError.missingID(pointer: "/ref") }
      return (declaration, .delete(id: id), nil)
    }
  }

  /// What an operation targets: from `ref` (a `lid` read as the id it was given), from `href`
  /// (read as a path of this server), or from the resource in `data`.
  private func target(of operation: JSONAPIOperation, data: JSONAPIValue?, lids: ServedLids)
    throws -> (type: String, id: String?, relationship: String?)
  {
    if let ref = operation.ref {
      var id = ref.id
      if id == nil, let lid = ref.lid {
        guard let assigned = lids.id(type: ref.type, lid: lid) else {
          throw JSONAPIError.invalidDocument(
            reason: SpecSection.cite(
              "the lid `\(lid)` names no resource created earlier in this request",
              SpecSection.atomicOperations), pointer: "/ref/lid")
        }
        id = assigned
      }
      return (ref.type, id, ref.relationship)
    }
    if let href = operation.href {
      let (path, _) = Self.split(href)
      switch try route(path) {
      case .collection(let declaration): return (declaration.type, nil, nil)
      case .resource(let declaration, let id): return (declaration.type, id, nil)
      case .relationship(let declaration, let id, let relationship):
        return (declaration.type, id, relationship.name)
      case .related, .operations:
        throw JSONAPIError.invalidDocument(
          reason: SpecSection.cite(
            "`href` must name a collection, a resource or a relationship",
            SpecSection.atomicOperations), pointer: "/href")
      }
    }
    guard case .string(let type)? = data?["type"] else {
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite(
          "the operation names no target: give `ref`, `href`, or a resource with `type`",
          SpecSection.atomicOperations), pointer: "")
    }
    var id = data?["id"]?.stringValue
    if id == nil, let lid = data?["lid"]?.stringValue, operation.op != .add {
      id = lids.id(type: type, lid: lid)
    }
    return (type, id, nil)
  }
}
