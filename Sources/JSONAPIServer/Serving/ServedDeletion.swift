import Foundation

/// One relationship that names resources of a deleted type, with its delete rule.
struct ServedDeleteEdge: Sendable, Hashable {
  /// The type that holds the relationship.
  var type: String
  /// The relationship, a stored one (never an inverse).
  var relationship: String
  var rule: JSONAPIDeleteRule
}

/// What one delete removes: the resource asked for first, then every batch its cascades reached,
/// in the order found (a worklist, so a chain of cascades never recurses).
struct ServedDeletionPlan: Sendable {
  /// Batches of ids of one type; the first holds the resource asked for alone.
  var batches: [(type: String, ids: [String])] = []
}

// Delete rules (`JSONAPIResourceDeclaration.onDelete(_:_:)`): what deleting a resource does to the
// resources that name it. Run inside the delete's transaction, over the store protocol, so every
// store gets the one implementation: first the plan (every cascade followed, every refusal
// counted, reading the rows that name a batch in one page per relationship), then every check
// (hooks and policies of each resource the plan removes, all before anything is deleted, so that
// a check still reads the resources it relates to), then the deletes, resources found last
// deleted first.
extension JSONAPIServer {
  /// The most resources one delete removes, cascades included: beyond it the delete is refused
  /// (`409`) before anything is deleted, so that a request's work stays bounded.
  static let maxDeletedResources = 10_000
  /// The most ids of one type whose naming rows one read looks for.
  static let deleteBatchSize = 500

  /// Deletes `declaration`'s resource `id` and what its delete rules cascade to, after refusing
  /// it when a `refuse` rule finds rows naming what it would delete.
  ///
  /// - Throws: `404` when the requester sees no such resource; `409` (code `delete-refused`, one
  ///   error object per refusing relationship, with the count of rows but never their ids) or
  ///   `409` (code `delete-too-large`); what the hooks and policies of any removed resource throw.
  func deleteResource(
    _ declaration: JSONAPIResourceDeclaration, id: String, transaction: ServedTransaction,
    exchange: ServedExchange
  ) async throws {
    guard let current = try await transaction.writer.resources(declaration.type, ids: [id]).first
    else {
      throw JSONAPIRequestError.resourceNotFound(type: declaration.type, id: id)
    }
    // The resource's own checks first: a requester its rules refuse learns nothing of what
    // names it.
    try declaration.hooks.willDelete?(
      current,
      JSONAPIAccess(action: .delete, type: declaration.type, id: id, request: exchange.request))
    try await transaction.checkDelete(current)
    let plan = try await deletionPlan(
      of: current, reader: transaction.raw, policies: transaction.policies)
    // A cascaded delete is checked as a delete of that resource would be: its type's authorize
    // hook, its policy's delete rule and its willDelete hook, each on the row as stored.
    for batch in plan.batches.dropFirst() {
      guard let cascaded = resources[batch.type] else { continue }
      for record in try await transaction.served.resources(batch.type, ids: batch.ids) {
        let access = JSONAPIAccess(
          action: .delete, type: batch.type, id: record.id, request: exchange.request)
        try await cascaded.hooks.authorize?(access)
        try cascaded.hooks.willDelete?(record, access)
        try await transaction.checkDelete(record)
      }
    }
    for batch in plan.batches.dropFirst().reversed() {
      _ = try await transaction.served.delete(batch.type, ids: batch.ids)
    }
    guard try await transaction.served.delete(declaration.type, id: id) else {
      throw JSONAPIRequestError.resourceNotFound(type: declaration.type, id: id)
    }
  }

  /// The relationships that name resources of `type`, with a rule to apply (`setNull` is the
  /// store's own clearing, so it is left out).
  func deleteEdges(into type: String) -> [ServedDeleteEdge] {
    var edges: [ServedDeleteEdge] = []
    for other in resources.keys.sorted() {
      guard let declaration = resources[other] else { continue }
      for relationship in declaration.schema.relationships where relationship.targetType == type {
        guard let rule = declaration.deleteRule(of: relationship.name), rule != .setNull else {
          continue
        }
        edges.append(ServedDeleteEdge(type: other, relationship: relationship.name, rule: rule))
      }
    }
    return edges
  }

  /// Follows every cascade from `root` (each resource once, so cycles end) and counts what the
  /// `refuse` rules find, reading through `reader`, the store's own (every row, whoever asks:
  /// a hidden row still names what is deleted). `policies`, the request's, say which types'
  /// counts a refusal leaves out.
  ///
  /// - Throws: `409` when a `refuse` rule finds rows, or when more than
  ///   ``maxDeletedResources`` would go.
  func deletionPlan(
    of root: JSONAPIResourceRecord, reader: any JSONAPIStoreReader, policies: ServedPolicies?
  ) async throws -> ServedDeletionPlan {
    var plan = ServedDeletionPlan()
    plan.batches.append((root.type, [root.id]))
    var deleted: Set<ServedIdentity> = [ServedIdentity(root)]
    var records: [ServedIdentity: JSONAPIResourceRecord] = [ServedIdentity(root): root]
    var deletedOfType: [String: Int] = [root.type: 1]
    var refusals: [(edge: ServedDeleteEdge, ids: [String])] = []
    var next = 0
    while next < plan.batches.count {
      let batch = plan.batches[next]
      next += 1
      for edge in deleteEdges(into: batch.type) {
        guard edge.rule == .cascade else {
          refusals.append((edge, batch.ids))
          continue
        }
        // Room for every row still allowed, plus the rows of that type already planned (a cycle
        // finds them again), plus one to tell that there are too many.
        let room = Self.maxDeletedResources - deleted.count
        let page = try await reader.page(
          Self.naming(edge, ids: batch.ids, limit: room + (deletedOfType[edge.type] ?? 0) + 1))
        var found: [String] = []
        for record in page.resources
        where deleted.insert(ServedIdentity(record)).inserted {
          found.append(record.id)
          records[ServedIdentity(record)] = record
        }
        guard !page.hasMore, deleted.count <= Self.maxDeletedResources else {
          throw Self.tooLarge(root)
        }
        deletedOfType[edge.type, default: 0] += found.count
        for start in stride(from: 0, to: found.count, by: Self.deleteBatchSize) {
          let end = min(start + Self.deleteBatchSize, found.count)
          plan.batches.append((edge.type, Array(found[start..<end])))
        }
      }
    }
    // Refusals once every cascade is known: a row the delete removes anyway does not refuse it.
    var counts: [ServedDeleteEdge: (count: Int, atLeast: Bool)] = [:]
    var order: [ServedDeleteEdge] = []
    for (edge, ids) in refusals {
      let planned = deletedOfType[edge.type] ?? 0
      let page = try await reader.page(
        Self.naming(edge, ids: ids, limit: planned + 1, countsTotal: true))
      let outside = page.resources.filter { !deleted.contains(ServedIdentity($0)) }.count
      guard outside > 0 else { continue }
      let named = Set(ids.map(MemoryStoreKey.init))
      let targetType = resources[edge.type]?.schema.relationship(named: edge.relationship)?
        .targetType
      let plannedNaming = records.values.filter { record in
        record.type == edge.type
          && (record.relationships[edge.relationship]?.identifiers ?? []).contains { identifier in
            identifier.type == targetType
              && identifier.id.map(MemoryStoreKey.init).map(
                named.contains) == true
          }
      }.count
      let count = page.total.map { max($0 - plannedNaming, outside) } ?? outside
      if counts[edge] == nil { order.append(edge) }
      let before = counts[edge] ?? (0, false)
      counts[edge] = (before.count + count, before.atLeast || (page.total == nil && page.hasMore))
    }
    guard order.isEmpty else {
      // The count takes in rows the requester may not see: of a type with a visibility policy,
      // it would tell how many hidden rows there are (as a total in `meta` would), so it is
      // left out. That rows name the resource is what the refusal itself cannot help saying.
      let policed = policies?.conditions ?? [:]
      throw ServedRefusal(
        objects: order.map { edge in
          let (count, atLeast) = counts[edge] ?? (0, false)
          return Self.refused(
            root, by: edge, count: policed[edge.type] == nil ? count : nil, atLeast: atLeast)
        })
    }
    return plan
  }

  /// The rows of `edge.type` whose `edge.relationship` names one of `ids`, by id.
  static func naming(_ edge: ServedDeleteEdge, ids: [String], limit: Int, countsTotal: Bool = false)
    -> JSONAPIStoreQuery
  {
    JSONAPIStoreQuery(
      type: edge.type,
      filters: [
        JSONAPIFilterCondition(
          member: edge.relationship, isRelationship: true, comparison: .equals,
          values: ids.map { JSONAPIValue.string($0) })
      ],
      sort: [.ascending("id")], window: .offset(0, limit: limit), countsTotal: countsTotal)
  }

  /// The refusal of a `refuse` rule: the relationship and how many rows (`nil`: not told),
  /// never which.
  static func refused(
    _ root: JSONAPIResourceRecord, by edge: ServedDeleteEdge, count: Int?, atLeast: Bool
  ) -> JSONAPIErrorObject {
    let counted = count.map { "\(atLeast ? "at least " : "")\($0) \(edge.type)" } ?? edge.type
    var meta: [String: JSONAPIValue] = [
      "relationship": .string("\(edge.type).\(edge.relationship)")
    ]
    if let count { meta["count"] = .integer(count) }
    return JSONAPIErrorObject(
      status: "409", code: "delete-refused", title: "Conflict",
      detail: "\(root.type)/\(root.id) cannot be deleted: \(counted) name it (or a resource "
        + "deleted with it) by `\(edge.relationship)`, which refuses deletes. Delete them or "
        + "change their `\(edge.relationship)` first",
      meta: .object(meta))
  }

  static func tooLarge(_ root: JSONAPIResourceRecord) -> JSONAPIErrorObject {
    JSONAPIErrorObject(
      status: "409", code: "delete-too-large", title: "Conflict",
      detail: "\(root.type)/\(root.id) cannot be deleted in one request: its delete rules "
        + "cascade to more than \(maxDeletedResources) resources. Delete the resources that name "
        + "it first, in smaller requests")
  }
}
