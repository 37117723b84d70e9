import Foundation
import Testing

@testable import JSONAPICodable

/// Builds node documents: resources of type "nodes" with ids "0", "1", … .
enum NodeDocuments {
  /// One node resource; `children` and `parent` are ids of other nodes.
  static func node(_ id: Int, children: [Int]? = nil, parent: Int? = nil) -> String {
    var relationships: [String] = []
    if let children {
      let linkage = children.map { #"{"type":"nodes","id":"\#($0)"}"# }.joined(separator: ",")
      relationships.append(#""children":{"data":[\#(linkage)]}"#)
    }
    if let parent { relationships.append(#""parent":{"data":{"type":"nodes","id":"\#(parent)"}}"#) }
    return #"{"type":"nodes","id":"\#(id)","attributes":{"name":"n\#(id)"},"#
      + #""relationships":{\#(relationships.joined(separator: ","))}}"#
  }

  /// A document whose primary data is `nodes[0]` and whose `included` holds the others.
  static func document(_ nodes: [String]) -> String {
    #"{"data":\#(nodes[0]),"included":[\#(nodes.dropFirst().joined(separator: ","))]}"#
  }

  /// Node i names node i+1 as its only child: a chain `count` resources long.
  static func chain(_ count: Int) -> String {
    document((0..<count).map { node($0, children: $0 + 1 < count ? [$0 + 1] : []) })
  }

  /// Node i names node i+1 twice: walked as a tree the document expands to 2^depth resources.
  static func expansionBomb(depth: Int) -> String {
    document((0...depth).map { node($0, children: $0 < depth ? [$0 + 1, $0 + 1] : []) })
  }

  /// Every node names every other as a child: every path is a different chain of ancestors, so
  /// values depend on where they were reached and memoising cannot collapse them.
  static func completeGraph(_ count: Int) -> String {
    document((0..<count).map { id in node(id, children: (0..<count).filter { $0 != id }) })
  }
}

@Suite struct LimitTests {
  // MARK: Defaults

  @Test func decoderDefaultsAreTheDocumentedOnes() {
    let limits = JSONAPIDecoder().limits
    #expect(limits.maxNestingDepth == 512)
    #expect(limits.maxRelationshipDepth == 64)
    #expect(limits.maxResolvedResources == nil)  // automatic: 8 per JSON value, at least 100,000
    #expect(JSONAPIDecoder.Limits.automaticResourceBudget(valueCount: 10) == 100_000)
    #expect(JSONAPIDecoder.Limits.automaticResourceBudget(valueCount: 1_000_000) == 8_000_000)
    #expect(JSONAPIDecoder.Limits.automaticResourceBudget(valueCount: .max) == .max)
    #expect(limits == JSONAPIDecoder.Limits())
  }

  @Test func encoderDefaultIsTheDocumentedOne() {
    #expect(JSONAPIEncoder().limits.maxNestingDepth == 512)
    #expect(JSONAPIEncoder().limits == JSONAPIEncoder.Limits())
  }

  @Test func limitsAreSettable() {
    let decoder = JSONAPIDecoder()
    decoder.limits = .init(maxNestingDepth: 3, maxRelationshipDepth: 4, maxResolvedResources: 5)
    #expect(
      decoder.limits == .init(maxNestingDepth: 3, maxRelationshipDepth: 4, maxResolvedResources: 5))
    let encoder = JSONAPIEncoder()
    encoder.limits.maxNestingDepth = 7
    #expect(encoder.limits.maxNestingDepth == 7)
  }

  // MARK: JSON nesting depth

  /// `{"meta":{"v":[[…]]}}` with `arrays` brackets: the JSON nests `arrays + 2` deep.
  private func nestedMeta(arrays: Int) -> [UInt8] {
    Array(
      (#"{"meta":{"v":"# + String(repeating: "[", count: arrays)
        + String(repeating: "]", count: arrays)
        + "}}").utf8)
  }

  @Test func nestingAtTheDefaultLimitDecodes() throws {
    let document = try JSONAPIDecoder().decode(
      JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self, from: nestedMeta(arrays: 510))
    var value = document.meta?["v"]
    var depth = 0
    while let inner = value?[0] {
      value = inner
      depth += 1
    }
    #expect(depth == 509)
  }

  @Test func nestingOneBeyondTheDefaultLimitThrows() throws {
    let bytes = nestedMeta(arrays: 511)
    let error =
      thrownError {
        try JSONAPIDecoder().decode(JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self, from: bytes)
      } as? JSONAPIError
    guard case .nestingTooDeep(let limit, let location) = error else {
      Issue.record("expected nestingTooDeep, got \(String(describing: error))")
      return
    }
    #expect(limit == 512)
    // The 513th opening bracket: 13 bytes of prefix, then 510 brackets before it.
    #expect(location.offset == 13 + 510)
    #expect(location.line == 1 && location.column == location.offset + 1)
  }

  @Test func aLoweredNestingLimitApplies() throws {
    let decoder = JSONAPIDecoder()
    decoder.limits.maxNestingDepth = 5
    _ = try decoder.decode(
      JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self, from: nestedMeta(arrays: 3))
    #expect(
      throws: JSONAPIError.nestingTooDeep(
        limit: 5, location: .init(offset: 16, line: 1, column: 17))
    ) {
      try decoder.decode(
        JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self, from: self.nestedMeta(arrays: 4))
    }
  }

  @Test func a100000DeepDocumentThrowsInsteadOfOverflowingTheStack() {
    let error =
      thrownError {
        try JSONAPIDecoder().decode(
          JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self, from: self.nestedMeta(arrays: 100_000))
      } as? JSONAPIError
    #expect(error?.caseName == "nestingTooDeep")
  }

  @Test func deepObjectsCountLikeDeepArrays() {
    let text =
      #"{"meta":"# + String(repeating: #"{"a":"#, count: 1000) + "1"
      + String(repeating: "}", count: 1001)
    #expect(throws: JSONAPIError.self) {
      try JSONAPIDecoder().decode(JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self, from: text)
    }
  }

  // MARK: Relationship depth

  /// Follows `children[0]` from `node` and counts how many fully decoded nodes there are.
  private func chainLength(_ node: TreeNode) -> Int {
    var length = 1
    var current = node
    while let next = current.children?.first {
      length += 1
      current = next
    }
    return length
  }

  @Test func aChainWithinTheDefaultRelationshipDepthDecodes() throws {
    let root = try JSONAPIDecoder().decode(TreeNode.self, from: NodeDocuments.chain(60))
    #expect(chainLength(root) == 60)
    #expect(root.name == "n0")
  }

  @Test func aChainBeyondTheDefaultRelationshipDepthThrows() throws {
    let error =
      thrownError {
        try JSONAPIDecoder().decode(TreeNode.self, from: NodeDocuments.chain(100))
      } as? JSONAPIError
    guard case .relationshipDepthExceeded(let limit, let pointer) = error else {
      Issue.record("expected relationshipDepthExceeded, got \(String(describing: error))")
      return
    }
    #expect(limit == 64)
    #expect(pointer.hasPrefix("/included/"), "points at the resource: \(pointer)")
  }

  @Test func aRaisedRelationshipDepthDecodesALongerChain() throws {
    let decoder = JSONAPIDecoder()
    decoder.limits.maxRelationshipDepth = 300
    let root = try decoder.decode(TreeNode.self, from: NodeDocuments.chain(250))
    #expect(chainLength(root) == 250)
  }

  @Test func aLoweredRelationshipDepthApplies() throws {
    let decoder = JSONAPIDecoder()
    decoder.limits.maxRelationshipDepth = 3
    #expect(chainLength(try decoder.decode(TreeNode.self, from: NodeDocuments.chain(3))) == 3)
    let error =
      thrownError {
        try decoder.decode(TreeNode.self, from: NodeDocuments.chain(10))
      } as? JSONAPIError
    #expect(error?.caseName == "relationshipDepthExceeded")
    if case .relationshipDepthExceeded(let limit, _) = error { #expect(limit == 3) }
  }

  // MARK: Resource budget

  @Test(.timeLimit(.minutes(1)))
  func the2To40ExpansionBombFinishesFast() throws {
    let text = NodeDocuments.expansionBomb(depth: 40)
    let clock = ContinuousClock()
    let start = clock.now
    let root = try JSONAPIDecoder().decode(TreeNode.self, from: text)
    let elapsed = clock.now - start
    #expect(elapsed < .seconds(5), "took \(elapsed)")
    // Walk one path; both children of every node are the same resource, fully decoded.
    var current = root
    for depth in 0..<40 {
      #expect(current.name == "n\(depth)")
      guard let children = current.children, children.count == 2 else {
        Issue.record("node \(depth) has children \(String(describing: current.children))")
        return
      }
      #expect(children[0].id == children[1].id && children[1].name == "n\(depth + 1)")
      current = children[1]
    }
    #expect(current.id == "40" && current.children?.isEmpty == true)
  }

  @Test func aCyclicBombStopsAtALoweredBudget() throws {
    let decoder = JSONAPIDecoder()
    decoder.limits.maxResolvedResources = 2_000
    let clock = ContinuousClock()
    let start = clock.now
    #expect(throws: JSONAPIError.resourceBudgetExceeded(limit: 2_000)) {
      try decoder.decode(TreeNode.self, from: NodeDocuments.completeGraph(12))
    }
    #expect(clock.now - start < .seconds(5))
  }

  @Test(.timeLimit(.minutes(1)))
  func aCyclicBombStopsAtTheDefaultBudget() throws {
    // 2.7 KB of JSON: the automatic budget is its floor, 100,000 resource decodes.
    #expect(throws: JSONAPIError.resourceBudgetExceeded(limit: 100_000)) {
      try JSONAPIDecoder().decode(TreeNode.self, from: NodeDocuments.completeGraph(12))
    }
  }

  @Test func aSmallCompleteGraphFitsTheDefaultBudget() throws {
    // 5 nodes: 1 + 4 + 4·3 + 4·3·2 + 4·3·2·1 = 65 resources when nothing can be reused.
    let root = try JSONAPIDecoder().decode(TreeNode.self, from: NodeDocuments.completeGraph(5))
    #expect(root.children?.map(\.id) == ["1", "2", "3", "4"])
    #expect(root.children?.first?.children?.map(\.id) == ["0", "2", "3", "4"])
    // Node 0 met again below itself is its identifier only.
    let backReference = root.children?.first?.children?.first
    #expect(
      backReference?.id == "0" && backReference?.name == nil && backReference?.children == nil)
  }

  // MARK: Cycles (R42)

  @Test func aCycleDecodesAsAnIdentifier() throws {
    let text = NodeDocuments.document([
      NodeDocuments.node(1, children: [2]), NodeDocuments.node(2, parent: 1),
    ])
    let root = try JSONAPIDecoder().decode(TreeNode.self, from: text)
    let child = try #require(root.children?.first)
    #expect(child.id == "2" && child.name == "n2")
    let parent = try #require(child.parent)
    #expect(parent.id == "1" && parent.type == "nodes")
    #expect(parent.name == nil && parent.children == nil && parent.parent == nil)
  }

  @Test func aSelfReferenceDecodesAsAnIdentifier() throws {
    let text = NodeDocuments.document([NodeDocuments.node(7, children: [7], parent: 7)])
    let node = try JSONAPIDecoder().decode(TreeNode.self, from: text)
    #expect(node.name == "n7")
    #expect(node.children?.map(\.id) == ["7"] && node.children?.first?.name == nil)
    #expect(node.parent?.id == "7" && node.parent?.name == nil)
  }

  @Test func includedMayPointBackAtPrimaryData() throws {
    // Two primary nodes, each the other's parent through included: both decode in full at the top.
    let text =
      #"{"data":[\#(NodeDocuments.node(1, children: [3])),\#(NodeDocuments.node(2))],"#
      + #""included":[\#(NodeDocuments.node(3, parent: 2))]}"#
    let nodes = try JSONAPIDecoder().decode([TreeNode].self, from: text)
    #expect(nodes.map(\.name) == ["n1", "n2"])
    #expect(nodes[0].children?.first?.parent?.name == "n2")
  }

  @Test func aReusedResourceStillCutsACycleThroughItsNewAncestor() throws {
    // Primary A and B both have child C; C's parent is B. Decoding A reaches C → B (in full,
    // since B is not above it there). Decoding B then reaches C again, and C's parent B is now
    // being decoded above it, so it must be the identifier alone: a value of C remembered from
    // A's subtree does not fit here (decoder-semantics: "Cycles").
    let text =
      #"{"data":[\#(NodeDocuments.node(1, children: [3])),"#
      + #"\#(NodeDocuments.node(2, children: [3]))],"#
      + #""included":[\#(NodeDocuments.node(3, parent: 2))]}"#
    let nodes = try JSONAPIDecoder().decode([TreeNode].self, from: text)
    let throughA = try #require(nodes.first?.children?.first?.parent)
    #expect(throughA.id == "2" && throughA.name == "n2")
    let throughB = try #require(nodes.last?.children?.first?.parent)
    #expect(throughB.id == "2")
    #expect(throughB.name == nil && throughB.children == nil, "got \(throughB)")
  }

  // MARK: Encoder nesting depth

  /// An array nested `depth` deep around an integer.
  private func nestedValue(_ depth: Int) -> JSONAPIValue {
    var value: JSONAPIValue = 1
    for _ in 0..<depth { value = .array([value]) }
    return value
  }

  private struct Holder: Codable, Equatable {
    var id = "1"
    var type = "holders"
    var payload: JSONAPIValue
  }

  @Test func encodingWithinTheLimitRoundTrips() throws {
    let holder = Holder(payload: nestedValue(100))
    let data = try JSONAPIEncoder().encode(holder)
    #expect(try JSONAPIDecoder().decode(Holder.self, from: data) == holder)
  }

  @Test func encodingDeeperThanTheDefaultLimitThrows() throws {
    let error =
      thrownError {
        try JSONAPIEncoder().encode(Holder(payload: self.nestedValue(600)))
      } as? JSONAPIError
    guard case .encodingNestingTooDeep(let limit, let codingPath) = error else {
      Issue.record("expected encodingNestingTooDeep, got \(String(describing: error))")
      return
    }
    #expect(limit == 512)
    #expect(codingPath.contains("payload"), "\(codingPath)")
  }

  @Test func encodingAValue10000DeepThrowsInsteadOfOverflowingTheStack() {
    let value = nestedValue(10_000)
    let error =
      thrownError {
        try JSONAPIEncoder().encode(Holder(payload: value))
      } as? JSONAPIError
    #expect(error?.caseName == "encodingNestingTooDeep")
  }

  @Test func aLoweredEncoderLimitApplies() throws {
    let encoder = JSONAPIEncoder()
    encoder.limits.maxNestingDepth = 8
    let error =
      thrownError {
        try encoder.encode(Holder(payload: self.nestedValue(20)))
      } as? JSONAPIError
    if case .encodingNestingTooDeep(let limit, _) = error {
      #expect(limit == 8)
    } else {
      Issue.record("expected encodingNestingTooDeep, got \(String(describing: error))")
    }
    _ = try encoder.encode(Holder(payload: 1))
  }
}
