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
}
