import Foundation
import IntegrationHarness
import JSONAPICodable
import JSONAPINetworking

// Issue 36: a server that bends the spec as real servers do (IntegrationTests/bent/server.py,
// started by Scripts/integration.sh): pages by number or offset without pagination links (one
// ignores the parameter; one counts the page in `meta`), integer ids in linkage, `"meta": null`
// in atomic results, and a 201 whose resource does not match the client's model. 23 articles, 10
// per page at most (25 on the page-counting path).

/// An article whose title the client requires.
struct TitledArticle: Codable, Sendable {
  var id: String?
  var type = "articles"
  var title: String
  var author: Person?
}

@MainActor func bentServerScenario(_ baseURL: URL) async {
  let client = JSONAPIClient(baseURL: baseURL)
  let all = (1...23).map(String.init)

  func walk(_ path: String, _ query: JSONAPIQuery) async throws -> [[String]] {
    var pages: [[String]] = []
    for try await page in client.pages(of: [ListedArticle].self, from: path, query: query) {
      pages.append(page.data.map(\.id))
    }
    return pages
  }

  /// The request targets the server received since `since` (its log's length then).
  func targets(since: Int) async throws -> [String] {
    let log = try await client.get(
      JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self, from: "requests")
    let targets = log.meta?["targets"]?.arrayValue?.compactMap(\.stringValue) ?? []
    return Array(targets.dropFirst(since).filter { !$0.hasPrefix("/requests") })
  }

  func logLength() async throws -> Int {
    let log = try await client.get(
      JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self, from: "requests")
    return log.meta?["targets"]?.arrayValue?.count ?? 0
  }

  await check("bent server: pages by page[number] without links, to the short page") {
    let before = try await logLength()
    let pages = try await walk(
      "numbered", JSONAPIQuery().page(number: 1, size: 10).adding("x", "a b"))
    await expect(pages.map(\.count) == [10, 10, 3], "\(pages)")
    await expect(pages.flatMap { $0 } == all, "every article once")
    let sent = try await targets(since: before)
    await expect(
      sent == (1...3).map { "/numbered?page%5Bnumber%5D=\($0)&page%5Bsize%5D=10&x=a%20b" },
      "other parameters kept byte for byte: \(sent)")
  }

  await check("bent server: pages by page[offset] without links, ended by meta.count") {
    let before = try await logLength()
    let pages = try await walk("offset", JSONAPIQuery().page(offset: 0, limit: 10))
    await expect(pages.flatMap { $0 } == all, "\(pages)")
    let sent = try await targets(since: before)
    await expect(sent.count == 3, "no request past the total: \(sent)")
  }

  await check("bent server: a meta that counts the page does not end the walk early (issue 48)") {
    let before = try await logLength()
    let pages = try await walk("page-counted", JSONAPIQuery().page(number: 1, size: 5))
    await expect(pages.map(\.count) == [5, 5, 5, 5, 5], "\(pages)")
    await expect(pages.flatMap { $0 } == (1...25).map(String.init), "all 25 articles once")
    let sent = try await targets(since: before)
    await expect(sent.count == 6, "five full pages and the empty sixth: \(sent)")
  }

  await check("bent server: a server that ignores page[number] is read once") {
    let pages = try await walk("ignoring", JSONAPIQuery().page(number: 1, size: 10))
    await expect(pages == [Array(all.prefix(10))], "\(pages)")
  }

  await check("bent server: integer ids in linkage read as text and resolve against included") {
    let linkage = try await client.get(
      JSONAPIResourceIdentifier.self, from: "articles/4/relationships/author")
    await expect(linkage.type == "people" && linkage.id == "2", "\(linkage)")
    let four = try await client.get(
      TitledArticle.self, from: "articles/4", query: JSONAPIQuery().including("author"))
    await expect(four.author?.id == "2" && four.author?.name == "Person 2", "\(four)")
  }

  await check("bent server: atomic results with \"meta\": null are a committed write") {
    let results = try await client.perform(
      [
        .add(NewArticle(title: "Null meta", wordCount: 1)),
        .add(NewArticle(title: "Two", wordCount: 2)),
      ],
      at: "operations")
    let created = try results.map { try $0.decode(TitledArticle.self) }
    await expect(created.map(\.title) == ["Null meta", "Two"], "\(created)")
    await expect(created.allSatisfy { $0.id != nil }, "server ids")
  }

  await check("bent server: an unreadable 201 says the server created it") {
    let error = await expectThrows(JSONAPIUnreadableSuccessError.self) {
      let _: TitledArticle = try await client.create(
        NewArticle(title: "Kept", wordCount: 1), at: "unreadable")
    }
    await expect(
      error?.statusCode == 201 && error?.method == "POST", "\(String(describing: error))")
    await expect(error?.location == baseURL.appendingPathComponent("articles/99"), "Location")
    await expect(error?.underlyingError is DecodingError, "the decoding error is kept")
    await expect(
      error?.description.contains("so it most likely applied the change") == true,
      error?.description ?? "")
  }
}
