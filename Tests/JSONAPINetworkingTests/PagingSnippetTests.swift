import Foundation
import JSONAPICodable
import JSONAPIServer
import Testing

@testable import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// The Swift snippets of the DocC article ServingPages.md (JSONAPIServer.docc) and of the README's
// paging block ("Serving JSON:API"), compiled and run here: the article's server handler serves
// the article's client loops through a stub transport, so both sides of the article are checked
// against each other. ReadmeSnippetSyncTests checks that every line of both has its twin here.
private struct Person: Codable, Sendable, JSONAPIResource {
  static let jsonAPIType = "people"
  var id: String
  var name: String
}

private struct Article: Codable, Sendable, JSONAPIResource {
  static let jsonAPIType = "articles"
  var id: String
  var title: String
}

/// What a framework's handler returns, as in the README.
private struct Answer {
  var status: Int
  var contentType: String
  var body: Data
  init(_ status: Int, _ contentType: String, _ body: Data) {
    self.status = status
    self.contentType = contentType
    self.body = body
  }
}

/// 50 people in name order, whose cursor is their id (`p1` … `p50`), and 25 articles.
private struct Store: Sendable {
  let everyone = (1...50).map { Person(id: "p\($0)", name: "Person \($0)") }
  let allArticles = (1...25).map { Article(id: "\($0)", title: "Article \($0)") }

  func people(after: String?, before: String?, limit: Int) throws -> ([Person], Bool) {
    func position(_ cursor: String, _ member: String) throws -> Int {
      guard let index = everyone.firstIndex(where: { $0.id == cursor }) else {
        throw JSONAPIPagingError.invalidValue(
          parameter: "page[\(member)]", value: cursor, reason: "it is not a cursor of this list")
      }
      return index
    }
    let start = try after.map { try position($0, "after") + 1 } ?? 0
    let end = try before.map { try position($0, "before") } ?? everyone.count
    let window = start < end ? Array(everyone[start..<end]) : []
    let slice = before != nil && after == nil ? window.suffix(limit) : window.prefix(limit)
    return (Array(slice), window.count > slice.count)
  }

  func articles(offset: Int, limit: Int) -> ([Article], Int) {
    let start = min(offset, allArticles.count)
    return (Array(allArticles[start..<min(start + limit, allArticles.count)]), allArticles.count)
  }
}

private let store = Store()
private let headers = ["Accept": "application/vnd.api+json"]

// MARK: ServingPages.md, serving (file-private globals, as the article's top-level code)

private let paging = JSONAPIPaging.cursor(
  defaultSize: 20, maxSize: 100, allowsRangePagination: true)
private let rules = paging.rules(JSONAPIQueryRules(sortFields: ["name"]))
private let negotiation = JSONAPIContentNegotiation(
  supportedProfiles: [JSONAPIPaging.cursorPaginationProfile])

private func listPeople(target: String, rawQuery: String, headers: [String: String]) throws
  -> Answer
{
  let negotiated = try negotiation.negotiate(headers: headers, hasBody: false)
  let query = try JSONAPIQuery(parsing: rawQuery)
  try rules.validate(query)  // the page errors are the profile's
  let page = try paging.page(for: query)  // page.size, page.after, page.before
  let (people, hasMore) = try store.people(after: page.after, before: page.before, limit: page.size)
  let paged = paging.response(
    for: page, target: target, cursors: people.map(\.id), count: people.count, hasMore: hasMore)
  let document = JSONAPIDocument(data: people, meta: paged.meta, links: paged.links)
  let body = try JSONAPIEncoder().encode(document, for: query)
  return Answer(200, paging.mediaType(applyingTo: negotiated).headerValue, body)
}

private let articlePaging = JSONAPIPaging.pageNumber(defaultSize: 10, maxSize: 50)

private func listArticles(target: String, rawQuery: String) throws -> Data {
  let query = try JSONAPIQuery(parsing: rawQuery)
  try articlePaging.rules(JSONAPIQueryRules()).validate(query)
  let page = try articlePaging.page(for: query)  // page.number, page.size, page.offset
  let (articles, total) = store.articles(offset: page.offset ?? 0, limit: page.size)
  let paged = articlePaging.response(
    for: page, target: target, count: articles.count,
    hasMore: (page.offset ?? 0) + articles.count < total, total: total)
  return try JSONAPIEncoder().encode(
    JSONAPIDocument(data: articles, meta: paged.meta, links: paged.links), for: query)
}

@Suite struct PagingSnippetTests {
  @Test func servingPagesByCursor() throws {
    let target = "/people?filter%5Bteam%5D=blue&page%5Bsize%5D=2"
    let answer = try listPeople(
      target: target, rawQuery: "filter%5Bteam%5D=blue&page%5Bsize%5D=2", headers: headers)
    #expect(answer.status == 200)
    #expect(
      answer.contentType
        == #"application/vnd.api+json;profile="https://jsonapi.org/profiles/ethanresnick/cursor-pagination/""#
    )
    let document = try JSONDecoder().decode(JSONAPIValue.self, from: answer.body)
    #expect(document["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["p1", "p2"])
    // The article's JSON block is the answer's `links`.
    let block = try JSONDecoder().decode(
      JSONAPIValue.self,
      from: Data(try DocCArticle.jsonBlock(of: "ServingPages.md").joined(separator: "\n").utf8))
    #expect(document["links"] == block)
  }

  @Test func errorsAreTheProfiles() throws {
    do {
      _ = try listPeople(
        target: "/people?page%5Bsize%5D=500", rawQuery: "page%5Bsize%5D=500", headers: headers)
      Issue.record("a size over the maximum was served")
    } catch {
      let object = JSONAPIErrorObject(describing: error)
      // 400, source.parameter "page[size]", meta.page.maxSize 100, the profile's type link
      let body = try JSONAPIEncoder().encode(errors: [object])
      let sent = try JSONDecoder().decode(JSONAPIValue.self, from: body)["errors"]?[0]
      #expect(sent?["status"] == "400")
      #expect(sent?["source"] == ["parameter": "page[size]"])
      #expect(sent?["meta"] == ["page": ["maxSize": 100]])
      #expect(
        sent?["links"]?["type"]
          == "https://jsonapi.org/profiles/ethanresnick/cursor-pagination/max-size-exceeded")
    }
  }

  @Test func servingPagesByNumber() throws {
    let data = try listArticles(
      target: "/articles?page%5Bnumber%5D=3&page%5Bsize%5D=10",
      rawQuery: "page%5Bnumber%5D=3&page%5Bsize%5D=10")
    let document = try JSONDecoder().decode(JSONAPIValue.self, from: data)
    #expect(document["data"]?.arrayValue?.count == 5)
    #expect(
      document["meta"] == ["page": ["number": 3, "size": 10, "total": 25, "totalPages": 3]])
    #expect(document["links"]?["next"] == nil)
    #expect(
      document["links"]?["prev"] == "/articles?page%5Bnumber%5D=2&page%5Bsize%5D=10")
  }

  // MARK: ServingPages.md, reading

  /// A client whose transport hands each request to the article's `listPeople`.
  func client() -> JSONAPIClient {
    Stub.client(
      StubTransport { request in
        let url = try #require(request.url)
        let rawQuery =
          URLComponents(url: url, resolvingAgainstBaseURL: false)?
          .percentEncodedQuery ?? ""
        do {
          let answer = try listPeople(
            target: request.target, rawQuery: rawQuery, headers: headers)
          return (
            answer.body,
            try Stub.response(
              for: request, status: answer.status, headers: ["Content-Type": answer.contentType])
          )
        } catch {
          let object = JSONAPIErrorObject(describing: error)
          return try Stub.answer(
            request, Int(object.status ?? "500") ?? 500,
            String(decoding: try JSONAPIEncoder().encode(errors: [object]), as: UTF8.self))
        }
      })
  }

  @Test func readingPages() async throws {
    let client = client()
    var printed: [String] = []
    func print(_ names: [String], _ total: Int64) { printed.append("\(names.count) \(total)") }

    var everyone: [Person] = []
    for try await page in client.pages(of: [Person].self, from: "people") {
      everyone += page.data
    }
    #expect(everyone.map(\.id) == store.everyone.map(\.id))

    let older = JSONAPIQuery().page(size: 10, before: "p40")
    for try await page in client.pages(
      of: [Person].self, meta: JSONAPICursorPageMeta.self, from: "people", query: older,
      direction: .backward)
    {
      print(page.data.map(\.name), page.meta?.total ?? 0)
    }
    // p30…p39, p20…p29, p10…p19, p1…p9: four pages backwards, each of 10 but the last.
    #expect(printed == ["10 0", "10 0", "10 0", "9 0"])

    let between = try await client.get(
      JSONAPIDocument<[Person], JSONAPICursorPageMeta>.self, from: "people",
      query: JSONAPIQuery().page("after", "p10").page("before", "p40").page("size", "10"))
    func showMore() { printed.append("more") }
    if between.rangeTruncated {
      showMore()  // more people lie between the cursors than one page holds
    }
    #expect(printed.last == "more")
    // p11…p39 lie between the cursors: the first 10 of them, and the range is said truncated.
    #expect(between.rangeTruncated)
    #expect(between.data.map(\.id) == (11...20).map { "p\($0)" })
  }

  @Test func readingPagesWithoutLinks() async throws {
    typealias Article = LinklessPagesTests.Article
    let transport = LinklessPagesTests.Server(count: 120, defaultSize: 50).transport
    let client = Stub.client(transport)
    var articles: [Article] = []
    for try await page in client.pages(
      of: [Article].self, from: "articles", query: JSONAPIQuery().page(offset: 0, limit: 50))
    {
      articles += page.data  // page[offset]=0, 50, 100, … until the last page
    }
    #expect(articles.map(\.id) == (1...120).map(String.init))
    #expect(
      transport.requests.map(\.target)
        == [0, 50, 100].map {
          "/articles?page%5Blimit%5D=50&page%5Boffset%5D=\($0)"
        })
  }
}
