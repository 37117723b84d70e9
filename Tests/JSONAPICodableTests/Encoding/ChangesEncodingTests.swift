import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// `JSONAPIEncoder.encode(changesFrom:to:)`: an update (R79) with only the fields whose encoded
/// value differs; removals said as `null` (R80, R120), relationships as linkage (R81, R83, R84).
@Suite struct ChangesEncodingTests {
  struct Location: Codable {
    var city: String
    var street: String
  }

  /// A related person, a relationship by its shape (type and id); not
  /// `JSONAPIRelationshipExpressible`, so an empty array of them is an attribute `[]`.
  struct Writer: Codable {
    var id: String
    var type = "people"
    var name: String?
  }

  struct Label: Codable, JSONAPIRelationshipExpressible {
    var id: String
    var type = "tags"
  }

  /// A model as an app reads and edits it: no `Equatable` anywhere.
  struct Article: Codable {
    var id: String?
    var type = "articles"
    var title: String
    var subtitle: String?
    var wordCount: Int
    var location: Location?
    var keywords: [String]
    var publishedAt: Date?
    var author: Writer?
    var editors: [Writer]?
    var labels: [Label]
    var reviewer: JSONAPIRelationship<Writer?>?
  }

  static let original = Article(
    id: "1", title: "Draft", subtitle: "A subtitle", wordCount: 100,
    location: Location(city: "Lyon", street: "Rue Neuve"), keywords: ["a", "b"],
    publishedAt: Date(timeIntervalSince1970: 0), author: Writer(id: "9", name: "Dan"),
    editors: [Writer(id: "2"), Writer(id: "3")], labels: [Label(id: "7")],
    reviewer: JSONAPIRelationship(data: Writer(id: "4")))

  /// The update document's resource object, after checking that the document is a compliant
  /// update body (the package's server rules, R79), and that it decodes back.
  func changes(
    from old: Article, to new: Article, with encoder: JSONAPIEncoder = JSONAPIEncoder(),
    name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> JSONAPIValue {
    let data = try encoder.encode(changesFrom: old, to: new)
    let document = try checked(
      data, name: "changes-\(name)", kind: .update, sourceLocation: sourceLocation)
    try JSONAPIRequestRules().checkUpdate(data, type: "articles", id: new.id ?? "")
    let decoded = try JSONAPIDecoder().decode(Identified.self, from: data)
    #expect(decoded.id == new.id, sourceLocation: sourceLocation)
    #expect(document["included"] == nil, "never included", sourceLocation: sourceLocation)
    return document["data"] ?? .null
  }

  /// Just enough of a resource to decode any update back.
  struct Identified: Decodable {
    var id: String
    var type: String
  }

  @Test func nothingChangedLeavesTypeAndIDAlone() throws {
    let data = try changes(from: Self.original, to: Self.original, name: "none")
    #expect(data == ["type": "articles", "id": "1"])
    #expect(try JSONAPIEncoder().encodeChangesIfAny(from: Self.original, to: Self.original) == nil)
  }

  @Test func unchangedAttributesAreLeftOutAndAScalarIsSent() throws {
    var edited = Self.original
    edited.title = "Final"
    let data = try changes(from: Self.original, to: edited, name: "scalar")
    #expect(data == ["type": "articles", "id": "1", "attributes": ["title": "Final"]])
    #expect(try JSONAPIEncoder().encodeChangesIfAny(from: Self.original, to: edited) != nil)
  }

  @Test func nestedObjectsAndArraysAreSentWhole() throws {
    var edited = Self.original
    edited.location?.street = "Rue Vieille"
    edited.keywords.append("c")
    let data = try changes(from: Self.original, to: edited, name: "nested")
    #expect(
      data["attributes"]
        == [
          "location": ["city": "Lyon", "street": "Rue Vieille"], "keywords": ["a", "b", "c"],
        ])
    #expect(data["relationships"] == nil)
  }

  @Test func arraysCompareInOrder() throws {
    var edited = Self.original
    edited.keywords = ["b", "a"]
    let data = try changes(from: Self.original, to: edited, name: "reordered")
    #expect(data["attributes"] == ["keywords": ["b", "a"]])
  }

  /// JSON objects are unordered: the same members written in another order are no change.
  @Test func objectMemberOrderIsNoChange() throws {
    struct Flexible: Encodable {
      var id = "1"
      var type = "articles"
      var reversed: Bool
      enum Keys: String, CodingKey { case id, type, settings }
      enum SettingKeys: String, CodingKey { case a, b }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(id, forKey: .id)
        try container.encode(type, forKey: .type)
        var settings = container.nestedContainer(keyedBy: SettingKeys.self, forKey: .settings)
        if reversed {
          try settings.encode(2, forKey: .b)
          try settings.encode(1, forKey: .a)
        } else {
          try settings.encode(1, forKey: .a)
          try settings.encode(2, forKey: .b)
        }
      }
    }
    let encoder = JSONAPIEncoder()
    let data = try encoder.encode(
      changesFrom: Flexible(reversed: false), to: Flexible(reversed: true))
    #expect(text(data) == #"{"data":{"type":"articles","id":"1"}}"#)
    #expect(
      try encoder.encodeChangesIfAny(from: Flexible(reversed: false), to: Flexible(reversed: true))
        == nil)
  }

  @Test func aRemovedOptionalAttributeIsSentAsNull() throws {
    var edited = Self.original
    edited.subtitle = nil
    edited.location = nil
    let data = try changes(from: Self.original, to: edited, name: "removed-attribute")
    #expect(data["attributes"] == ["subtitle": .null, "location": .null])
    // An attribute that was absent and stays absent is not sent.
    var bare = Self.original
    bare.subtitle = nil
    #expect(try changes(from: bare, to: bare, name: "absent") == ["type": "articles", "id": "1"])
  }

  @Test func aNewAttributeIsSent() throws {
    var old = Self.original
    old.subtitle = nil
    let data = try changes(from: old, to: Self.original, name: "added-attribute")
    #expect(data["attributes"] == ["subtitle": "A subtitle"])
  }

  @Test func aChangedToOneRelationshipIsSentAsLinkage() throws {
    var edited = Self.original
    edited.author = Writer(id: "10", name: "Eve")
    let data = try changes(from: Self.original, to: edited, name: "to-one")
    #expect(data["relationships"] == ["author": ["data": ["type": "people", "id": "10"]]])
    #expect(data["attributes"] == nil)
  }

  /// A related resource's own fields are its own: changing them is no change of this resource.
  @Test func fieldsOfARelatedResourceAreNoChange() throws {
    var edited = Self.original
    edited.author?.name = "Daniel"
    let data = try changes(from: Self.original, to: edited, name: "related-fields")
    #expect(data == ["type": "articles", "id": "1"])
  }

  @Test func aClearedToOneRelationshipIsSentAsDataNull() throws {
    var edited = Self.original
    edited.author = nil
    edited.reviewer = JSONAPIRelationship(data: nil)
    let data = try changes(from: Self.original, to: edited, name: "to-one-cleared")
    #expect(data["relationships"] == ["author": ["data": .null], "reviewer": ["data": .null]])
  }

  @Test func aToManyRelationshipIsComparedAndSentAsAWhole() throws {
    var edited = Self.original
    edited.editors?.append(Writer(id: "5"))
    let data = try changes(from: Self.original, to: edited, name: "to-many")
    #expect(
      data["relationships"]
        == [
          "editors": [
            "data": [
              ["type": "people", "id": "2"], ["type": "people", "id": "3"],
              ["type": "people", "id": "5"],
            ]
          ]
        ])
    // The same members in another order: another linkage, sent whole.
    var reordered = Self.original
    reordered.editors?.reverse()
    #expect(
      try changes(from: Self.original, to: reordered, name: "to-many-reordered")["relationships"]?[
        "editors"]?["data"]?[0] == ["type": "people", "id": "3"])
  }

  @Test func anEmptiedToManyRelationshipIsSentAsAnEmptyArray() throws {
    var edited = Self.original
    // `[Writer]` is not JSONAPIRelationshipExpressible: alone, `[]` would be an attribute.
    edited.editors = []
    edited.labels = []
    let data = try changes(from: Self.original, to: edited, name: "to-many-emptied")
    #expect(data["relationships"] == ["editors": ["data": []], "labels": ["data": []]])
    #expect(data["attributes"] == nil)
    // Left out entirely (nil): cleared the same way.
    var removed = Self.original
    removed.editors = nil
    #expect(
      try changes(from: Self.original, to: removed, name: "to-many-removed")["relationships"]
        == ["editors": ["data": []]])
    // Empty before and after: no change.
    #expect(
      try changes(from: edited, to: edited, name: "to-many-empty") == [
        "type": "articles", "id": "1",
      ])
  }

  /// A relationship without `data` says nothing about linkage (R76): never sent, never cleared.
  @Test func aRelationshipWithoutDataIsNeverSent() throws {
    var edited = Self.original
    edited.reviewer = JSONAPIRelationship(links: ["related": "/articles/1/reviewer"])
    let data = try changes(from: Self.original, to: edited, name: "links-only")
    #expect(data == ["type": "articles", "id": "1"])
    // Relationship links that differ while the data is the same are no change either.
    var linked = Self.original
    linked.reviewer = JSONAPIRelationship(
      data: Writer(id: "4"), links: ["related": "/articles/1/reviewer"])
    #expect(
      try changes(from: Self.original, to: linked, name: "links-differ") == [
        "type": "articles", "id": "1",
      ])
  }

  /// A server reads the update into a model of optionals: what was sent, and only that.
  @Test func decodesBackAsAServerReadsAnUpdate() throws {
    struct Patch: Decodable {
      var id: String
      var type: String
      var title: String?
      var wordCount: Int?
      var location: Location?
      var author: JSONAPIResourceIdentifier?
      var editors: [JSONAPIResourceIdentifier]?
      var labels: [JSONAPIResourceIdentifier]?
    }
    var edited = Self.original
    edited.title = "Final"
    edited.location?.city = "Paris"
    edited.author = Writer(id: "10")
    edited.editors = []
    let data = try JSONAPIEncoder().encode(changesFrom: Self.original, to: edited)
    try JSONAPIRequestRules().checkUpdate(data, type: "articles", id: "1")
    let patch = try JSONAPIDecoder().decode(Patch.self, from: data)
    #expect(patch.id == "1" && patch.type == "articles")
    #expect(patch.title == "Final" && patch.wordCount == nil)
    #expect(patch.location?.city == "Paris" && patch.location?.street == "Rue Neuve")
    #expect(patch.author == JSONAPIResourceIdentifier(type: "people", id: "10"))
    #expect(patch.editors == [])
    #expect(patch.labels == nil)
  }

  @Test func keyAndDateStrategiesApply() throws {
    let encoder = JSONAPIEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.dateEncodingStrategy = .iso8601
    var edited = Self.original
    edited.wordCount = 120
    edited.publishedAt = Date(timeIntervalSince1970: 86_400)
    let data = try changes(from: Self.original, to: edited, with: encoder, name: "strategies")
    #expect(
      data["attributes"]
        == ["word_count": 120, "published_at": "1970-01-02T00:00:00Z"])
  }

  @Test func sparseFieldsetsKeepFieldsOut() throws {
    let encoder = JSONAPIEncoder()
    encoder.sparseFieldsets = ["articles": ["title"]]
    var edited = Self.original
    edited.title = "Final"
    edited.wordCount = 1
    edited.author = nil
    let data = try changes(from: Self.original, to: edited, with: encoder, name: "fieldsets")
    #expect(data == ["type": "articles", "id": "1", "attributes": ["title": "Final"]])
  }

  @Test func outputFormattingApplies() throws {
    let encoder = JSONAPIEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var edited = Self.original
    edited.wordCount = 5
    edited.title = "Final"
    let data = try encoder.encode(changesFrom: Self.original, to: edited)
    #expect(
      text(data)
        == #"{"data":{"attributes":{"title":"Final","wordCount":5},"id":"1","type":"articles"}}"#)
  }

  /// The reason and path of the `invalidValue` error `body` throws; `nil` for anything else.
  func invalidValue(_ body: () throws -> Data) -> (reason: String, path: String)? {
    do {
      _ = try body()
    } catch JSONAPIError.invalidValue(let reason, let path) {
      return (reason, path)
    } catch {
      return nil
    }
    return nil
  }

  @Test func anotherIDOrTypeThrows() throws {
    var other = Self.original
    other.id = "2"
    let id = invalidValue { try JSONAPIEncoder().encode(changesFrom: Self.original, to: other) }
    #expect(id?.reason.contains("articles/1") == true && id?.reason.contains("articles/2") == true)
    #expect(id?.path == "id")
    var retyped = Self.original
    retyped.type = "posts"
    let type = invalidValue {
      try JSONAPIEncoder().encode(changesFrom: Self.original, to: retyped)
    }
    #expect(type?.reason.contains("posts/1") == true && type?.path == "type")
  }

  @Test func aNewResourceWithoutIDThrows() throws {
    var unsaved = Self.original
    unsaved.id = nil
    let error = invalidValue { try JSONAPIEncoder().encode(changesFrom: unsaved, to: unsaved) }
    #expect(error?.reason.contains("has none") == true)
    #expect(error?.reason.contains("crud-updating") == true)
  }

  @Test func onlyASingleResourceIsCompared() throws {
    let error = invalidValue {
      try JSONAPIEncoder().encode(changesFrom: [Self.original], to: [Self.original])
    }
    #expect(
      error?.reason.contains("`old`") == true && error?.reason.contains("not an array") == true)
  }

  /// The fields are compared as the JSON they write: numbers by text, strings by bytes.
  @Test func valuesCompareAsJSON() throws {
    func node(_ json: EncodedNode...) -> EncodedNode {
      let array = EncodedArray()
      array.elements = json
      return .array(array)
    }
    #expect(EncodedNode.integer(12).writesSameJSON(as: .number("12")))
    #expect(!EncodedNode.integer(12).writesSameJSON(as: .number("12.5")))
    #expect(EncodedNode.null.writesSameJSON(as: .nullRelated))
    #expect(!EncodedNode.null.writesSameJSON(as: .bool(false)))
    // "é" composed and decomposed: equal Swift strings, different bytes on the wire.
    #expect(!EncodedNode.string("\u{E9}").writesSameJSON(as: .string("e\u{301}")))
    #expect(node(.integer(1), .string("a")).writesSameJSON(as: node(.integer(1), .string("a"))))
    #expect(!node(.integer(1)).writesSameJSON(as: node(.integer(1), .integer(1))))
  }
}
