import Foundation
import JSONAPICodable
import Testing

@testable import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// The README's "Requests: query parameters and headers" snippet, compiled and run here because
// `URLRequest(jsonAPI:query:)` lives in JSONAPINetworking. Keep it in step with README.md.
@Suite struct ReadmeRequestSnippetTests {
  // MARK: Requests: query parameters and headers

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
