import Foundation
import JSONAPICodable
import Testing

@testable import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// The URLRequest helpers moved here from JSONAPICodable (issue 13) so that the codec module does
// not link FoundationNetworking on Linux.
@Suite struct URLRequestHelperTests {
  @Test func requestHelperSetsAcceptAlwaysAndContentTypeWithABody() throws {
    let url = try #require(URL(string: "https://api.example.com/articles"))
    var get = URLRequest(url: url)
    get.setJSONAPIHeaders()
    #expect(get.value(forHTTPHeaderField: "Accept") == "application/vnd.api+json")
    #expect(get.value(forHTTPHeaderField: "Content-Type") == nil)

    var post = URLRequest(url: url)
    post.httpMethod = "POST"
    post.httpBody = Data(#"{"data":{"type":"articles"}}"#.utf8)
    let atomic = JSONAPIMediaType(extensions: ["https://jsonapi.org/ext/atomic"])
    post.setJSONAPIHeaders(atomic)
    #expect(post.value(forHTTPHeaderField: "Content-Type") == atomic.headerValue)
    #expect(post.value(forHTTPHeaderField: "Accept") == atomic.headerValue)

    var forced = URLRequest(url: url)
    forced.setJSONAPIHeaders(setsContentType: true)
    #expect(forced.value(forHTTPHeaderField: "Content-Type") == "application/vnd.api+json")
  }

  @Test func requestInitializerAppliesQueryMethodBodyAndHeaders() throws {
    let url = try #require(URL(string: "https://api.example.com/articles"))
    let body = Data(#"{"data":{"type":"articles","attributes":{"title":"Hi"}}}"#.utf8)
    let request = try #require(
      URLRequest(
        jsonAPI: url, query: JSONAPIQuery().including("author"), method: "POST", body: body)
    )
    #expect(request.url?.absoluteString == "https://api.example.com/articles?include=author")
    #expect(request.httpMethod == "POST")
    #expect(request.httpBody == body)
    #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/vnd.api+json")
    #expect(request.value(forHTTPHeaderField: "Accept") == "application/vnd.api+json")
  }
}
