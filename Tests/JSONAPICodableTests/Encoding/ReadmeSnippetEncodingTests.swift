import Foundation
import Testing

@testable import JSONAPICodable

/// The code of the README section "Encoding rules" (and of the former "Create and update
/// bodies"), compiled and asserted.
@Suite("README encoding snippets")
struct ReadmeSnippetEncodingTests {
  struct Person: Codable, JSONAPIRelationshipExpressible {
    var id: String
    var type = "people"
    var name: String?
  }

  struct Article: Codable {
    var id: String?
    var type = "articles"
    var title: String
    var author: Person?
  }

  @Test("a create request")
  func createRequest() throws {
    let article = Article(id: nil, title: "Hello", author: Person(id: "9", name: "Dan"))
    let body = try JSONAPIEncoder().encodeRequestBody(article)  // no `included`, no "Dan"
    #expect(
      try checked(body, name: "readme-create", kind: .create) == [
        "data": [
          "type": "articles", "attributes": ["title": "Hello"],
          "relationships": ["author": ["data": ["type": "people", "id": "9"]]],
        ]
      ])
  }

  struct ArticleUpdate: Encodable {
    var id: String
    var type = "articles"
    var title: String?
    var editor: JSONAPIRelationship<Person?>?
  }

  @Test("an update that clears a relationship")
  func updateClearingRelationship() throws {
    let patch = try JSONAPIEncoder().encode(
      ArticleUpdate(id: "1", title: "New title", editor: JSONAPIRelationship(data: nil)))
    #expect(
      text(patch)
        == #"{"data":{"type":"articles","id":"1","attributes":{"title":"New title"},"#
        + #""relationships":{"editor":{"data":null}}}}"#)
    _ = try checked(patch, name: "readme-update", kind: .update)
  }

  struct Comment: Codable {
    var id: String
    var type = "comments"
    var body: String
    var author: Person
  }

  struct Post: Codable {
    var id: String
    var type = "posts"
    var title: String
    var author: Person
    var comments: [Comment]
  }

  @Test("a server response with included resources")
  func responseWithIncluded() throws {
    let dan = Person(id: "9", name: "Dan")
    let post = Post(
      id: "1", title: "JSON:API", author: dan,
      comments: [
        Comment(id: "5", body: "First!", author: Person(id: "2", name: "Bo")),
        Comment(id: "6", body: "Agreed", author: dan),
      ])
    let response = try JSONAPIEncoder().encode(
      JSONAPIDocument(
        data: post, meta: ["copyright": "2024"] as JSONAPIValue, links: ["self": "/posts/1"]))
    let document = try checked(response, name: "readme-response", kind: .response)
    #expect(
      document["data"]?["relationships"] == [
        "author": ["data": ["type": "people", "id": "9"]],
        "comments": ["data": [["type": "comments", "id": "5"], ["type": "comments", "id": "6"]]],
      ])
    let included = (document["included"]?.arrayValue ?? []).map {
      "\($0["type"]?.stringValue ?? "")/\($0["id"]?.stringValue ?? "")"
    }
    #expect(included == ["people/9", "comments/5", "comments/6", "people/2"])
    #expect(document["meta"] == ["copyright": "2024"])
    #expect(document["links"] == ["self": "/posts/1"])
  }
}
