import Foundation
import Testing

@testable import JSONAPICodable

/// Cycles, memoisation and the resolution limits (R42, issue: hostile documents finish in bounded time).
@Suite struct CycleAndLimitTests {
  struct Person: Decodable, Equatable {
    var id: String
    var name: String?
    var article: Indirect<Article>?
  }
  struct Article: Decodable, Equatable {
    var id: String
    var title: String?
    var author: Indirect<Person>?
  }

  @Test func cyclicIncludeDecodesWithTheBackReferenceAsIdentifier() throws {
    // corpus japx_recursive-sample-cyclic: article 1 → people 42 → article 1.
    let article = try JSONAPIDecoder().decode(
      Article.self, from: Fixture.corpus("japx_recursive-sample-cyclic"))
    #expect(article.title == "JSON API paints my bikeshed!")
    #expect(article.author?.name == "John")
    #expect(article.author?.article == Indirect(Article(id: "1", title: nil, author: nil)))
  }

  @Test func selfReferenceIsCutAtTheIdentifier() throws {
    let json = """
      {"data": {"type": "people", "id": "1", "attributes": {"name": "me"},
        "relationships": {"article": {"data": {"type": "articles", "id": "a"}}}},
       "included": [{"type": "articles", "id": "a",
        "relationships": {"author": {"data": {"type": "people", "id": "1"}}}}]}
      """
    let person = try JSONAPIDecoder().decode(Person.self, from: json)
    #expect(person.article?.author == Indirect(Person(id: "1", name: nil, article: nil)))
  }

  @Test func resultsDoNotDependOnDecodingOrderInACycle() throws {
    // Both articles share author 9, whose `article` points back at article 1. Article 2's author must
    // be fully decoded even though the author was met first inside article 1's cycle.
    let json = """
      {"data": [
        {"type": "articles", "id": "1", "relationships": {"author": {"data": {"type": "people", "id": "9"}}}},
        {"type": "articles", "id": "2", "relationships": {"author": {"data": {"type": "people", "id": "9"}}}}],
       "included": [{"type": "people", "id": "9", "attributes": {"name": "Dan"},
         "relationships": {"article": {"data": {"type": "articles", "id": "1"}}}}]}
      """
    let articles = try JSONAPIDecoder().decode([Article].self, from: json)
    #expect(articles[0].author?.article == Indirect(Article(id: "1", title: nil, author: nil)))
    #expect(articles[1].author?.name == "Dan")
    // Inside article 2 → person 9 → article 1, person 9 is still being decoded: it is cut there.
    #expect(articles[1].author?.article?.id == "1")
    #expect(articles[1].author?.article?.author?.name == nil)
    #expect(articles[1].author?.article?.author?.id == "9")
  }

  struct Node: Decodable, Equatable {
    var id: String
    var left: Indirect<Node>?
    var right: Indirect<Node>?
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      id = try container.decode(String.self, forKey: .id)
      left = try container.decodeIfPresent(Indirect<Node>.self, forKey: .left)
      right = try container.decodeIfPresent(Indirect<Node>.self, forKey: .right)
    }
    enum CodingKeys: String, CodingKey { case id, left, right }
  }

  /// Each resource names the next one twice, `depth` deep: 2^depth paths if expanded naively.
  static func bomb(depth: Int, cycleBack: Bool = false) -> String {
    var included: [String] = []
    for level in 1...depth {
      let next =
        level < depth
        ? #"{"type":"n","id":"\#(level + 1)"}"# : (cycleBack ? #"{"type":"n","id":"0"}"# : "null")
      included.append(
        #"{"type":"n","id":"\#(level)","relationships":{"left":{"data":\#(next)},"right":{"data":\#(next)}}}"#
      )
    }
    let root =
      #"{"type":"n","id":"0","relationships":{"left":{"data":{"type":"n","id":"1"}},"right":{"data":{"type":"n","id":"1"}}}}"#
    return #"{"data":\#(root),"included":[\#(included.joined(separator: ","))]}"#
  }

  @Test func expansionBombFortyDeepDecodesInLinearWork() throws {
    let started = ContinuousClock.now
    let root = try JSONAPIDecoder().decode(Node.self, from: Self.bomb(depth: 40))
    var depth = 0
    var current: Node? = root
    while let node = current {
      depth += 1
      current = node.left?.value
    }
    #expect(depth == 41)
    // Both branches are the same memoised resource (compared by id: a structural == on the
    // shared DAG would itself take 2^40 steps).
    #expect(root.left?.id == "1" && root.right?.id == "1")
    #expect(root.left?.value.left?.id == root.right?.value.right?.id)
    // Not a timing assertion on speed: a guard that the 2^40 expansion did not happen at all.
    #expect(ContinuousClock.now - started < .seconds(30))
  }

  @Test func cyclicBombDecodesInLinearWorkThroughReuse() throws {
    // The deepest resource points back at the root: every level below the root is cut there, so
    // each is remembered with that cut and reused wherever the root is still being decoded.
    let decoder = JSONAPIDecoder()
    decoder.limits.maxResolvedResources = 1_000
    let root = try decoder.decode(Node.self, from: Self.bomb(depth: 40, cycleBack: true))
    var deepest = root
    for _ in 1...40 { deepest = try #require(deepest.right?.value) }
    #expect(deepest.id == "40")
    let cut = try #require(deepest.left?.value)
    #expect(cut.id == "0" && cut.left == nil && cut.right == nil)
  }

  @Test func relationshipDepthLimitNamesTheLimit() throws {
    var included: [String] = []
    for level in 1...20 {
      included.append(
        #"{"type":"n","id":"\#(level)","relationships":{"left":{"data":{"type":"n","id":"\#(level + 1)"}}}}"#
      )
    }
    let json =
      #"{"data":{"type":"n","id":"0","relationships":{"left":{"data":{"type":"n","id":"1"}}}},"included":[\#(included.joined(separator: ","))]}"#
    let decoder = JSONAPIDecoder()
    #expect(throws: Never.self) { try decoder.decode(Node.self, from: json) }
    decoder.limits.maxRelationshipDepth = 10
    let error = thrownError { try decoder.decode(Node.self, from: json) }
    guard case .relationshipDepthExceeded(let limit, let pointer) = error as? JSONAPIError else {
      Issue.record("expected relationshipDepthExceeded, got \(String(describing: error))")
      return
    }
    #expect(limit == 10)
    #expect(pointer.hasPrefix("/included/"))
  }

  @Test func jsonNestingLimitIsEnforcedByTheReader() throws {
    let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    let json = #"{"meta": {"x": \#(deep)}}"#
    let error = thrownError {
      try JSONAPIDecoder().decode(JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self, from: json)
    }
    guard case .nestingTooDeep(let limit, let location) = error as? JSONAPIError else {
      Issue.record("expected nestingTooDeep, got \(String(describing: error))")
      return
    }
    #expect(limit == 512)
    #expect(location.offset == 15 + 510)
    let relaxed = JSONAPIDecoder()
    relaxed.limits.maxNestingDepth = 1000
    #expect(throws: Never.self) {
      try relaxed.decode(JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self, from: json)
    }
  }

  @Test func sharedRelativesAreDecodedOncePerSwiftType() throws {
    // 200 articles, one author: the author decodes on its first and second visit (the memo is filled
    // from the second on), then is reused: 200 + 2 resources, where expanding each would need 400.
    let articles = (0..<200).map {
      #"{"type":"articles","id":"\#($0)","relationships":{"author":{"data":{"type":"people","id":"9"}}}}"#
    }
    let json =
      #"{"data":[\#(articles.joined(separator: ","))],"included":[{"type":"people","id":"9","attributes":{"name":"Dan"}}]}"#
    let decoder = JSONAPIDecoder()
    decoder.limits.maxResolvedResources = 202
    let decoded = try decoder.decode([Article].self, from: json)
    #expect(decoded.count == 200)
    #expect(decoded.allSatisfy { $0.author?.name == "Dan" })
    decoder.limits.maxResolvedResources = 201
    #expect(throws: JSONAPIError.resourceBudgetExceeded(limit: 201)) {
      try decoder.decode([Article].self, from: json)
    }
  }
}

/// Regressions found by the reliability suite.
@Suite struct ResolverRegressionTests {
  struct Node: Decodable, Equatable {
    var id: String
    var name: String?
    var children: [Indirect<Node>]?
    var parent: Indirect<Node>?
  }

  @Test func aRememberedResourceIsNotReusedWhereItWouldContainAnActiveAncestor() throws {
    // A and B both have child C; C's parent is B. Decoding A caches C with B expanded inside it;
    // decoding B must not reuse that: within B, C's parent B is being decoded, so it is cut.
    let json = """
      {"data": [
        {"type": "n", "id": "a", "attributes": {"name": "A"},
         "relationships": {"children": {"data": [{"type": "n", "id": "c"}]}}},
        {"type": "n", "id": "b", "attributes": {"name": "B"},
         "relationships": {"children": {"data": [{"type": "n", "id": "c"}]}}}],
       "included": [{"type": "n", "id": "c", "attributes": {"name": "C"},
         "relationships": {"parent": {"data": {"type": "n", "id": "b"}}}}]}
      """
    let nodes = try JSONAPIDecoder().decode([Node].self, from: json)
    #expect(nodes[0].children?.first?.parent?.name == "B")
    let cInsideB = nodes[1].children?.first
    #expect(cInsideB?.name == "C")
    #expect(cInsideB?.parent?.id == "b")
    #expect(cInsideB?.parent?.name == nil)
  }

  @Test func aCompleteCyclicGraphStopsQuicklyAtTheAutomaticBudget() throws {
    // Every node names all the others: memoisation cannot help, so the budget must stop it, and
    // the automatic budget (8 per JSON value, at least 100,000) does so in well under a second.
    let count = 12
    let resources = (0..<count).map { node in
      let others = (0..<count).filter { $0 != node }.map { #"{"type":"n","id":"\#($0)"}"# }
      return
        #"{"type":"n","id":"\#(node)","relationships":{"children":{"data":[\#(others.joined(separator: ","))]}}}"#
    }
    let json =
      #"{"data":\#(resources[0]),"included":[\#(resources.dropFirst().joined(separator: ","))]}"#
    #expect(throws: JSONAPIError.resourceBudgetExceeded(limit: 100_000)) {
      try JSONAPIDecoder().decode(Node.self, from: json)
    }
  }

  struct Article: Decodable { var id: String }

  @Test func nullPrimaryDataIntoARequiredModelIsValueNotFound() throws {
    let error = thrownError { try JSONAPIDecoder().decode(Article.self, from: #"{"data": null}"#) }
    guard case .valueNotFound(_, let context) = error as? DecodingError else {
      Issue.record("expected valueNotFound, got \(String(describing: error))")
      return
    }
    #expect(context.debugDescription.contains("but found null (at /data)"))
  }
}

/// A model that follows relationships through `superDecoder(forKey:)` goes through the resolver too:
/// its recursion through a cycle ends at the cut, where the identifier has no relationships, exactly
/// as `decode(_:forKey:)` would end (see RelationshipRouteTests).
@Suite struct SuperDecoderRecursionTests {
  struct Loop: Decodable {
    var id: String
    var depth: Int
    enum CodingKeys: String, CodingKey { case id, next }
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      id = try container.decode(String.self, forKey: .id)
      depth = try Loop(from: container.superDecoder(forKey: .next)).depth + 1
    }
  }

  @Test func cyclicRecursionThroughSuperDecoderEndsAtTheCut() throws {
    let json = """
      {"data": {"type": "n", "id": "a", "relationships": {"next": {"data": {"type": "n", "id": "b"}}}},
       "included": [{"type": "n", "id": "b", "relationships": {"next": {"data": {"type": "n", "id": "a"}}}}]}
      """
    let error = thrownError { try JSONAPIDecoder().decode(Loop.self, from: json) }
    guard case .keyNotFound(let key, let context)? = error as? DecodingError else {
      Issue.record("expected keyNotFound at the cut, got \(String(describing: error))")
      return
    }
    #expect(key.stringValue == "next")
    #expect(context.codingPath.map(\.stringValue) == ["next", "next"])
  }
}

/// A resource identifier stands in for a resource that is not included or is cut in a cycle; it is
/// read as an identifier (R34: type, id, lid, meta), never for fields a broken document adds to it.
@Suite struct IdentifierStandInTests {
  struct Node: Codable, Equatable {
    var id: String
    var type = "n"
    var name: String?
    var meta: JSONAPIValue?
    var children: [Indirect<Node>]?
    var parent: Indirect<Node>?
  }

  @Test func fuzzFindingACutIdentifierDoesNotReadAttributesAddedToIt() throws {
    // Fuzzer finding (round trip changed the value): node 3 is primary data; inside its parent's
    // children the linkage to it carried attributes and relationships of its own. Cut there (node 3
    // is being decoded), it was decoded from those members, which the encoder cannot write back.
    let json = """
      {"data": [{"type": "n", "id": "3", "attributes": {"name": "n3"},
         "relationships": {"parent": {"data": {"type": "n", "id": "p"}}}}],
       "included": [{"type": "n", "id": "p", "relationships": {"children": {"data": [
         {"type": "n", "id": "3", "meta": {"m": 1}, "attributes": {"name": "n3"},
          "relationships": {"parent": {"data": {"type": "n", "id": "p"}}}}]}}}]}
      """
    let nodes = try JSONAPIDecoder().decode([Node].self, from: json)
    let cut = try #require(nodes.first?.parent?.children?.first?.value)
    #expect(cut == Node(id: "3", name: nil, meta: ["m": 1], children: nil, parent: nil))
    let again = try JSONAPIDecoder().decode(
      [Node].self, from: try JSONAPIEncoder().encode(nodes))
    #expect(again == nodes)
  }

  @Test func aNotIncludedIdentifierDoesNotReadAttributesAddedToIt() throws {
    let json = """
      {"data": {"type": "n", "id": "1", "relationships": {"parent": {"data":
        {"type": "n", "id": "2", "attributes": {"name": "ghost"}, "links": {"self": "/n/2"}}}}}}
      """
    let node = try JSONAPIDecoder().decode(Node.self, from: json)
    #expect(node.parent?.value == Node(id: "2", name: nil, meta: nil, children: nil, parent: nil))
  }

  @Test func primaryDataWithoutAnIdIsStillAResource() throws {
    // A create body (R80): no id, not in any index, yet its attributes are the point.
    struct New: Decodable, Equatable {
      var id: String?
      var name: String
    }
    let new = try JSONAPIDecoder().decode(
      New.self, from: #"{"data": {"type": "n", "attributes": {"name": "fresh"}}}"#)
    #expect(new == New(id: nil, name: "fresh"))
  }
}
