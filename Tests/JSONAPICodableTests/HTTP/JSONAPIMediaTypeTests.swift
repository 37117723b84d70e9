import Foundation
import Testing

@testable import JSONAPICodable

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
}
