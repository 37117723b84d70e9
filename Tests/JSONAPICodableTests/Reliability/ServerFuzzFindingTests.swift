import Foundation
import Testing

@testable import JSONAPICodable

/// Inputs the server fuzz target (`Fuzz/Sources/JSONAPIServerFuzz`) found, minimised, each with
/// the answer JSON:API requires.
@Suite struct ServerFuzzFindingTests {
  let negotiation = JSONAPIContentNegotiation()

  // R61: `q` is a weight only in `Accept`. In a `Content-Type` it is a parameter other than `ext`
  // and `profile` (415), and it must not hide the parameters after it.
  @Test(arguments: [
    "application/vnd.api+json;q=0.5", "application/vnd.api+json; q=1; charset=utf-8",
  ])
  func qInContentTypeIsAForeignParameter(contentType: String) {
    #expect(throws: JSONAPINegotiationError.self) {
      try negotiation.negotiate(accept: nil, contentType: contentType)
    }
  }

  // `q` still weighs `Accept` entries and ends their own parameters.
  @Test func qStillWeighsAcceptEntries() throws {
    #expect(throws: JSONAPINegotiationError.self) {
      try negotiation.negotiate(accept: "application/vnd.api+json;q=0", contentType: nil)
    }
    let mediaType = try negotiation.negotiate(
      accept: "application/vnd.api+json;q=0.5;charset=utf-8", contentType: nil)
    #expect(mediaType == JSONAPIMediaType())
  }

  // RFC 9110 §5.6.6 allows empty parameters (`;;`, a trailing `;`): they are no parameter, so
  // neither a 415 nor an ignored `Accept` entry.
  @Test(arguments: [
    "application/vnd.api+json;", "application/vnd.api+json ; ", "application/vnd.api+json;;",
  ])
  func emptyParametersAreNoParameters(value: String) throws {
    #expect(try negotiation.negotiate(accept: value, contentType: value) == JSONAPIMediaType())
    #expect(throws: JSONAPINegotiationError.self) {
      try negotiation.negotiate(accept: nil, contentType: value + ";charset=utf-8")
    }
  }

  // RFC 9110 §5.6.6: a parameter is `name=value`. `ext` or `profile` without `=` is no parameter
  // JSON:API allows, so 415, and an `Accept` entry with one is ignored (here: 406).
  @Test(arguments: ["application/vnd.api+json;ext", "application/vnd.api+json; profile "])
  func parametersWithoutAValueAreRefused(value: String) throws {
    #expect(throws: JSONAPINegotiationError.self) {
      try negotiation.negotiate(accept: nil, contentType: value)
    }
    #expect(throws: JSONAPINegotiationError.self) {
      try negotiation.negotiate(accept: value, contentType: nil)
    }
    // An empty value is a value: no URIs.
    #expect(
      try negotiation.negotiate(
        accept: "application/vnd.api+json;ext=", contentType: "application/vnd.api+json;ext=\"\"")
        == JSONAPIMediaType())
  }

  // Two Content-Type fields are refused even when, joined with a comma, a quoted string opened in
  // the first and closed in the second would read as one acceptable media type.
  @Test func contentTypeFieldsAreNotJoined() {
    let fields: [(String, String)] = [
      ("Content-Type", "application/vnd.api+json;profile=\"x"), ("Content-Type", "y\""),
    ]
    #expect(throws: JSONAPINegotiationError.self) {
      try negotiation.negotiate(headers: fields, hasBody: true)
    }
    let dictionary = [
      "Content-Type": "application/vnd.api+json;profile=\"x", "content-type": "y\"",
    ]
    #expect(throws: JSONAPINegotiationError.self) {
      try negotiation.negotiate(headers: dictionary, hasBody: true)
    }
  }

  // R72: the query splits at the bytes `&` and `=`. A combining mark right after one (U+0301 here)
  // forms a single Character with it, which hid the separator in raw text but not in the same
  // query percent-encoded.
  @Test func combiningMarksDoNotHideSeparators() throws {
    let raw = try JSONAPIQuery(parsing: "a=\u{301}b&\u{301}c=d")
    let encoded = try JSONAPIQuery(parsing: "a=%CC%81b&%CC%81c=d")
    #expect(raw == encoded)
    #expect(raw.additionalParameters.map(\.name) == ["a", "\u{301}c"])
    #expect(raw.additionalParameters.first?.value == "\u{301}b")
    #expect(try JSONAPIQuery(parsing: "?\u{301}x") == JSONAPIQuery(parsing: "%CC%81x"))
  }
}
