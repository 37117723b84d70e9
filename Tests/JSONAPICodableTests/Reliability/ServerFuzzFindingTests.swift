import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

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

  // Paging links are built from the raw target: split at bytes too, and with the leading `?` of
  // the query dropped as `JSONAPIQuery(parsing:)` drops it, so that every link parses back to the
  // request with only `page` members changed.
  @Test(arguments: [
    "/a??page[before]=x&y=1", "/a?page[before]=x&\u{301}y=\u{301}", "/a???y=1&page[before]=x",
    "/a?\u{301}y&page%5Bbefore%5D=x#\u{301}f",
  ])
  func pagingLinksParseBackFromOddTargets(target: String) throws {
    let paging = JSONAPIPaging.cursor(defaultSize: 2, maxSize: 10)
    let query = try JSONAPIQuery(parsing: Self.rawQuery(of: target))
    let page = try paging.page(for: query)
    let response = paging.response(
      for: page, target: target, cursors: ["c1", "c2"], count: 2, hasMore: true)
    var rest = query
    rest.page = [:]
    #expect(response.links.prev != nil)
    for name in response.links.names {
      let href = try #require(response.links[name]?.href)
      var linked = try JSONAPIQuery(parsing: Self.rawQuery(of: href))
      if name == "self" { #expect(linked == query, "\(href)") }
      linked.page = [:]
      #expect(linked == rest, "\(name): \(href)")
    }
  }

  /// What a server reads as the query of a request target: after the first `?` byte, up to the
  /// first `#` byte.
  static func rawQuery(of target: String) -> String {
    let bytes = Substring(target).utf8
    let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
    guard let mark = bytes[..<end].firstIndex(of: UInt8(ascii: "?")) else { return "" }
    return String(Substring(bytes[bytes.index(after: mark)..<end]))
  }
}
