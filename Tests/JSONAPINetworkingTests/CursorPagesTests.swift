import Foundation
import JSONAPICodable
import Testing

@testable import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// `pages` against a server that plays the Cursor Pagination profile (Support/CursorProfileServer):
// forwards along `next`, backwards along `prev`, empty pages the profile allows, range requests
// and `rangeTruncated`, and the profile's errors. The profile's own examples are the fixtures.
@Suite struct CursorPagesTests {
  struct Example: Codable, Sendable, Equatable {
    var id: String
    var type = "examples"
    var meta: JSONAPIValue?

    var cursor: String? { meta?["page"]?["cursor"]?.stringValue }
  }

  static let profile = CursorProfileServer.profile

  func client(_ server: CursorProfileServer = CursorProfileServer()) -> (
    JSONAPIClient, StubTransport
  ) {
    let transport = server.transport
    return (Stub.client(transport), transport)
  }

  /// The ids of each page, in the order the sequence gives them.
  func walk(
    _ client: JSONAPIClient, query: JSONAPIQuery, direction: JSONAPIPageDirection = .forward
  ) async throws -> [[String]] {
    var pages: [[String]] = []
    for try await page in client.pages(
      of: [Example].self, from: "example-data", query: query, direction: direction)
    {
      pages.append(page.data.map(\.id))
    }
    return pages
  }

  /// The `page` members of each request's query.
  func pageMembers(_ transport: StubTransport) throws -> [[String: String]] {
    try transport.requests.map { request in
      let url = try #require(request.url)
      let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
      return try JSONAPIQuery(parsing: components.percentEncodedQuery ?? "").page
    }
  }

  /// The query of a link, parsed: links written with raw brackets (the profile's) and
  /// percent-encoded ones (the stub's) compare equal.
  func linkQuery(_ link: JSONAPILink?) throws -> JSONAPIQuery? {
    guard let href = link?.href else { return nil }
    let path = try #require(href.split(separator: "?", maxSplits: 1).first)
    #expect(path == "/example-data")
    return try JSONAPIQuery(parsing: String(href.dropFirst(path.count)))
  }

  func fetch(_ client: JSONAPIClient, _ query: JSONAPIQuery) async throws
    -> JSONAPIDocument<[Example], JSONAPICursorPageMeta>
  {
    try await client.get(
      JSONAPIDocument<[Example], JSONAPICursorPageMeta>.self, from: "example-data", query: query)
  }

  /// The error `body` throws, recorded as an issue when it throws another or none. (Swift 6.0's
  /// `#expect(throws:)` does not return the error.)
  func responseError(_ body: () async throws -> Void) async -> JSONAPIResponseError? {
    do {
      try await body()
      Issue.record("no error thrown")
    } catch let error as JSONAPIResponseError {
      return error
    } catch {
      Issue.record("expected JSONAPIResponseError, got \(error)")
    }
    return nil
  }

  // MARK: The profile's examples, request and response

  @Test func afterCursorExample() async throws {
    let (client, _) = client()
    let page = try await fetch(client, JSONAPIQuery().page(size: 2, after: "abcde"))
    #expect(page.data.map(\.id) == ["7", "8"])
    #expect(page.data.map(\.cursor) == ["yyy", "zzz"])
    #expect(
      try linkQuery(page.links?.prev) == JSONAPIQuery(parsing: "page[before]=yyy&page[size]=2"))
    #expect(
      try linkQuery(page.links?.next) == JSONAPIQuery(parsing: "page[after]=zzz&page[size]=2"))
    #expect(!page.rangeTruncated)
  }

  @Test func beforeCursorExample() async throws {
    let (client, _) = client()
    let page = try await fetch(client, JSONAPIQuery().page(size: 3, before: "xxx"))
    #expect(page.data.map(\.id) == ["5", "7", "8"])
    #expect(
      try linkQuery(page.links?.prev) == JSONAPIQuery(parsing: "page[before]=abcde&page[size]=3"))
    #expect(
      try linkQuery(page.links?.next) == JSONAPIQuery(parsing: "page[after]=zzz&page[size]=3"))
  }

  @Test func rangeExampleUsesTheMaximumSize() async throws {
    let (client, _) = client()
    let page = try await fetch(client, JSONAPIQuery().page(after: "abcde").page("before", "xxx"))
    #expect(page.data.map(\.id) == ["7", "8"])
    #expect(!page.rangeTruncated)
    // No page[size] in the links: the request sent none.
    #expect(try linkQuery(page.links?.prev) == JSONAPIQuery(parsing: "page[before]=yyy"))
    #expect(try linkQuery(page.links?.next) == JSONAPIQuery(parsing: "page[after]=zzz"))
  }

  @Test func truncatedRangeExample() async throws {
    let (client, _) = client()
    let page = try await fetch(
      client, JSONAPIQuery().page(size: 1, after: "abcde").page("before", "xxx"))
    #expect(page.data.map(\.id) == ["7"])
    #expect(page.rangeTruncated && page.meta?.rangeTruncated == true)
    #expect(
      try linkQuery(page.links?.prev) == JSONAPIQuery(parsing: "page[before]=yyy&page[size]=1"))
    #expect(
      try linkQuery(page.links?.next) == JSONAPIQuery(parsing: "page[after]=yyy&page[size]=1"))
  }

  // MARK: Forwards along `next`

  @Test func forwardsFollowsCursorNextLinksToTheEnd() async throws {
    let (client, transport) = client()
    let pages = try await walk(client, query: JSONAPIQuery().page("size", "2"))
    #expect(pages == [["1", "5"], ["7", "8"], ["9"]])
    #expect(
      try pageMembers(transport) == [
        ["size": "2"], ["size": "2", "after": "abcde"], ["size": "2", "after": "zzz"],
      ])
  }

  // The profile lets a server that got `page[before]` give a `next` link without knowing whether
  // anything follows: here it leads to an empty page whose own `next` is null.
  @Test func aNextLinkToAnEmptyPageEndsTheWalkThere() async throws {
    let (client, transport) = client()
    var pages: [JSONAPIDocument<[Example], JSONAPIValue>] = []
    for try await page in client.pages(
      of: [Example].self, from: "example-data",
      query: JSONAPIQuery().page(size: 2, before: CursorProfileServer.end))
    {
      pages.append(page)
    }
    #expect(pages.map { $0.data.map(\.id) } == [["8", "9"], []])
    #expect(pages.last?.links?.next == nil)
    // The empty page says `"next": null`, as the profile requires of an answer without `before`.
    let last = try #require(transport.requests.last)
    let (body, _) = try CursorProfileServer().answer(last)
    #expect(try JSONDecoder().decode(JSONAPIValue.self, from: body)["links"]?["next"] == .null)
    #expect(
      try pageMembers(transport) == [
        ["size": "2", "before": "omega"], ["size": "2", "after": "xxx"],
      ])
  }

  @Test func existingCallsStillWalkForwards() async throws {
    let (client, _) = client()
    var ids: [String] = []
    for try await page in client.pages(of: [Example].self, from: "example-data") {
      ids += page.data.map(\.id)
    }
    #expect(ids == ["1", "5", "7", "8", "9"])
  }

  // MARK: Backwards along `prev`

  @Test func backwardsFromTheLastCursorFollowsPrevLinks() async throws {
    let (client, transport) = client()
    let pages = try await walk(
      client, query: JSONAPIQuery().page(size: 2, before: "xxx"), direction: .backward)
    // Pages nearest first, each in the collection's order; every `next` link left alone.
    #expect(pages == [["7", "8"], ["1", "5"]])
    #expect(
      try pageMembers(transport) == [
        ["size": "2", "before": "xxx"], ["size": "2", "before": "yyy"],
      ])
    #expect(pages.reversed().joined() + ["9"] == ["1", "5", "7", "8", "9"])
  }

  @Test func backwardsFromTheEndReadsEveryItemOnce() async throws {
    let (client, _) = client()
    let pages = try await walk(
      client, query: JSONAPIQuery().page(size: 2, before: CursorProfileServer.end),
      direction: .backward)
    #expect(pages == [["8", "9"], ["5", "7"], ["1"]])
  }

  // Symmetric to the empty `next` page: with `page[after]` sent, `prev` may lead to nothing.
  @Test func aPrevLinkToAnEmptyPageEndsTheWalkThere() async throws {
    let (client, _) = client()
    let pages = try await walk(
      client, query: JSONAPIQuery().page(size: 2, after: CursorProfileServer.start),
      direction: .backward)
    #expect(pages == [["1", "5"], []])
  }

  @Test func aPrevLinkBackToARereadPageIsACycle() async throws {
    let transport = StubTransport { request in
      try Stub.answer(
        request, 200, #"{"data":[],"links":{"prev":"/example-data","next":"/example-data?x=1"}}"#)
    }
    let client = Stub.client(transport)
    await #expect(
      throws: JSONAPIClientError.paginationCycle(
        try #require(URL(string: "https://api.example.com/example-data")))
    ) {
      _ = try await walk(client, query: JSONAPIQuery(), direction: .backward)
    }
    #expect(transport.requests.count == 1)
  }

  // MARK: Every item once, at any page size

  @Test(arguments: [1, 3, 7, 10])
  func everyItemOnceInBothDirections(size: Int) async throws {
    let items = (1...53).map {
      CursorProfileServer.Item(id: String($0), cursor: "c" + String($0 * 7919 % 1000))
    }
    let all = items.map(\.id)
    let (client, _) = client(CursorProfileServer(items: items, sendsTotal: true))
    var forward: [String] = []
    var totals: Set<Int64?> = []
    for try await page in client.pages(
      of: [Example].self, meta: JSONAPICursorPageMeta.self, from: "example-data",
      query: JSONAPIQuery().page("size", String(size)))
    {
      forward += page.data.map(\.id)
      totals.insert(page.meta?.total)
    }
    #expect(forward == all)
    #expect(totals == [53])
    let backward = try await walk(
      client, query: JSONAPIQuery().page(size: size, before: CursorProfileServer.end),
      direction: .backward)
    #expect(Array(backward.reversed().joined()) == all)
    #expect(backward.count == (all.count + size - 1) / size)
  }

  // MARK: Range requests

  @Test func rangeTruncatedIsReadableOnEveryPage() async throws {
    let (client, _) = client()
    let range = JSONAPIQuery().page(size: 1, after: "abcde").page("before", "xxx")
    var untyped: [Bool] = []
    for try await page in client.pages(of: [Example].self, from: "example-data", query: range) {
      untyped.append(page.rangeTruncated)
    }
    var typed: [Bool] = []
    var ids: [String] = []
    for try await page in client.pages(
      of: [Example].self, meta: JSONAPICursorPageMeta.self, from: "example-data", query: range)
    {
      typed.append(page.rangeTruncated)
      ids += page.data.map(\.id)
    }
    // The truncated range's `next` continues after the last item received, without `before`.
    #expect(untyped == [true, false, false])
    #expect(typed == untyped)
    #expect(ids == ["7", "8", "9"])
  }

  // MARK: The profile's errors, as JSONAPIResponseError

  @Test func aSizeOverTheMaximumIsTheProfilesError() async throws {
    let (client, transport) = client()
    var iterator = client.pages(
      of: [Example].self, from: "example-data", query: JSONAPIQuery().page(size: 11, after: "abcde")
    ).makeAsyncIterator()
    let error = try #require(await responseError { _ = try await iterator.next() })
    #expect(error.statusCode == 400)
    let object = try #require(error.errors.first)
    #expect(object.source?.parameter == "page[size]")
    #expect(object.links?.type?.href == Self.profile + "max-size-exceeded")
    #expect(object.meta?["page"]?["maxSize"]?.intValue == 10)
    #expect(try await iterator.next() == nil)
    #expect(transport.requests.count == 1)
  }

  // The profile's own example error object, verbatim: its `links.type` is an array (an early
  // form of JSON:API 1.1's error `type` link), which the lenient error reader keeps aside in
  // `additionalMembers` while status, source and meta still read.
  @Test func theProfilesExampleErrorObjectReads() async throws {
    let transport = StubTransport { request in
      try Stub.answer(
        request, 400,
        #"""
        {"errors":[{
          "status": "400",
          "meta": {"page": {"maxSize": 100}},
          "title": "Page size requested is too large.",
          "detail": "You requested a size of 200, but 100 is the maximum.",
          "source": {"parameter": "page[size]"},
          "links": {
            "type": ["https://jsonapi.org/profiles/ethanresnick/cursor-pagination/max-size-exceeded"]
          }
        }]}
        """#)
    }
    let error = try #require(
      await responseError {
        _ = try await walk(Stub.client(transport), query: JSONAPIQuery().page("size", "200"))
      })
    #expect(error.statusCode == 400)
    let object = try #require(error.errors.first)
    #expect(object.source?.parameter == "page[size]")
    #expect(object.meta?["page"]?["maxSize"]?.intValue == 100)
    #expect(
      object.additionalMembers["links"]?["type"]?[0]?.stringValue
        == Self.profile + "max-size-exceeded")
  }

  @Test func invalidSizesAndCursorsNameTheirParameter() async throws {
    let (client, _) = client()
    for (query, parameter) in [
      (JSONAPIQuery().page(size: 0, after: "abcde"), "page[size]"),
      (JSONAPIQuery().page("size", "-1"), "page[size]"),
      (JSONAPIQuery().page("size", "two"), "page[size]"),
      (JSONAPIQuery().page(after: "nope"), "page[after]"),
      (JSONAPIQuery().page(size: 2, before: "nope"), "page[before]"),
    ] {
      let error = try #require(await responseError { _ = try await walk(client, query: query) })
      #expect(error.statusCode == 400, "\(query)")
      #expect(error.errors.first?.source?.parameter == parameter, "\(query)")
      #expect(error.errors.first?.links?.type == nil, "\(query)")
    }
  }

  @Test func refusedRangesAndSortsCarryTheProfilesTypeLinks() async throws {
    let (client, _) = client(CursorProfileServer(supportsRange: false))
    let range = try #require(
      await responseError {
        _ = try await walk(client, query: JSONAPIQuery().page(after: "ppp").page("before", "xxx"))
      })
    #expect(range.statusCode == 400)
    #expect(
      range.errors.first?.links?.type?.href == Self.profile + "range-pagination-not-supported")
    let sort = try #require(
      await responseError {
        _ = try await walk(client, query: JSONAPIQuery().sorted(by: .descending("id")))
      })
    #expect(sort.errors.first?.source?.parameter == "sort")
    #expect(sort.errors.first?.links?.type?.href == Self.profile + "unsupported-sort")
  }
}
