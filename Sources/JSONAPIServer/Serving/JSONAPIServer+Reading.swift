import Foundation

// The GET endpoints: collections, resources, related resources and linkage.
extension JSONAPIServer {
  /// `GET /T`, and `GET /T/{id}/{to-many}` with `scope`.
  func list(
    _ declaration: JSONAPIResourceDeclaration, query: JSONAPIQuery, exchange: ServedExchange,
    scope: JSONAPIStoreQuery.Scope? = nil
  ) async throws -> JSONAPIServerResponse {
    let served = try ServedQuery(
      query, type: declaration.type, server: self, collection: declaration)
    let paging = declaration.paging
    let page = try paging.page(for: query)
    let sort = Self.order(query.sort.isEmpty ? declaration.defaultSort : query.sort)
    let storeQuery = JSONAPIStoreQuery(
      type: declaration.type, filters: try conditions(query.filter, declaration),
      sort: sort, window: try Self.window(page, paging: paging, sort: sort),
      countsTotal: true, scope: scope)
    try await authorize(.list, declaration, exchange: exchange)
    if let scope {
      try await authorize(
        .read, resources[scope.owner.type] ?? declaration, id: scope.owner.id,
        relationship: scope.relationship, exchange: exchange)
    }
    let (stored, included) = try await read { reader in
      if let scope, let id = scope.owner.id,
        try await reader.resources(scope.owner.type, ids: [id]).isEmpty
      {
        throw JSONAPIRequestError.resourceNotFound(type: scope.owner.type, id: id)
      }
      let stored = try await reader.page(storeQuery)
      return (
        stored, try await includedResources(stored.resources, tree: served.include, reader: reader)
      )
    }
    let cursors = stored.resources.map { Self.cursor(for: $0, sort: sort) }
    let paged = paging.response(
      for: page, target: links.absolute(exchange.request.target), cursors: cursors,
      count: stored.resources.count, hasMore: stored.hasMore, total: stored.total)
    var document = ServedDocument()
    try document.openObject()
    document.key("data")
    try document.array(zip(stored.resources, cursors)) { document, item in
      // `.none`, not `nil`: in a conditional with a `JSONAPIValue`, `nil` is the JSON value null.
      let meta: JSONAPIValue? =
        paging.appliesCursorPaginationProfile
        ? .some(JSONAPIPaging.itemMeta(cursor: item.1)) : .none
      try resource(item.0, into: &document, fields: served.fields, meta: meta)
    }
    try writeIncluded(included, into: &document, served: served)
    document.key("links")
    try document.value(Self.linksValue(paged.links))
    if let meta = paged.meta {
      document.key("meta")
      try document.value(meta)
    }
    document.closeObject()
    var mediaType = exchange.mediaType
    mediaType = paging.mediaType(applyingTo: mediaType)
    return try Self.ok(document, mediaType: mediaType)
  }

  /// `GET /T/{id}`.
  func show(
    _ declaration: JSONAPIResourceDeclaration, id: String, query: JSONAPIQuery,
    exchange: ServedExchange
  ) async throws -> JSONAPIServerResponse {
    let served = try ServedQuery(query, type: declaration.type, server: self)
    try await authorize(.read, declaration, id: id, exchange: exchange)
    return try await read { reader in
      try await self.representation(
        declaration, id: id, served: served, exchange: exchange, reader: reader)
    }
  }

  /// The answer of `GET /T/{id}` read through `reader`: shared by the read and by a write that
  /// compares `If-Match` with it inside its transaction, so that both render the same bytes.
  ///
  /// - Throws: `404` when there is no such resource.
  func representation(
    _ declaration: JSONAPIResourceDeclaration, id: String, served: ServedQuery,
    exchange: ServedExchange, reader: any JSONAPIStoreReader
  ) async throws -> JSONAPIServerResponse {
    guard let record = try await reader.resources(declaration.type, ids: [id]).first else {
      throw JSONAPIRequestError.resourceNotFound(type: declaration.type, id: id)
    }
    let included = try await includedResources([record], tree: served.include, reader: reader)
    return try Self.ok(
      try single(record, included: included, served: served, exchange: exchange),
      mediaType: exchange.mediaType)
  }

  /// `GET /T/{id}/{relationship}`: the related resource, `null`, or the related collection.
  func related(
    _ declaration: JSONAPIResourceDeclaration, id: String,
    relationship: JSONAPIResourceSchema.Relationship, query: JSONAPIQuery,
    exchange: ServedExchange
  ) async throws -> JSONAPIServerResponse {
    if relationship.isToMany, let target = relationship.targetType.flatMap({ resources[$0] }) {
      return try await list(
        target, query: query, exchange: exchange,
        scope: JSONAPIStoreQuery.Scope(
          owner: JSONAPIResourceIdentifier(type: declaration.type, id: id),
          relationship: relationship.name))
    }
    let targetType = relationship.targetType
    let served = try ServedQuery(query, type: targetType, server: self)
    try await authorize(
      .read, declaration, id: id, relationship: relationship.name, exchange: exchange)
    let (records, included) = try await read { reader in
      guard let owner = try await reader.resources(declaration.type, ids: [id]).first else {
        throw JSONAPIRequestError.resourceNotFound(type: declaration.type, id: id)
      }
      let identifiers = owner.relationships[relationship.name]?.identifiers ?? []
      var records: [JSONAPIResourceRecord] = []
      var byType: [String: [String]] = [:]
      for identifier in identifiers {
        if let id = identifier.id { byType[identifier.type, default: []].append(id) }
      }
      var found: [ServedIdentity: JSONAPIResourceRecord] = [:]
      for type in byType.keys.sorted() {
        for record in try await reader.resources(type, ids: byType[type] ?? []) {
          found[ServedIdentity(record)] = record
        }
      }
      for identifier in identifiers {
        if let id = identifier.id, let record = found[ServedIdentity(type: identifier.type, id: id)]
        {
          records.append(record)
        }
      }
      return (records, try await includedResources(records, tree: served.include, reader: reader))
    }
    var document = ServedDocument()
    try document.openObject()
    document.key("data")
    if relationship.isToMany {
      try document.array(records) { document, record in
        try resource(record, into: &document, fields: served.fields)
      }
    } else if let record = records.first {
      try resource(record, into: &document, fields: served.fields)
    } else {
      try document.null()
    }
    try writeIncluded(included, into: &document, served: served)
    document.key("links")
    try document.value(.object(["self": .string(links.absolute(exchange.request.target))]))
    document.closeObject()
    return try Self.ok(document, mediaType: exchange.mediaType)
  }

  /// `GET /T/{id}/relationships/{relationship}`: the linkage.
  func linkage(
    _ declaration: JSONAPIResourceDeclaration, id: String,
    relationship: JSONAPIResourceSchema.Relationship, query: JSONAPIQuery,
    exchange: ServedExchange
  ) async throws -> JSONAPIServerResponse {
    if let paged = try await pagedLinkage(
      declaration, id: id, relationship: relationship, query: query, exchange: exchange)
    {
      return paged
    }
    _ = try ServedQuery(query, type: nil, server: self)
    try await authorize(
      .read, declaration, id: id, relationship: relationship.name, exchange: exchange)
    let record = try await read { reader in
      guard let record = try await reader.resources(declaration.type, ids: [id]).first else {
        throw JSONAPIRequestError.resourceNotFound(type: declaration.type, id: id)
      }
      return record
    }
    return try Self.ok(
      linkageDocument(record, relationship: relationship), mediaType: exchange.mediaType)
  }

  /// `{"links": {"self", "related"}, "data": linkage}` of a relationship.
  func linkageDocument(
    _ record: JSONAPIResourceRecord, relationship: JSONAPIResourceSchema.Relationship
  ) throws -> ServedDocument {
    var document = ServedDocument()
    try document.openObject()
    document.key("links")
    try document.value(
      .object([
        "self": .string(links.relationship(relationship.name, of: record)),
        "related": .string(links.related(relationship.name, of: record)),
      ]))
    document.key("data")
    try document.linkage(
      record.relationships[relationship.name]
        ?? (relationship.isToMany ? .toMany([]) : .toOne(nil)))
    document.closeObject()
    return document
  }

  // MARK: Documents

  /// `{"data": resource, "included": […]}` of one resource.
  func single(
    _ record: JSONAPIResourceRecord, included: [JSONAPIResourceRecord], served: ServedQuery,
    exchange: ServedExchange
  ) throws -> ServedDocument {
    var document = ServedDocument()
    try document.openObject()
    document.key("data")
    try resource(record, into: &document, fields: served.fields)
    try writeIncluded(included, into: &document, served: served)
    document.key("links")
    try document.value(.object(["self": .string(links.absolute(exchange.request.target))]))
    document.closeObject()
    return document
  }

  /// One resource object, with the fields `fields` names for its type: computed attributes made
  /// for the request's requester, attributes served to some requesters only left out for the
  /// others.
  func resource(
    _ record: JSONAPIResourceRecord, into document: inout ServedDocument,
    fields: [String: Set<String>], meta: JSONAPIValue? = nil
  ) throws {
    guard let declaration = resources[record.type] else {
      return try document.identifier(record.identifier)
    }
    let rules = declaration.fieldRules
    guard rules.changesServing else {
      return try document.resource(
        record, schema: declaration.schema, fields: fields[record.type], links: links, meta: meta,
        linkageLimits: declaration.servedLinkageLimits)
    }
    try document.resource(
      served(record, rules: rules), schema: declaration.servedSchema, fields: fields[record.type],
      links: links, meta: meta, linkageLimits: declaration.servedLinkageLimits)
  }

  /// `record` as the request's requester is served it: computed attributes made from the stored
  /// record, restricted attributes the requester may not see taken out.
  func served(_ record: JSONAPIResourceRecord, rules: ServedFieldRules) -> JSONAPIResourceRecord {
    let context = JSONAPIFieldContext(
      record: record, requester: ServedRequester.current, decoder: options.decoder)
    var served = record
    for (name, rule) in rules.computed {
      let value = rule.value(context)
      // `.null` for an optional computed attribute is "none"; a required one is served as is.
      served.attributes[name] = value
    }
    for (name, isServed) in rules.restricted where !isServed(context) {
      served.attributes[name] = nil
    }
    return served
  }

  /// `"included": […]` when the request asked to include anything (R67: present then, even
  /// empty), and nothing otherwise.
  func writeIncluded(
    _ included: [JSONAPIResourceRecord], into document: inout ServedDocument, served: ServedQuery
  ) throws {
    guard !served.include.isEmpty else { return }
    document.key("included")
    try document.array(included) { document, record in
      try resource(record, into: &document, fields: served.fields)
    }
  }

  static func ok(_ document: ServedDocument, status: Int = 200, mediaType: JSONAPIMediaType)
    throws -> JSONAPIServerResponse
  {
    var document = document
    return JSONAPIServerResponse(
      status: status, headers: [("Content-Type", mediaType.headerValue)], body: try document.data())
  }

  static func linksValue(_ links: JSONAPILinks) -> JSONAPIValue {
    var members: [String: JSONAPIValue] = [:]
    for name in links.names {
      if let href = links[name]?.href { members[name] = .string(href) }
    }
    for name in links.nullNames { members[name] = .null }
    return .object(members)
  }

  // MARK: Collections

  /// The sort with `id` last, so that the order is total (keyset pages are then exact).
  static func order(_ sort: [JSONAPIQuery.SortField]) -> [JSONAPIQuery.SortField] {
    var fields = sort.filter { $0.field != "id" }
    fields.append(sort.first { $0.field == "id" } ?? .ascending("id"))
    return fields
  }

  /// The store window of a page: an offset and a limit, or keyset bounds read from cursors.
  static func window(
    _ page: JSONAPIPaging.Page, paging: JSONAPIPaging, sort: [JSONAPIQuery.SortField]
  ) throws -> JSONAPIStoreQuery.Window {
    guard paging.appliesCursorPaginationProfile else {
      return .offset(page.offset ?? 0, limit: page.size)
    }
    return .keyset(
      after: try page.after.map { try values(ofCursor: $0, sort: sort, member: "after") },
      before: try page.before.map { try values(ofCursor: $0, sort: sort, member: "before") },
      limit: page.size)
  }

  /// A cursor: the sort (as `sort` would write it) and the resource's values for it, as JSON in
  /// base64url, so that a cursor made for another sort is refused rather than misread.
  static func cursor(for record: JSONAPIResourceRecord, sort: [JSONAPIQuery.SortField]) -> String {
    var values: [JSONAPIValue] = [.string(sortText(sort))]
    for field in sort {
      values.append(
        field.field == "id" ? .string(record.id) : record.attributes[field.field] ?? .null)
    }
    var document = ServedDocument()
    guard (try? document.value(.array(values))) != nil, let data = try? document.data() else {
      return ""
    }
    return base64URL(data)
  }

  /// `data` in base64url without padding (RFC 4648, section 5), byte by byte: cursors are made
  /// for every resource of a page.
  static func base64URL(_ data: Data) -> String {
    var encoded = Array(data.base64EncodedData())
    while encoded.last == UInt8(ascii: "=") { encoded.removeLast() }
    for index in encoded.indices {
      if encoded[index] == UInt8(ascii: "+") { encoded[index] = UInt8(ascii: "-") }
      if encoded[index] == UInt8(ascii: "/") { encoded[index] = UInt8(ascii: "_") }
    }
    return String(decoding: encoded, as: UTF8.self)
  }

  /// The bytes of base64url text with or without padding; `nil` for anything else.
  static func data(base64URL text: String) -> Data? {
    var bytes = Array(text.utf8)
    for index in bytes.indices {
      // The standard alphabet's `+` and `/` are not base64url: refused as Data refuses them.
      if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "/") { return nil }
      if bytes[index] == UInt8(ascii: "-") { bytes[index] = UInt8(ascii: "+") }
      if bytes[index] == UInt8(ascii: "_") { bytes[index] = UInt8(ascii: "/") }
    }
    while bytes.count % 4 != 0 { bytes.append(UInt8(ascii: "=")) }
    return Data(base64Encoded: Data(bytes))
  }

  private static func sortText(_ sort: [JSONAPIQuery.SortField]) -> String {
    sort.map { ($0.isDescending ? "-" : "") + $0.field }.joined(separator: ",")
  }

  /// The sort values a cursor holds.
  ///
  /// - Throws: ``JSONAPIPagingError/invalidValue(parameter:value:reason:)`` for a cursor this
  ///   server did not make for this sort.
  static func values(ofCursor cursor: String, sort: [JSONAPIQuery.SortField], member: String)
    throws -> [JSONAPIValue]
  {
    guard let data = data(base64URL: cursor),
      case .array(let values)? = try? ServedJSON.parse(data, maxDepth: 8),
      values.first == .string(sortText(sort)), values.count == sort.count + 1
    else {
      throw JSONAPIPagingError.invalidValue(
        parameter: "page[\(member)]", value: cursor,
        reason: "it is not a cursor of this collection in this order")
    }
    return Array(values.dropFirst())
  }

  /// The store conditions of a request's `filter` parameters, each value read by its filter.
  ///
  /// - Throws: `JSONAPIQueryError.invalidFilterValue(member:value:reason:)`.
  func conditions(_ filters: [String: String], _ declaration: JSONAPIResourceDeclaration) throws
    -> [JSONAPIFilterCondition]
  {
    try filters.keys.sorted().compactMap { name in
      guard let filter = declaration.filters[name], let text = filters[name] else { return nil }
      let texts =
        filter.acceptsList
        ? text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) : [text]
      let isRelationship =
        filter.member != "id" && declaration.schema.relationship(named: filter.member) != nil
      let kind = declaration.schema.attribute(named: filter.member)?.kind ?? .string
      let values = try texts.map { value in
        // Text is matched whole or not at all: a value that a store would cut at U+0000 (SQLite
        // reads C strings) is refused here, the same for every store.
        guard !value.unicodeScalars.contains("\u{0000}") else {
          throw JSONAPIQueryError.invalidFilterValue(
            member: name, value: value.replacingOccurrences(of: "\u{0000}", with: "\\u0000"),
            reason: "it contains U+0000, which filters do not accept")
        }
        if let read = filter.read { return try read(value) }
        return try Self.filterValue(value, kind: isRelationship ? .string : kind, name: name)
      }
      return JSONAPIFilterCondition(
        member: filter.member, isRelationship: isRelationship, comparison: filter.comparison,
        values: values)
    }
  }

  /// `text` read as a value of `kind`.
  static func filterValue(
    _ text: String, kind: JSONAPIResourceSchema.ValueKind, name: String
  ) throws -> JSONAPIValue {
    func refuse(_ reason: String) -> JSONAPIQueryError {
      .invalidFilterValue(member: name, value: text, reason: reason)
    }
    switch kind {
    case .integer:
      guard let number = Int(text) else { throw refuse("it is not a whole number") }
      return .integer(number)
    case .number:
      guard let number = Double(text), number.isFinite else { throw refuse("it is not a number") }
      return .number(number)
    case .boolean:
      guard text == "true" || text == "false" else { throw refuse("it is not true or false") }
      return .bool(text == "true")
    case .enumeration(let cases):
      guard cases.contains(text) else {
        throw refuse("it is none of \(cases.joined(separator: ", "))")
      }
      return .string(text)
    default:
      return .string(text)
    }
  }

  // MARK: Hooks

  /// Runs the declaration's `authorize` hook.
  ///
  /// - Throws: What the hook throws.
  func authorize(
    _ action: JSONAPIAccess.Action, _ declaration: JSONAPIResourceDeclaration, id: String? = nil,
    relationship: String? = nil, exchange: ServedExchange
  ) async throws {
    guard let authorize = declaration.hooks.authorize else { return }
    try await authorize(
      JSONAPIAccess(
        action: action, type: declaration.type, id: id, relationship: relationship,
        request: exchange.request))
  }
}
