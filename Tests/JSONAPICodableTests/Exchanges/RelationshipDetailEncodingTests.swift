import Foundation
import Testing

@testable import JSONAPICodable

/// Relationships given by links or meta alone (R26-R29: a relationship object needs one of links,
/// data, meta), and models that declare their type instead of storing it (R12).
@Suite struct RelationshipDetailEncodingTests {
  struct Comment: Codable, Equatable {
    var id: String
    var type = "comments"
    var body: String
  }
  struct Article: Codable, Equatable {
    var id: String
    var type = "articles"
    var title: String
    var comments: JSONAPIRelationship<[Comment]>
    var editor: JSONAPIRelationship<Comment?>?
  }

  @Test func aLinksOnlyRelationshipIsWrittenWithoutData() throws {
    let article = Article(
      id: "1", title: "Paged",
      comments: JSONAPIRelationship(
        links: ["related": "/articles/1/comments"], meta: ["count": 240]),
      editor: JSONAPIRelationship(links: ["related": "/articles/1/editor"]))
    let body = try encodeDocument(article, name: "relationship-links-only")
    #expect(
      body["data"]?["relationships"]
        == [
          "comments": ["links": ["related": "/articles/1/comments"], "meta": ["count": 240]],
          "editor": ["links": ["related": "/articles/1/editor"]],
        ])
    // And back: no data, the same links and meta.
    let decoded = try JSONAPIDecoder().decode(
      Article.self, from: try JSONAPIEncoder().encode(article))
    #expect(decoded == article)
    #expect(decoded.comments.hasData == false && decoded.comments.data.isEmpty)
  }

  struct Person: Codable, Equatable, JSONAPIResource {
    static let jsonAPIType = "people"
    var id: String
    var name: String
  }
  struct Post: Codable, Equatable, JSONAPIResource {
    static let jsonAPIType = "posts"
    var id: String
    var title: String
    var author: Person?
    var coauthors: [Person]
  }

  @Test func aDeclaredTypeIsWrittenWithoutBeingStored() throws {
    let post = Post(
      id: "1", title: "Typed", author: Person(id: "9", name: "Dan"), coauthors: [])
    let body = try encodeDocument(post, name: "declared-type")
    #expect(body["data"]?["type"] == "posts")
    #expect(body["data"]?["relationships"]?["author"] == ["data": ["type": "people", "id": "9"]])
    // An empty array of a declared resource type is still a to-many relationship.
    #expect(body["data"]?["relationships"]?["coauthors"] == ["data": []])
    #expect(body["included"] == [["type": "people", "id": "9", "attributes": ["name": "Dan"]]])
    #expect(try JSONAPIDecoder().decode(Post.self, from: try JSONAPIEncoder().encode(post)) == post)
  }

  @Test func aNilDeclaredResourceIsAnEmptyToOne() throws {
    struct Patch: Encodable, JSONAPIResource {
      static let jsonAPIType = "posts"
      var id: String
      var author: Person??
    }
    let body = try encodeDocument(
      Patch(id: "2", author: .some(nil)), name: "declared-type-null", kind: .update)
    #expect(body["data"]?["relationships"]?["author"] == ["data": nil])
    let absent = try encodeDocument(
      Patch(id: "2", author: nil), name: "declared-type-absent", kind: .update)
    #expect(absent["data"]?["relationships"] == nil)
  }
}

/// Fuzz finding (round trip changed the value): `"comments": {}` decoded as a JSONAPIRelationship
/// with nothing in it, which the encoder cannot write (R26: a relationship object has data, links
/// or meta), so the re-decoded value had no relationship at all.
@Suite struct EmptyRelationshipObjectTests {
  struct Comment: Codable, Equatable {
    var id: String
    var type = "comments"
  }
  struct Article: Codable, Equatable {
    var id: String
    var type = "articles"
    var comments: JSONAPIRelationship<[Comment]>?
  }

  @Test(arguments: [
    #"{}"#, #"{"links": null}"#, #"{"meta": null, "links": null}"#,
  ])
  func aRelationshipObjectWithNothingInItIsAbsent(relationship: String) throws {
    let json = """
      {"data": {"type": "articles", "id": "1", "relationships": {"comments": \(relationship)}}}
      """
    let article = try JSONAPIDecoder().decode(Article.self, from: json)
    #expect(article.comments == nil)
    let again = try JSONAPIDecoder().decode(
      Article.self, from: try JSONAPIEncoder().encode(article))
    #expect(again == article)
  }

  @Test func meaningfulMembersStillMakeARelationship() throws {
    let json = """
      {"data": {"type": "articles", "id": "1", "relationships": {"comments": {"meta": {"count": 0}}}}}
      """
    let article = try JSONAPIDecoder().decode(Article.self, from: json)
    #expect(article.comments?.hasData == false)
    #expect(article.comments?.meta == ["count": 0])
    let again = try JSONAPIDecoder().decode(
      Article.self, from: try JSONAPIEncoder().encode(article))
    #expect(again == article)
  }
}
