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

// `POST /operations`: the Atomic Operations extension, every operation in one store transaction.
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
    let document = try bodyDocument(request.body)
    guard case .array(let raw)? = document["atomic:operations"] else {
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite(
          "an Atomic Operations request holds `atomic:operations`, an array",
          SpecSection.atomicOperations), pointer: "")
    }
    guard raw.count <= options.maxOperations else {
      throw JSONAPIError.tooManyOperations(count: raw.count, limit: options.maxOperations)
    }
    // The extension's own rules (R99–R108), with pointers: op, ref or href, lid, data.
    let operations = try options.decoder.decodeOperations(from: request.body)
    let results = try await transaction { transaction in
      var lids = ServedLids()
      var results: [JSONAPIResourceRecord?] = []
      results.reserveCapacity(operations.count)
      for (index, operation) in operations.enumerated() {
        let data = raw.indices.contains(index) ? raw[index]["data"] : nil
        do {
          results.append(
            try await self.perform(
              operation, data: data, lids: &lids, transaction: transaction, exchange: exchange))
        } catch {
          throw ServedRefusal(
            objects: Self.errorObjects(error).map { $0.pointingInto(operation: index) })
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

  /// One operation; its result's data, or `nil` for a result without data.
  private func perform(
    _ operation: JSONAPIOperation, data: JSONAPIValue?, lids: inout ServedLids,
    transaction: ServedTransaction, exchange: ServedExchange
  ) async throws -> JSONAPIResourceRecord? {
    let writer = transaction.writer
    let target = try target(of: operation, data: data, lids: lids)
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
      let method: String
      switch operation.op {
      case .add: method = "POST"
      case .remove: method = "DELETE"
      case .update: method = "PATCH"
      }
      guard method == "PATCH" || relationship.isToMany else {
        throw JSONAPIErrorObject(
          status: "403", code: "to-one-members", title: "Forbidden",
          detail: "`\(name)` is a to-one relationship: replace it with op `update`")
      }
      let linkage = try readLinkage(data, pointer: "/data", relationship: relationship, lids: lids)
      try await authorize(.update, declaration, id: id, relationship: name, exchange: exchange)
      try await changeLinkage(
        declaration, id: id, relationship: relationship, method: method, linkage: linkage,
        pointer: "", writer: writer, exchange: exchange)
      return nil
    }
    switch operation.op {
    case .add:
      guard let data else {
        throw JSONAPIError.invalidDocument(
          reason: SpecSection.cite("an `add` operation needs `data`", SpecSection.atomicOperations),
          pointer: "")
      }
      let (record, lid) = try readResource(
        data, pointer: "/data", declaration: declaration, mode: .create, lids: lids)
      try await authorize(.create, declaration, exchange: exchange)
      let created = try await create(
        record, declaration, pointer: "/data", writer: writer, exchange: exchange)
      if let lid { lids.assign(type: created.type, lid: lid, id: created.id) }
      return created
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
      try await authorize(.update, declaration, id: id, exchange: exchange)
      return try await update(
        changes, declaration, pointer: "/data", writer: writer, exchange: exchange)
    case .remove:
      guard let id = target.id else { throw JSONAPIRequestError.missingID(pointer: "/ref") }
      try await authorize(.delete, declaration, id: id, exchange: exchange)
      try await deleteResource(declaration, id: id, transaction: transaction, exchange: exchange)
      return nil
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
