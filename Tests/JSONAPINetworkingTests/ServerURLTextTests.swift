import Foundation
import JSONAPICodable
import Testing

@testable import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Links and headers as servers really write them, with raw brackets, spaces and non-ASCII text,
/// which `URL(string:)` rejects on iOS 16 / macOS 13. The client reads them through
/// `URL(jsonAPIReference:relativeTo:)`, so they work the same everywhere.
@Suite struct ServerURLTextTests {
  struct Article: Codable, Sendable, Equatable {
    var id: String
    var type = "articles"
  }

  @Test func paginationFollowsNextLinksWithRawBracketsAndSpaces() async throws {
    let pages = [
      "/v1/articles": PagesAndOriginTests.page([1], next: "/v1/articles?page[number]=2"),
      "/v1/articles?page%5Bnumber%5D=2": PagesAndOriginTests.page(
        [2], next: "?page[number]=3&filter[title]=café au lait"),
      "/v1/articles?page%5Bnumber%5D=3&filter%5Btitle%5D=caf%C3%A9%20au%20lait":
        PagesAndOriginTests.page(
          [3], next: "https://api.example.com/v1/articles?page[number]=4#results"),
      "/v1/articles?page%5Bnumber%5D=4": PagesAndOriginTests.page([4], next: nil),
    ]
    let transport = PagesAndOriginTests.server(pages)
    var ids: [String] = []
    for try await page in Stub.client(transport).pages(of: [Article].self, from: "v1/articles") {
      ids += page.data.map(\.id)
    }
    #expect(ids == ["1", "2", "3", "4"])
    #expect(
      transport.requests.map(\.target) == [
        "/v1/articles", "/v1/articles?page%5Bnumber%5D=2",
        "/v1/articles?page%5Bnumber%5D=3&filter%5Btitle%5D=caf%C3%A9%20au%20lait",
        "/v1/articles?page%5Bnumber%5D=4",
      ])
  }

  @Test func aLocationWithRawCharactersResolvesAgainstTheRequestURL() async throws {
    var headers = Stub.jsonAPI
    headers["Location"] = "/articles/[1]/café"
    let body = #"{"data":{"type":"articles","id":"1"}}"#
    let client = Stub.client(StubTransport(status: 201, body: body, headers: headers))
    let response: JSONAPIResponse<Article> = try await client.create(
      Article(id: "1"), at: "articles")
    #expect(
      response.location?.absoluteString == "https://api.example.com/articles/%5B1%5D/caf%C3%A9")
  }

  @Test func pathsGivenToTheClientAreEncodedTheSameWay() async throws {
    let transport = StubTransport(status: 200, body: #"{"data":[]}"#, headers: Stub.jsonAPI)
    let _: [Article] = try await Stub.client(transport).get([Article].self, from: "tags/café [new]")
    #expect(
      transport.requests.first?.url?.absoluteString
        == "https://api.example.com/tags/caf%C3%A9%20%5Bnew%5D")
  }
}
