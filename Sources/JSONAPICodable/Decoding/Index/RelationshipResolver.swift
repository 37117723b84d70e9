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
/// - Containers opened straight on a relationship (`superDecoder(forKey:)`,
///   `nestedContainer(keyedBy:forKey:)`) go through ``open(_:in:)``: the same cycle, depth and budget
///   rules, so every way a model can read a relationship is bounded alike.
final class RelationshipResolver {
  private struct Frame {
    var ordinal: Int32
    /// Where this resource's subtree starts in `visitLog` and in `cutLog`.
    var logStart: Int
    var cutStart: Int
    /// The coding-path length the resource was reached at.
    var depth: Int
    /// Opened for a container rather than decoded through `init(from:)`: nothing marks the end of
    /// its read, so it ends when decoding next reaches the resolver at `depth` or shallower.
    var isOpen: Bool
  }

  /// What the resolver knows of one resource, by ordinal: one array for both, so a call pays for
  /// one allocation, and a remembered value is found by index, without hashing.
  private struct ResourceState {
    /// Position in `stack`, or -1 when the resource is not being decoded.
    var position: Int32 = -1
    /// Index in `memo` of the resource's latest entry, ``noEntry`` when it has none, ``unvisited``
    /// before its first decode: the memo is filled from the second visit on, so that resources
    /// reached once (most primary data) are never boxed for nothing.
    var memo: Int32 = unvisited

    static let unvisited: Int32 = -2
    static let noEntry: Int32 = -1
  }

  private struct MemoEntry {
    /// The Swift type the value was decoded as: a resource has an entry per type.
    var type: ObjectIdentifier
    var ordinal: Int32
    var value: Any
    /// Every resource the value contains, itself included, ascending and each once: none may be
    /// active where it is reused.
    var contents: [Int32]
    /// Resources that were active above it and are given inside it as identifiers: all must be
    /// active where it is reused.
    var cuts: [Int32]
    /// The same resource's entry for another type, or ``ResourceState/noEntry``.
    var next: Int32
  }

  private let maxDepth: Int
  private let budget: Int
  /// Off only in tests, which compare every reuse against decoding afresh.
  private let memoises: Bool
  // Confined to one decode call on one thread: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) private var stack: [Frame] = []
  @exclusivity(unchecked) private var states: [ResourceState]
  /// Remembered values, chained per resource from its ``ResourceState/memo``.
  @exclusivity(unchecked) private var memo: [MemoEntry] = []
  /// Resources decoded (or reused) since the stack was last empty, in order: each frame's subtree
  /// is the suffix from its `logStart`.
  @exclusivity(unchecked) private var visitLog: [Int32] = []
  /// Resources given as identifiers because they were active (cycle cuts), logged like `visitLog`.
  @exclusivity(unchecked) private var cutLog: [Int32] = []
  @exclusivity(unchecked) private var resolvedCount = 0
  /// Frames in `stack` opened for containers; most documents never open one.
  @exclusivity(unchecked) private var openFrameCount = 0

  init(
    resourceCount: Int, valueCount: Int, limits: JSONAPIDecoder.Limits, memoises: Bool = true
  ) {
    self.memoises = memoises
    maxDepth = limits.maxRelationshipDepth
    budget =
      limits.maxResolvedResources
      ?? JSONAPIDecoder.Limits.automaticResourceBudget(valueCount: valueCount)
    states = Array(repeating: ResourceState(), count: resourceCount)
    // Room for a few levels of relationships from the start: grown from empty, the stack and the
    // log reallocate at one, two and four entries, in every call, however small the document.
    stack.reserveCapacity(8)
    visitLog.reserveCapacity(32)
  }

  /// The object a resource-valued node designates: the resource object in the document, or the
  /// identifier itself when the document does not include that resource.
  func target(of node: DecodingNode, in decoder: DecoderImpl, as model: Any.Type? = nil) throws
    -> (object: Int, ordinal: Int32?)
  {
    let tape = decoder.tape
    if node.role == .primaryData, let ordinal = decoder.index.ordinal(ofResourceAt: node.index) {
      // A resource of the document designates itself: its identity was read, checked and
      // indexed already, and looking it up would find this very object.
      if let model, let expected = decoder.declaredType(of: model) {
        try Self.check(
          typeEntry: decoder.index.typeEntry(ofResource: ordinal), against: expected, in: tape,
          pointer: { JSONPointer.pointer(to: node.index, in: tape) })
      }
      return (node.index, ordinal)
    }
    // Made here, not above: capturing the tape costs a retain and a release per resource.
    let pointer = { JSONPointer.pointer(to: node.index, in: tape) }
    let identity = try ResourceIdentity(tape: tape, object: node.index, pointer: pointer)
    if let model, let expected = decoder.declaredType(of: model) {
      try Self.check(typeEntry: identity.type, against: expected, in: tape, pointer: pointer)
    }
    if let id = identity.id,
      let found = decoder.index.resource(type: identity.type, value: id, isLocal: false)
    {
      return (found.object, tracked(found.ordinal, in: decoder))
    }
    if let lid = identity.lid,
      let found = decoder.index.resource(type: identity.type, value: lid, isLocal: true)
    {
      return (found.object, tracked(found.ordinal, in: decoder))
    }
    if node.role == .linkage && identity.id == nil && identity.lid == nil {
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite(
          "a resource identifier must have an id or a lid", SpecSection.identifierObjects),
        pointer: pointer())
    }
    return (node.index, nil)
  }

  /// `ordinal`, with room kept for it: the index of an Atomic Operations entry numbers the other
  /// entries' resources as they are met (``DocumentIndex/init(tape:entryData:member:outside:)``).
  @inline(__always) private func tracked(_ ordinal: Int32, in decoder: DecoderImpl) -> Int32 {
    if Int(ordinal) >= states.count {
      let added = decoder.index.resourceCount - states.count
      states.append(contentsOf: repeatElement(ResourceState(), count: added))
    }
    return ordinal
  }

  /// Checks the type of a resource decoded as a model that declares its type (``JSONAPIResource``).
  private static func check(
    typeEntry: Int, against expected: String, in tape: Tape, pointer: () -> String
  ) throws {
    var expected = expected
    let matches = expected.withUTF8 { TapeStrings.equals(tape, tape[typeEntry], $0) }
    guard !matches else { return }
    throw JSONAPIError.resourceTypeMismatch(
      expected: expected, found: TapeStrings.string(tape, tape[typeEntry]), pointer: pointer())
  }

  /// Decodes `T` from the resource that `node` (primary data or linkage, an object) designates.
  func decodeResource<T: Decodable>(
    _ type: T.Type, from node: DecodingNode, in decoder: DecoderImpl
  )
    throws -> T
  {
    reach(depth: decoder.path.count)
    let target = try target(of: node, in: decoder, as: T.self)
    guard let ordinal = target.ordinal else {
      try spend()
      return try decode(type, object: target.object, role: node.standInRole, in: decoder)
    }
    if states[Int(ordinal)].position >= 0 {
      // A cycle: give the identifier, and log the cut for the memo entries of the frames above.
      cutLog.append(ordinal)
      try spend()
      return try decode(type, object: node.index, role: node.standInRole, in: decoder)
    }
    guard memoises && states[Int(ordinal)].memo != ResourceState.unvisited else {
      states[Int(ordinal)].memo = ResourceState.noEntry
      let position = try push(
        ordinal, object: target.object, depth: decoder.path.count, isOpen: false, in: decoder)
      defer { pop(to: position) }
      return try decode(type, object: target.object, role: .resource, in: decoder)
    }
    return try decodeRevisit(type, ordinal: ordinal, object: target.object, in: decoder)
  }

  /// A resource decoded before in this call: the remembered value when it may be reused, else
  /// decoded again and remembered. Out of line: the `as? T` cast needs the metadata of `T?`, a
  /// runtime lookup that the first visit of every resource would otherwise
  /// pay too.
  @inline(never)
  private func decodeRevisit<T: Decodable>(
    _ type: T.Type, ordinal: Int32, object: Int, in decoder: DecoderImpl
  ) throws -> T {
    let typeKey = ObjectIdentifier(T.self)
    var found = states[Int(ordinal)].memo
    while found >= 0 && memo[Int(found)].type != typeKey { found = memo[Int(found)].next }
    // Not `entry.value as? T`: that cast needs the metadata of `T?` (a runtime lookup) and a
    // dynamic cast on every reuse, and shared resources are reused all the time. The entry was
    // stored from a `T` under `T`'s identity, so its dynamic type is `T`, compared by metatype.
    if found >= 0, Swift.type(of: memo[Int(found)].value) == T.self, isReusable(memo[Int(found)]) {
      let entry = memo[Int(found)]
      let remembered = Self.value(entry.value, as: T.self)
      if !stack.isEmpty {
        visitLog.append(contentsOf: entry.contents)
        // Guarded: appending an empty array is not free, and most entries cut nothing.
        if !entry.cuts.isEmpty { cutLog.append(contentsOf: entry.cuts) }
      }
      return remembered
    }
    let position = try push(
      ordinal, object: object, depth: decoder.path.count, isOpen: false, in: decoder)
    defer { pop(to: position) }
    let value = try decode(type, object: object, role: .resource, in: decoder)
    let contents = Self.ascendingOnce(visitLog[stack[position].logStart...])
    let cuts = externalCuts(since: stack[position].cutStart, below: position)
    if found >= 0 {
      // Replaced in place: the resource was active while it decoded, so its chain did not change.
      memo[Int(found)].value = value
      memo[Int(found)].contents = contents
      memo[Int(found)].cuts = cuts
    } else {
      memo.append(
        MemoEntry(
          type: typeKey, ordinal: ordinal, value: value, contents: contents, cuts: cuts,
          next: states[Int(ordinal)].memo))
      states[Int(ordinal)].memo = Int32(truncatingIfNeeded: memo.count - 1)
    }
    return value
  }

  /// The resources of `log`, ascending and each once.
  private static func ascendingOnce(_ log: ArraySlice<Int32>) -> [Int32] {
    var result = Array(log)
    guard result.count > 1 else { return result }
    result.sort()
    var kept = 1
    for index in 1..<result.count where result[index] != result[kept - 1] {
      result[kept] = result[index]
      kept += 1
    }
    result.removeLast(result.count - kept)
    return result
  }

  /// Whether `ordinal` is in `contents` (ascending).
  private static func contains(_ contents: [Int32], _ ordinal: Int32) -> Bool {
    var low = 0
    var high = contents.count
    while low < high {
      let middle = low + (high - low) / 2
      if contents[middle] < ordinal { low = middle + 1 } else { high = middle }
    }
    return low < contents.count && contents[low] == ordinal
  }

  /// The value in `value` (opened: `V` is its dynamic type) as `T`, which the caller has checked
  /// `V` is, so the reinterpretation is the identity.
  @inline(__always) private static func value<V, T>(_ value: V, as _: T.Type) -> T {
    unsafeBitCast(value, to: T.self)
  }

  /// Opens the resource `node` (primary data or linkage, an object) designates for a container
  /// asked for straight on it, under the rules of ``decodeResource(_:from:in:)``: the budget, the
  /// depth limit, and a cycle cut at the identifier. Returns the object to read and whether it reads
  /// as an identifier. No reuse: there is no value to remember.
  func open(_ node: DecodingNode, in decoder: DecoderImpl) throws -> (
    object: Int, identifierOnly: Bool
  ) {
    let depth = decoder.path.count
    reach(depth: depth)
    let target = try target(of: node, in: decoder)
    let readsAsIdentifier = node.standInRole == .identifier
    guard let ordinal = target.ordinal else {
      try spend()
      return (target.object, readsAsIdentifier)
    }
    if states[Int(ordinal)].position >= 0 {
      cutLog.append(ordinal)
      try spend()
      return (node.index, readsAsIdentifier)
    }
    if states[Int(ordinal)].memo == ResourceState.unvisited {
      states[Int(ordinal)].memo = ResourceState.noEntry
    }
    _ = try push(ordinal, object: target.object, depth: depth, isOpen: true, in: decoder)
    return (target.object, false)
  }

  /// Decoding has reached the resolver at coding-path length `depth`: reads of resources opened at
  /// that depth or deeper are over (decoding only goes back up once a read is done), so they end.
  @inline(__always) func reach(depth: Int) {
    guard openFrameCount > 0 else { return }
    var end = stack.count
    while end > 0, stack[end - 1].isOpen, stack[end - 1].depth >= depth { end -= 1 }
    pop(to: end)
  }

  /// Ends the call: frames opened for containers end, remembered values go (a value may hold a
  /// kept decoder, which holds this resolver). A kept decoder used later starts afresh, budget aside.
  func finishCall() {
    pop(to: 0)
    for entry in memo { states[Int(entry.ordinal)].memo = ResourceState.noEntry }
    memo.removeAll()
  }

  /// Makes `ordinal` active at the top of the stack, after the depth and budget checks; returns its
  /// position.
  private func push(
    _ ordinal: Int32, object: Int, depth: Int, isOpen: Bool, in decoder: DecoderImpl
  ) throws -> Int {
    guard stack.count < maxDepth else {
      throw JSONAPIError.relationshipDepthExceeded(
        limit: maxDepth, pointer: JSONPointer.pointer(to: object, in: decoder.tape))
    }
    try spend()
    let position = stack.count
    stack.append(
      Frame(
        ordinal: ordinal, logStart: visitLog.count, cutStart: cutLog.count, depth: depth,
        isOpen: isOpen))
    visitLog.append(ordinal)
    states[Int(ordinal)].position = Int32(truncatingIfNeeded: position)
    if isOpen { openFrameCount += 1 }
    return position
  }

  /// Ends every frame from `position` up (a decoded resource ends the opened ones above it too).
  private func pop(to position: Int) {
    while stack.count > position {
      let frame = stack.removeLast()
      states[Int(frame.ordinal)].position = -1
      if frame.isOpen { openFrameCount -= 1 }
    }
    // Nothing above needs the logs once the stack is empty: keep them bounded by one tree.
    // `removeAll(keepingCapacity:)` takes the generic `replaceSubrange` path even
    // for the one entry of a resource without relationships, or for none.
    if stack.isEmpty {
      if visitLog.count == 1 {
        visitLog.removeLast()
      } else {
        visitLog.removeAll(keepingCapacity: true)
      }
      if !cutLog.isEmpty { cutLog.removeAll(keepingCapacity: true) }
    }
  }

  /// The cuts logged since `start` at resources active above `position`. Cuts at the frame itself
  /// or at resources between (already finished, so inactive) happen wherever the frame is decoded.
  private func externalCuts(since start: Int, below position: Int) -> [Int32] {
    // Acyclic documents log no cuts: skip building the set (a measurable share of a revisit).
    guard start < cutLog.count else { return [] }
    var seen = Set<Int32>()
    return cutLog[start...].filter { ordinal in
      let active = states[Int(ordinal)].position
      return active >= 0 && Int(active) < position && seen.insert(ordinal).inserted
    }
  }

  /// Whether a remembered value would come out the same if decoded here: every resource it cut is
  /// being decoded now, and none it contains is (there it would be cut).
  private func isReusable(_ entry: MemoEntry) -> Bool {
    guard entry.cuts.allSatisfy({ states[Int($0)].position >= 0 }) else { return false }
    let contents = entry.contents
    if contents.count <= stack.count {
      return contents.allSatisfy { states[Int($0)].position < 0 }
    }
    return !stack.contains { Self.contains(contents, $0.ordinal) }
  }

  /// The resources being decoded, outermost first, with the coding-path length each was reached
  /// at: the relationship chain an error message retraces (see `DecoderImpl.includePath`).
  var activeChain: [(ordinal: Int32, depth: Int)] { stack.map { ($0.ordinal, $0.depth) } }

  /// Whether the resource `ordinal` is being decoded further up, so that a linkage to it is cut.
  func isActive(_ ordinal: Int32) -> Bool {
    // An Atomic Operations entry's index may have numbered a resource the resolver has not met.
    Int(ordinal) < states.count && states[Int(ordinal)].position >= 0
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
    try decoder.with(DecodingNode(index: object, role: role)) {
      try T(from: decoder)
    }
  }
}
