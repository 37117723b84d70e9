import Foundation

/// A request's query checked against the declarations once, before the store is asked: the
/// include tree, the sparse fieldsets, and for collections the store query (filters, sort,
/// window).
struct ServedQuery: Sendable {
  /// The relationship paths to include, as a tree.
  let include: ServedIncludeTree
  /// `fields[TYPE]`, by type.
  let fields: [String: Set<String>]

  /// Checks `query` for an endpoint that answers resources of `type` (include and fields only
  /// unless `collection`), and reads its include tree and fieldsets.
  ///
  /// - Throws: `JSONAPIQueryError` for an include path along no declared relationship or longer
  ///   than `maxIncludeDepth`, a type or field that no declaration has, and every parameter the
  ///   endpoint does not take; the errors of `paging` for collections.
  init(
    _ query: JSONAPIQuery, type: String?, server: JSONAPIServer,
    collection: JSONAPIResourceDeclaration? = nil
  ) throws {
    var tree = ServedIncludeTree()
    for path in query.include ?? [] {
      guard let type else {
        throw JSONAPIQueryError.unsupportedParameter(
          name: "include", reason: "this endpoint does not include related resources")
      }
      try tree.add(path: path, from: type, server: server)
    }
    var fieldsets = type == nil ? [:] : server.fieldsets
    if type != nil {
      // Computed attributes are not in the stored schema the server's fieldsets come from, and
      // are fields all the same (R63).
      for (name, declaration) in server.resources where !declaration.fieldRules.computed.isEmpty {
        fieldsets[name, default: []].formUnion(declaration.fieldRules.computed.keys)
      }
    }
    var rules = JSONAPIQueryRules(
      includePaths: type == nil ? nil : Set(query.include ?? []), sortFields: [],
      fieldsets: fieldsets, pageMembers: [], filterMembers: [])
    if let collection {
      rules.sortFields = Set(collection.sortable + ["id"])
      rules.filterMembers = Set(collection.filters.keys)
      rules = collection.paging.rules(rules)
    }
    try rules.validate(query)
    include = tree
    fields = query.fields.mapValues { Set($0) }
  }
}

/// The include paths of a request as a tree of relationships, each checked against the
/// declarations: node 0 is the primary data.
struct ServedIncludeTree: Sendable {
  /// Each node's children by relationship name, node 0 first.
  private(set) var children: [[String: Int]] = [[:]]

  var isEmpty: Bool { children[0].isEmpty }

  mutating func add(path: String, from type: String, server: JSONAPIServer) throws {
    var node = 0
    var current = type
    let names = path.split(separator: ".", omittingEmptySubsequences: false)
    guard names.count <= server.options.maxIncludeDepth else {
      throw JSONAPIQueryError.includeNotAllowed(path: path)
    }
    for name in names.map(String.init) {
      guard let relationship = server.resources[current]?.schema.relationship(named: name),
        let target = relationship.targetType
      else { throw JSONAPIQueryError.includeNotAllowed(path: path) }
      if let next = children[node][name] {
        node = next
      } else {
        children.append([:])
        children[node][name] = children.count - 1
        node = children.count - 1
      }
      current = target
    }
  }
}

/// A resource reached at a node of the include tree: followed once per node.
struct Visit: Hashable {
  var identity: ServedIdentity
  var node: Int
}

/// A resource's identity in a document: `type` and `id`.
struct ServedIdentity: Hashable, Sendable {
  var type: String
  var id: String

  init(type: String, id: String) {
    self.type = type
    self.id = id
  }

  init(_ record: JSONAPIResourceRecord) {
    type = record.type
    id = record.id
  }
}

extension JSONAPIServer {
  /// The related resources `tree` asks for, read per include level and type in one store call
  /// each (never once per resource), in the order first met; none of `primary` again (R41).
  func includedResources(
    _ primary: [JSONAPIResourceRecord], tree: ServedIncludeTree, reader: any JSONAPIStoreReader
  ) async throws -> [JSONAPIResourceRecord] {
    guard !tree.isEmpty else { return [] }
    var known: [ServedIdentity: JSONAPIResourceRecord] = [:]
    for record in primary { known[ServedIdentity(record)] = record }
    var order: [ServedIdentity] = []
    var visited: Set<Visit> = []
    var frontier = primary.map { (record: $0, node: 0) }
    while !frontier.isEmpty {
      var wanted: [String: [String]] = [:]
      var requested: Set<ServedIdentity> = []
      var edges: [(identity: ServedIdentity, node: Int)] = []
      for (record, node) in frontier {
        // Linkage a document leaves out (over its limit) is not followed either (R38).
        for (name, child) in tree.children[node] where servesLinkage(of: name, in: record) {
          for identifier in record.relationships[name]?.identifiers ?? [] {
            guard let id = identifier.id else { continue }
            let identity = ServedIdentity(type: identifier.type, id: id)
            edges.append((identity, child))
            if known[identity] == nil, requested.insert(identity).inserted {
              wanted[identifier.type, default: []].append(id)
            }
          }
        }
      }
      for type in wanted.keys.sorted() {
        for record in try await reader.resources(type, ids: wanted[type] ?? []) {
          let identity = ServedIdentity(record)
          if known.updateValue(record, forKey: identity) == nil { order.append(identity) }
        }
      }
      frontier = edges.compactMap { edge in
        guard visited.insert(Visit(identity: edge.identity, node: edge.node)).inserted,
          let record = known[edge.identity]
        else { return nil }
        return (record, edge.node)
      }
    }
    return order.compactMap { known[$0] }
  }
}
