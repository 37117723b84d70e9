import Foundation
import JSONAPICodable
import ServerExampleKit
import Testing

/// The example server's paging beyond single rows: every collection read to its end by following
/// `next` (each item once, the other parameters kept), read back by `prev` where cursors allow,
/// and empty collections in an empty store.
@Suite struct ServerExamplePagingTests {
  /// Follows `next` links from `start`, returning the ids of every page's data in order.
  func walk(
    _ server: inout ExampleServer, from start: String, link: String = "next"
  ) throws -> (ids: [String], pages: [String]) {
    var ids: [String] = []
    var pages: [String] = []
    var target: String? = start
    while let current = target, pages.count < 20 {
      let response = server.handle(.jsonAPI("GET", current))
      #expect(response.status == 200, "\(current): \(response.text)")
      let document = try JSONDecoder().decode(JSONAPIValue.self, from: response.body ?? Data())
      let data = (document["data"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
      ids = link == "prev" ? data + ids : ids + data
      pages.append(current)
      target = document["links"]?[link]?.stringValue
    }
    return (ids, pages)
  }

  @Test(arguments: [
    ("/articles?sort=-title&page%5Bsize%5D=1", ["1", "2", "3"]),
    ("/articles?page[size]=2&fields[articles]=title", ["1", "2", "3"]),
    ("/people?page%5Bsize%5D=1&sort=name", ["2", "9", "5"]),
    ("/people?page%5Bsize%5D=2", ["2", "9", "5"]),
    ("/comments?page%5Blimit%5D=1&include=author", ["5", "12", "13"]),
    ("/articles/1/comments?page%5Bsize%5D=1", ["5", "12"]),
  ])
  func nextLinksReadEveryItemOnce(start: String, expected: [String]) throws {
    var server = ExampleServer()
    let (ids, pages) = try walk(&server, from: start)
    #expect(ids == expected)
    // Every page after the first was asked for with the start's other parameters, as sent.
    let others = start.split(separator: "?").last?.split(separator: "&").filter {
      !$0.hasPrefix("page")
    }
    for page in pages.dropFirst() {
      #expect(page.hasPrefix(ExampleServer.baseURL))
      for parameter in others ?? [] { #expect(page.contains(parameter), "\(page)") }
    }
  }

  // With cursors, `prev` from the last page reads the list backwards.
  @Test func prevLinksReadPeopleBackwards() throws {
    var server = ExampleServer()
    let last = try walk(&server, from: "/people?page%5Bsize%5D=1").pages.last ?? ""
    let (ids, pages) = try walk(&server, from: last, link: "prev")
    #expect(ids == ["2", "9", "5"])
    #expect(pages.count == 3)
  }

  @Test(arguments: ["/articles", "/people", "/comments", "/people?page%5Bsize%5D=1"])
  func anEmptyStoreAnswersAnEmptyPage(target: String) throws {
    var server = ExampleServer(store: ExampleStore())
    let response = server.handle(.jsonAPI("GET", target))
    #expect(response.status == 200)
    let document = try JSONDecoder().decode(JSONAPIValue.self, from: response.body ?? Data())
    #expect(document["data"] == [])
    let links = document["links"]
    #expect(links?["next"] == nil || links?["next"] == .null)
    #expect(links?["prev"] == nil || links?["prev"] == .null)
    #expect(links?["self"]?.stringValue == ExampleServer.baseURL + target)
    if target.hasPrefix("/people") {
      // The profile: `prev` and `next` present, `null` on the only page.
      #expect(links?["prev"] == .null && links?["next"] == .null)
      #expect(document["meta"] == ["page": ["total": 0]])
      #expect(response.headers["Content-Type"]?.contains("cursor-pagination") == true)
    } else {
      #expect(document["meta"]?["page"]?["total"] == 0)
      #expect(response.headers["Content-Type"] == "application/vnd.api+json")
    }
  }

  // Each person in a cursor page carries its cursor (the profile's item cursors).
  @Test func peopleCarryTheirCursors() throws {
    var server = ExampleServer()
    let response = server.handle(.jsonAPI("GET", "/people?page%5Bsize%5D=2"))
    let document = try JSONDecoder().decode(JSONAPIValue.self, from: response.body ?? Data())
    let data = document["data"]?.arrayValue ?? []
    #expect(data.map { $0["meta"]?["page"]?["cursor"] } == ["2", "9"])
    // A single person, not paged, has none.
    let single = server.handle(.jsonAPI("GET", "/people/2"))
    let person = try JSONDecoder().decode(JSONAPIValue.self, from: single.body ?? Data())
    #expect(person["data"]?["meta"] == nil)
  }
}
