import Foundation

// To-many linkage bounded by the request (issue 47 item 6): each to-many relationship serves at
// most its declared limit of identifiers (`JSONAPIResourceDeclaration.linkageLimit(of:)`); beyond
// it the relationship object carries `links` and no `data` (R25, R32: links alone make a valid
// relationship object, and absent `data` says "linkage not provided"), `include` does not follow
// it, and its relationship endpoint answers a page at a time (R27, R62: pagination links page a
// relationship's linkage). Reads for documents fetch at most the limit plus one identifier per
// owner, so a resource with any number of related rows costs a bounded read.
extension JSONAPIResourceDeclaration {
  /// The linkage limit of every to-many relationship, by name.
  var servedLinkageLimits: [String: Int] {
    var limits: [String: Int] = [:]
    for relationship in schema.relationships where relationship.isToMany {
      limits[relationship.name] = linkageLimit(of: relationship.name)
    }
    return limits
  }
}

extension JSONAPIServer {
  /// Whether `record`'s linkage of `name` goes into documents: not for a to-many relationship
  /// that names more than its limit.
  func servesLinkage(of name: String, in record: JSONAPIResourceRecord) -> Bool {
    guard case .toMany(let identifiers)? = record.relationships[name],
      let limit = resources[record.type]?.linkageLimit(of: name)
    else { return true }
    return identifiers.count <= limit
  }
}

extension ServedReader {
  /// The resources of `target` whose to-one `member` names one of `owners`, by owner id, at most
  /// `limit + 1` per owner (one more than served, to tell that there are more), in id order,
  /// among the rows `visibility` admits.
  ///
  /// One page per round: a round asks for as many rows as the owners still need, so either it
  /// ends the read or at least one owner gets all it needs and leaves; later rounds continue
  /// after the last id read. Rows read stay within owners × (limit + 1) per round.
  func mirrored(
    _ target: String, member: String, owners: [String], limit: Int,
    visibility: JSONAPIRowCondition?
  ) async throws -> [String: [JSONAPIResourceIdentifier]] {
    var byOwner: [String: [JSONAPIResourceIdentifier]] = [:]
    var need: [MemoryStoreKey: Int] = [:]
    var remaining: [String] = []
    for owner in owners where need[MemoryStoreKey(owner)] == nil {
      need[MemoryStoreKey(owner)] = limit + 1
      remaining.append(owner)
    }
    var after: String?
    while !remaining.isEmpty {
      let wanted = remaining.reduce(0) { $0 + (need[MemoryStoreKey($1)] ?? 0) }
      var query = JSONAPIStoreQuery(
        type: target,
        filters: [
          JSONAPIFilterCondition(
            member: member, isRelationship: true, comparison: .equals,
            values: remaining.map(JSONAPIValue.string))
        ],
        sort: [.ascending("id")],
        window: after.map { .keyset(after: [.string($0)], before: nil, limit: wanted) }
          ?? .offset(0, limit: wanted),
        countsTotal: false)
      query.visibility = visibility
      let page = try await base.page(query)
      for record in page.resources {
        guard case .toOne(let owner?)? = record.relationships[member], let id = owner.id,
          let left = need[MemoryStoreKey(id)], left > 0
        else { continue }
        need[MemoryStoreKey(id)] = left - 1
        byOwner[id, default: []].append(record.identifier)
      }
      guard page.hasMore, let last = page.resources.last?.id else { break }
      after = last
      remaining = remaining.filter { (need[MemoryStoreKey($0)] ?? 0) > 0 }
    }
    return byOwner
  }
}

extension JSONAPIServer {
  /// `GET /T/{id}/relationships/{to-many}` beyond the relationship's linkage limit, or with
  /// `page` parameters: one page of the linkage, paged as the target type's collections are,
  /// with its pagination links beside `self` and `related`; `nil` when the whole linkage is served
  /// as it is (within the limit and no `page` asked).
  ///
  /// - Throws: The target paging's errors for `page` parameters it does not take; `404` when the
  ///   requester sees no such resource.
  func pagedLinkage(
    _ declaration: JSONAPIResourceDeclaration, id: String,
    relationship: JSONAPIResourceSchema.Relationship, query: JSONAPIQuery,
    exchange: ServedExchange
  ) async throws -> JSONAPIServerResponse? {
    guard relationship.isToMany, let target = relationship.targetType.flatMap({ resources[$0] })
    else { return nil }
    let paging = target.paging
    if query.page.isEmpty {
      let owner = try await read { reader in
        try await reader.resources(declaration.type, ids: [id]).first
      }
      guard let owner, !servesLinkage(of: relationship.name, in: owner) else { return nil }
    }
    var rules = JSONAPIQueryRules(
      includePaths: nil, sortFields: [], fieldsets: [:], pageMembers: [], filterMembers: [])
    rules = paging.rules(rules)
    try rules.validate(query)
    let page = try paging.page(for: query)
    let sort: [JSONAPIQuery.SortField] = [.ascending("id")]
    let storeQuery = JSONAPIStoreQuery(
      type: target.type, sort: sort, window: try Self.window(page, paging: paging, sort: sort),
      countsTotal: true,
      scope: JSONAPIStoreQuery.Scope(
        owner: JSONAPIResourceIdentifier(type: declaration.type, id: id),
        relationship: relationship.name))
    try await authorize(
      .read, declaration, id: id, relationship: relationship.name, exchange: exchange)
    let (owner, stored) = try await read { reader in
      guard let owner = try await reader.resources(declaration.type, ids: [id]).first else {
        throw JSONAPIRequestError.resourceNotFound(type: declaration.type, id: id)
      }
      return (owner, try await reader.page(storeQuery))
    }
    let cursors = stored.resources.map { Self.cursor(for: $0, sort: sort) }
    let paged = paging.response(
      for: page, target: links.absolute(exchange.request.target), cursors: cursors,
      count: stored.resources.count, hasMore: stored.hasMore, total: stored.total)
    guard case .object(var members) = Self.linksValue(paged.links) else { return nil }
    members["related"] = .string(links.related(relationship.name, of: owner))
    var document = ServedDocument()
    try document.openObject()
    document.key("links")
    try document.value(.object(members))
    document.key("data")
    try document.linkage(.toMany(stored.resources.map(\.identifier)))
    if let meta = paged.meta {
      document.key("meta")
      try document.value(meta)
    }
    document.closeObject()
    return try Self.ok(document, mediaType: paging.mediaType(applyingTo: exchange.mediaType))
  }
}
