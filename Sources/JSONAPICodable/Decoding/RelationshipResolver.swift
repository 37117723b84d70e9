import Foundation

/// Turns identifiers into resources while guarding against cycles and expansion bombs.
///
/// - Cycles: a resource met again while it is still being decoded further up is decoded from its
///   identifier alone (as if it were not included), so back-references with optional fields decode.
/// - Memoisation: from its second visit on, a resource decoded as a Swift type is remembered under
///   (type, resource) when its value does not depend on where it was reached, i.e. no cycle inside it was cut at a resource above it
///   (Tarjan's low-link idea). "50 authors behind 10 000 articles" decodes each author once, and a
///   resource naming the next one twice, 40 deep, costs 40 decodes instead of 2^40.
/// - Budget and depth: `Limits.maxResolvedResources` bounds the decodes a document can cause (cyclic
///   graphs defeat memoisation), `Limits.maxRelationshipDepth` bounds the recursion.
final class RelationshipResolver {
  private struct Frame {
    var ordinal: Int32
    var lowLink: Int
  }

  private struct MemoKey: Hashable {
    var type: ObjectIdentifier
    var ordinal: Int32
  }

  private let limits: JSONAPIDecoder.Limits
  // Confined to one decode call on one thread: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) private var stack: [Frame] = []
  /// Position of each resource in `stack`, or -1 when it is not being decoded.
  @exclusivity(unchecked) private var activePosition: [Int32]
  @exclusivity(unchecked) private var memo: [MemoKey: Any] = [:]
  /// Whether each resource was decoded before: the memo is filled from the second visit on, so that
  /// resources reached once (most primary data) are never boxed and hashed for nothing.
  @exclusivity(unchecked) private var visited: [Bool]
  @exclusivity(unchecked) private var resolvedCount = 0

  init(resourceCount: Int, limits: JSONAPIDecoder.Limits) {
    self.limits = limits
    activePosition = Array(repeating: -1, count: resourceCount)
    visited = Array(repeating: false, count: resourceCount)
  }

  /// The object a resource-valued node designates: the resource object in the document, or the
  /// identifier itself when the document does not include that resource.
  func target(of node: DecodingNode, in decoder: DecoderImpl) throws -> (
    object: Int, ordinal: Int32?
  ) {
    let tape = decoder.tape
    let pointer = { JSONPointer.pointer(to: node.index, in: tape) }
    let identity = try ResourceIdentity(tape: tape, object: node.index, pointer: pointer)
    if let id = identity.id,
      let found = decoder.index.resource(type: identity.type, value: id, isLocal: false)
    {
      return (found.object, found.ordinal)
    }
    if let lid = identity.lid,
      let found = decoder.index.resource(type: identity.type, value: lid, isLocal: true)
    {
      return (found.object, found.ordinal)
    }
    if node.role == .linkage && identity.id == nil && identity.lid == nil {
      throw JSONAPIError.invalidDocument(
        reason: "a resource identifier must have an id or a lid (R34)", pointer: pointer())
    }
    return (node.index, nil)
  }

  /// Decodes `T` from the resource that `node` (primary data or linkage, an object) designates.
  func decodeResource<T: Decodable>(
    _ type: T.Type, from node: DecodingNode, in decoder: DecoderImpl
  )
    throws -> T
  {
    let target = try target(of: node, in: decoder)
    guard let ordinal = target.ordinal else {
      return try decode(type, object: target.object, in: decoder)
    }
    let active = Int(activePosition[Int(ordinal)])
    if active >= 0 {
      // A cycle: give the identifier, and mark everything above `active` as context-dependent.
      if !stack.isEmpty {
        stack[stack.count - 1].lowLink = min(stack[stack.count - 1].lowLink, active)
      }
      return try decode(type, object: node.index, in: decoder)
    }
    let key = MemoKey(type: ObjectIdentifier(T.self), ordinal: ordinal)
    let isRevisit = visited[Int(ordinal)]
    // Unwrap the entry before casting: `nil as? T` succeeds when T is itself an Optional.
    if isRevisit, let entry = memo[key], let remembered = entry as? T { return remembered }
    visited[Int(ordinal)] = true

    guard stack.count < limits.maxRelationshipDepth else {
      throw JSONAPIError.relationshipDepthExceeded(
        limit: limits.maxRelationshipDepth,
        pointer: JSONPointer.pointer(to: target.object, in: decoder.tape))
    }
    resolvedCount += 1
    guard resolvedCount <= limits.maxResolvedResources else {
      throw JSONAPIError.resourceBudgetExceeded(limit: limits.maxResolvedResources)
    }

    let position = stack.count
    stack.append(Frame(ordinal: ordinal, lowLink: position))
    activePosition[Int(ordinal)] = Int32(truncatingIfNeeded: position)
    defer {
      activePosition[Int(ordinal)] = -1
      let frame = stack.removeLast()
      if frame.lowLink < position, !stack.isEmpty {
        stack[stack.count - 1].lowLink = min(stack[stack.count - 1].lowLink, frame.lowLink)
      }
    }
    let value = try decode(type, object: target.object, in: decoder)
    if isRevisit && stack[position].lowLink >= position { memo[key] = value }
    return value
  }

  private func decode<T: Decodable>(_ type: T.Type, object: Int, in decoder: DecoderImpl) throws
    -> T
  {
    let saved = decoder.node
    decoder.node = DecodingNode(index: object, role: .resource)
    defer { decoder.node = saved }
    return try T(from: decoder)
  }
}
