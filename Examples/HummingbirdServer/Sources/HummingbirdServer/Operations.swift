import Foundation
import GRDB
import Hummingbird
import JSONAPICodable

extension BlogAPI {
  /// The operations one request may carry: they all run in one transaction, which holds the
  /// database's only writer for as long as they take.
  static let operationsDecoder: JSONAPIDecoder = {
    let decoder = JSONAPIDecoder()
    decoder.limits.maxAtomicOperations = 100
    return decoder
  }()

  /// `POST /operations`: the Atomic Operations extension. The operations run in order in one
  /// database transaction: every one succeeds, or the first failure undoes them all (R110) and
  /// is answered with an error pointing into its operation (R113). Each `lid` an `add` declares
  /// stands for the new resource in later operations.
  func operations(_ request: Request, _ context: Context) async throws -> Response {
    try ResourceType.emptyRules.validate(try Self.query(request))
    // R98: the request applies the extension.
    let contentType = request.headers[.contentType] ?? ""
    let applied = JSONAPIMediaType(headerValue: contentType)?.extensions ?? []
    guard applied.contains(JSONAPIMediaType.atomicExtension) else {
      throw JSONAPINegotiationError.unsupportedMediaType(
        contentType: contentType,
        reason: "send operations as \(JSONAPIMediaType.atomicOperations.headerValue)")
    }
    let body = try await request.body.collect(upTo: context.maxUploadSize)
    let operations = try Self.operationsDecoder.decodeOperations(
      from: Data(body.readableBytesView))
    guard !operations.isEmpty else {
      throw JSONAPIErrorObject(
        status: "400", code: "no-operations", title: "Bad Request",
        detail: "An Atomic Operations request holds at least one operation.",
        source: .init(pointer: "/atomic:operations"))
    }
    let results = try await database.write { db in
      var lids = LocalIDs()
      var results: [JSONAPIOperationResult] = []
      for (index, operation) in operations.enumerated() {
        do {
          results.append(try apply(operation, &lids, db))
        } catch {
          throw Self.error(error, inOperation: index)
        }
      }
      return results
    }
    // R111: one result per operation, in order.
    let document = try JSONAPIResponseEncoder.shared.encode(results: results)
    return Response(
      status: .ok,
      headers: [
        .contentType: JSONAPIMediaType.atomicOperations.headerValue,
        .contentLength: String(document.count),
      ],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: document)))
  }

  private func apply(_ operation: JSONAPIOperation, _ lids: inout LocalIDs, _ db: Database) throws
    -> JSONAPIOperationResult
  {
    let target = try OperationTarget(operation)
    let type = target.type
    switch (operation.op, target.relationship) {
    case (.add, nil):
      // R104: the collection's type, no client-generated id.
      let identifier = try operation.decode(JSONAPIResourceIdentifier.self)
      try requestRules.checkCreate(identifier, type: type.rawValue)
      let id = try Writes.create(type, from: operation, lids: lids, db)
      if let lid = identifier.lid { lids.record(type, lid: lid, id: id) }
      return JSONAPIOperationResult(data: try read(type, id, include: IncludeTree(), db))
    case (.update, nil):
      // R105: the data's identity is the target's.
      let identifier = try operation.decode(JSONAPIResourceIdentifier.self)
      guard identifier.type == type.rawValue else {
        throw JSONAPIRequestError.typeMismatch(
          expected: type.rawValue, found: identifier.type, pointer: "/data/type")
      }
      if (target.id != nil && identifier.id != target.id)
        || (target.lid != nil && identifier.lid != target.lid)
      {
        throw JSONAPIRequestError.idMismatch(
          expected: target.id ?? target.lid ?? "", found: identifier.id ?? identifier.lid ?? "")
      }
      let id = try target.rowID(lids)
      try Writes.update(type, id, from: operation, lids: lids, db)
      return JSONAPIOperationResult(data: try read(type, id, include: IncludeTree(), db))
    case (.remove, nil):
      try Writes.delete(type, try target.rowID(lids), db)
      return JSONAPIOperationResult()
    case (let op, let name?):
      guard let relationship = type.relationships[name] else {
        throw JSONAPIRequestError.relationshipNotFound(name: name)
      }
      let id = try target.rowID(lids)
      if !relationship.isToMany {
        // R107: a to-one relationship is only ever replaced.
        guard op == .update else {
          throw JSONAPIErrorObject(
            status: "400", code: "to-one-relationship", title: "Bad Request",
            detail: "`\(name)` is a to-one relationship: it can only be updated.",
            source: .init(pointer: "/op"))
        }
        let related = try operation.decode(JSONAPIResourceIdentifier?.self)
        try Writes.setToOne(relationship, of: type, id, to: related, lids: lids, db)
        return JSONAPIOperationResult()
      }
      // R108: add, replace or remove members.
      let identifiers = try operation.decode([JSONAPIResourceIdentifier].self)
      try Writes.requireResource(type, id, db)
      switch op {
      case .add: try Writes.add(identifiers, to: relationship, of: id, lids, db)
      case .update:
        try Writes.replace(identifiers, in: relationship, of: id, lids, db, pointer: "/data")
      case .remove: try Writes.remove(identifiers, from: relationship, of: id, lids, db)
      }
      return JSONAPIOperationResult()
    }
  }

  /// `error` as the error object of operation `index`: pointers into the operation's own
  /// document (`/data/attributes/title`) are made pointers into the request
  /// (`/atomic:operations/1/data/attributes/title`); decoding errors point there already.
  static func error(_ error: any Error, inOperation index: Int) -> JSONAPIErrorObject {
    var object = JSONAPIErrorObject(describing: error)
    let operation = "/atomic:operations/\(index)"
    let pointer = object.source?.pointer ?? ""
    if !pointer.hasPrefix("/atomic:operations") {
      object.source = JSONAPIErrorObject.Source(pointer: operation + pointer)
    }
    return object
  }
}

/// What an operation targets: its `ref`, its `href` read as one of this server's URLs, or else
/// the resource in its `data`.
struct OperationTarget {
  var type: ResourceType
  var id: String?
  var lid: String?
  var relationship: String?

  init(_ operation: JSONAPIOperation) throws {
    if let ref = operation.ref {
      type = try Self.type(ref.type, pointer: "/ref/type")
      (id, lid, relationship) = (ref.id, ref.lid, ref.relationship)
    } else if let href = operation.href {
      // `/articles`, `/articles/1` or `/articles/1/relationships/author`, possibly absolute.
      let path = URL(jsonAPIReference: href)?.path ?? ""
      let parts = path.split(separator: "/").map(String.init)
      guard [1, 2, 4].contains(parts.count), parts.count != 4 || parts[2] == "relationships"
      else {
        throw JSONAPIErrorObject(
          status: "400", code: "unknown-href", title: "Bad Request",
          detail: "This server has no endpoint at `\(href)` for operations.",
          source: .init(pointer: "/href"))
      }
      type = try Self.type(parts[0], pointer: "/href")
      id = parts.count > 1 ? parts[1] : nil
      relationship = parts.count == 4 ? parts[3] : nil
    } else {
      // An `add` or `update` without a target: its data says what it is about (R104, R105).
      let identifier = try operation.decode(JSONAPIResourceIdentifier.self)
      type = try Self.type(identifier.type, pointer: "/data/type")
      (id, lid) = (identifier.id, identifier.lid)
    }
  }

  /// The row the target names, by `id` or by the `lid` of an earlier operation; 404 otherwise.
  func rowID(_ lids: LocalIDs) throws -> Int64 {
    if let lid, id == nil {
      guard let row = lids.id(type, lid: lid) else {
        throw JSONAPIErrorObject(
          status: "404", code: "unknown-lid", title: "Not Found",
          detail:
            "No earlier operation of this request created a \(type.rawValue) with lid `\(lid)`.",
          source: .init(pointer: "/ref/lid"))
      }
      return row
    }
    guard let id, let row = databaseID(id) else {
      throw JSONAPIRequestError.resourceNotFound(type: type.rawValue, id: id ?? "")
    }
    return row
  }

  private static func type(_ name: String, pointer: String) throws -> ResourceType {
    guard let type = ResourceType(rawValue: name) else {
      throw JSONAPIErrorObject(
        status: "404", code: "unknown-type", title: "Not Found",
        detail: "This server has no resources of type `\(name)`.",
        source: .init(pointer: pointer))
    }
    return type
  }
}
