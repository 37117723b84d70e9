import Foundation
import Testing

@testable import JSONAPICodable

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct JSONAPIMediaTypeTests {
  @Test func bareMediaTypeHasNoParameters() {
    #expect(JSONAPIMediaType().headerValue == "application/vnd.api+json")
    #expect("\(JSONAPIMediaType())" == "application/vnd.api+json")
  }

  // R59: ext and profile are quoted, space-separated lists of URIs.
  @Test func extensionsAndProfilesAreQuotedAndSpaceSeparated() {
    let mediaType = JSONAPIMediaType(
      extensions: ["https://jsonapi.org/ext/atomic", "https://example.com/ext/version"],
      profiles: ["https://example.com/profiles/cursor"])
    #expect(
      mediaType.headerValue
        == "application/vnd.api+json;ext=\"https://jsonapi.org/ext/atomic "
        + "https://example.com/ext/version\";profile=\"https://example.com/profiles/cursor\"")
  }

  @Test func parsesWhatItWrites() {
    let mediaType = JSONAPIMediaType(
      extensions: ["https://jsonapi.org/ext/atomic"], profiles: ["https://a.example/p", "urn:q"])
    #expect(JSONAPIMediaType(headerValue: mediaType.headerValue) == mediaType)
  }

  // R61: clients ignore parameters other than ext and profile; names are case-insensitive.
  @Test func parsingIgnoresOtherParametersAndCase() {
    let parsed = JSONAPIMediaType(
      headerValue: "Application/VND.API+JSON ; charset=utf-8; EXT=\"https://a.example/x\"; "
        + "profile=https://b.example/y")
    #expect(parsed?.extensions == ["https://a.example/x"])
    #expect(parsed?.profiles == ["https://b.example/y"])
  }

  @Test func quotedSemicolonsDoNotSplitParameters() {
    let parsed = JSONAPIMediaType(headerValue: #"application/vnd.api+json;ext="urn:a;b\"c""#)
    #expect(parsed?.extensions == [#"urn:a;b"c"#])
    let written = JSONAPIMediaType(extensions: [#"urn:a"b"#]).headerValue
    #expect(written == #"application/vnd.api+json;ext="urn:a\"b""#)
  }

  @Test func otherMediaTypesAreRejected() {
    #expect(JSONAPIMediaType(headerValue: "application/json") == nil)
    #expect(JSONAPIMediaType(headerValue: "") == nil)
    #expect(JSONAPIMediaType(headerValue: "application/vnd.api+json2") == nil)
  }

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
