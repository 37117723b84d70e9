import Foundation
import Testing

@testable import JSONAPICodable

/// `URL(jsonAPIReference:relativeTo:)`: server-written link text becomes the same URL on every
/// platform. The expected strings are written out by hand (RFC 3986 §2.1: UTF-8 bytes as
/// uppercase `%XX`), so they do not depend on how the platform's `URL(string:)` treats the raw text.
@Suite struct URLReferenceTests {
  static let base = URL(string: "https://api.example.com/v1/articles") ?? URL(fileURLWithPath: "/")

  static func absolute(_ text: String, relativeTo base: URL? = URLReferenceTests.base) -> String? {
    URL(jsonAPIReference: text, relativeTo: base)?.absoluteString
  }

  /// The text handed to `URL(string:relativeTo:)` is already valid RFC 3986, which is what makes
  /// the result the same on every platform: a newer Foundation would encode raw text itself (so
  /// the URL-level tests below pass there even without the encoding), an older one returns `nil`.
  @Test(arguments: [
    ("https://api.example.com/a?page[number]=2", "https://api.example.com/a?page%5Bnumber%5D=2"),
    ("http://[::1]:80/a[1]", "http://[::1]:80/a%5B1%5D"),
    ("//[::1]/a[1]", "//[::1]/a%5B1%5D"),
    ("[x]/y", "%5Bx%5D/y"),
    ("/a b/café/👍", "/a%20b/caf%C3%A9/%F0%9F%91%8D"),
    (#"?q="<>\^`{|}"#, "?q=%22%3C%3E%5C%5E%60%7B%7C%7D"),
    ("/a#b#c", "/a#b%23c"),
    ("/100%/a%zz/%4", "/100%25/a%25zz/%254"),
    ("/a%5Bb%5d", "/a%5Bb%5d"),
    ("/a:b@c!$&'()*+,;=?/?#/?", "/a:b@c!$&'()*+,;=?/?#/?"),
  ])
  func theTextGivenToFoundationIsValid(text: String, encoded: String) {
    #expect(URIReference.encoded(text) == encoded)
  }

  @Test func rawBracketsOutsideTheHostAreEncoded() {
    #expect(
      Self.absolute(
        "https://api.example.com/v1/articles?page[number]=2&page[size]=10", relativeTo: nil)
        == "https://api.example.com/v1/articles?page%5Bnumber%5D=2&page%5Bsize%5D=10")
    #expect(
      Self.absolute("?page[number]=2") == "https://api.example.com/v1/articles?page%5Bnumber%5D=2")
    #expect(Self.absolute("/v1/tags/[a]") == "https://api.example.com/v1/tags/%5Ba%5D")
  }

  @Test func bracketsAroundAnIPLiteralHostAreKept() {
    #expect(
      Self.absolute("http://[::1]:8080/articles?page[number]=2", relativeTo: nil)
        == "http://[::1]:8080/articles?page%5Bnumber%5D=2")
    // A network-path reference has a host too, and takes the base's scheme.
    #expect(Self.absolute("//[::1]/a[1]") == "https://[::1]/a%5B1%5D")
  }

  @Test func spacesAndCharactersRFC3986NeverAllowsAreEncoded() {
    #expect(Self.absolute("/v1/search?q=a b") == "https://api.example.com/v1/search?q=a%20b")
    #expect(
      Self.absolute(#"/v1/x?q="<>\^`{|}"#)
        == "https://api.example.com/v1/x?q=%22%3C%3E%5C%5E%60%7B%7C%7D")
    #expect(Self.absolute("/v1/x?q=\t\u{7F}") == "https://api.example.com/v1/x?q=%09%7F")
  }

  @Test func nonASCIIIsEncodedAsUTF8() {
    #expect(Self.absolute("/v1/café") == "https://api.example.com/v1/caf%C3%A9")
    #expect(Self.absolute("/v1/tags/👍") == "https://api.example.com/v1/tags/%F0%9F%91%8D")
    #expect(
      Self.absolute("https://api.example.com/v1/people?filter[name]=Zoë", relativeTo: nil)
        == "https://api.example.com/v1/people?filter%5Bname%5D=Zo%C3%AB")
  }

  @Test func existingEscapesAndReservedCharactersAreKept() {
    let encoded = "https://api.example.com/v1/articles?page%5Bnumber%5D=2&q=a%2fb%20c"
    #expect(Self.absolute(encoded, relativeTo: nil) == encoded)
    let reserved = "https://user:pw@api.example.com:8443/a:b@c/!$&'()*+,;=?x=/?:@#frag/?"
    #expect(Self.absolute(reserved, relativeTo: nil) == reserved)
    // Valid text is returned as it was, not rebuilt.
    #expect(URIReference.encoded(encoded) == encoded)
  }

  @Test func aPercentSignWithoutTwoHexDigitsIsEncoded() {
    #expect(Self.absolute("/v1/100%") == "https://api.example.com/v1/100%25")
    #expect(Self.absolute("/v1/a%zz") == "https://api.example.com/v1/a%25zz")
    #expect(Self.absolute("/v1/a%4") == "https://api.example.com/v1/a%254")
    #expect(Self.absolute("/v1/a%41%") == "https://api.example.com/v1/a%41%25")
  }

  @Test func fragmentsKeepTheirFirstHashAndEncodeTheRest() {
    #expect(Self.absolute("/v1/articles#top") == "https://api.example.com/v1/articles#top")
    #expect(
      Self.absolute("/v1/articles#a b#c[1]")
        == "https://api.example.com/v1/articles#a%20b%23c%5B1%5D")
    let withFragment = URL(
      jsonAPIReference: "/v1/articles?page[number]=2#list", relativeTo: Self.base)
    #expect(withFragment?.fragment == "list")
    #expect(withFragment?.path == "/v1/articles")
  }

  @Test func relativeReferencesResolveAgainstTheBase() {
    #expect(
      Self.absolute("comments?page[number]=2")
        == "https://api.example.com/v1/comments?page%5Bnumber%5D=2")
    #expect(Self.absolute("../people/1") == "https://api.example.com/people/1")
    #expect(
      Self.absolute("https://other.example.com/x y") == "https://other.example.com/x%20y",
      "an absolute URL ignores the base")
    // Without a base, a relative reference stays relative.
    #expect(URL(jsonAPIReference: "/a b")?.relativeString == "/a%20b")
  }

  @Test func anEmptyReferenceIsTheBaseOrNothing() {
    #expect(URL(jsonAPIReference: "", relativeTo: Self.base) == Self.base)
    #expect(URL(jsonAPIReference: "") == nil)
  }

  @Test func linksReadTheirHrefThisWay() throws {
    let link = JSONAPILink(href: "/v1/articles?page[number]=2&q=café")
    #expect(link.url?.relativeString == "/v1/articles?page%5Bnumber%5D=2&q=caf%C3%A9")
    let document = try JSONAPIDecoder().decode(
      JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self,
      from:
        #"{"data": null, "links": {"next": "https://api.example.com/v1/articles?page[number]=3"}}"#)
    #expect(
      document.links?.next?.url?.absoluteString
        == "https://api.example.com/v1/articles?page%5Bnumber%5D=3")
  }
}
