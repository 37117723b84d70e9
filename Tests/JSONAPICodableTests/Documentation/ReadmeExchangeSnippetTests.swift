import Foundation
import Testing

@testable import JSONAPICodable

// The snippets of "Relationship endpoints, explicit null and other exchanges", which moved from
// README.md to the DocC article Exchanges.md (JSONAPICodable.docc), compiled and run against
// documents they are meant for. Keep both in step.
@Suite struct ReadmeExchangeSnippetTests {
  @Test func relationshipEndpoints() throws {
    var data = Data(#"{"data": [{"type": "tags", "id": "2"}]}"#.utf8)
    let tags = try JSONAPIDecoder().decode([JSONAPIResourceIdentifier].self, from: data)
    #expect(tags == [JSONAPIResourceIdentifier(type: "tags", id: "2")])
    data = Data(#"{"data": null}"#.utf8)
    let author = try JSONAPIDecoder().decode(JSONAPIResourceIdentifier?.self, from: data)
    #expect(author == nil)

    let add = try JSONAPIEncoder().encode([JSONAPIResourceIdentifier(type: "tags", id: "3")])
    #expect(text(add) == #"{"data":[{"type":"tags","id":"3"}]}"#)
    let clear = try JSONAPIEncoder().encode(JSONAPIResourceIdentifier?.none)
    #expect(text(clear) == #"{"data":null}"#)
  }

  struct ArticlePatch: Codable, Equatable {
    var id: String
    var type = "articles"
    var title: String??
  }

  @Test func explicitNull() throws {
    let body = try JSONAPIEncoder().encode(ArticlePatch(id: "1", title: .some(nil)))
    #expect(text(body) == #"{"data":{"type":"articles","id":"1","attributes":{"title":null}}}"#)
    let patch = try JSONAPIDecoder().decode(ArticlePatch.self, from: body)
    #expect(patch.title == .some(nil))
    let unchanged = try JSONAPIDecoder().decode(
      ArticlePatch.self, from: #"{"data":{"type":"articles","id":"1"}}"#)
    #expect(unchanged.title == nil)
  }

  struct Person: Codable, Equatable, JSONAPIResource {
    static let jsonAPIType = "people"
    var id: String
    var name: String
  }
  struct Comment: Codable, Equatable {
    var id: String
    var type = "comments"
    var body: String
  }

  @Test func declaredTypeAndIncludedByType() throws {
    let encoded = try JSONAPIEncoder().encode(Person(id: "9", name: "Dan"))
    #expect(text(encoded) == #"{"data":{"type":"people","id":"9","attributes":{"name":"Dan"}}}"#)
    let data = Data(
      """
      {"data": [], "included": [
        {"type": "people", "id": "9", "attributes": {"name": "Dan"}},
        {"type": "comments", "id": "5", "attributes": {"body": "First"}}]}
      """.utf8)
    let people = try JSONAPIDecoder().decodeIncluded(Person.self, from: data)
    let comments = try JSONAPIDecoder().decodeIncluded(Comment.self, ofType: "comments", from: data)
    #expect(people == [Person(id: "9", name: "Dan")])
    #expect(comments == [Comment(id: "5", body: "First")])
  }

  struct CountMeta: Decodable {
    var count: Int
  }

  @Test func linksOnlyAndTypedMeta() throws {
    let comments = JSONAPIRelationship<[Comment]>(
      links: ["related": "/articles/1/comments"], meta: ["count": 240])
    let count = try comments.meta?.decode(CountMeta.self).count
    #expect(count == 240)
    #expect(!comments.hasData)
  }

  struct APIError: Decodable {
    var status: String?
    var traceId: String?
  }
  struct Article: Decodable {
    var id: String
  }

  @Test func wholeErrorDocuments() throws {
    let data = Data(
      #"{"errors": [{"status": "503", "traceId": "t-7"}], "meta": {"requestId": "r-1"}}"#.utf8)
    var printed: [String] = []
    do {
      _ = try JSONAPIDecoder().decode(Article.self, from: data)
    } catch JSONAPIError.errorDocument(let document) {
      printed.append(document.meta?["requestId"]?.stringValue ?? "")
      printed.append(document.first?.status ?? "")
      let mine = try JSONAPIDecoder().decodeErrors(APIError.self, from: data)
      printed.append(mine.first?.traceId ?? "")
    }
    #expect(printed == ["r-1", "503", "t-7"])
  }
}
