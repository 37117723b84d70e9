import Foundation
import JSONAPICodable
import Testing

@testable import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// README.md's client snippets ("Talking to a server", and "Atomic Operations" through the
// client), compiled and run here against a stub server, because `JSONAPIClient` lives in
// JSONAPINetworking. ReadmeSnippetSyncTests (JSONAPICodableTests) checks that every README line
// has its twin here or in the other snippet tests. Keep both in step.
@Suite struct ReadmeRequestSnippetTests {
  struct Person: Codable, Sendable, JSONAPIResource {
    static let jsonAPIType = "people"
    var id: String?
    var lid: String?
    var name: String?
  }

  struct Article: Codable, Sendable, JSONAPIResource {
    static let jsonAPIType = "articles"
    var id: String?
    var lid: String?
    var title: String?
    var author: Person?  // Person: a JSONAPIResource with `id`, `lid` and `name`
  }

  struct PageMeta: Codable, Sendable, Equatable {
    var totalPages: Int
  }

  static let collection = #"""
    {"data":[{"type":"articles","id":"1","attributes":{"title":"One"},
      "relationships":{"author":{"data":{"type":"people","id":"9"}}}}],
     "included":[{"type":"people","id":"9","attributes":{"name":"Ada"}}],
     "meta":{"total-pages":1}}
    """#
  static let firstPage = #"""
    {"data":[{"type":"articles","id":"1","attributes":{"title":"One"}}],
     "meta":{"total-pages":2}, "links":{"next":"articles?page%5Bnumber%5D=2"}}
    """#
  static let secondPage = #"""
    {"data":[{"type":"articles","id":"2","attributes":{"title":"Two"}}],
     "meta":{"total-pages":2}, "links":{"next":null}}
    """#
  static let single = #"{"data":{"type":"articles","id":"1","attributes":{"title":"One"}}}"#
  static let created = #"""
    {"data":{"type":"articles","id":"7","attributes":{"title":"Hello"},
      "relationships":{"author":{"data":{"type":"people","id":"9"}}}}}
    """#
  static let results = #"""
    {"atomic:results":[
      {"data":{"type":"people","id":"12","lid":"p1","attributes":{"name":"Dan"}}},
      {"data":{"type":"articles","id":"13","lid":"a1","attributes":{"title":"Hello"},
        "relationships":{"author":{"data":{"type":"people","id":"12"}}}}},
      {}]}
    """#

  /// The answers the README's calls expect; anything else is a 404 error document.
  static func server() -> StubTransport {
    StubTransport { request in
      switch (request.httpMethod ?? "", request.target) {
      case ("GET", "/articles/1"):
        return try Stub.answer(request, 200, Self.single)
      case ("GET", "/articles?include=author&sort=-published-at"):
        return try Stub.answer(request, 200, Self.collection)
      case ("GET", "/articles"):
        return try Stub.answer(request, 200, Self.firstPage)
      case ("GET", "/articles?page%5Bnumber%5D=2"):
        return try Stub.answer(request, 200, Self.secondPage)
      case ("POST", "/articles"):
        return try Stub.answer(request, 201, Self.created)
      case ("PATCH", "/articles/1"), ("DELETE", "/articles/1"),
        ("POST", "/articles/1/relationships/tags"):
        return try Stub.answer(request, 204)
      case ("POST", "/operations"):
        return try Stub.answer(request, 200, Self.results)
      default:
        return try Stub.answer(request, 404, #"{"errors":[{"status":"404","title":"Not Found"}]}"#)
      }
    }
  }

  /// The README's client, given the stub's transport with the same base URL and decoder
  /// settings (the README's own would send its requests to api.example.com).
  static func stubbed(_ client: JSONAPIClient, _ server: StubTransport) -> JSONAPIClient {
    let stubbed = JSONAPIClient(
      baseURL: client.baseURL, configuration: client.configuration, transport: server)
    stubbed.decoder.keyDecodingStrategy = client.decoder.keyDecodingStrategy
    return stubbed
  }

  /// The README's calls after the client is made, in its order; returns what they printed.
  static func session(_ client: JSONAPIClient) async throws -> [String] {
    var printed: [String] = []
    func show(_ articles: [Article], total: Int?) {
      printed.append("\(articles.compactMap(\.title)) of \(total ?? 0)")
    }
    func print(_ values: Any...) { printed.append(values.map { "\($0)" }.joined(separator: " ")) }
    let newArticle = Article(title: "Hello", author: Person(id: "9", name: "Dan"))
    let patch = Article(id: "1", title: "Renamed")

    let one = try await client.get(Article.self, from: "articles/1")
    let page = try await client.get(
      JSONAPIDocument<[Article], PageMeta>.self, from: "articles",
      query: JSONAPIQuery().including("author").sorted(by: .descending("published-at")))
    for try await page in client.pages(of: [Article].self, meta: PageMeta.self, from: "articles") {
      show(page.data, total: page.meta?.totalPages)
    }

    let created: Article = try await client.create(newArticle, at: "articles")
    let updated: Article? = try await client.update(patch, at: "articles/1")  // nil on 204
    try await client.delete("articles/1")
    let tag = JSONAPIResourceIdentifier(type: "tags", id: "3")
    try await client.addToRelationship("articles/1/relationships/tags", [tag])

    do {
      _ = try await client.get(Article.self, from: "articles/404")
    } catch let error as JSONAPIResponseError {
      print(error.statusCode, error.errors)  // [JSONAPIErrorObject]; an HTML 502 keeps its body
    }

    #expect(one.title == "One")
    #expect(page.data.first?.author?.name == "Ada")
    #expect(page.meta == PageMeta(totalPages: 1))
    #expect(created.id == "7")
    #expect(created.author?.id == "9")
    #expect(updated == nil)
    return printed
  }

  @Test func talkingToAServer() async throws {
    let client = JSONAPIClient(baseURL: URL(string: "https://api.example.com/")!)
    client.decoder.keyDecodingStrategy = .convertFromKebabCase
    // The README: URLSession on Apple platforms, libcurl driven directly on Linux.
    #if os(Linux)
      #expect(client.transport is LibcurlTransport)
    #else
      #expect(client.transport is URLSessionTransport)
    #endif

    let server = Self.server()
    let printed = try await Self.session(Self.stubbed(client, server))
    #expect(printed.count == 3)
    #expect(printed.prefix(2) == [#"["One"] of 2"#, #"["Two"] of 2"#])
    #expect(printed.last?.hasPrefix("404 ") == true)

    let sent = server.requests.map { "\($0.httpMethod ?? "") \($0.target)" }
    #expect(
      sent == [
        "GET /articles/1",
        "GET /articles?include=author&sort=-published-at",
        "GET /articles",
        "GET /articles?page%5Bnumber%5D=2",
        "POST /articles",
        "PATCH /articles/1",
        "DELETE /articles/1",
        "POST /articles/1/relationships/tags",
        "GET /articles/404",
      ])
    // The README says the client's request bodies carry relationships as identifiers only.
    let create = server.requests.first { $0.httpMethod == "POST" && $0.target == "/articles" }
    #expect(
      create?.bodyText
        == #"{"data":{"type":"articles","attributes":{"title":"Hello"},"#
        + #""relationships":{"author":{"data":{"type":"people","id":"9"}}}}}"#)
  }

  @Test func atomicOperationsThroughTheClient() async throws {
    let server = Self.server()
    let client = Stub.client(server)
    let operations: [JSONAPIOperation] = [
      .add(Person(lid: "p1", name: "Dan")),
      .add(Article(lid: "a1", title: "Hello", author: Person(lid: "p1"))),
      .remove(JSONAPIResourceIdentifier(type: "articles", id: "7")),
    ]
    let results = try await client.perform(operations, at: "operations")
    let created = try results[1].decode(Article.self)  // created.author is the person of results[0]
    #expect(created.id == "13")
    #expect(created.author?.name == "Dan")

    let sent = try #require(server.requests.first?.bodyText)
    #expect(
      sent
        == #"{"atomic:operations":[{"op":"add","data":{"type":"people","lid":"p1","attributes":{"name":"Dan"}}},"#
        + #"{"op":"add","data":{"type":"articles","lid":"a1","attributes":{"title":"Hello"},"#
        + #""relationships":{"author":{"data":{"type":"people","lid":"p1"}}}}},"#
        + #"{"op":"remove","ref":{"type":"articles","id":"7"}}]}"#)
    #expect(
      server.requests.first?.value(forHTTPHeaderField: "Content-Type")
        == #"application/vnd.api+json;ext="https://jsonapi.org/ext/atomic""#)
  }

  // MARK: Query parameters and headers (moved from the README to DocC: EncodingRequests.md)

  @Test func queryAndRequest() throws {
    let articlesURL = try #require(URL(string: "https://api.example.com/articles"))
    let query = JSONAPIQuery()
      .including("author", "comments.author")
      .fields("articles", ["title", "author"])
      .sorted(by: .descending("publishedAt"))
      .page(number: 2, size: 20)
      .filter("tag", "swift")
    let request = URLRequest(jsonAPI: articlesURL, query: query)  // nil only for a malformed URL
    #expect(
      request?.url?.absoluteString
        == "https://api.example.com/articles?include=author,comments.author"
        + "&fields%5Barticles%5D=title,author&sort=-publishedAt&page%5Bnumber%5D=2"
        + "&page%5Bsize%5D=20&filter%5Btag%5D=swift")
    #expect(request?.httpMethod == "GET")
    #expect(request?.value(forHTTPHeaderField: "Accept") == "application/vnd.api+json")
  }
}
