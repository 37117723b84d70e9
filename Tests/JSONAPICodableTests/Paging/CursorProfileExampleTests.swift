import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// The Cursor Pagination profile's own examples
/// (https://jsonapi.org/profiles/ethanresnick/cursor-pagination/), request by request, against
/// ``ProfileExampleData``: the data, the `prev` and `next` links and the `meta` the profile shows.
@Suite struct CursorProfileExampleTests {
  struct Fixture: Sendable, CustomTestStringConvertible {
    let name: String
    let target: String
    var maxSize = 10
    var total: Int?
    let data: [String]
    let prev: String?
    let next: String?
    var meta: JSONAPIValue?
    var testDescription: String { name }
  }

  static let fixtures: [Fixture] = [
    // "Then, for example, if the request was: GET /example-data?page[after]=abcde&page[size]=2"
    Fixture(
      name: "after-with-size", target: "/example-data?page[after]=abcde&page[size]=2",
      data: ["7", "8"], prev: "/example-data?page[before]=yyy&page[size]=2",
      next: "/example-data?page[after]=zzz&page[size]=2"),
    // "Alternatively, if the request was: GET /example-data?page[before]=xxx&page[size]=3"
    Fixture(
      name: "before-with-size", target: "/example-data?page[before]=xxx&page[size]=3",
      data: ["5", "7", "8"], prev: "/example-data?page[before]=abcde&page[size]=3",
      next: "/example-data?page[after]=zzz&page[size]=3"),
    // Range pagination, "assuming our server's max page size was greater than 1".
    Fixture(
      name: "range", target: "/example-data?page[after]=abcde&page[before]=xxx",
      data: ["7", "8"], prev: "/example-data?page[before]=yyy",
      next: "/example-data?page[after]=zzz"),
    // "However, if … the client included page[size]=1 in its request".
    Fixture(
      name: "range-truncated-by-size",
      target: "/example-data?page[after]=abcde&page[before]=xxx&page[size]=1", data: ["7"],
      prev: "/example-data?page[before]=yyy&page[size]=1",
      next: "/example-data?page[after]=yyy&page[size]=1", meta: ["page": ["rangeTruncated": true]]),
    // "… if our server's max page size was 1": the used size is the max size; no `page[size]`
    // was sent, so the links have none.
    Fixture(
      name: "range-truncated-by-max-size",
      target: "/example-data?page[after]=abcde&page[before]=xxx", maxSize: 1, data: ["7"],
      prev: "/example-data?page[before]=yyy", next: "/example-data?page[after]=yyy",
      meta: ["page": ["rangeTruncated": true]]),
    // "Omitting Both page[after] and page[before]": the first page; no previous one (MUST know).
    Fixture(
      name: "first-page", target: "/example-data?page[size]=2", data: ["1", "5"], prev: nil,
      next: "/example-data?page[after]=abcde&page[size]=2"),
    // Without `page[after]` the server must know whether a previous page exists: none before 1.
    Fixture(
      name: "before-at-start", target: "/example-data?page[before]=abcde", data: ["1"], prev: nil,
      next: "/example-data?page[after]=vvv"),
    // Without `page[before]` the server must know whether a next page exists: none after 9.
    Fixture(
      name: "after-to-end", target: "/example-data?page[after]=zzz&page[size]=5", data: ["9"],
      prev: "/example-data?page[before]=xxx&page[size]=5", next: nil),
    // An empty page past the end: nothing to link from.
    Fixture(
      name: "after-past-end", target: "/example-data?page[after]=xxx", data: [], prev: nil,
      next: nil),
    // An empty range: what lies before `xxx` ends at 8, what lies after `zzz` starts at 9.
    Fixture(
      name: "empty-range", target: "/example-data?page[after]=zzz&page[before]=xxx", data: [],
      prev: "/example-data?page[before]=xxx", next: "/example-data?page[after]=zzz"),
    // "Collection Sizes": the total in `meta.page.total`.
    Fixture(
      name: "total", target: "/example-data?page[size]=2", total: 5, data: ["1", "5"], prev: nil,
      next: "/example-data?page[after]=abcde&page[size]=2", meta: ["page": ["total": 5]]),
  ]

  @Test(arguments: fixtures)
  func answersAsTheProfileShows(_ fixture: Fixture) throws {
    let paging = JSONAPIPaging.cursor(
      defaultSize: min(10, fixture.maxSize), maxSize: fixture.maxSize, allowsRangePagination: true)
    let document = try ProfileExampleData.serve(
      fixture.target, paging: paging, total: fixture.total, name: "cursor-\(fixture.name)")
    let data = document["data"]?.arrayValue ?? []
    #expect(data.compactMap { $0["id"]?.stringValue } == fixture.data)
    #expect(data.allSatisfy { $0["type"] == "examples" })
    // Item cursors, as the profile's first example shows them.
    #expect(
      data.map { $0["meta"]?["page"]?["cursor"]?.stringValue }
        == fixture.data.map { ProfileExampleData.cursors[$0] })
    let links = document["links"]
    // "servers MUST include a prev and a next link": present, as `null` when there is none.
    #expect(links?.objectValue?["prev"] != nil && links?.objectValue?["next"] != nil)
    expectLink(links?["prev"], fixture.prev, "prev")
    expectLink(links?["next"], fixture.next, "next")
    expectLink(links?["self"], fixture.target, "self")
    #expect(document["meta"] == fixture.meta)
  }

  // `first` is cheap with cursors: the request without them, and its size if it sent one.
  @Test func firstLinkDropsTheCursors() throws {
    let document = try ProfileExampleData.serve(
      "/example-data?page[before]=xxx&page[size]=3",
      paging: .cursor(defaultSize: 10, maxSize: 10), name: "cursor-first-link")
    expectLink(document["links"]?["first"], "/example-data?page[size]=3", "first")
    #expect(document["links"]?["last"] == nil)
  }

  // Following `next` from the first page reads every item once, and `prev` from the last reads
  // them all backwards: the links are usable requests.
  @Test(arguments: [1, 2, 3, 5, 6])
  func linksWalkTheWholeList(size: Int) throws {
    let paging = JSONAPIPaging.cursor(defaultSize: size, maxSize: 10)
    var forward: [String] = []
    var target: String? = "/example-data?filter%5Bkind%5D=all"
    var last = ""
    var pages = 0
    while let current = target, pages <= ProfileExampleData.ids.count {
      pages += 1
      let document = try ProfileExampleData.serve(current, paging: paging, name: "cursor-walk")
      forward += (document["data"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
      #expect(current.hasPrefix("/example-data?filter%5Bkind%5D=all"))
      last = current
      target = document["links"]?["next"]?.stringValue
    }
    #expect(forward == ProfileExampleData.ids)
    // Backwards from the last page.
    var backward: [String] = []
    target = last
    pages = 0
    while let current = target, pages <= ProfileExampleData.ids.count {
      let document = try ProfileExampleData.serve(current, paging: paging, name: "cursor-walk")
      backward.insert(
        contentsOf: (document["data"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue },
        at: 0)
      target = document["links"]?["prev"]?.stringValue
      pages += 1
    }
    #expect(backward == ProfileExampleData.ids)
  }

  // The profile's Max Page Size Exceeded example: `"meta": {"page": {"maxSize": 100}}`,
  // `"source": {"parameter": "page[size]"}`, and the `type` link. (The profile's example writes
  // `type` as an array, from a JSON:API 1.1 draft; 1.1 made it a link.)
  @Test func maxPageSizeExceededAsTheProfileShows() throws {
    let paging = JSONAPIPaging.cursor(defaultSize: 10, maxSize: 100)
    let error = try #require(
      thrown {
        try ProfileExampleData.serve("/example-data?page[size]=200", paging: paging, name: "x")
      })
    #expect(
      error as? JSONAPIPagingError
        == .maxSizeExceeded(parameter: "page[size]", size: "200", maxSize: 100))
    let object = try errorDocument(error, name: "cursor-max-size-exceeded")
    #expect(object["status"] == "400")
    #expect(object["meta"] == ["page": ["maxSize": 100]])
    #expect(object["source"] == ["parameter": "page[size]"])
    #expect(
      object["links"]?["type"]
        == "https://jsonapi.org/profiles/ethanresnick/cursor-pagination/max-size-exceeded")
    #expect(object["detail"]?.stringValue?.contains("200") == true)
  }

  // The profile's Invalid Parameter Value example: "page[size] must be a positive integer; got 0".
  @Test func invalidParameterValueAsTheProfileShows() throws {
    let paging = JSONAPIPaging.cursor(defaultSize: 10, maxSize: 100)
    let error = try #require(
      thrown {
        try ProfileExampleData.serve("/example-data?page[size]=0", paging: paging, name: "x")
      })
    #expect(error is JSONAPIPagingError)
    let object = try errorDocument(error, name: "cursor-invalid-size")
    #expect(object["status"] == "400")
    #expect(object["source"] == ["parameter": "page[size]"])
    #expect(object["links"] == nil)
  }
}
