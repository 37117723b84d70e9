import Foundation
import Testing

@testable import JSONAPICodable

/// Every way a model can read a relationship goes through the resolver (issue 11): `decode(_:forKey:)`,
/// `superDecoder(forKey:)` and `nestedContainer(keyedBy:forKey:)` share its cycle cuts, depth limit
/// and resource budget (digest R38-R42 on compound documents; hostile documents end in bounded work).
@Suite struct RelationshipRouteTests {
  /// What a node decoded to, whatever route read it.
  struct Shape: Equatable, CustomStringConvertible {
    var id: String
    var name: String?
    var left: [Shape]  // zero or one element: a to-one relationship
    var right: [Shape]

    var description: String {
      "\(id)(\(name ?? "-"))[\(left.map(\.description).joined())|\(right.map(\.description).joined())]"
    }
  }

  enum Keys: String, CodingKey { case id, name, left, right }

  /// The ordinary route: `decodeIfPresent(_:forKey:)`.
  struct ViaDecode: Decodable {
    var shape: Shape
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Keys.self)
      shape = Shape(
        id: try container.decode(String.self, forKey: .id),
        name: try container.decodeIfPresent(String.self, forKey: .name),
        left: try container.decodeIfPresent(Indirect<ViaDecode>.self, forKey: .left).map {
          [$0.value.shape]
        } ?? [],
        right: try container.decodeIfPresent(Indirect<ViaDecode>.self, forKey: .right).map {
          [$0.value.shape]
        } ?? [])
    }
  }

  /// `superDecoder(forKey:)`, the usual idiom for polymorphic relationships.
  struct ViaSuperDecoder: Decodable {
    var shape: Shape
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Keys.self)
      func related(_ key: Keys) throws -> [Shape] {
        guard container.contains(key), try !container.decodeNil(forKey: key) else { return [] }
        return [try ViaSuperDecoder(from: container.superDecoder(forKey: key)).shape]
      }
      shape = Shape(
        id: try container.decode(String.self, forKey: .id),
        name: try container.decodeIfPresent(String.self, forKey: .name),
        left: try related(.left), right: try related(.right))
    }
  }

  /// `nestedContainer(keyedBy:forKey:)`, recursing on containers rather than decoders.
  struct ViaNestedContainer: Decodable {
    var shape: Shape
    init(from decoder: any Decoder) throws {
      shape = try Self.read(decoder.container(keyedBy: Keys.self))
    }
    static func read(_ container: KeyedDecodingContainer<Keys>) throws -> Shape {
      func related(_ key: Keys) throws -> [Shape] {
        guard container.contains(key), try !container.decodeNil(forKey: key) else { return [] }
        return [try read(container.nestedContainer(keyedBy: Keys.self, forKey: key))]
      }
      return Shape(
        id: try container.decode(String.self, forKey: .id),
        name: try container.decodeIfPresent(String.self, forKey: .name),
        left: try related(.left), right: try related(.right))
    }
  }

  static func node(_ id: String, left: String? = nil, right: String? = nil) -> String {
    func linkage(_ target: String?) -> String {
      target.map { #"{"data":{"type":"n","id":"\#($0)"}}"# } ?? #"{"data":null}"#
    }
    return
      #"{"type":"n","id":"\#(id)","attributes":{"name":"n\#(id)"},"relationships":{"left":\#(linkage(left)),"right":\#(linkage(right))}}"#
  }

  static func document(_ primary: String, _ included: [String]) -> String {
    #"{"data":\#(primary),"included":[\#(included.joined(separator: ","))]}"#
  }

  /// Cyclic and shared graphs: self-reference, a pair, a triangle, siblings sharing a resource that
  /// points back, a resource that is not included, a cut reached on both sides of a diamond.
  static let cyclicDocuments: [String] = [
    document(node("a", left: "a"), []),
    document(node("a", left: "b", right: "b"), [node("b", left: "a")]),
    document(
      node("a", left: "b"), [node("b", left: "c", right: "a"), node("c", left: "a", right: "b")]),
    document(
      node("a", left: "b", right: "c"),
      [node("b", left: "d"), node("c", left: "d", right: "a"), node("d", left: "b", right: "c")]),
    document(node("a", left: "ghost", right: "b"), [node("b", left: "ghost", right: "a")]),
    document(
      node("a", left: "b", right: "c"),
      [node("b", left: "c", right: "a"), node("c", left: "b", right: "a")]),
  ]

  @Test(arguments: cyclicDocuments)
  func everyRouteGivesTheSameValueOnCyclicDocuments(json: String) throws {
    let decoder = JSONAPIDecoder()
    let expected = try decoder.decode(ViaDecode.self, from: json).shape
    #expect(try decoder.decode(ViaSuperDecoder.self, from: json).shape == expected)
    #expect(try decoder.decode(ViaNestedContainer.self, from: json).shape == expected)
    // And without reuse, which must be invisible.
    var options = DecodingOptions()
    options.memoisesResources = false
    var memos = DecodingTypeMemos()
    let fresh = try Array(json.utf8).withUnsafeBytes {
      try DocumentDecoding.decode(ViaDecode.self, from: $0, options: options, memos: &memos)
    }
    #expect(fresh.shape == expected)
  }

  @Test func aCycleIsCutAtTheIdentifierOnEveryRoute() throws {
    let json = Self.document(Self.node("a", left: "b"), [Self.node("b", left: "a")])
    let viaSuper = try JSONAPIDecoder().decode(ViaSuperDecoder.self, from: json).shape
    // a → b → a: the inner a is its identifier alone (no name, no relationships).
    #expect(viaSuper.left.first?.left.first == Shape(id: "a", name: nil, left: [], right: []))
  }

  /// A model that reads two to-one relationships per level: 2^40 model inits if nothing bounds it.
  static let bomb = CycleAndLimitTests.bomb(depth: 40)

  @Test func fortyDeepBombThroughSuperDecoderStopsAtTheBudget() throws {
    let decoder = JSONAPIDecoder()
    decoder.limits.maxResolvedResources = 10_000
    let error = thrownError { try decoder.decode(ViaSuperDecoder.self, from: Self.bomb) }
    #expect(error as? JSONAPIError == .resourceBudgetExceeded(limit: 10_000))
  }

  @Test func fortyDeepBombThroughNestedContainersStopsAtTheBudget() throws {
    let decoder = JSONAPIDecoder()
    decoder.limits.maxResolvedResources = 10_000
    let error = thrownError { try decoder.decode(ViaNestedContainer.self, from: Self.bomb) }
    #expect(error as? JSONAPIError == .resourceBudgetExceeded(limit: 10_000))
  }

  @Test func fortyDeepBombStopsAtTheAutomaticBudgetToo() throws {
    let started = ContinuousClock.now
    let error = thrownError { try JSONAPIDecoder().decode(ViaSuperDecoder.self, from: Self.bomb) }
    guard case .resourceBudgetExceeded? = error as? JSONAPIError else {
      Issue.record("expected resourceBudgetExceeded, got \(String(describing: error))")
      return
    }
    // Not a speed assertion: a guard that the 2^40 expansion did not run.
    #expect(ContinuousClock.now - started < .seconds(30))
  }

  @Test func theDepthLimitHoldsThroughSuperDecodersAndNamesItsLimit() throws {
    var included: [String] = []
    for level in 1...20 { included.append(Self.node("\(level)", left: "\(level + 1)")) }
    let json = Self.document(Self.node("0", left: "1"), included)
    let decoder = JSONAPIDecoder()
    #expect(throws: Never.self) { try decoder.decode(ViaSuperDecoder.self, from: json) }
    decoder.limits.maxRelationshipDepth = 10
    for error in [
      thrownError { try decoder.decode(ViaSuperDecoder.self, from: json) },
      thrownError { try decoder.decode(ViaNestedContainer.self, from: json) },
      thrownError { try decoder.decode(ViaDecode.self, from: json) },
    ] {
      guard case .relationshipDepthExceeded(let limit, _)? = error as? JSONAPIError else {
        Issue.record("expected relationshipDepthExceeded, got \(String(describing: error))")
        continue
      }
      #expect(limit == 10)
    }
  }
}
