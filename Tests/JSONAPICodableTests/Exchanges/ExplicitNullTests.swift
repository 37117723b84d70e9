import Foundation
import Testing

@testable import JSONAPICodable

/// "Leave unchanged" versus "clear" (R80-R82): a `T??` property is `nil` when the member is absent
/// and `.some(nil)` when it is `null`, in both directions.
@Suite struct ExplicitNullTests {
  /// Declared a related resource, so that a `nil` of it (no value to look at) is a relationship.
  struct Person: Codable, Equatable, JSONAPIRelationshipExpressible {
    var id: String
    var type = "people"
  }
  struct ArticlePatch: Codable, Equatable {
    var id: String
    var type = "articles"
    var title: String??
    var subtitle: String??
    var editor: Person??
  }

  @Test func decodingTellsNullFromAbsent() throws {
    let json = """
      {"data": {"type": "articles", "id": "1", "attributes": {"title": null},
        "relationships": {"editor": {"data": null}}}}
      """
    let patch = try JSONAPIDecoder().decode(ArticlePatch.self, from: json)
    #expect(patch.title == .some(nil))
    #expect(patch.subtitle == nil)
    #expect(patch.editor == .some(nil))
  }

  @Test func aValueIsDoublyWrapped() throws {
    let json = """
      {"data": {"type": "articles", "id": "1", "attributes": {"title": "T"},
        "relationships": {"editor": {"data": {"type": "people", "id": "4"}}}}}
      """
    let patch = try JSONAPIDecoder().decode(ArticlePatch.self, from: json)
    #expect(patch.title == .some("T"))
    #expect(patch.editor == .some(Person(id: "4")))
  }

  @Test func encodingWritesNullForSomeNilAndOmitsNil() throws {
    let patch = ArticlePatch(id: "1", title: .some(nil), subtitle: nil, editor: .some(nil))
    let data = try JSONAPIEncoder().encode(patch)
    let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    let resource = try #require(object["data"] as? [String: Any])
    let attributes = try #require(resource["attributes"] as? [String: Any])
    #expect(attributes.keys.sorted() == ["title"])
    #expect(attributes["title"] is NSNull)
    let relationships = try #require(resource["relationships"] as? [String: Any])
    let editor = try #require(relationships["editor"] as? [String: Any])
    #expect(editor["data"] is NSNull)
    // And back: the same three states.
    #expect(try JSONAPIDecoder().decode(ArticlePatch.self, from: data) == patch)
  }

  @Test func plainOptionalsStillReadNullAsNil() throws {
    struct Plain: Decodable {
      var id: String
      var title: String?
    }
    let json = #"{"data": {"type": "a", "id": "1", "attributes": {"title": null}}}"#
    #expect(try JSONAPIDecoder().decode(Plain.self, from: json).title == nil)
  }
}
