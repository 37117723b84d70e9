import Foundation
import JSONAPICodable
import JSONAPINetworking
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 36, item 4: `query:` on `create`, `update` and `delete` (what the answer includes), and
/// their results left unused without naming a type.
@Suite struct WriteQueryTests {
  struct Person: Codable, Equatable, JSONAPIResource {
    static let jsonAPIType = "people"
    var id: String?
    var name: String?
  }

  struct Article: Codable, Equatable, JSONAPIResource {
    static let jsonAPIType = "articles"
    var id: String?
    var title: String
    var author: Person?
  }

  /// Answers every write with article 1 and its author included.
  static let answer =
    #"{"data":{"type":"articles","id":"1","attributes":{"title":"T"},"#
    + #""relationships":{"author":{"data":{"type":"people","id":"9"}}}},"#
    + #""included":[{"type":"people","id":"9","attributes":{"name":"Dan"}}]}"#

  let transport = StubTransport(status: 200, body: answer, headers: Stub.jsonAPI)
  var client: JSONAPIClient { Stub.client(transport) }
  let include = JSONAPIQuery().including("author").fields("people", ["name"])

  @Test func writesSendTheirQueryAndReadWhatItIncludes() async throws {
    let created: Article = try await client.create(
      Article(title: "T"), at: "articles", query: include)
    let updated: Article? = try await client.update(
      Article(id: "1", title: "T"), at: "articles/1", query: include)
    let response: JSONAPIResponse<Article> = try await client.create(
      Article(title: "T"), at: "articles", query: include)
    let changed: Article? = try await client.update(
      from: Article(id: "1", title: "Old"), to: Article(id: "1", title: "T"), at: "articles/1",
      query: include)
    try await client.delete("articles/1", query: JSONAPIQuery().adding("reason", "spam"))
    #expect(created.author?.name == "Dan" && updated?.author?.name == "Dan")
    #expect(response.value.author?.name == "Dan" && changed?.author?.name == "Dan")
    #expect(
      transport.requests.map { "\($0.httpMethod ?? "") \($0.target)" } == [
        "POST /articles?include=author&fields%5Bpeople%5D=name",
        "PATCH /articles/1?include=author&fields%5Bpeople%5D=name",
        "POST /articles?include=author&fields%5Bpeople%5D=name",
        "PATCH /articles/1?include=author&fields%5Bpeople%5D=name",
        "DELETE /articles/1?reason=spam",
      ])
  }

  @Test func resultsCanBeLeftUnused() async throws {
    // These lines compile without naming a type and without a warning (the build treats warnings
    // as errors): the spellings of the issue.
    try await client.update(Article(id: "1", title: "T"), at: "articles/1")
    try await client.create(Article(title: "T"), at: "articles")
    try await client.update(Article(id: "1", title: "T"), at: "articles/1", query: include)
    try await client.create(Article(title: "T"), at: "articles", query: include)
    #expect(transport.requests.map(\.httpMethod) == ["PATCH", "POST", "PATCH", "POST"])
    #expect(transport.requests.last?.target == "/articles?include=author&fields%5Bpeople%5D=name")
    #expect(
      transport.requests.first?.bodyText
        == #"{"data":{"type":"articles","id":"1","attributes":{"title":"T"}}}"#)
  }
}
