import Foundation
import Testing

@testable import JSONAPICodable

/// `JSONAPIResourceIdentifier` reads linkage (R30-R35) and relationship-endpoint documents (R83-R85).
@Suite struct IdentifierDecodingTests {
  let decoder = JSONAPIDecoder()

  @Test func aToManyRelationshipEndpointDecodesAsIdentifiers() throws {
    let json = """
      {"links": {"self": "/articles/1/relationships/tags"},
       "data": [{"type": "tags", "id": "2"}, {"type": "tags", "id": "3", "meta": {"weight": 5}}]}
      """
    let tags = try decoder.decode([JSONAPIResourceIdentifier].self, from: json)
    #expect(
      tags == [
        JSONAPIResourceIdentifier(type: "tags", id: "2"),
        JSONAPIResourceIdentifier(type: "tags", id: "3", meta: ["weight": 5]),
      ])
  }

  @Test func aToOneRelationshipEndpointDecodesNullAsNil() throws {
    #expect(try decoder.decode(JSONAPIResourceIdentifier?.self, from: #"{"data": null}"#) == nil)
    let author = try decoder.decode(
      JSONAPIResourceIdentifier?.self, from: #"{"data": {"type": "people", "id": "9"}}"#)
    #expect(author == JSONAPIResourceIdentifier(type: "people", id: "9"))
  }

  @Test func anIdentifierPropertyReadsTheLinkageAndItsMetaEvenWhenTheResourceIsIncluded() throws {
    struct Person: Decodable, Equatable {
      var id: String
      var name: String
    }
    struct Article: Decodable {
      var id: String
      var author: JSONAPIResourceIdentifier
      var editor: JSONAPIResourceIdentifier?
      var tags: [JSONAPIResourceIdentifier]
      /// The same relationship read both ways in one model: the resource and its identifier meta.
      var resolvedAuthor: Person
      enum CodingKeys: String, CodingKey { case id, author, editor, tags }
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        author = try container.decode(JSONAPIResourceIdentifier.self, forKey: .author)
        editor = try container.decodeIfPresent(JSONAPIResourceIdentifier.self, forKey: .editor)
        tags = try container.decode([JSONAPIResourceIdentifier].self, forKey: .tags)
        resolvedAuthor = try container.decode(Person.self, forKey: .author)
      }
    }
    let json = """
      {"data": {"type": "articles", "id": "1", "relationships": {
         "author": {"data": {"type": "people", "id": "9", "meta": {"role": "lead"}}},
         "editor": {"data": null},
         "tags": {"data": [{"type": "tags", "lid": "new-1"}]}}},
       "included": [{"type": "people", "id": "9", "attributes": {"name": "Dan"}, "meta": {"resource": true}}]}
      """
    let article = try decoder.decode(Article.self, from: json)
    #expect(
      article.author == JSONAPIResourceIdentifier(type: "people", id: "9", meta: ["role": "lead"]))
    #expect(article.editor == nil)
    #expect(article.tags == [JSONAPIResourceIdentifier(type: "tags", lid: "new-1")])
    #expect(article.resolvedAuthor == Person(id: "9", name: "Dan"))
  }

  @Test func anIdentifierDecodesFromAFullResourceObject() throws {
    let json = #"{"data": {"type": "articles", "id": "1", "attributes": {"title": "t"}}}"#
    #expect(
      try decoder.decode(JSONAPIResourceIdentifier.self, from: json)
        == JSONAPIResourceIdentifier(type: "articles", id: "1"))
  }

  @Test func aRelationshipOfIdentifiersKeepsItsLinks() throws {
    struct Article: Decodable {
      var id: String
      var tags: JSONAPIRelationship<[JSONAPIResourceIdentifier]>
    }
    let json = """
      {"data": {"type": "articles", "id": "1", "relationships": {"tags": {
        "links": {"related": "/articles/1/tags"}, "meta": {"count": 1},
        "data": [{"type": "tags", "id": "2"}]}}}}
      """
    let article = try decoder.decode(Article.self, from: json)
    #expect(article.tags.data == [JSONAPIResourceIdentifier(type: "tags", id: "2")])
    #expect(article.tags.links?.related?.href == "/articles/1/tags")
    struct CountMeta: Decodable, Equatable { var count: Int }
    #expect(try article.tags.meta?.decode(CountMeta.self) == CountMeta(count: 1))
  }
}
