import Foundation
import IntegrationHarness
import JSONAPICodable
import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// Issue 30: every page of a collection read with `pages`, each item counted once, at small page
// sizes too: page numbers on /articles (djangorestframework-jsonapi's own pagination) and the
// Cursor Pagination profile on /articles-by-cursor (IntegrationTests/server/blog/cursor.py: size 5
// by default, 20 at most, `meta.page.total`, item cursors in `meta.page.cursor`), forwards along
// `next` and backwards along `prev`. The collection is read as it stands when the scenario runs:
// earlier checks created and deleted articles.

/// An article as a list shows it, with the resource's `meta` for its cursor.
struct ListedArticle: Decodable, Sendable {
  var id: String
  var type = "articles"
  var title: String?
  var meta: JSONAPIValue?

  /// The profile's item cursor, `meta.page.cursor`.
  var cursor: String? { meta?["page"]?["cursor"]?.stringValue }
}

/// One walk with `pages`: the ids page by page, and the pages themselves.
struct Walk {
  var pages: [JSONAPIDocument<[ListedArticle], JSONAPICursorPageMeta>] = []
  var ids: [[String]] { pages.map { $0.data.map(\.id) } }
  var items: [ListedArticle] { pages.flatMap(\.data) }
}

@MainActor func pagingScenario(_ client: JSONAPIClient) async {
  let profile = "https://jsonapi.org/profiles/ethanresnick/cursor-pagination/"
  let cursorPath = "articles-by-cursor"

  /// Every article id in id order, from one page as large as the server allows (100).
  func allIDs(_ query: JSONAPIQuery = JSONAPIQuery()) async throws -> [String] {
    let page = try await client.get(
      JSONAPIDocument<[ListedArticle], PageMeta>.self, from: "articles",
      query: query.page("size", "100"))
    let ids = page.data.map(\.id)
    await expect(page.meta?.pagination.count == ids.count, "more than 100 articles: \(ids.count)")
    return ids
  }

  func walk(
    _ path: String, _ query: JSONAPIQuery = JSONAPIQuery(),
    _ direction: JSONAPIPageDirection = .forward
  ) async throws -> Walk {
    var walk = Walk()
    for try await page in client.pages(
      of: [ListedArticle].self, meta: JSONAPICursorPageMeta.self, from: path, query: query,
      direction: direction)
    {
      walk.pages.append(page)
    }
    return walk
  }

  await check("pages reads every page of /articles once, at page sizes 1, 3 and 10") {
    let all = try await allIDs()
    await expect(all.count >= 20, "\(all.count) articles")
    for size in [1, 3, 10] {
      let walked = try await walk("articles", JSONAPIQuery().page("size", String(size)))
      let ids = walked.ids.flatMap { $0 }
      await expect(ids == all, "size \(size): \(ids.count) ids read, \(all.count) expected")
      await expect(Set(ids).count == ids.count, "size \(size): an article read twice")
      await expect(
        walked.pages.count == (all.count + size - 1) / size, "size \(size): \(walked.pages.count)")
    }
  }

  await check("cursor profile: pages reads /articles-by-cursor forwards to the end, each once") {
    let all = try await allIDs()
    for query in [
      JSONAPIQuery(), JSONAPIQuery().page("size", "1"), JSONAPIQuery().page("size", "4"),
    ] {
      let walked = try await walk(cursorPath, query)
      let ids = walked.ids.flatMap { $0 }
      let size = query.page["size"].flatMap { Int($0) } ?? 5
      await expect(ids == all, "size \(size): read \(ids)")
      await expect(walked.ids.allSatisfy { $0.count <= size }, "size \(size): a page too large")
      await expect(walked.pages.count == (all.count + size - 1) / size, "\(walked.pages.count)")
      await expect(
        walked.pages.allSatisfy { $0.meta?.total == Int64(all.count) }, "meta.page.total")
      await expect(walked.items.allSatisfy { $0.cursor != nil }, "an item without its cursor")
    }
  }

  await check("cursor profile: links keep the other parameters (a filter) page after page") {
    let filter = JSONAPIQuery().filter("word-count.gte", "1000")
    let all = try await allIDs(filter)
    let walked = try await walk(cursorPath, filter.page("size", "3"))
    await expect(walked.ids.flatMap { $0 } == all, "\(walked.ids) against \(all)")
    await expect(walked.pages.allSatisfy { $0.meta?.total == Int64(all.count) }, "filtered total")
  }

  await check("cursor profile: pages walks backwards along prev from the last cursor, each once") {
    let all = try await allIDs()
    let forward = try await walk(cursorPath)
    let last = try await required(forward.items.last, "the last article")
    let cursor = try await required(last.cursor, "the last article's cursor")
    let backward = try await walk(
      cursorPath, JSONAPIQuery().page(size: 4, before: cursor), .backward)
    // Nearest page first; each page in id order; the last article is the cursor's own.
    let ids = backward.ids.reversed().flatMap { $0 } + [last.id]
    await expect(ids == all, "read \(backward.ids)")
    await expect(backward.ids.allSatisfy { $0.count <= 4 }, "pages of 4")
    await expect(backward.pages.count == (all.count - 1 + 3) / 4, "\(backward.pages.count) pages")
  }

  await check("cursor profile: pages walks backwards from the `last` link to the first item") {
    let all = try await allIDs()
    let first = try await client.get(
      JSONAPIDocument<[ListedArticle], JSONAPICursorPageMeta>.self, from: cursorPath,
      query: JSONAPIQuery().page("size", "6"))
    let last = try await required(first.links?.last?.href, "links.last")
    let backward = try await walk(last, JSONAPIQuery(), .backward)
    await expect(backward.ids.reversed().flatMap { $0 } == all, "read \(backward.ids)")
    await expect(backward.ids.first?.count == 6, "the last page is full: \(backward.ids)")
  }

  await check("cursor profile: a next link given without looking leads to an empty page, the end") {
    // With `page[before]` in the request the server does not look past the page: its `next`
    // link leads, from the last page, to an empty page whose own `next` is null.
    let all = try await allIDs()
    let first = try await client.get(
      JSONAPIDocument<[ListedArticle], JSONAPICursorPageMeta>.self, from: cursorPath)
    let last = try await required(first.links?.last?.href, "links.last")
    let walked = try await walk(last)
    await expect(walked.ids == [Array(all.suffix(5)), []], "read \(walked.ids)")
  }

  await check("cursor profile: a range request is truncated to page[size] and says so") {
    let all = try await allIDs()
    let items = try await walk(cursorPath, JSONAPIQuery().page("size", "20")).items
    guard items.count > 10, let after = items[2].cursor, let before = items[10].cursor else {
      throw MissingValue(what: "11 articles with cursors")
    }
    let range = JSONAPIQuery().page(size: 3, after: after).page("before", before)
    let truncated = try await walk(cursorPath, range)
    await expect(truncated.pages.first?.rangeTruncated == true, "rangeTruncated on the first page")
    await expect(truncated.ids.first == Array(all[3..<6]), "the range's first 3: \(truncated.ids)")
    // Its `next` continues after the last item received, without `page[before]`, to the end.
    await expect(truncated.ids.flatMap { $0 } == Array(all[3...]), "\(truncated.ids)")
    await expect(truncated.pages.dropFirst().allSatisfy { !$0.rangeTruncated }, "later pages")
    // Without page[size] the used size is the maximum (20): the whole range, not truncated.
    let whole = try await client.get(
      JSONAPIDocument<[ListedArticle], JSONAPIValue>.self, from: cursorPath,
      query: JSONAPIQuery().page(after: after).page("before", before))
    await expect(whole.data.map(\.id) == Array(all[3..<10]), "\(whole.data.map(\.id))")
    await expect(!whole.rangeTruncated, "the whole range fits")
  }

  await check("cursor profile: page[size] over the maximum is the profile's 400, read as an error")
  {
    let error = await expectThrows(JSONAPIResponseError.self) {
      _ = try await walk(cursorPath, JSONAPIQuery().page("size", "21"))
    }
    await expect(error?.statusCode == 400, "status \(String(describing: error?.statusCode))")
    let object = error?.errors.first
    await expect(object?.source?.parameter == "page[size]", "\(String(describing: object))")
    await expect(object?.links?.type?.href == profile + "max-size-exceeded", "links.type")
    await expect(object?.meta?["page"]?["maxSize"]?.intValue == 20, "meta.page.maxSize")
  }

  await check("cursor profile: a size of 0, a broken cursor and another sort name their parameter")
  {
    for (query, parameter) in [
      (JSONAPIQuery().page(size: 0, after: "aWQ6MQ"), "page[size]"),
      (JSONAPIQuery().page(size: 2, before: "not a cursor"), "page[before]"),
      (JSONAPIQuery().sorted(by: .descending("title")), "sort"),
    ] {
      let error = await expectThrows(JSONAPIResponseError.self) {
        _ = try await walk(cursorPath, query)
      }
      await expect(
        error?.statusCode == 400 && error?.errors.first?.source?.parameter == parameter,
        "\(parameter): \(String(describing: error))")
    }
  }

  await check("cursor profile: the answer names the profile; prev and next are always present") {
    let answers = [
      try await rawRequest(client.baseURL, cursorPath, query: "page%5Bsize%5D=5"),
      try await rawRequest(client.baseURL, cursorPath, query: "page%5Bsize%5D=100"),
    ]
    for (body, response) in answers {
      let contentType = response.value(forHTTPHeaderField: "Content-Type") ?? ""
      let mediaType = JSONAPIMediaType(headerValue: contentType)
      await expect(mediaType?.profiles == [profile], "Content-Type \(contentType)")
      let links = try JSONDecoder().decode(JSONAPIValue.self, from: body)["links"]
      let isError = (try? JSONDecoder().decode(JSONAPIValue.self, from: body)["errors"]) != nil
      if !isError, links?["prev"] == nil || links?["next"] == nil {
        await departure("cursor pagination profile", "a page without prev or next: \(links ?? nil)")
      }
    }
  }
}
