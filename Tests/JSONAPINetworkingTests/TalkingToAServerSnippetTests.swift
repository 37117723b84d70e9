import Foundation
import JSONAPICodable
import Testing

@testable import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// The Swift snippets of the DocC article TalkingToAServer.md (JSONAPINetworking.docc), compiled
// and run here against one stub server. ReadmeSnippetSyncTests (JSONAPICodableTests) checks that
// every line of the article has its twin in the snippet tests.
@Suite struct TalkingToAServerSnippetTests {
  typealias Person = AtomicOperationsSnippetTests.Person

  struct Article: Codable, Sendable, JSONAPIResource {
    static let jsonAPIType = "articles"
    var id: String?
    var lid: String?
    var title: String?
    var author: Person?
  }

  struct PageMeta: Codable, Sendable {
    var total: Int?
  }

  struct Entry: Codable, JSONAPIResource {
    static let jsonAPIType = "entries"
    var id: String?
    var headline: String?
    var author: Person?
  }

  /// Hands out bearer tokens, as an app's token store would.
  actor Tokens {
    private var issued = 0
    func fresh() throws -> String {
      issued += 1
      return "token-\(issued)"
    }
  }

  static let apiURL = URL(string: "https://api.example.com/v1/") ?? Stub.baseURL

  /// The article's server: `articles/1`, a collection of one page, writes, relationships,
  /// operations (as GraphCreateClientTests' server runs them: ids from 101 on), a 404, and a
  /// create answered `201` with a body the model cannot read.
  static func server(unreadableCreates: Bool = false) -> StubTransport {
    let one = #"{"type":"articles","id":"1","attributes":{"title":"One"}}"#
    let operations = GraphCreateClientTests.server()
    return StubTransport { request in
      let method = request.httpMethod ?? "GET"
      let path = request.url?.path ?? ""
      switch (method, path) {
      case ("GET", "/v1/articles/1"), ("PATCH", "/v1/articles/1"):
        return try Stub.answer(request, 200, #"{"data":\#(one)}"#)
      case ("GET", "/v1/articles"):
        return try Stub.answer(request, 200, #"{"data":[\#(one)],"meta":{"total":1}}"#)
      case ("GET", "/v1/articles/26"):
        return try Stub.answer(request, 200, #"{"data":{"type":"articles","id":"26"}}"#)
      case ("GET", "/v1/articles/1/relationships/tags"):
        return try Stub.answer(request, 200, #"{"data":[{"type":"tags","id":"2"}]}"#)
      case ("POST", "/v1/articles"):
        let created =
          unreadableCreates
          ? #"{"data":{"type":"articles","id":"26","attributes":{"title":7}}}"#
          : #"{"data":{"type":"articles","id":"26","attributes":{"title":"New"}}}"#
        var headers = Stub.jsonAPI
        headers["Location"] = "https://api.example.com/v1/articles/26"
        return (Data(created.utf8), try Stub.response(for: request, status: 201, headers: headers))
      case ("POST", "/v1/operations"):
        return try await operations.send(request, maxResponseBytes: 1 << 20)
      case ("DELETE", _), (_, "/v1/articles/1/relationships/author"),
        (_, "/v1/articles/1/relationships/tags"):
        return try Stub.answer(request, 204)
      default:
        return try Stub.answer(request, 404, #"{"errors":[{"status":"404"}]}"#)
      }
    }
  }

  let transport = Self.server()
  var client: JSONAPIClient { JSONAPIClient(baseURL: Self.apiURL, transport: transport) }
  let newArticle = Article(title: "New")
  let patch = Article(id: "1", title: "Renamed")
  var shown: [Article] = []
  mutating func show(_ articles: [Article]) { shown += articles }

  @Test func configuringTheClient() {
    // swift-format-ignore: NeverForceUnwrap
    let client = JSONAPIClient(baseURL: URL(string: "https://api.example.com/v1/")!)
    client.decoder.keyDecodingStrategy = .convertFromKebabCase
    client.encoder.keyEncodingStrategy = .convertToKebabCase
    #expect(client.baseURL.absoluteString == "https://api.example.com/v1/")
  }

  @Test mutating func versionsCachingAndRetries() async throws {
    let versioned = VersionedServer(articles: ["1": "One", "2": "Two"])
    let client = JSONAPIClient(baseURL: Self.apiURL, transport: versioned.transport)
    let read = try await client.getResponse(Article.self, from: "articles/1")
    versioned.setTitle("1", "Theirs")  // another user saves first
    var edited = read.value
    edited.title = "New title"
    do {
      let _: Article? = try await client.update(from: read, to: edited, at: "articles/1")
    } catch let error as JSONAPIResponseError where error.isPreconditionFailed {
      // Someone else changed it since `read`: read it again and show the user what it is now.
      let current = try await client.getResponse(Article.self, from: "articles/1")
      show([current.value])
    }
    #expect(shown.map(\.title) == ["Theirs"])
    #expect(versioned.title("1") == "Theirs")

    let doomed = try await client.getResponse(Article.self, from: "articles/2")
    try await client.delete("articles/2", ifMatch: doomed.etag)
    #expect(versioned.title("2") == nil)
    #expect(versioned.requests.last?.value(forHTTPHeaderField: "If-Match") == #""v1""#)

    let apiURL = Self.apiURL
    var configuration = JSONAPIClient.Configuration()
    configuration.cache = JSONAPIResponseCache(maxEntries: 200, maxBytes: 4 * 1024 * 1024)
    configuration.retryPolicy = .standard
    // The article's client uses the default transport; this one the stub server.
    let cachingClient = JSONAPIClient(baseURL: apiURL, configuration: configuration)
      .routed(to: versioned.transport)
    _ = try await cachingClient.getResponse(Article.self, from: "articles/1")
    let again = try await cachingClient.getResponse(Article.self, from: "articles/1")
    let notModified = again.isFromCache  // true when the server answered 304
    #expect(notModified && again.value.title == "Theirs")
  }

  @Test mutating func reading() async throws {
    let one = try await client.get(Article.self, from: "articles/1")
    let page = try await client.get(
      JSONAPIDocument<[Article], PageMeta>.self, from: "articles",
      query: JSONAPIQuery().including("author").fields("articles", ["title", "author"])
        .sorted(by: .descending("published-at")).filter("tag", "swift"))
    let tags = try await client.get(
      [JSONAPIResourceIdentifier].self, from: "articles/1/relationships/tags")
    #expect(one.title == "One" && page.meta?.total == 1 && tags.map(\.id) == ["2"])
    #expect(transport.requests[1].url?.query?.contains("sort=-published-at") == true)

    for try await page in client.pages(of: [Article].self, from: "articles") {
      show(page.data)
    }
    for try await page in client.pages(
      of: [Article].self, from: "articles", query: JSONAPIQuery().page(number: 1, size: 25))
    {
      show(page.data)
    }
    // One page each: the second's one article is shorter than the 25 asked.
    #expect(shown.map(\.id) == ["1", "1"])

    let query = try JSONAPIQuery(parsingTarget: "/articles?page%5Bsize%5D=2&include=author")
    #expect(query.page["size"] == "2" && query.include == ["author"])
  }

  @Test func writing() async throws {
    let created: Article = try await client.create(newArticle, at: "articles")
    // nil: applied as sent
    let updated: Article? = try await client.update(patch, at: "articles/1")
    try await client.delete("articles/1")
    #expect(created.id == "26" && updated?.title == "One")

    try await client.update(patch, at: "articles/1")
    let withAuthor: Article? = try await client.update(
      patch, at: "articles/1", query: JSONAPIQuery().including("author"))
    #expect(withAuthor?.id == "1")
    #expect(transport.requests.last?.url?.query == "include=author")

    let response: JSONAPIResponse<Article> = try await client.create(newArticle, at: "articles")
    #expect(response.location?.absoluteString == "https://api.example.com/v1/articles/26")

    try await client.updateRelationship(
      "articles/1/relationships/author", to: JSONAPIResourceIdentifier?.none)
    try await client.addToRelationship(
      "articles/1/relationships/tags", [JSONAPIResourceIdentifier(type: "tags", id: "3")])
    try await client.removeFromRelationship(
      "articles/1/relationships/tags", [JSONAPIResourceIdentifier(type: "tags", id: "3")])
    #expect(transport.requests.suffix(3).map(\.httpMethod) == ["PATCH", "POST", "DELETE"])
  }

  @Test func graphsChangesAndOperations() async throws {
    let draft = Entry(headline: "Graphs", author: Person(name: "Dan"))
    let article = try await client.get(Article.self, from: "articles/1")
    var edited = article
    edited.title = "Edited"
    let entry: Entry = try await client.create(graph: draft, at: "operations")
    let updated: Article? = try await client.update(from: article, to: edited, at: "articles/1")
    #expect(entry.headline == "Graphs" && updated?.id == "1")

    let results = try await client.perform(
      [
        .add(Person(lid: "p1", name: "Dan")),
        .add(Article(lid: "a1", title: "Hello", author: Person(lid: "p1"))),
        .remove(JSONAPIResourceIdentifier(type: "articles", id: "7")),
      ],
      at: "operations")
    let dan = try results[0].decode(Person.self)  // the server's id for "p1"
    let hello = try results[1].decode(Article.self)  // hello.author is dan
    #expect(hello.author?.id == dan.id && dan.id != nil)
  }

  @Test func headersAndTokens() async throws {
    let tokens = Tokens()
    let apiURL = Self.apiURL
    let configuration = JSONAPIClient.Configuration(prepareRequest: { request in
      request.setValue("Bearer \(try await tokens.fresh())", forHTTPHeaderField: "Authorization")
    })
    let client = JSONAPIClient(baseURL: apiURL, configuration: configuration)
    #expect(client.configuration.prepareRequest != nil)
    let stubbed = JSONAPIClient(baseURL: apiURL, configuration: configuration, transport: transport)
    _ = try await stubbed.get(Article.self, from: "articles/1")
    #expect(transport.requests.last?.value(forHTTPHeaderField: "Authorization") == "Bearer token-1")
  }

  @Test mutating func errors() async throws {
    var status = 0
    do {
      _ = try await client.get(Article.self, from: "articles/404")
    } catch let error as JSONAPIResponseError {
      status = error.statusCode
      switch error.statusCode {
      case 422:
        for object in error.errors { print(object.source?.pointer ?? "", object.detail ?? "") }
      case 429, 503: try await Task.sleep(for: error.retryAfter?.delay() ?? .seconds(1))
      default: print(error)
      }
    }
    #expect(status == 404)

    let client = JSONAPIClient(
      baseURL: Self.apiURL, transport: Self.server(unreadableCreates: true))
    var reason: (any Error)?
    do {
      let created: Article = try await client.create(newArticle, at: "articles")
      show([created])
    } catch let error as JSONAPIUnreadableSuccessError {
      print(error.statusCode, error.underlyingError)  // 201, the DecodingError
      reason = error.underlyingError
      if let location = error.location {
        show([try await client.get(Article.self, from: location)])
      }
    }
    #expect(reason is DecodingError)
    #expect(shown.map(\.id) == ["26"])
  }

  @Test func otherStacks() async throws {
    struct Canned: JSONAPITransport {
      func send(_ request: URLRequest, maxResponseBytes: Int) async throws -> (
        Data, HTTPURLResponse
      ) {
        guard let url = request.url,
          let response = HTTPURLResponse(
            url: url, statusCode: 204, httpVersion: nil, headerFields: nil)
        else { throw URLError(.badURL) }
        return (Data(), response)
      }
    }
    let apiURL = Self.apiURL
    let client = JSONAPIClient(baseURL: apiURL, transport: Canned())
    try await client.delete("articles/1")
    let error = await #expect(throws: JSONAPIClientError.self) {
      _ = try await client.get(Article.self, from: "articles/1")
    }
    #expect(error == .missingDocument(statusCode: 204))
  }
}

extension JSONAPIClient {
  /// The same client sending through `transport`: for snippets that build a client the way an
  /// app does, with the default transport.
  fileprivate func routed(to transport: any JSONAPITransport) -> JSONAPIClient {
    JSONAPIClient(
      baseURL: baseURL, configuration: configuration, transport: transport, decoder: decoder,
      encoder: encoder)
  }
}
