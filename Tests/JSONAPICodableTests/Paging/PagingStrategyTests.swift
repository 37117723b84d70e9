import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// What each strategy reads from a request and what links and `meta` it gives back, including the
/// edges: defaults, leading zeros, the largest numbers, empty collections and totals.
@Suite struct PagingStrategyTests {
  func page(_ paging: JSONAPIPaging, _ query: String) throws -> JSONAPIPaging.Page {
    try paging.page(for: JSONAPIQuery(parsing: query))
  }

  @Test func readsEachStrategysMembers() throws {
    let cursor = JSONAPIPaging.cursor(defaultSize: 20, maxSize: 100, allowsRangePagination: true)
    #expect(try page(cursor, "") == .init(size: 20))
    #expect(try page(cursor, "page[after]=c1") == .init(size: 20, after: "c1"))
    #expect(try page(cursor, "page[before]=c9&page[size]=007") == .init(size: 7, before: "c9"))
    // A range without `page[size]` uses the largest size.
    let range = try page(cursor, "page[after]=a&page[before]=b")
    #expect(range == .init(size: 100, after: "a", before: "b"))
    #expect(range.isRange)
    // Leading zeros past 18 digits are still a small number (^[0-9]+$, base 10).
    #expect(try page(cursor, "page[size]=" + String(repeating: "0", count: 40) + "42").size == 42)

    let number = JSONAPIPaging.pageNumber(defaultSize: 10, maxSize: 50)
    #expect(try page(number, "") == .init(size: 10, number: 1, offset: 0))
    #expect(
      try page(number, "page[number]=3&page[size]=50") == .init(size: 50, number: 3, offset: 100))
    let offset = JSONAPIPaging.offset(defaultLimit: 25, maxLimit: 100)
    #expect(try page(offset, "") == .init(size: 25, offset: 0))
    #expect(try page(offset, "page[offset]=40&page[limit]=20") == .init(size: 20, offset: 40))
  }

  // Settings out of range are clamped, never trapped: any values give a working strategy.
  @Test func clampsItsSettings() throws {
    let odd = JSONAPIPaging.pageNumber(defaultSize: 500, maxSize: 0)
    #expect(odd.maxSize == 1 && odd.defaultSize == 1)
    #expect(JSONAPIPaging.offset(defaultLimit: -3, maxLimit: 10).defaultSize == 1)
    #expect(try page(odd, "").size == 1)
  }

  // The largest numbers a request may send, and what the store's arithmetic makes of them: all
  // within 32 bits (arm64_32), with no overflow.
  @Test func largestNumbersStaySafeIn32Bits() throws {
    let number = JSONAPIPaging.pageNumber(defaultSize: 10, maxSize: Int.max)
    let far = try page(number, "page[number]=2147483647&page[size]=2147483647")
    #expect(far.number == Int(Int32.max))
    // (2^31 - 2) × (2^31 - 1) needs 62 bits: exact on 64-bit, clamped where Int has 32.
    let product = (Int64(Int32.max) - 1) * Int64(Int32.max)
    #expect(far.offset == (Int64(Int.max) >= product ? Int(product) : Int.max))
    // No next page past the largest number, even when the store says there is more.
    let response = number.response(
      for: far, target: "/a?page[number]=2147483647&page[size]=2147483647", count: 0,
      hasMore: true, total: Int.max)
    #expect(response.links.next == nil)
    #expect(response.links.prev?.href == "/a?page%5Bnumber%5D=2147483646&page%5Bsize%5D=2147483647")

    let offset = JSONAPIPaging.offset(defaultLimit: 10, maxLimit: Int.max)
    let end = try page(offset, "page[offset]=2147483647&page[limit]=2147483647")
    #expect(end == .init(size: Int(Int32.max), offset: Int(Int32.max)))
    let offsetResponse = offset.response(
      for: end, target: "/a", count: 0, hasMore: true, total: Int.max)
    #expect(offsetResponse.links.next == nil)
    #expect(offsetResponse.links.prev?.href == "/a?page%5Boffset%5D=0")
    #expect(offsetResponse.meta?["page"]?["total"] == .integer(Int.max))

    // Pages built by hand with values no request can give still give links, not traps.
    for strategy in [number, offset, .cursor(defaultSize: 1, maxSize: Int.max)] {
      for extreme in [Int.min, -1, 0, Int.max] {
        let wild = JSONAPIPaging.Page(size: extreme, number: extreme, offset: extreme)
        let response = strategy.response(
          for: wild, target: "/a?page[size]=1", cursors: ["c"], count: extreme, hasMore: true,
          total: extreme)
        #expect(response.links.selfLink?.href == "/a?page%5Bsize%5D=1")
      }
    }
  }

  @Test func pageNumberLinksAndMeta() throws {
    let paging = JSONAPIPaging.pageNumber(defaultSize: 10, maxSize: 50)
    let target = "/articles?sort=-title&page%5Bnumber%5D=2&page%5Bsize%5D=2&filter[tag]=a+b"
    let middle = paging.response(
      for: try page(paging, String(target.drop { $0 != "?" })), target: target, count: 2,
      hasMore: true, total: 5)
    let base = "/articles?sort=-title&"
    let tail = "&filter[tag]=a+b"
    #expect(middle.links.selfLink?.href == base + "page%5Bnumber%5D=2&page%5Bsize%5D=2" + tail)
    #expect(middle.links.first?.href == base + "page%5Bnumber%5D=1&page%5Bsize%5D=2" + tail)
    #expect(middle.links.prev?.href == base + "page%5Bnumber%5D=1&page%5Bsize%5D=2" + tail)
    #expect(middle.links.next?.href == base + "page%5Bnumber%5D=3&page%5Bsize%5D=2" + tail)
    #expect(middle.links.last?.href == base + "page%5Bnumber%5D=3&page%5Bsize%5D=2" + tail)
    #expect(middle.meta == ["page": ["number": 2, "size": 2, "total": 5, "totalPages": 3]])
    #expect(middle.links.nullNames.isEmpty)

    // The first page without a total: no `prev`, no `last`; no size sent, none in the links.
    let first = paging.response(
      for: try page(paging, ""), target: "https://api.example.com/articles", count: 10,
      hasMore: true)
    #expect(first.links.names == ["self", "first", "next"])
    #expect(first.links.selfLink?.href == "https://api.example.com/articles")
    #expect(first.links.next?.href == "https://api.example.com/articles?page%5Bnumber%5D=2")
    #expect(first.meta == ["page": ["number": 1, "size": 10]])

    // An empty collection: one (empty) page, linked as first and last.
    let empty = paging.response(
      for: try page(paging, ""), target: "/articles", count: 0, hasMore: false, total: 0)
    #expect(empty.links.names == ["self", "first", "last"])
    #expect(empty.links.last?.href == "/articles?page%5Bnumber%5D=1")
    #expect(empty.meta == ["page": ["number": 1, "size": 10, "total": 0, "totalPages": 1]])

    // Past the end: `prev` is the last page, not the page before this empty one.
    let past = paging.response(
      for: try page(paging, "page[number]=9"), target: "/articles?page[number]=9", count: 0,
      hasMore: false, total: 25)
    #expect(past.links.prev?.href == "/articles?page%5Bnumber%5D=3")
    #expect(past.links.next == nil)
  }

  @Test func offsetLinksAndMeta() throws {
    let paging = JSONAPIPaging.offset(defaultLimit: 10, maxLimit: 100)
    let target = "/comments?page%5Blimit%5D=10&page%5Boffset%5D=15&x=%E2%9C%93"
    let middle = paging.response(
      for: try page(paging, String(target.drop { $0 != "?" })), target: target, count: 10,
      hasMore: true, total: 42)
    #expect(
      middle.links.prev?.href == "/comments?page%5Blimit%5D=10&page%5Boffset%5D=5&x=%E2%9C%93")
    #expect(
      middle.links.next?.href == "/comments?page%5Blimit%5D=10&page%5Boffset%5D=25&x=%E2%9C%93")
    #expect(
      middle.links.first?.href == "/comments?page%5Blimit%5D=10&page%5Boffset%5D=0&x=%E2%9C%93")
    #expect(
      middle.links.last?.href == "/comments?page%5Blimit%5D=10&page%5Boffset%5D=32&x=%E2%9C%93")
    #expect(middle.meta == ["page": ["offset": 15, "limit": 10, "total": 42]])

    // Less than a limit from the start: `prev` starts at 0.
    let near = paging.response(
      for: try page(paging, "page[offset]=3"), target: "/comments?page[offset]=3", count: 10,
      hasMore: false)
    #expect(near.links.prev?.href == "/comments?page%5Boffset%5D=0")
    #expect(near.links.next == nil && near.links.last == nil)
    #expect(near.meta == ["page": ["offset": 3, "limit": 10]])
  }

  // The cursor strategy writes `prev` and `next` as `null`, which the encoder keeps.
  @Test func cursorNullLinksAreWritten() throws {
    let paging = JSONAPIPaging.cursor(defaultSize: 10, maxSize: 10)
    let response = paging.response(
      for: try page(paging, ""), target: "/people", cursors: [], count: 0, hasMore: false)
    #expect(response.links.nullNames == ["prev", "next"])
    #expect(response.links.names == ["self", "first"])
    #expect(response.meta == nil)
    let encoder = JSONAPIEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let body = try encoder.encode(
      JSONAPIDocument<[Person], JSONAPIValue>(data: [], links: response.links))
    #expect(
      text(body)
        == #"{"data":[],"links":{"first":"/people","next":null,"prev":null,"self":"/people"}}"#)
    _ = try checked(body, name: "paging-cursor-empty", kind: .response)
  }

  // `setNull` and reading: a null link reads as none and compares equal to none.
  @Test func nullLinks() throws {
    var links: JSONAPILinks = ["next": "/b"]
    links.setNull("prev")
    #expect(links.prev == nil)
    #expect(links == ["next": "/b"])
    #expect(links.hashValue == JSONAPILinks(["next": "/b"]).hashValue)
    #expect(links.names == ["next"] && links.nullNames == ["prev"])
    links.prev = "/a"
    #expect(links.nullNames.isEmpty && links.names == ["next", "prev"])
    links.setNull("next")
    #expect(links.names == ["prev"] && links.nullNames == ["next"])
    var empty = JSONAPILinks()
    empty.setNull("next")
    #expect(empty.isEmpty)
    let encoded = try JSONEncoder().encode(links)
    #expect(text(encoded).contains(#""next":null"#))
    #expect(try JSONDecoder().decode(JSONAPILinks.self, from: encoded) == links)
  }

  @Test func mediaTypeNamesTheProfileForCursorsOnly() {
    let negotiated = JSONAPIMediaType(extensions: ["https://jsonapi.org/ext/atomic"])
    let cursor = JSONAPIPaging.cursor(defaultSize: 10, maxSize: 10)
    let applied = cursor.mediaType(applyingTo: negotiated)
    #expect(
      applied.headerValue
        == #"application/vnd.api+json;ext="https://jsonapi.org/ext/atomic";profile="https://jsonapi.org/profiles/ethanresnick/cursor-pagination/""#
    )
    #expect(cursor.mediaType(applyingTo: applied) == applied)
    #expect(
      JSONAPIPaging.pageNumber(defaultSize: 1, maxSize: 1).mediaType(applyingTo: negotiated)
        == negotiated)
    #expect(
      JSONAPIPaging.offset(defaultLimit: 1, maxLimit: 1).mediaType(applyingTo: negotiated)
        == negotiated)
  }

  // The profile URI negotiates like any supported profile.
  @Test func negotiationAppliesTheProfileWhenAsked() throws {
    let negotiation = JSONAPIContentNegotiation(
      supportedProfiles: [JSONAPIPaging.cursorPaginationProfile])
    let mediaType = try negotiation.negotiate(
      accept: #"application/vnd.api+json;profile="\#(JSONAPIPaging.cursorPaginationProfile)""#,
      contentType: nil)
    #expect(mediaType.profiles == ["https://jsonapi.org/profiles/ethanresnick/cursor-pagination/"])
  }

  @Test func rulesFollowTheStrategy() throws {
    let base = JSONAPIQueryRules(includePaths: ["author"], sortFields: ["name"], maxPageSize: 7)
    let cursor = JSONAPIPaging.cursor(defaultSize: 10, maxSize: 30).rules(base)
    #expect(cursor.pageMembers == ["size", "after", "before"] && cursor.maxPageSize == 30)
    #expect(cursor.includePaths == ["author"] && cursor.sortFields == ["name"])
    try cursor.validate(JSONAPIQuery(parsing: "include=author&page[size]=30&page[after]=x"))
    #expect(throws: JSONAPIQueryError.includeNotAllowed(path: "tags")) {
      try cursor.validate(JSONAPIQuery(parsing: "include=tags&page[size]=30"))
    }
    let offset = JSONAPIPaging.offset(defaultLimit: 5, maxLimit: 40).rules(base)
    #expect(offset.pageMembers == ["offset", "limit"] && offset.maxPageSize == 40)
    try offset.validate(JSONAPIQuery(parsing: "page[offset]=2147483647&page[limit]=40"))
    #expect(
      JSONAPIPaging.pageNumber(defaultSize: 5, maxSize: 9).rules(base).pageMembers == [
        "number", "size",
      ])
  }

  @Test func itemMetaHoldsTheCursor() {
    #expect(JSONAPIPaging.itemMeta(cursor: "abcde") == ["page": ["cursor": "abcde"]])
  }
}
