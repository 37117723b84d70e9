import Foundation

/// Turns identifiers into resources while guarding against cycles and expansion bombs.
///
/// - Cycles: a resource met again while it is still being decoded further up is decoded from its
///   identifier alone (as if it were not included), so back-references with optional fields decode.
/// - Memoisation: from its second visit on, a resource decoded as a Swift type is remembered under
///   (type, resource) with what its value depended on: the resources it contains and the resources
///   above it that it gave as identifiers (cycle cuts). A fresh decode comes out the same exactly
///   when every one of those cuts is being decoded further up again and none of its contents is,
///   so that is when the value is reused. "50 authors behind 10 000 articles" decodes each author
///   twice at most, a resource naming the next one twice, 40 deep, costs about 80 decodes instead
///   of 2^40, and 1 000 articles whose one author lists them all take a few thousand decodes
///   instead of a million (each article inside the author, cut at the author, is reused).
/// - Budget and depth: `Limits.maxResolvedResources` bounds the resource decodes a document can
///   cause (graphs where every path meets a different chain of ancestors defeat memoisation),
///   `Limits.maxRelationshipDepth` bounds the recursion.
final class RelationshipResolver {
  private struct Frame {
    var ordinal: Int32
    /// Where this resource's subtree starts in `visitLog` and in `cutLog`.
    var logStart: Int
    var cutStart: Int
  }

  private struct MemoKey: Hashable {
    var type: ObjectIdentifier
    var ordinal: Int32
  }

  private struct MemoEntry {
    var value: Any
    /// Every resource the value contains, itself included: none may be active where it is reused.
    var contents: Set<Int32>
    /// Resources that were active above it and are given inside it as identifiers: all must be
    /// active where it is reused.
    var cuts: [Int32]
  }

  private let maxDepth: Int
  private let budget: Int
  /// Off only in tests, which compare every reuse against decoding afresh.
  private let memoises: Bool
  // Confined to one decode call on one thread: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) private var stack: [Frame] = []
  /// Position of each resource in `stack`, or -1 when it is not being decoded.
  @exclusivity(unchecked) private var activePosition: [Int32]
  @exclusivity(unchecked) private var memo: [MemoKey: MemoEntry] = [:]
  /// Whether each resource was decoded before: the memo is filled from the second visit on, so that
  /// resources reached once (most primary data) are never boxed and hashed for nothing.
  @exclusivity(unchecked) private var visited: [Bool]
  /// Resources decoded (or reused) since the stack was last empty, in order: each frame's subtree
  /// is the suffix from its `logStart`.
  @exclusivity(unchecked) private var visitLog: [Int32] = []
  /// Resources given as identifiers because they were active (cycle cuts), logged like `visitLog`.
  @exclusivity(unchecked) private var cutLog: [Int32] = []
  @exclusivity(unchecked) private var resolvedCount = 0

  init(
    resourceCount: Int, valueCount: Int, limits: JSONAPIDecoder.Limits, memoises: Bool = true
  ) {
    self.memoises = memoises
    maxDepth = limits.maxRelationshipDepth
    budget =
      limits.maxResolvedResources
      ?? JSONAPIDecoder.Limits.automaticResourceBudget(valueCount: valueCount)
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
      try spend()
      return try decode(type, object: target.object, role: node.standInRole, in: decoder)
    }
    if activePosition[Int(ordinal)] >= 0 {
      // A cycle: give the identifier, and log the cut for the memo entries of the frames above.
      cutLog.append(ordinal)
      try spend()
      return try decode(type, object: node.index, role: node.standInRole, in: decoder)
    }
    let key = MemoKey(type: ObjectIdentifier(T.self), ordinal: ordinal)
    let isRevisit = memoises && visited[Int(ordinal)]
    // Unwrap the entry before casting: `nil as? T` succeeds when T is itself an Optional.
    if isRevisit, let entry = memo[key], let remembered = entry.value as? T, isReusable(entry) {
      if !stack.isEmpty {
        visitLog.append(contentsOf: entry.contents)
        // Guarded: appending an empty array is not free, and most entries cut nothing.
        if !entry.cuts.isEmpty { cutLog.append(contentsOf: entry.cuts) }
      }
      return remembered
    }
    visited[Int(ordinal)] = true

    guard stack.count < maxDepth else {
      throw JSONAPIError.relationshipDepthExceeded(
        limit: maxDepth, pointer: JSONPointer.pointer(to: target.object, in: decoder.tape))
    }
    try spend()

    let position = stack.count
    stack.append(Frame(ordinal: ordinal, logStart: visitLog.count, cutStart: cutLog.count))
    visitLog.append(ordinal)
    activePosition[Int(ordinal)] = Int32(truncatingIfNeeded: position)
    defer {
      activePosition[Int(ordinal)] = -1
      stack.removeLast()
      // Nothing above needs the logs once the stack is empty: keep them bounded by one tree.
      if stack.isEmpty {
        visitLog.removeAll(keepingCapacity: true)
        cutLog.removeAll(keepingCapacity: true)
      }
    }
    let value = try decode(type, object: target.object, role: .resource, in: decoder)
    if isRevisit {
      memo[key] = MemoEntry(
        value: value, contents: Set(visitLog[stack[position].logStart...]),
        cuts: externalCuts(since: stack[position].cutStart, below: position))
    }
    return value
  }

  /// The cuts logged since `start` at resources active above `position`. Cuts at the frame itself
  /// or at resources between (already finished, so inactive) happen wherever the frame is decoded.
  private func externalCuts(since start: Int, below position: Int) -> [Int32] {
    // Acyclic documents log no cuts: skip building the set (a measurable share of a revisit).
    guard start < cutLog.count else { return [] }
    var seen = Set<Int32>()
    return cutLog[start...].filter { ordinal in
      let active = activePosition[Int(ordinal)]
      return active >= 0 && Int(active) < position && seen.insert(ordinal).inserted
    }
  }

  /// Whether a remembered value would come out the same if decoded here: every resource it cut is
  /// being decoded now, and none it contains is (there it would be cut).
  private func isReusable(_ entry: MemoEntry) -> Bool {
    guard entry.cuts.allSatisfy({ activePosition[Int($0)] >= 0 }) else { return false }
    let contents = entry.contents
    if contents.count <= stack.count {
      return contents.allSatisfy { activePosition[Int($0)] < 0 }
    }
    return !stack.contains { contents.contains($0.ordinal) }
  }

  /// Counts one resource decode against the budget.
  private func spend() throws {
    resolvedCount += 1
    guard resolvedCount <= budget else {
      throw JSONAPIError.resourceBudgetExceeded(limit: budget)
    }
  }

  private func decode<T: Decodable>(
    _ type: T.Type, object: Int, role: DecodingNode.Role, in decoder: DecoderImpl
  ) throws -> T {
    let saved = decoder.node
    decoder.node = DecodingNode(index: object, role: role)
    defer { decoder.node = saved }
    return try T(from: decoder)
  }
}
