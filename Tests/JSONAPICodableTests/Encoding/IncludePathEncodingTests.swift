import Foundation
import Testing

@testable import JSONAPICodable

@Suite("Encoding with requested include paths")
struct IncludePathEncodingTests {
  static let dana = Person(id: "9", name: "Dana")
  static let ann = Person(id: "1", name: "Ann")
  static let article = Article(
    id: "1", title: "Hi", author: dana,
    comments: [
      Comment(id: "c1", body: "First", author: ann),
      Comment(id: "c2", body: "Second", author: dana),
    ])

  func identities(_ document: JSONAPIValue, _ member: String = "included") -> [String] {
    (document[member]?.arrayValue ?? []).map {
      "\($0["type"]?.stringValue ?? "")/\($0["id"]?.stringValue ?? "")"
    }
  }

  func encode<T: Encodable>(_ value: T, including paths: [String], name: String) throws
    -> JSONAPIValue
  {
    try checked(
      JSONAPIEncoder().encode(value, including: paths), name: name, kind: .response,
      answersInclude: true)
  }

  // R67: only the requested path's resources; linkage of every relationship stays complete.
  @Test func includesOnlyTheRequestedRelationship() throws {
    let document = try encode(Self.article, including: ["author"], name: "include-author")
    #expect(identities(document) == ["people/9"])
    #expect(
      document["data"]?["relationships"]?["comments"]
        == ["data": [["type": "comments", "id": "c1"], ["type": "comments", "id": "c2"]]])
  }

  // R38, R67: intermediate resources of a path are included; other relatives are not.
  @Test func includesEveryResourceOnAPath() throws {
    let document = try encode(
      Self.article, including: ["comments.author"], name: "include-comments-author")
    #expect(Set(identities(document)) == ["comments/c1", "comments/c2", "people/1", "people/9"])
    #expect(identities(document).count == 4)
  }

  // R67 (1.1): `include=` asks for nothing, and the response still has `included`.
  @Test func emptyIncludeWritesAnEmptyIncluded() throws {
    let document = try encode(Self.article, including: [], name: "include-nothing")
    #expect(document["included"] == [])
    #expect(
      document["data"]?["relationships"]?["author"] == ["data": ["type": "people", "id": "9"]])
  }

  @Test func unknownPathsIncludeNothing() throws {
    let document = try encode(
      Self.article, including: ["tags", "author.x"], name: "include-unknown")
    #expect(identities(document) == ["people/9"])
  }

  @Test func withoutIncludeTheEncoderKeepsItsBehaviour() throws {
    let encoder = JSONAPIEncoder()
    #expect(try encoder.encode(Self.article, for: JSONAPIQuery()) == encoder.encode(Self.article))
  }

  // R68, R39: the parsed query's fieldsets remove fields, and a removed relationship is not
  // followed even when its path is requested.
  @Test func queryWiresIncludeAndFieldsets() throws {
    let query = try JSONAPIQuery(
      parsing: "include=author,comments&fields%5Barticles%5D=title,author&fields%5Bpeople%5D=")
    let document = try checked(
      JSONAPIEncoder().encode(Self.article, for: query), name: "include-query", kind: .response,
      answersInclude: true)
    #expect(identities(document) == ["people/9"])
    #expect(document["included"]?[0]?["attributes"] == nil)
    #expect(document["data"]?["attributes"] == ["title": "Hi"])
    #expect(document["data"]?["relationships"]?["comments"] == nil)
  }

  // A path through a primary resource goes on from it, but the primary is not repeated (R40).
  @Test func pathsThroughPrimaryResourcesContinue() throws {
    let one = GraphNode(id: "1", label: "one")
    let two = GraphNode(id: "2", label: "two", left: one)
    let three = GraphNode(id: "3", label: "three")
    one.right = [three]
    let document = try encode(
      [one, two], including: ["left.right"], name: "include-through-primary")
    #expect(identities(document) == ["nodes/3"])
  }

  // The property: what is included equals the closure of the requested paths over the graph,
  // once each, for 300 seeded random acyclic graphs and path sets.
  @Test func includedIsTheClosureOfTheRequestedPaths() throws {
    for seed in UInt64(0)..<300 {
      var generator = Generator(seed: seed)
      let count = generator.int(2...7)
      let nodes = (0..<count).map { GraphNode(id: "\($0)", label: "n\($0)") }
      // Edges only from lower to higher numbers: acyclic, so every copy of a node is complete.
      for from in 0..<count {
        for to in (from + 1)..<max(count, from + 1) {
          if generator.bool(0.25), nodes[from].left == nil { nodes[from].left = nodes[to] }
          if generator.bool(0.3) { nodes[from].right.append(nodes[to]) }
        }
      }
      let primary = Array(Set(generator.array(1...3) { $0.int(0...(count - 1)) })).sorted()
      let paths = generator.array(0...4) { generator in
        generator.array(1...3) { $0.pick(["left", "right"]) }.joined(separator: ".")
      }
      let data = try JSONAPIEncoder().encode(primary.map { nodes[$0] }, including: paths)
      let document = try checked(
        data, name: "include-property-\(seed)", kind: .response, answersInclude: true)
      let included = identities(document)
      #expect(Set(included).count == included.count, "seed \(seed): duplicates")
      let expected = Self.closure(from: primary.map { nodes[$0] }, paths: paths)
        .subtracting(primary.map { "nodes/\($0)" })
      #expect(Set(included) == expected, "seed \(seed): paths \(paths)")
    }
  }

  /// The resources reached by following each path from the primary resources.
  static func closure(from primary: [GraphNode], paths: [String]) -> Set<String> {
    var reached: Set<String> = []
    for path in paths {
      var current = primary
      for name in path.split(separator: ".") {
        current = current.flatMap { node in
          name == "left" ? (node.left.map { [$0] } ?? []) : node.right
        }
        for node in current { reached.insert("nodes/\(node.id)") }
      }
    }
    return reached
  }
}

/// A resource of a random graph: a to-one `left`, a to-many `right` and one attribute, so that
/// every copy carries more than its identifier.
final class GraphNode: Encodable, JSONAPIRelationshipExpressible {
  let id: String
  let type = "nodes"
  let label: String
  var left: GraphNode?
  var right: [GraphNode] = []

  init(id: String, label: String, left: GraphNode? = nil) {
    self.id = id
    self.label = label
    self.left = left
  }

  private enum CodingKeys: String, CodingKey { case id, type, label, left, right }
}

extension IncludePathEncodingTests {
  // R67: an encoder that includes nothing by default still answers `include`.
  @Test func includePathsOverrideIncludesRelatedResources() throws {
    let encoder = JSONAPIEncoder()
    encoder.includesRelatedResources = false
    let plain = try checked(encoder.encode(Self.article), name: "include-off", kind: .response)
    #expect(plain["included"] == nil)
    let asked = try checked(
      encoder.encode(Self.article, including: ["author"]), name: "include-off-asked",
      kind: .response, answersInclude: true)
    #expect(identities(asked) == ["people/9"])
  }

  // Hostile paths (deep, repeated, empty names) cost time linear in their length.
  @Test func oddPathsIncludeOnlyWhatExists() throws {
    let paths =
      [String(repeating: "comments.", count: 1000) + "author", "", ".", "author..x"]
      + Array(repeating: "author", count: 1000)
    let document = try checked(
      JSONAPIEncoder().encode(Self.article, including: paths), name: "include-odd",
      kind: .response, answersInclude: true)
    #expect(Set(identities(document)) == ["people/9", "comments/c1", "comments/c2"])
  }
}
