import Foundation
import JSONAPICodable
import Testing

@testable import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// The Swift snippets of the DocC article WritingChanges.md (JSONAPICodable.docc) and of the
// README's graph and changes block ("Talking to a server"), compiled and run here against a stub
// server. ReadmeSnippetSyncTests (JSONAPICodableTests) checks that every line of both has its
// twin in the snippet tests, and that the article's JSON block is what the encoder writes.
@Suite struct WritingChangesSnippetTests {
  struct Person: Codable, JSONAPIResource {
    static let jsonAPIType = "people"
    var id: String?
    var lid: String?
    var name: String?
  }

  struct Blog: Codable, JSONAPIResource {
    static let jsonAPIType = "blogs"
    var id: String?
    var lid: String?
    var name: String?
  }

  struct Entry: Codable, JSONAPIResource {
    static let jsonAPIType = "entries"
    var id: String?
    var lid: String?
    var headline: String?
    var blog: Blog?
    var authors: [Person]?
  }

  struct Article: Codable {
    var id: String
    var type = "articles"
    var title: String
    var subtitle: String?
    var body: String
  }

  /// Graph creates as GraphCreateClientTests' server answers them (ids from 101 on, in operation
  /// order); `GET /articles/1` and `PATCH /articles/1` (`204`).
  static func server() -> StubTransport {
    let operations = GraphCreateClientTests.server()
    return StubTransport { request in
      switch (request.httpMethod ?? "", request.target) {
      case ("POST", "/operations"):
        return try await operations.send(request, maxResponseBytes: 1 << 20)
      case ("GET", "/articles/1"):
        return try Stub.answer(
          request, 200,
          #"{"data":{"type":"articles","id":"1","attributes":{"title":"Draft","body":"Text"}}}"#)
      case ("PATCH", "/articles/1"):
        return try Stub.answer(request, 204)
      default:
        return try Stub.answer(request, 404, #"{"errors":[{"status":"404"}]}"#)
      }
    }
  }

  // MARK: WritingChanges.md

  @Test func creatingAGraph() async throws {
    let draft = Entry(
      headline: "Graphs", blog: Blog(name: "Swift notes"),
      authors: [Person(name: "Dan"), Person(name: "Eve")])
    let body = try JSONAPIEncoder().encode(graph: draft)
    // The article's JSON block, line breaks removed, is these bytes.
    #expect(
      String(decoding: body, as: UTF8.self)
        == (try DocCArticle.jsonBlock(of: "WritingChanges.md").joined()))

    let server = Self.server()
    let client = Stub.client(server)
    var printed: [String] = []
    func print(_ values: Any?...) {
      printed.append(values.map { "\($0 ?? "nil")" }.joined(separator: " "))
    }

    let created: Entry = try await client.create(graph: draft, at: "operations")
    print(created.id, created.blog?.id, created.authors?.map(\.id))  // the server's ids

    #expect(printed == [#"104 101 [Optional("102"), Optional("103")]"#])
    #expect(server.requests.first?.httpBody == body)
  }

  @Test func updatingOnlyWhatChanged() async throws {
    let article = Article(id: "1", title: "Draft", subtitle: "A first try", body: "Text")
    var edited = article
    edited.title = "Final"
    edited.subtitle = nil
    let patch = try JSONAPIEncoder().encode(changesFrom: article, to: edited)
    // {"data":{"type":"articles","id":"1","attributes":{"title":"Final","subtitle":null}}}
    #expect(
      String(decoding: patch, as: UTF8.self)
        == #"{"data":{"type":"articles","id":"1","attributes":{"title":"Final","subtitle":null}}}"#
    )

    let server = Self.server()
    let client = Stub.client(server)
    let updated: Article? = try await client.update(from: article, to: edited, at: "articles/1")
    let current = updated ?? edited  // nil: nothing changed, or the server took the fields as sent
    #expect(updated == nil)
    #expect(current.title == "Final")
    #expect(server.requests.count == 1)
    #expect(server.requests.first?.httpBody == patch)

    // Nothing changed: no request.
    let unchanged: Article? = try await client.update(from: article, to: article, at: "articles/1")
    #expect(unchanged == nil)
    #expect(server.requests.count == 1)
  }

  // MARK: README, "Talking to a server"

  @Test func readmeGraphAndChanges() async throws {
    let server = Self.server()
    let client = Stub.client(server)
    let one = try await client.get(Article.self, from: "articles/1")

    let draft = Entry(
      headline: "Graphs", blog: Blog(name: "Swift notes"),
      authors: [Person(name: "Dan"), Person(name: "Eve")])
    let entry: Entry = try await client.create(graph: draft, at: "operations")  // the server's ids

    var edited = one
    edited.title = "Final"
    // PATCH {"data":{"type":"articles","id":"1","attributes":{"title":"Final"}}}; nothing if unchanged
    let saved: Article? = try await client.update(from: one, to: edited, at: "articles/1")

    #expect(entry.id == "104" && entry.blog?.id == "101")
    #expect(saved == nil)
    let patch = try #require(server.requests.last)
    #expect(patch.httpMethod == "PATCH")
    #expect(
      patch.bodyText == #"{"data":{"type":"articles","id":"1","attributes":{"title":"Final"}}}"#)
  }
}
