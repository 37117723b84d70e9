import Foundation
import Testing

@testable import JSONAPICodable

@Suite("Encoding paths in errors")
struct EncodingPathTests {
  @Test("the one rendering: keys, members and indices; never empty")
  func rendering() {
    #expect(EncodingPath.topLevel.text == EncodingPath.topLevelText)
    #expect(!EncodingPath.topLevel.text.isEmpty)
    let path = EncodingPath.topLevel.appending(index: 0).appending("comments")
      .appending(AnyCodingKey(index: 1)).appending(AnyCodingKey("author"))
    #expect(path.text == "[0].comments[1].author")
    #expect(EncodingPath.topLevel.appending("errors").appending(index: 2).text == "errors[2]")
    #expect(path.codingPath.map(\.stringValue) == ["Index 0", "comments", "Index 1", "author"])
    #expect(EncodingPath(path.steps).text == path.text)
  }

  /// Arrays nested by `nestedUnkeyedContainer()` alone: no value passes through `encode`, so only
  /// the writer sees how deep they go.
  struct NestedContainers: Encodable {
    let depth: Int
    func encode(to encoder: any Encoder) throws {
      var container = encoder.unkeyedContainer()
      for _ in 0..<depth { container = container.nestedUnkeyedContainer() }
    }
  }

  struct Holder: Encodable {
    var id = "1"
    var type = "holders"
    var nested: NestedContainers
  }

  @Test("the writer reports the limit the user set and where, not an empty path")
  func writerDepth() throws {
    let encoder = JSONAPIEncoder()
    encoder.limits.maxNestingDepth = 10
    #expect {
      try encoder.encode(Holder(nested: NestedContainers(depth: 40)))
    } throws: { error in
      guard case JSONAPIError.encodingNestingTooDeep(let limit, let codingPath) = error else {
        return false
      }
      return limit == 10 && codingPath.hasPrefix("data.attributes.nested[0][0]")
    }
    #expect(try encoder.encode(Holder(nested: NestedContainers(depth: 5))).count > 0)
  }

  @Test("a depth error at the top level names the top level")
  func topLevelDepth() throws {
    let encoder = JSONAPIEncoder()
    encoder.limits.maxNestingDepth = 0
    #expect(
      throws: JSONAPIError.encodingNestingTooDeep(
        limit: 0, codingPath: EncodingPath.topLevelText)
    ) {
      try encoder.encode(Person(id: "1"))
    }
  }

  @Test("identifier errors name the member: [index].member, or the member at the top level")
  func identifierMemberPaths() throws {
    struct BadLid: Encodable {
      var type = "things"
      var lid = 5
    }
    #expect {
      try JSONAPIEncoder().encode([BadLid()])
    } throws: { error in
      guard case JSONAPIError.invalidValue(_, let codingPath) = error else { return false }
      return codingPath == "[0].lid"
    }
    struct NullType: Encodable {
      enum CodingKeys: String, CodingKey { case id, type }
      var id = "1"
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeNil(forKey: .type)
      }
    }
    #expect(
      throws: JSONAPIError.missingResourceType(
        swiftType: "NullType", codingPath: EncodingPath.topLevelText)
    ) {
      try JSONAPIEncoder().encode(NullType())
    }
  }

  @Test("a related resource's identifier is checked like a primary one's")
  func relatedIdentifierChecked() throws {
    struct Odd: Encodable {
      var id = "1"
      var type = "odd"
      var lid = 5
    }
    struct Holder: Encodable {
      var id = "1"
      var type = "holders"
      var odd = Odd()
    }
    // With a `lid` that is not a string it is no resource: an attribute, kept whole.
    let document = try encodeDocument(Holder(), name: "related-bad-lid")
    #expect(document["data"]?["attributes"]?["odd"] == ["id": "1", "type": "odd", "lid": 5])
  }

  @Test("resource paths render as encoding paths: members and elements, under their parents")
  func resourcePaths() {
    let paths = ResourcePaths()
    #expect(paths.path(ResourcePaths.topLevel).text == EncodingPath.topLevelText)
    let first = ResourcePaths.primary(3)
    #expect(paths.path(first).text == "[3]")
    let owners = paths.appending("owners", to: first)
    let friend = paths.row(.element(0, of: paths.appending("friends", to: first)))
    #expect(paths.path(paths.row(.element(2, of: owners))).text == "[3].owners[2]")
    #expect(paths.path(paths.appending("pets", to: friend)).text == "[3].friends[0].pets")
    #expect(paths.path(.member("data", of: ResourcePaths.topLevel)).text == "data")
    #expect(paths.path(.element(1, of: owners)).text == "[3].owners[1]")
    #expect(paths.path(paths.appending("next", to: ResourcePaths.primary(0))).text == "[0].next")
  }

  /// A chain of related resources, `depth` long, whose last has a relationship whose data is
  /// not resources.
  final class Link: Encodable {
    let id: String
    var type = "links"
    let next: Link?
    let bad: JSONAPIRelationship<[Int]>?

    init(id: String, depth: Int) {
      self.id = id
      next = depth > 0 ? Link(id: "\(id).\(depth)", depth: depth - 1) : nil
      bad = depth > 0 ? nil : JSONAPIRelationship(data: [7])
    }
  }

  @Test("an error deep in a chain of related resources names every step to it")
  func deepRelatedPath() throws {
    let links = [Link(id: "a", depth: 1), Link(id: "b", depth: 4)]
    #expect {
      try JSONAPIEncoder().encode(links)
    } throws: { error in
      guard case JSONAPIError.invalidValue(_, let path) = error else { return false }
      // The first chain's error comes first: it is met first, breadth first.
      return path == "[0].next.bad.data[0]"
    }
    #expect {
      try JSONAPIEncoder().encode([links[1]])
    } throws: { error in
      guard case JSONAPIError.invalidValue(_, let path) = error else { return false }
      return path == "[0].next.next.next.next.bad.data[0]"
    }
  }
}
