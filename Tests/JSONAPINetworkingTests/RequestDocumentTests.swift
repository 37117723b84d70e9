import Foundation
import JSONAPICodable
import Testing

@testable import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// What the client sends: every request body is a request document (R39, R40: a resource object
// whose relationships are resource linkage) with no `included`, whatever the app's encoder says;
// and typed page meta on the way back.
@Suite struct RequestDocumentTests {
  struct Person: Codable, Sendable {
    var id: String
    var type = "people"
    var name: String
    var email: String
  }
  struct Article: Codable, Sendable {
    var id: String?
    var type = "articles"
    var title: String
    var author: Person
  }

  static let dan = Person(id: "9", name: "Dan", email: "dan@private.example")
  static let secret = "dan@private.example"

  /// Answers every request as a server that stored it would, and records what was sent.
  static func server() -> StubTransport {
    StubTransport { request in
      switch (request.httpMethod ?? "", request.target) {
      case ("POST", "/articles"):
        return try Stub.answer(
          request, 201,
          #"{"data":{"type":"articles","id":"1","attributes":{"title":"Hi"},"#
            + #""relationships":{"author":{"data":{"type":"people","id":"9"}}}},"#
            + #""included":[{"type":"people","id":"9","#
            + #""attributes":{"name":"Dan","email":"dan@private.example"}}]}"#)
      case ("POST", "/operations"):
        return try Stub.answer(request, 204)
      default:
        return try Stub.answer(request, 204)
      }
    }
  }

  /// The top-level members of a sent body, and every resource object's relationships.
  static func members(of request: URLRequest) throws -> [String: Any] {
    let body = try #require(request.httpBody)
    return try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
  }

  @Test func noRequestBodyCarriesIncludedWhateverTheEncoderSays() async throws {
    let transport = Self.server()
    let client = Stub.client(transport)
    client.encoder.includesRelatedResources = true  // the app's choice, for its own documents
    let article = Article(id: nil, title: "Hi", author: Self.dan)

    let created: Article = try await client.create(article, at: "articles")
    #expect(created.author.email == Self.secret)  // the answer's included still resolves
    let _: Article? = try await client.update(
      Article(id: "1", title: "New", author: Self.dan), at: "articles/1")
    let identifier = JSONAPIResourceIdentifier(type: "people", id: "9")
    try await client.updateRelationship("articles/1/relationships/author", to: identifier)
    try await client.updateRelationship(
      "articles/1/relationships/author", to: JSONAPIResourceIdentifier?.none)
    try await client.updateRelationship("articles/1/relationships/tags", to: [identifier])
    try await client.addToRelationship("articles/1/relationships/tags", [identifier])
    try await client.removeFromRelationship("articles/1/relationships/tags", [identifier])
    _ = try await client.perform(
      [.add(article), .update(Article(id: "1", title: "New", author: Self.dan))],
      at: "operations")

    let sent = transport.requests
    #expect(sent.count == 8)
    for request in sent {
      let text = try #require(request.bodyText)
      let members = try Self.members(of: request)
      #expect(members["included"] == nil, "\(request.httpMethod ?? "") \(request.target): \(text)")
      #expect(!text.contains(Self.secret), "a related model's field was sent: \(text)")
      #expect(!text.contains("\"Dan\""), "a related model's field was sent: \(text)")
    }
    // The relationship still goes, as linkage (R40).
    let createBody = try Self.members(of: sent[0])
    let data = try #require(createBody["data"] as? [String: Any])
    let relationships = try #require(data["relationships"] as? [String: Any])
    let author = try #require(relationships["author"] as? [String: Any])
    let linkage = try #require(author["data"] as? [String: String])
    #expect(linkage == ["type": "people", "id": "9"])
    // The app's encoder is left as the app set it.
    #expect(client.encoder.includesRelatedResources)
    let own = try client.encoder.encode(article)
    #expect(String(decoding: own, as: UTF8.self).contains("\"included\""))
  }

  @Test func encodeRequestBodyWritesLinkageOnly() throws {
    let encoder = JSONAPIEncoder()
    let body = try encoder.encodeRequestBody(Article(id: nil, title: "Hi", author: Self.dan))
    #expect(
      String(decoding: body, as: UTF8.self)
        == #"{"data":{"type":"articles","attributes":{"title":"Hi"},"#
        + #""relationships":{"author":{"data":{"type":"people","id":"9"}}}}}"#)
  }

  // MARK: Typed page meta

  struct PageMeta: Decodable, Sendable, Equatable {
    var total: Int
  }

  @Test func pagesDecodeTheirMetaAsTheTypeAskedFor() async throws {
    let transport = StubTransport { request in
      switch request.target {
      case "/articles":
        return try Stub.answer(
          request, 200,
          #"{"data":[{"type":"articles","id":"1","attributes":{"title":"A"},"#
            + #""relationships":{"author":{"data":{"type":"people","id":"9"}}}}],"#
            + #""included":[{"type":"people","id":"9","attributes":{"name":"D","email":"e"}}],"#
            + #""meta":{"total":2},"links":{"next":"/articles?page=2"}}"#)
      default:
        return try Stub.answer(request, 200, #"{"data":[],"links":{"next":null}}"#)
      }
    }
    var metas: [PageMeta?] = []
    var titles: [String] = []
    let client = Stub.client(transport)
    for try await page in client.pages(of: [Article].self, meta: PageMeta.self, from: "articles") {
      metas.append(page.meta)
      titles += page.data.map(\.title)
    }
    #expect(metas == [PageMeta(total: 2), nil])
    #expect(titles == ["A"])
    // The untyped spelling still reads the same pages.
    var untyped: [JSONAPIValue?] = []
    for try await page in client.pages(of: [Article].self, from: "articles") {
      untyped.append(page.meta)
    }
    #expect(untyped == [.object(["total": .integer(2)]), nil])
  }

  @Test func metaOfTheWrongShapeEndsThePagesWithADecodingError() async throws {
    let transport = StubTransport { request in
      try Stub.answer(request, 200, #"{"data":[],"meta":{"total":"many"}}"#)
    }
    await #expect(throws: DecodingError.self) {
      for try await _ in Stub.client(transport).pages(
        of: [Article].self, meta: PageMeta.self, from: "articles")
      {}
    }
  }
}
