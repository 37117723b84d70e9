import Foundation
import JSONAPICodable
import Testing

@testable import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// The Swift snippets of the DocC article AtomicOperations.md (JSONAPICodable.docc) and the
// Atomic Operations section of TalkingToAServer.md (JSONAPINetworking.docc), compiled and run
// here. ReadmeSnippetSyncTests (JSONAPICodableTests) checks that every line of both articles has
// its twin in the snippet tests.
@Suite struct AtomicOperationsSnippetTests {
  struct Person: Codable, JSONAPIResource {
    static let jsonAPIType = "people"
    var id: String?
    var lid: String?
    var name: String?
  }

  struct Article: Codable, JSONAPIResource {
    static let jsonAPIType = "articles"
    var id: String?
    var lid: String?
    var title: String?
    var author: Person?
  }

  let operationsURL = Stub.baseURL.appendingPathComponent("operations")

  /// An Atomic Operations server that runs the article's own server loop ("On the server") over
  /// what it receives, with ids from the request's order.
  static func server() -> StubTransport {
    StubTransport { request in
      let body = request.httpBody ?? Data()
      let response = try serve(body)
      return (
        response,
        try Stub.response(
          for: request, status: 200,
          headers: ["Content-Type": JSONAPIMediaType.atomicOperations.headerValue])
      )
    }
  }

  // MARK: Building a request

  @Test func buildingARequest() throws {
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
    let operations = try JSONAPIDecoder().decodeOperations(from: body)
    #expect(operations.map(\.op) == [.add, .add, .update, .remove])
    #expect(try operations[1].decode(Article.self).author?.name == "Dan")
    #expect(
      request.value(forHTTPHeaderField: "Accept")
        == #"application/vnd.api+json;ext="https://jsonapi.org/ext/atomic""#)

    let article = JSONAPIResourceIdentifier(type: "articles", id: "13")
    let relationshipOperations: [JSONAPIOperation] = [
      .updateRelationship(
        "author", of: article, to: JSONAPIResourceIdentifier(type: "people", id: "9")),
      .updateRelationship("editor", of: article, to: nil),  // clears a to-one relationship
      .updateRelationship("tags", of: article, to: []),  // clears a to-many relationship
      .addToRelationship("tags", of: article, [JSONAPIResourceIdentifier(type: "tags", id: "2")]),
      .removeFromRelationship(
        "tags", of: article, [JSONAPIResourceIdentifier(type: "tags", id: "3")]),
    ]
    let written = try JSONAPIEncoder().encode(operations: relationshipOperations)
    let read = try JSONAPIDecoder().decodeOperations(from: written)
    #expect(read.map(\.ref?.relationship) == ["author", "editor", "tags", "tags", "tags"])
    #expect(try read[1].decode(JSONAPIResourceIdentifier?.self) == nil)
  }

  // MARK: Reading the results, and the server

  @Test func readingTheResults() throws {
    let request = try JSONAPIEncoder().encode(operations: [
      .add(Person(lid: "p1", name: "Dan")),
      .add(Article(lid: "a1", title: "Hello", author: Person(lid: "p1"))),
      .update(Article(id: "13", title: "Renamed")),
      .remove(JSONAPIResourceIdentifier(type: "articles", id: "7")),
    ])
    let data = try Self.serve(request)
    let results = try JSONAPIDecoder().decode([JSONAPIOperationResult].self, from: data)
    let person = try results[0].decode(Person.self)
    let created = try results[1].decode(Article.self)  // created.author is results[0]'s person
    let removed = try results[3].decode(Article?.self)  // nil: the result is {}
    let meta = results[2].meta
    #expect(person.name == "Dan" && person.id != nil)
    #expect(created.author?.id == person.id && created.author?.name == "Dan")
    #expect(removed == nil && meta == nil)
  }

  /// The article's server loop, answering `body`.
  static func serve(_ body: Data) throws -> Data {
    var ids = 100
    var assigned: [String: String] = [:]  // lid → id
    var results: [JSONAPIOperationResult] = []
    for operation in try JSONAPIDecoder().decodeOperations(from: body) {
      // The target's type: the ref's, or for an add the type of the resource in data.
      let type = try operation.ref?.type ?? operation.decode(JSONAPIResourceIdentifier?.self)?.type
      switch (operation.op, type, operation.ref?.relationship) {
      case (.add, "people", nil):
        var person = try operation.decode(Person.self)
        ids += 1
        person.id = String(ids)
        if let lid = person.lid { assigned[lid] = person.id }
        person.lid = nil
        results.append(JSONAPIOperationResult(data: person))
      case (.add, "articles", nil):
        var article = try operation.decode(Article.self)  // article.author: the person added before
        article.id = UUID().uuidString
        article.lid = nil
        if let lid = article.author?.lid {
          article.author?.id = assigned[lid]
          article.author?.lid = nil
        }
        results.append(JSONAPIOperationResult(data: article))
      case (.update, "articles", "author"?):
        let author = try operation.decode(JSONAPIResourceIdentifier?.self)  // nil: clear it
        _ = author
        results.append(JSONAPIOperationResult())
      default:
        results.append(JSONAPIOperationResult())
      }
    }
    let response = try JSONAPIEncoder().encode(results: results)
    return response
  }

  @Test func tooManyOperationsIsA413() throws {
    let body = try JSONAPIEncoder().encode(
      operations: (0..<201).map { _ in .remove(JSONAPIResourceIdentifier(type: "a", id: "1")) })
    let decoder = JSONAPIDecoder()
    decoder.limits.maxAtomicOperations = 200  // this server's own bound
    var refused = 0
    do {
      let operations = try decoder.decodeOperations(from: body)
      Issue.record("read \(operations.count) operations")
    } catch {
      let (status, errors) = JSONAPIErrorObject.describing([error])  // 413 for too many operations
      refused = status
      #expect(errors.first?.status == "413")
    }
    #expect(refused == 413)
  }

  // MARK: With JSONAPIClient (AtomicOperations.md, TalkingToAServer.md)

  @Test func performWithTheClient() async throws {
    let client = Stub.client(Self.server())
    let results = try await client.perform(
      [
        .add(Person(lid: "p1", name: "Dan")),
        .add(Article(lid: "a1", title: "Hello", author: Person(lid: "p1"))),
        .remove(JSONAPIResourceIdentifier(type: "articles", id: "7")),
      ],
      at: "operations")
    let dan = try results[0].decode(Person.self)  // the server's id for "p1"
    let hello = try results[1].decode(Article.self)  // hello.author is dan
    #expect(dan.id == "101" && dan.lid == nil)
    #expect(hello.author?.id == "101" && hello.author?.name == "Dan")
    #expect(try results[2].decode(Article?.self) == nil)
  }
}
