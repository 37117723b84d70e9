/// Splits a graph of models into the Atomic Operations that create its new resources
/// (``JSONAPIEncoder/encode(graph:)``): one `add` per new resource, ordered so that every
/// relationship points at a resource that exists or was added before (R102: a `lid` refers to a
/// resource an earlier operation added), and one relationship `update` per relationship that
/// closes a cycle.
///
/// The models go through the same pipeline as ``JSONAPIEncoder/encode(_:)``: the Codable walk
/// builds the value tree and ``ResourceClassifier`` takes each resource apart, with one option
/// set (``EncodingOptions/typedValuesAreResources``): a nested value with a `type` is a resource
/// even without `id` or `lid`. The graph is then walked with a queue and ordered with an iterative
/// depth-first search: time in proportion to the resources and relationships, no recursion.
struct GraphPlanner {
  private let call: EncodingCall
  private let classifier: ResourceClassifier

  init(call: EncodingCall) {
    self.call = call.adjusted { options in
      options.typedValuesAreResources = true
      // Related resources with members are queued as relatives (every one, on every path): they
      // are the graph's other new resources.
      options.includesRelatedResources = true
      options.includeTree = nil
    }
    classifier = ResourceClassifier(options: self.call.options)
  }

  /// The operations of a graph, ready to write.
  struct Plan {
    /// The operation objects, in the order they must run.
    var operations: [PlannedNode]
    /// The position of the operation that adds the root (result *i* answers operation *i*).
    var rootOperation: Int
  }

  /// The operations that create `draft` and every new resource reachable from it.
  ///
  /// - Throws: ``JSONAPIError/missingResourceType(swiftType:codingPath:)`` when the root is not
  ///   resource-shaped; ``JSONAPIError/invalidValue(reason:codingPath:)`` when the root has an
  ///   `id` or is not one resource, and for the members the classifier refuses.
  func plan<T: Encodable>(_ draft: T) throws -> Plan {
    let tree = try call.root(for: T.self).wrap(draft, key: nil)
    guard case .object(let object) = tree else {
      throw JSONAPIError.missingResourceType(
        swiftType: "\(T.self)", codingPath: EncodingPath.topLevel.text)
    }
    guard object.role == .plain else {
      throw Self.invalid("the root of a graph must be one resource", at: EncodingPath.topLevel)
    }
    let root = try classifier.resource(from: object, at: ResourcePaths.topLevel)
    guard root.identifier.id == nil else {
      throw Self.invalid(
        "the root of a graph is the resource to create: it must not have an `id`",
        at: EncodingPath.topLevel.appending(ResourceMemberName.id.text))
    }
    var graph = Graph(root: root)
    try graph.collect(with: classifier)
    // Every resource is taken apart: an empty array of a member that is a to-many relationship
    // elsewhere in the graph is one too (ToManyLedger), so the resources are linked again.
    if classifier.toMany.settleAll() { graph.relink() }
    graph.assignLocalIDs()
    return graph.operations()
  }

  static func invalid(_ reason: String, at path: EncodingPath) -> JSONAPIError {
    .invalidValue(
      reason: SpecSection.cite(reason, SpecSection.atomicOperations), codingPath: path.text)
  }
}

/// The new resources of a graph and the relationships between them.
private struct Graph {
  /// A new resource: added by one operation.
  struct Node {
    let type: String
    /// The user's `lid`, or the one ``Graph/assignLocalIDs()`` gives it.
    var lid: String?
    /// Its members, from the first copy met that has any; `nil` for a resource only ever
    /// referenced by `type` and `lid`, which is added with no members.
    var parts: ResourceParts?
    /// The relationships sent, in the order of the resource's members.
    var relationships: [Relationship] = []
    /// Which new resources its relationships point at: each must be added before it, unless the
    /// relationship is set later.
    var edges: [Edge] = []
  }

  struct Edge {
    /// The position in ``Node/relationships``.
    let relationship: Int
    let target: Int
  }

  /// What a relationship points at.
  enum Target {
    /// A resource with an `id`: referenced, never added or changed (written `type` and `id`).
    case existing(ResourceLinkage)
    /// A new resource of the graph, node `index`; `meta` is the identifier's own.
    case new(Int, meta: EncodedObject?)
  }

  enum Linkage {
    case toOne(Target?)
    case toMany([Target])
  }

  struct Relationship {
    let name: String
    let linkage: Linkage
    /// Whether it closes a cycle: then it is left out of the `add` and set by a later `update`.
    var isDeferred = false
  }

  private(set) var nodes: [Node]
  /// New resources by `type` and `lid` (R13: a `lid` identifies a resource per type).
  private var byLocalID: [EncodedResourceIdentity: Int] = [:]
  /// New resources without `lid`, by the identifier object of the one relationship they are met
  /// in: each value without `lid` is a resource of its own.
  private var byLinkage: [ObjectIdentifier: Int] = [:]
  /// Every `lid` the user wrote, so that the ones made up collide with none.
  private var userLocalIDs: Set<String> = []

  init(root: ResourceParts) {
    nodes = [Node(type: root.identifier.type, lid: root.identifier.lid, parts: root)]
    if let lid = root.identifier.lid {
      userLocalIDs.insert(lid)
      byLocalID[EncodedResourceIdentity(type: root.identifier.type, id: lid, isLocal: true)] = 0
    }
  }

  /// Walks the graph from the root, breadth first with a queue: each new resource's
  /// relationships are resolved to nodes, and the first copy met with members is taken apart.
  mutating func collect(with classifier: ResourceClassifier) throws {
    var queue = [0]
    var head = 0
    while head < queue.count {
      let index = queue[head]
      head += 1
      guard let parts = nodes[index].parts else { continue }
      link(index, parts)
      // Relatives are the copies with members, met in the relationships just resolved: the first
      // copy of each new resource gives its members, later ones are references only.
      for relative in parts.takeRelatives() {
        guard let target = node(for: relative.resource.linkage), nodes[target].parts == nil
        else { continue }
        nodes[target].parts = try classifier.resource(relative.resource)
        queue.append(target)
      }
    }
  }

  /// Resolves the relationships of node `index`, whose members are `parts`, to nodes.
  private mutating func link(_ index: Int, _ parts: ResourceParts) {
    var relationships: [Relationship] = []
    var edges: [Edge] = []
    for member in parts.relationships {
      guard let linkage = linkage(of: member.value) else { continue }
      switch linkage {
      case .toOne(.new(let target, _)?):
        edges.append(Edge(relationship: relationships.count, target: target))
      case .toMany(let targets):
        for case .new(let target, _) in targets {
          edges.append(Edge(relationship: relationships.count, target: target))
        }
      default:
        break
      }
      relationships.append(Relationship(name: member.key, linkage: linkage))
    }
    nodes[index].relationships = relationships
    nodes[index].edges = edges
  }

  /// Links every node again, once relationships were added to their parts after ``collect(with:)``
  /// (empty ones, which point at no node: the nodes stay as they are).
  mutating func relink() {
    for index in nodes.indices {
      if let parts = nodes[index].parts { link(index, parts) }
    }
  }

  /// The linkage of a planned relationship object, its targets resolved; `nil` for a
  /// relationship object without `data` (only `links` or `meta`), which is not sent.
  private mutating func linkage(of relationship: PlannedNode) -> Linkage? {
    switch relationship.relationshipLinkage {
    case .toOne(let linkage)?: return .toOne(linkage.map { target(of: $0) })
    case .toMany(let linkage)?: return .toMany(linkage.map { target(of: $0) })
    case nil: return nil
    }
  }

  private mutating func target(of linkage: ResourceLinkage) -> Target {
    let identifier = linkage.identifier
    if let lid = identifier.lid { userLocalIDs.insert(lid) }
    if let id = identifier.id {
      return .existing(
        ResourceLinkage(
          identifier: EncodedResourceIdentifier(type: identifier.type, id: id, lid: nil),
          meta: linkage.meta))
    }
    // Without `id`, `node(for:)` always finds or makes a node.
    return .new(node(for: linkage) ?? 0, meta: linkage.meta)
  }

  /// The node of the new resource `linkage` identifies, made when first met; `nil` for a
  /// resource with an `id`.
  private mutating func node(for linkage: ResourceLinkage) -> Int? {
    let identifier = linkage.identifier
    if identifier.id != nil { return nil }
    if let lid = identifier.lid {
      let identity = EncodedResourceIdentity(type: identifier.type, id: lid, isLocal: true)
      if let index = byLocalID[identity] { return index }
      byLocalID[identity] = nodes.count
    } else {
      let key = ObjectIdentifier(linkage)
      if let index = byLinkage[key] { return index }
      byLinkage[key] = nodes.count
    }
    nodes.append(Node(type: identifier.type, lid: identifier.lid))
    return nodes.count - 1
  }

  /// Gives each new resource without `lid` one that no `lid` of the user's is: `graph-1`,
  /// `graph-2`, …, skipping those taken. Made after the whole graph is read, so every user `lid`
  /// is known; each skip passes a user `lid`, so the work stays linear.
  mutating func assignLocalIDs() {
    var counter = 0
    for index in nodes.indices where nodes[index].lid == nil {
      var candidate: String
      repeat {
        counter += 1
        candidate = "graph-\(counter)"
      } while userLocalIDs.contains(candidate)
      nodes[index].lid = candidate
    }
  }

  /// The operations: the `add`s in an order where every relationship points at a resource added
  /// before (dependencies first, by a depth-first search from the root), then an `update` for
  /// each relationship that closes a cycle.
  mutating func operations() -> GraphPlanner.Plan {
    let order = addOrder()
    var operations: [PlannedNode] = []
    operations.reserveCapacity(order.count)
    var rootOperation = 0
    for index in order {
      if index == 0 { rootOperation = operations.count }
      operations.append(
        .object([
          PlannedMember("op", .value(.string(JSONAPIOperationCode.add.rawValue))),
          PlannedMember("data", .resource(resourceObject(nodes[index]))),
        ]))
    }
    for index in order {
      for relationship in nodes[index].relationships where relationship.isDeferred {
        operations.append(.object(relationshipUpdate(relationship, of: nodes[index])))
      }
    }
    return GraphPlanner.Plan(operations: operations, rootOperation: rootOperation)
  }

  /// The nodes in post-order of an iterative depth-first search from the root: each after every
  /// node it points at. An edge to a node still on the stack closes a cycle: its relationship is
  /// marked deferred.
  private mutating func addOrder() -> [Int] {
    struct Frame {
      let node: Int
      var nextEdge = 0
    }
    enum State { case unvisited, open, done }
    var state = [State](repeating: .unvisited, count: nodes.count)
    var order: [Int] = []
    order.reserveCapacity(nodes.count)
    var stack = [Frame(node: 0)]
    state[0] = .open
    while let top = stack.last {
      guard top.nextEdge < nodes[top.node].edges.count else {
        state[top.node] = .done
        order.append(top.node)
        stack.removeLast()
        continue
      }
      let edge = nodes[top.node].edges[top.nextEdge]
      stack[stack.count - 1].nextEdge += 1
      switch state[edge.target] {
      case .unvisited:
        state[edge.target] = .open
        stack.append(Frame(node: edge.target))
      case .open:
        nodes[top.node].relationships[edge.relationship].isDeferred = true
      case .done:
        break
      }
    }
    return order
  }

  /// The `data` of a new resource's `add`, a resource object as every resource is written
  /// (``ResourceParts``): `type` and `lid`, `attributes`, the relationships not deferred
  /// (identifiers only), `meta`; never `links`, which are the server's to give.
  private func resourceObject(_ node: Node) -> ResourceParts {
    let fields = node.parts?.fields
    let resource = ResourceParts(
      identifier: identifier(of: node),
      fields: EncodedObject(
        role: .plain, capacity: (fields?.count ?? 0) + node.relationships.count))
    for member in fields?.members ?? [] where member.kind == .attribute {
      resource.appendAttribute(member.value, for: member.key)
    }
    for relationship in node.relationships where !relationship.isDeferred {
      let object: PlannedNode
      switch relationship.linkage {
      case .toOne(nil): object = .nullRelationship
      case .toOne(let target?): object = .toOneRelationship(linkage(to: target))
      case .toMany(let targets): object = .toManyRelationship(targets.map { linkage(to: $0) })
      }
      resource.appendRelationship(object, for: relationship.name)
    }
    resource.meta = node.parts?.meta
    return resource
  }

  /// `{"op": "update", "ref": {type, lid, relationship}, "data": ...}` (R107, R108: a to-many
  /// relationship is replaced whole).
  private func relationshipUpdate(_ relationship: Relationship, of node: Node) -> [PlannedMember] {
    let ref =
      identifier(of: node).plannedMembers + [
        PlannedMember("relationship", .value(.string(relationship.name)))
      ]
    let data: PlannedNode
    switch relationship.linkage {
    case .toOne(nil): data = .value(.null)
    case .toOne(let target?): data = .linkage(linkage(to: target))
    case .toMany(let targets): data = .array(targets.map { .linkage(linkage(to: $0)) })
    }
    return [
      PlannedMember("op", .value(.string(JSONAPIOperationCode.update.rawValue))),
      PlannedMember("ref", .object(ref)),
      PlannedMember("data", data),
    ]
  }

  /// A new resource's identifier: its `type` and `lid` (every node has one by then).
  private func identifier(of node: Node) -> EncodedResourceIdentifier {
    EncodedResourceIdentifier(type: node.type, id: nil, lid: node.lid ?? "")
  }

  private func linkage(to target: Target) -> ResourceLinkage {
    switch target {
    case .existing(let linkage):
      return linkage
    case .new(let index, let meta):
      return ResourceLinkage(identifier: identifier(of: nodes[index]), meta: meta)
    }
  }
}
