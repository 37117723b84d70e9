import Foundation
import JSONAPICodable
import JSONAPINetworking
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 36, item 3: `pages(of:)` reads on where a server pages by `page[number]` or
/// `page[offset]` and sends no pagination links (they are optional, R65). The integration suite
/// drives the same walks against a real HTTP server (IntegrationTests/linkless); these cover each
/// stopping rule alone.
@Suite struct LinklessPagesTests {
  struct Article: Codable, Sendable, Equatable {
    var id: String
    var type = "articles"
  }

  /// How the stub server writes its `meta`.
  enum Meta: Sendable {
    case none
    case total(String)  // a member at the top of meta with the item count
    case nested(String, String)  // meta[outer][inner] = the item count
    case pages(String)  // a member with the page count
    case countsThePage  // {"count": <this page's length>, "totalPages": 1}, as some servers do
  }

  /// A server that pages `count` articles by `page[number]`/`page[size]` (size `defaultSize`
  /// by default) and `page[offset]`/`page[limit]`, and sends no links; or ignores paging and
  /// answers the first `defaultSize` articles to every request.
  struct Server: Sendable {
    var count = 25
    var defaultSize = 10
    var maxSize = 100
    var meta = Meta.none
    var ignoresPaging = false

    var transport: StubTransport {
      let server = self
      return StubTransport { request in
        let query = try JSONAPIQuery(parsingTarget: request.url?.absoluteString ?? "")
        return try Stub.answer(request, 200, server.page(query))
      }
    }

    func page(_ query: JSONAPIQuery) -> String {
      let size = min(Int(query.page["size"] ?? query.page["limit"] ?? "") ?? defaultSize, maxSize)
      var start = 0
      if !ignoresPaging {
        if let number = query.page["number"].flatMap({ Int($0) }) { start = (number - 1) * size }
        if let offset = query.page["offset"].flatMap({ Int($0) }) { start = offset }
      }
      let ids = start < count ? Array((start + 1)...min(start + size, count)) : []
      let data = ids.map { #"{"type":"articles","id":"\#($0)"}"# }.joined(separator: ",")
      let pages = (count + size - 1) / size
      let metaText: String
      switch meta {
      case .none: metaText = ""
      case .total(let name): metaText = #","meta":{"\#(name)":\#(count)}"#
      case .nested(let outer, let inner):
        metaText = #","meta":{"\#(outer)":{"\#(inner)":\#(count)}}"#
      case .pages(let name): metaText = #","meta":{"\#(name)":\#(pages)}"#
      case .countsThePage: metaText = #","meta":{"count":\#(ids.count),"totalPages":1}"#
      }
      return #"{"data":[\#(data)]\#(metaText)}"#
    }
  }

  func walk(_ server: Server, _ query: JSONAPIQuery, maxPages: Int = 1_000) async throws
    -> (ids: [[String]], targets: [String])
  {
    let transport = server.transport
    let client = Stub.client(transport, configuration: .init(maxPages: maxPages))
    var ids: [[String]] = []
    for try await page in client.pages(of: [Article].self, from: "articles", query: query) {
      ids.append(page.data.map(\.id))
    }
    return (ids, transport.requests.map(\.target))
  }

  static func ids(_ range: ClosedRange<Int>) -> [String] { range.map(String.init) }

  @Test func pageNumbersWithASizeAreAdvancedUntilAShortPage() async throws {
    let walked = try await walk(Server(), JSONAPIQuery().page(number: 1, size: 10))
    #expect(walked.ids == [Self.ids(1...10), Self.ids(11...20), Self.ids(21...25)])
    #expect(walked.targets.count == 3)
  }

  @Test func offsetsWithALimitAreAdvancedByThePageLength() async throws {
    let walked = try await walk(Server(count: 12), JSONAPIQuery().page(offset: 0, limit: 5))
    #expect(walked.ids == [Self.ids(1...5), Self.ids(6...10), Self.ids(11...12)])
    #expect(walked.targets.last?.contains("page%5Boffset%5D=10") == true)
  }

  @Test func anExactLastPageEndsAtTheEmptyPageWhichIsNotGiven() async throws {
    let walked = try await walk(Server(count: 20), JSONAPIQuery().page(number: 1, size: 10))
    #expect(walked.ids == [Self.ids(1...10), Self.ids(11...20)])
    #expect(walked.targets.count == 3)  // the third answered [] and ended the walk
  }

  @Test(arguments: [
    Meta.total("total"), .total("count"), .total("record_count"), .total("totalCount"),
    .nested("page", "total"), .nested("pagination", "count"), .pages("totalPages"),
    .pages("pages"), .pages("page_count"),
  ])
  func aTotalReachedByAFullPageIsCheckedWithOneMoreRequest(_ meta: Meta) async throws {
    // 20 of 20 after a full page: the total alone does not end the walk; page 3 answers [] and
    // ends it without being given (issue 48, item 4).
    let walked = try await walk(
      Server(count: 20, meta: meta), JSONAPIQuery().page(number: 1, size: 10))
    #expect(walked.ids == [Self.ids(1...10), Self.ids(11...20)])
    #expect(walked.targets.count == 3)
    #expect(walked.targets.last?.contains("page%5Bnumber%5D=3") == true)
  }

  @Test(arguments: [Meta.total("total"), .pages("totalPages")])
  func aTotalReachedByAShortPageEndsTheWalkWithoutAProbe(_ meta: Meta) async throws {
    let walked = try await walk(
      Server(count: 25, meta: meta), JSONAPIQuery().page(number: 1, size: 10))
    #expect(walked.ids.map(\.count) == [10, 10, 5])
    #expect(walked.targets.count == 3)
  }

  @Test(arguments: [
    JSONAPIQuery().page(number: 1, size: 5), JSONAPIQuery().page(offset: 0, limit: 5),
  ])
  func aMetaThatCountsThePageDoesNotTruncateTheWalk(_ query: JSONAPIQuery) async throws {
    // {"count": 5, "totalPages": 1} on a page of 5 out of 25: trusted, it would end after 5.
    let walked = try await walk(Server(count: 25, defaultSize: 5, meta: .countsThePage), query)
    #expect(walked.ids.flatMap { $0 } == Self.ids(1...25))
    #expect(walked.ids.map(\.count) == [5, 5, 5, 5, 5])
    // Five full pages, then the empty sixth that ends the walk: the probe found page 2, and the
    // totals were ignored from then on.
    #expect(walked.targets.count == 6)
  }

  @Test func aTotalOutranksAShortPageFromACappedSize() async throws {
    // Asked 50, the server gives at most 10: without a total the first page would look last.
    let capped = Server(count: 25, maxSize: 10, meta: .total("total"))
    let walked = try await walk(capped, JSONAPIQuery().page(offset: 0, limit: 50))
    #expect(walked.ids.flatMap { $0 } == Self.ids(1...25))
    #expect(walked.targets.count == 3)
  }

  @Test func withoutASizeTheFirstPageGivesTheServersSize() async throws {
    let walked = try await walk(Server(count: 23, defaultSize: 10), JSONAPIQuery().page(number: 1))
    #expect(walked.ids.flatMap { $0 } == Self.ids(1...23))
    #expect(walked.ids.map(\.count) == [10, 10, 3])
  }

  @Test func aServerThatIgnoresTheParameterIsReadOnce() async throws {
    let walked = try await walk(
      Server(ignoresPaging: true), JSONAPIQuery().page(number: 1, size: 10))
    #expect(walked.ids == [Self.ids(1...10)])
    #expect(walked.targets.count == 2)  // page 2 repeated page 1 and was not given
  }

  @Test func everyOtherParameterIsKeptByteForByte() async throws {
    let query = JSONAPIQuery().filter("tag", "a,b").adding("x", "1 2").page(number: 2, size: 10)
      .sorted(by: .descending("id"))
    let walked = try await walk(Server(), query)
    #expect(walked.ids.flatMap { $0 } == Self.ids(11...25))
    let first = try #require(walked.targets.first)
    let second = try #require(walked.targets.last)
    #expect(
      second == first.replacingOccurrences(of: "page%5Bnumber%5D=2", with: "page%5Bnumber%5D=3"))
    #expect(first != second)
  }

  @Test func maxPagesStillBoundsTheWalk() async throws {
    let error = await #expect(throws: JSONAPIClientError.self) {
      _ = try await walk(Server(count: 100), JSONAPIQuery().page(number: 1, size: 10), maxPages: 3)
    }
    #expect(error == .tooManyPages(limit: 3))
  }

  @Test func withoutAPageParameterOrWithLinksNothingChanges() async throws {
    // No page[number]/page[offset] in the request: one page, as before.
    let plain = try await walk(Server(), JSONAPIQuery())
    #expect(plain.ids == [Self.ids(1...10)] && plain.targets.count == 1)
    // A `"next": null` link is the server's word that there is no next page.
    let transport = StubTransport(
      status: 200, body: #"{"data":[{"type":"articles","id":"1"}],"links":{"next":null}}"#,
      headers: Stub.jsonAPI)
    var pages = 0
    for try await _ in Stub.client(transport).pages(
      of: [Article].self, from: "articles", query: JSONAPIQuery().page(number: 1, size: 1))
    {
      pages += 1
    }
    #expect(pages == 1 && transport.requests.count == 1)
  }
}
