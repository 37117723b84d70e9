import Foundation
import Testing

@testable import JSONAPICodable

@Suite("Encoding depth limit")
struct DepthLimitEncodingTests {
  indirect enum Chain: Encodable {
    case end
    case link(Chain)
  }

  struct Holder: Encodable {
    var id = "1"
    var type = "holders"
    var chain: Chain
  }

  static func chain(depth: Int) -> Chain {
    var chain = Chain.end
    for _ in 0..<depth { chain = .link(chain) }
    return chain
  }

  /// Nested arrays built by recursion over a class, as deep as asked.
  final class NestedArrays: Encodable {
    let depth: Int
    init(depth: Int) { self.depth = depth }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.unkeyedContainer()
      if depth > 0 { try container.encode(NestedArrays(depth: depth - 1)) }
    }
  }

  @Test("a 10,000-deep indirect enum throws encodingNestingTooDeep instead of overflowing")
  func deepEnum() throws {
    #expect {
      try JSONAPIEncoder().encode(Holder(chain: Self.chain(depth: 10_000)))
    } throws: { error in
      guard case JSONAPIError.encodingNestingTooDeep(let limit, let path) = error else {
        return false
      }
      return limit == 512 && path.hasPrefix("chain.link._0.link")
    }
  }

  @Test("10,000 nested arrays throw encodingNestingTooDeep; a lower limit is honoured")
  func deepArrays() throws {
    struct Wrapper: Encodable {
      var id = "1"
      var type = "w"
      var nested: NestedArrays
    }
    #expect(throws: JSONAPIError.self) {
      try JSONAPIEncoder().encode(Wrapper(nested: NestedArrays(depth: 10_000)))
    }
    let encoder = JSONAPIEncoder()
    encoder.limits.maxNestingDepth = 10
    #expect(
      throws: JSONAPIError.encodingNestingTooDeep(
        limit: 10, codingPath: "nested[0][0][0][0][0][0][0][0][0]")
    ) {
      try encoder.encode(Wrapper(nested: NestedArrays(depth: 20)))
    }
    #expect(try encoder.encode(Wrapper(nested: NestedArrays(depth: 5))).count > 0)
  }

  @Test("nesting within the default limit encodes")
  func withinLimit() throws {
    struct Wrapper: Encodable {
      var id = "1"
      var type = "w"
      var nested: NestedArrays
    }
    // Checked at depth 100: parsing deeper documents into JSONAPIValue with JSONDecoder is slow.
    let document = try encodeDocument(
      Wrapper(nested: NestedArrays(depth: 100)), name: "deep-arrays")
    var level = document["data"]?["attributes"]?["nested"]
    var depth = 0
    while let inner = level?[0] {
      level = inner
      depth += 1
    }
    #expect(depth == 100)
    let deep = try JSONAPIEncoder().encode(Wrapper(nested: NestedArrays(depth: 500)))
    #expect(text(deep).contains(String(repeating: "[", count: 501) + "]"))
    #expect(try JSONAPIEncoder().encode(Holder(chain: Self.chain(depth: 200))).count > 3200)
  }
}
