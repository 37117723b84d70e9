import Foundation
import JSONAPICodable
import JSONAPINetworking
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// The calls issue 13 fixes as a contract, compiled exactly as the issue writes them, then run
// against a stub server. `perform` (atomic operations) is left out until `JSONAPIOperation` and
// `JSONAPIOperationResult` exist; see the marked line.
@Suite struct ContractTests {
  struct Person: Codable, Sendable, Equatable {
    var id: String
    var type = "people"
    var name: String
  }

  struct Article: Codable, Sendable, Equatable {
    var id: String?
    var type = "articles"
    var title: String
    var wordCount: Int?
    var author: Person?
  }

  struct ArticlePatch: Codable, Sendable {
    var id: String
    var type = "articles"
    var title: String
  }

  struct PageMeta: Codable, Sendable, Equatable {
    var total: Int
  }

  static let newArticle = Article(title: "New", wordCount: 3)
  static let patch = ArticlePatch(id: "1", title: "Renamed")

  /// The issue's snippet, word for word. It is compiled,
  /// not run: its client would talk to api.example.com through the default transport.
  // swift-format-ignore
  static func contractAsWritten(newArticle: Article, patch: ArticlePatch) async throws {
    let client = JSONAPIClient(baseURL: URL(string: "https://api.example.com/")!)  // URLSession.shared, default coders
    client.decoder.keyDecodingStrategy = .convertFromKebabCase  // decoder: JSONAPIDecoder, encoder: JSONAPIEncoder
    let page = try await client.get(JSONAPIDocument<[Article], PageMeta>.self, from: "articles", query: JSONAPIQuery().including("author"))
    let one = try await client.get(Article.self, from: "articles/1")
    for try await page in client.pages(of: [Article].self, from: "articles", query: JSONAPIQuery()) { _ = page.data }  // page: JSONAPIDocument<[Article], JSONAPIValue>, follows links.next
    let created: Article = try await client.create(newArticle, at: "articles")  // POST; 201 body decoded; on 204 the sent resource decoded
    let updated: Article? = try await client.update(patch, at: "articles/1")  // PATCH; nil on 204
    try await client.delete("articles/1")
    let tags = try await client.get([JSONAPIResourceIdentifier].self, from: "articles/1/relationships/tags")
    try await client.updateRelationship("articles/1/relationships/author", to: JSONAPIResourceIdentifier?.none)
    try await client.addToRelationship("articles/1/relationships/tags", [JSONAPIResourceIdentifier(type: "tags", id: "3")])
    try await client.removeFromRelationship("articles/1/relationships/tags", [JSONAPIResourceIdentifier(type: "tags", id: "3")])
    let results: [JSONAPIOperationResult] = try await client.perform([JSONAPIOperation.add(newArticle)], at: "operations")   // atomic
    do { _ = try await client.get(Article.self, from: "articles/404") }
    catch let error as JSONAPIResponseError { _ = (error.statusCode, error.errors) }  // errors: [JSONAPIErrorObject]
    _ = (page, one, created, updated, tags, results)
  }

  /// A small server: the answers the contract's calls expect.
  static func server() -> StubTransport {
    StubTransport { request in
      switch (request.httpMethod ?? "", request.target) {
      case ("GET", "/articles?include=author"):
        return try Stub.answer(request, 200, Self.collection)
      case ("GET", "/articles"):
        return try Stub.answer(request, 200, Self.firstPage)
      case ("GET", "/articles?page%5Bnumber%5D=2"):
        return try Stub.answer(request, 200, Self.secondPage)
      case ("GET", "/articles/1"):
        return try Stub.answer(request, 200, Self.single)
      case ("POST", "/articles"):
        return try Stub.answer(request, 201, Self.createdBody)
      case ("PATCH", "/articles/1"), ("DELETE", "/articles/1"):
        return try Stub.answer(request, 204)
      case ("GET", "/articles/1/relationships/tags"):
        return try Stub.answer(
          request, 200, #"{"data":[{"type":"tags","id":"3"},{"type":"tags","id":"4"}]}"#)
      case (_, "/articles/1/relationships/author"), (_, "/articles/1/relationships/tags"):
        return try Stub.answer(request, 204)
      case ("POST", "/operations"):
        return try Stub.answer(request, 200, Self.atomicResults)
      default:
        return try Stub.answer(request, 404, #"{"errors":[{"status":"404","title":"Not Found"}]}"#)
      }
    }
  }

  static let collection = #"""
    {"data":[{"type":"articles","id":"1","attributes":{"title":"One","word-count":10},
      "relationships":{"author":{"data":{"type":"people","id":"9"}}}}],
     "included":[{"type":"people","id":"9","attributes":{"name":"Ada"}}],
     "meta":{"total":1}}
    """#
  static let firstPage = #"""
    {"data":[{"type":"articles","id":"1","attributes":{"title":"One"}}],
     "links":{"next":"articles?page%5Bnumber%5D=2"}}
    """#
  static let secondPage = #"""
    {"data":[{"type":"articles","id":"2","attributes":{"title":"Two"}}],"links":{"next":null}}
    """#
  static let single = #"{"data":{"type":"articles","id":"1","attributes":{"title":"One"}}}"#
  static let createdBody = #"""
    {"data":{"type":"articles","id":"7","attributes":{"title":"New","word-count":3}}}
    """#

  static let atomicResults = #"""
    {"atomic:results":[{"data":{"type":"articles","id":"8","attributes":{"title":"New","word-count":3}}}]}
    """#

  /// The same calls, with the client's transport swapped for the stub, run and checked.
  @Test func contractRunsAgainstAStubServer() async throws {
    let server = Self.server()
    let newArticle = Self.newArticle
    let patch = Self.patch
    let client = JSONAPIClient(baseURL: URL(string: "https://api.example.com/")!, transport: server)
    client.decoder.keyDecodingStrategy = .convertFromKebabCase
    client.encoder.keyEncodingStrategy = .convertToKebabCase
    let page = try await client.get(
      JSONAPIDocument<[Article], PageMeta>.self, from: "articles",
      query: JSONAPIQuery().including("author"))
    #expect(page.data.first?.author?.name == "Ada")
    #expect(page.data.first?.wordCount == 10)
    #expect(page.meta == PageMeta(total: 1))
    let one = try await client.get(Article.self, from: "articles/1")
    #expect(one.title == "One")
    var titles: [String] = []
    for try await page in client.pages(of: [Article].self, from: "articles", query: JSONAPIQuery())
    { titles += page.data.map(\.title) }
    #expect(titles == ["One", "Two"])
    let created: Article = try await client.create(newArticle, at: "articles")
    #expect(created.id == "7" && created.wordCount == 3)
    let updated: Article? = try await client.update(patch, at: "articles/1")
    #expect(updated == nil)
    try await client.delete("articles/1")
    let tags = try await client.get(
      [JSONAPIResourceIdentifier].self, from: "articles/1/relationships/tags")
    #expect(tags.map(\.id) == ["3", "4"])
    try await client.updateRelationship(
      "articles/1/relationships/author", to: JSONAPIResourceIdentifier?.none)
    try await client.addToRelationship(
      "articles/1/relationships/tags", [JSONAPIResourceIdentifier(type: "tags", id: "3")])
    try await client.removeFromRelationship(
      "articles/1/relationships/tags", [JSONAPIResourceIdentifier(type: "tags", id: "3")])
    let results: [JSONAPIOperationResult] = try await client.perform(
      [JSONAPIOperation.add(newArticle)], at: "operations")
    #expect(try results.map { try $0.decode(Article.self).id } == ["8"])
    let atomic = server.requests.first { $0.target == "/operations" }
    #expect(
      atomic?.value(forHTTPHeaderField: "Content-Type")
        == #"application/vnd.api+json;ext="https://jsonapi.org/ext/atomic""#)
    var status = 0
    do { _ = try await client.get(Article.self, from: "articles/404") } catch let error
      as JSONAPIResponseError
    {
      status = error.statusCode
      #expect(error.errors.first?.title == "Not Found")
    }
    #expect(status == 404)

    let sent = server.requests.map { "\($0.httpMethod ?? "") \($0.target) \($0.bodyText ?? "-")" }
    #expect(
      sent == [
        "GET /articles?include=author -",
        "GET /articles/1 -",
        "GET /articles -",
        "GET /articles?page%5Bnumber%5D=2 -",
        #"POST /articles {"data":{"type":"articles","attributes":{"title":"New","word-count":3}}}"#,
        #"PATCH /articles/1 {"data":{"type":"articles","id":"1","attributes":{"title":"Renamed"}}}"#,
        "DELETE /articles/1 -",
        "GET /articles/1/relationships/tags -",
        #"PATCH /articles/1/relationships/author {"data":null}"#,
        #"POST /articles/1/relationships/tags {"data":[{"type":"tags","id":"3"}]}"#,
        #"DELETE /articles/1/relationships/tags {"data":[{"type":"tags","id":"3"}]}"#,
        #"POST /operations {"atomic:operations":[{"op":"add","data":{"type":"articles","attributes":{"title":"New","word-count":3}}}]}"#,
        "GET /articles/404 -",
      ])
  }
}
