import Foundation
import Testing

@testable import JSONAPICodable

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// The Atomic Operations snippets, compiled and run against documents they are meant for. The
// README keeps the models (declared as here) and sends the operations through the client (see
// JSONAPINetworkingTests/ReadmeRequestSnippetTests.swift); the encoder-level snippets below moved
// to the DocC article AtomicOperations.md (JSONAPICodable.docc). Keep both in step.
@Suite struct ReadmeAtomicSnippetTests {
  struct Person: Codable, JSONAPIResource {
    static let jsonAPIType = "people"
    var id: String?
    var lid: String?  // a local id: later operations of the request can point at it
    var name: String?
  }

  struct Article: Codable, JSONAPIResource {
    static let jsonAPIType = "articles"
    var id: String?
    var lid: String?
    var title: String?
    var author: Person?
  }

  @Test func operations() throws {
    let operationsURL = try #require(URL(string: "https://api.example.com/operations"))
    let body = try JSONAPIEncoder().encode(operations: [
      .add(Person(lid: "p1", name: "Dan")),
      .add(Article(lid: "a1", title: "Hello", author: Person(lid: "p1"))),
      .update(Article(id: "13", title: "Renamed")),
      .remove(JSONAPIResourceIdentifier(type: "articles", id: "7")),
    ])
    var request = URLRequest(url: operationsURL)
    request.httpMethod = "POST"  // every Atomic Operations request is a POST
    request.httpBody = body
    for header in ["Content-Type", "Accept"] {
      // application/vnd.api+json;ext="https://jsonapi.org/ext/atomic"
      request.setValue(JSONAPIMediaType.atomicOperations.headerValue, forHTTPHeaderField: header)
    }

    #expect(
      text(body)
        == #"{"atomic:operations":[{"op":"add","data":{"type":"people","lid":"p1","attributes":{"name":"Dan"}}},"#
        + #"{"op":"add","data":{"type":"articles","lid":"a1","attributes":{"title":"Hello"},"#
        + #""relationships":{"author":{"data":{"type":"people","lid":"p1"}}}}},"#
        + #"{"op":"update","data":{"type":"articles","id":"13","attributes":{"title":"Renamed"}}},"#
        + #"{"op":"remove","ref":{"type":"articles","id":"7"}}]}"#)
    #expect(
      request.value(forHTTPHeaderField: "Content-Type")
        == #"application/vnd.api+json;ext="https://jsonapi.org/ext/atomic""#)
    #expect(
      request.value(forHTTPHeaderField: "Accept") == JSONAPIMediaType.atomicOperations.headerValue)
    #expect(request.httpMethod == "POST")
  }

  @Test func relationshipOperations() throws {
    let article = JSONAPIResourceIdentifier(type: "articles", id: "13")
    let tag = JSONAPIResourceIdentifier(type: "tags", id: "2")
    let more: [JSONAPIOperation] = [
      .updateRelationship(
        "author", of: article, to: JSONAPIResourceIdentifier(type: "people", id: "9")),
      .updateRelationship("editor", of: article, to: nil),  // clears a to-one relationship
      .addToRelationship("tags", of: article, [tag]),
      .removeFromRelationship("tags", of: article, [tag]),
      .remove(href: "/articles/7"),
    ]
    let body = try JSONAPIEncoder().encode(operations: more)
    #expect(AtomicComplianceChecker.violations(in: body) == [])
    let document = try JSONDecoder().decode(JSONAPIValue.self, from: body)
    #expect(document["atomic:operations"]?[1]?["data"] == .null)
  }

  static let results = """
    {"atomic:results": [
      {"data": {"type": "people", "id": "9", "attributes": {"name": "Dan"}}},
      {"data": {"type": "articles", "id": "1", "attributes": {"title": "Hello"},
                "relationships": {"author": {"data": {"type": "people", "id": "9"}}}}},
      {"data": {"type": "articles", "id": "13", "attributes": {"title": "Renamed"}},
       "meta": {"revision": 4}},
      {}
    ]}
    """

  @Test func results() throws {
    let data = Data(Self.results.utf8)
    let results = try JSONAPIDecoder().decode([JSONAPIOperationResult].self, from: data)
    let person = try results[0].decode(Person.self)
    let created = try results[1].decode(Article.self)  // created.author is the person of results[0]
    let removed = try results[3].decode(Article?.self)  // nil: the result is {}
    #expect(person.name == "Dan")
    #expect(created.author?.name == "Dan")
    #expect(removed == nil)
    #expect(results[2].meta == ["revision": 4])
  }

  // The server snippet of AtomicOperations.md (DocC), once in the README too.
  @Test func server() throws {
    let body = try JSONAPIEncoder().encode(operations: [
      .add(Person(lid: "p1", name: "Dan")),
      .add(Article(lid: "a1", title: "Hello", author: Person(lid: "p1"))),
      .updateRelationship(
        "author", of: JSONAPIResourceIdentifier(type: "articles", lid: "a1"), to: nil),
    ])
    var authors: [String?] = []
    var cleared: [JSONAPIResourceIdentifier?] = []
    var results: [JSONAPIOperationResult] = []
    for operation in try JSONAPIDecoder().decodeOperations(from: body) {
      // The target's type: the ref's, or for an add the type of the resource in data.
      let type = try operation.ref?.type ?? operation.decode(JSONAPIResourceIdentifier?.self)?.type
      switch (operation.op, type, operation.ref?.relationship) {
      case (.add, "articles", nil):
        var article = try operation.decode(Article.self)  // article.author: the person added before
        authors.append(article.author?.name)
        article.id = UUID().uuidString
        article.lid = nil
        results.append(JSONAPIOperationResult(data: article))
      case (.update, "articles", "author"?):
        let author = try operation.decode(JSONAPIResourceIdentifier?.self)  // nil: clear it
        cleared.append(author)
        results.append(JSONAPIOperationResult())
      default:
        results.append(JSONAPIOperationResult())
      }
    }
    let response = try JSONAPIEncoder().encode(results: results)

    #expect(authors == ["Dan"])
    #expect(cleared == [nil])
    #expect(AtomicComplianceChecker.violations(in: response, answering: body) == [])
    let read = try JSONAPIDecoder().decode([JSONAPIOperationResult].self, from: response)
    // The person was not sent back: the author is its linkage alone.
    #expect(try read[1].decode(Article.self).author?.lid == "p1")
    #expect(try read[2].decode(Article?.self) == nil)
  }
}
