import Foundation
import IntegrationHarness
import JSONAPICodable
import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// JSONAPIClient against the real server of IntegrationTests/server, seeded by its `seed` command:
// 3 people, 5 tags, articles 1–25 (word count = id × 100, author = person (id % 3) + 1),
// 10 per page. Run by Scripts/integration.sh; the server URL comes from the first argument or
// JSONAPI_SERVER_URL, and the bent server's (BentServerScenario.swift) from the second.

let address =
  CommandLine.arguments.dropFirst().first
  ?? ProcessInfo.processInfo.environment["JSONAPI_SERVER_URL"] ?? "http://127.0.0.1:8765/"
guard let baseURL = URL(string: address), let port = baseURL.port,
  let otherOrigin = URL(string: "http://localhost:\(port)/")
else {
  print("usage: IntegrationSuite http://127.0.0.1:PORT/")
  exit(2)
}
let client = makeClient(baseURL)
print("JSONAPIClient against \(baseURL.absoluteString)")

// MARK: The issue's contract, call by call

await check("get a document with included authors and page meta") {
  let page = try await firstPageWithAuthors(client)
  await expect(page.data.count == 10, "\(page.data.count) articles")
  await expect(page.data.allSatisfy { $0.author?.name != nil }, "authors resolved from included")
  await expect(page.meta?.pagination.count == 25, "meta.pagination.count")
  await expect(page.links?.next != nil, "links.next on the first page")
}

await check("get one resource") {
  let one = try await article(client, "1")
  await expect(one.title == "Article 01" && one.wordCount == 100, "\(one)")
  await expect(one.author?.id == "2", "author linkage")
}

await check("pages follows links.next to the last page") {
  let articles = try await allArticles(client)
  await expect(
    articles.compactMap(\.id) == (1...25).map(String.init), "\(articles.compactMap(\.id))")
}

await check("create: 201 body decoded") {
  let created = try await publish(client, title: "Hello from Swift")
  await expect(created.id != nil && created.title == "Hello from Swift", "\(created)")
  await expect(created.wordCount == 42 && created.author?.id == "1", "\(created)")
}

await check("create: Location exposed and equal to links.self (R78)") {
  let response = try await publishReadingLocation(client, title: "Located")
  await expect(response.statusCode == 201, "status \(response.statusCode)")
  await expect(response.location != nil, "Location header")
  await expect(
    response.location?.absoluteString == response.value.links?.selfLink?.href,
    "Location \(response.location?.absoluteString ?? "-") vs links.self")
  if let location = response.location {
    let fetched = try await client.get(Article.self, from: location)
    await expect(fetched.title == "Located", "fetched through the absolute Location URL")
  }
}

await check("update: PATCH answered 200 with the resource") {
  let updated = try await rename(client, "3", to: "Renamed")
  // R82 allows 200 with the resource or 204; this server always sends the resource.
  await expect(updated?.title == "Renamed", "\(String(describing: updated))")
  await expect(try await article(client, "3").title == "Renamed", "stored")
}

await check("delete, then the resource is gone (404)") {
  try await remove(client, "4")
  let error = await expectThrows(JSONAPIResponseError.self) { _ = try await article(client, "4") }
  await expect(error?.statusCode == 404, "status \(String(describing: error?.statusCode))")
}

await check("relationship endpoint: to-many linkage as identifiers") {
  let tags = try await tagIdentifiers(client, "1")
  await expect(tags.map(\.type) == ["tags", "tags"], "\(tags)")
  await expect(Set(tags.compactMap(\.id)) == ["2", "3"], "\(tags)")
}

await check("updateRelationship to-one: null clears, an identifier sets") {
  // djangorestframework-jsonapi 8.1.0 refuses `{"data": null}` here (R83 says it clears the
  // relationship); IntegrationTests/server/blog/views.py fixes that in the app and answers 204.
  await departure(
    "R83",
    "djangorestframework-jsonapi answers 400 to {\"data\": null} on a to-one relationship "
      + "endpoint, and to an identifier while it is empty (patched in the test app: 204)")
  try await clearAuthor(client, "5")
  await expect(try await article(client, "5").author == nil, "author cleared")
  try await setAuthor(client, "5", to: "3")
  await expect(try await article(client, "5").author?.id == "3", "author set")
}

await check("addToRelationship and removeFromRelationship") {
  try await tag(client, "1", with: "5")
  await expect(try await tagIdentifiers(client, "1").contains { $0.id == "5" }, "added")
  try await tag(client, "1", with: "5")  // R84: adding a present member is not an error
  await expect(try await tagIdentifiers(client, "1").filter { $0.id == "5" }.count == 1, "no dup")
  try await untag(client, "1", from: "5")
  await expect(!(try await tagIdentifiers(client, "1").contains { $0.id == "5" }), "removed")
}

await check("updateRelationship to-many replaces all members") {
  try await replaceTags(client, "6", with: ["1", "4"])
  await expect(Set(try await tagIdentifiers(client, "6").compactMap(\.id)) == ["1", "4"], "set")
  try await replaceTags(client, "6", with: [])
  await expect(try await tagIdentifiers(client, "6").isEmpty, "cleared")
}

await check("a 404 throws JSONAPIResponseError with the error objects") {
  let error = await expectThrows(JSONAPIResponseError.self) {
    _ = try await client.get(Article.self, from: "articles/404")
  }
  await expect(error?.statusCode == 404, "status")
  await expect(error?.errors.first?.status == "404", "\(String(describing: error?.errors))")
  await expect(error?.isErrorDocument == true, "decoded as an error document")
}

await check("perform: add a tag and an article that names it by lid, in one request") {
  let results = try await publishWithNewTag(client, title: "Atomic", tag: "lid-linked")
  await expect(results.count == 2, "\(results.count) results")
  let tag = try results[0].decode(Tag.self)
  let article = try results[1].decode(Article.self)
  await expect(tag.name == "lid-linked", "tag \(tag)")
  // The article's linkage names the new tag by its server id; it resolves across the results.
  await expect(article.title == "Atomic" && article.tags?.first?.name == "lid-linked", "\(article)")
  let id = try await required(article.id, "article id")
  let stored = try await client.get(
    Article.self, from: "articles/\(id)", query: JSONAPIQuery().including("tags"))
  await expect(stored.tags?.map(\.id) == [tag.id], "stored tags \(String(describing: stored.tags))")
}

await check("perform: update one article and remove another atomically") {
  let first = try await publishWithNewTag(client, title: "To rename", tag: "renamed")
  let second = try await publishWithNewTag(client, title: "To remove", tag: "removed")
  let keep = try await required(try first[1].decode(Article.self).id, "kept id")
  let gone = try await required(try second[1].decode(Article.self).id, "removed id")
  let results = try await renameAndRemove(client, rename: keep, remove: gone)
  await expect(try results.first?.decode(Article.self).title == "Renamed atomically", "renamed")
  if results.count != 2 {
    await departure("R111", "2 operations answered with \(results.count) results")
  }
  let error = await expectThrows(JSONAPIResponseError.self) {
    _ = try await client.get(Article.self, from: "articles/\(gone)")
  }
  await expect(error?.statusCode == 404, "the removed article is gone")
}

await check("perform: a failing operation rolls back the whole request") {
  let before = try await client.get([Article].self, from: "articles").count
  let error = await expectThrows(JSONAPIResponseError.self) {
    _ = try await client.perform(
      [
        .add(NewArticle(title: "Never stored", wordCount: 1)),
        .remove(JSONAPIResourceIdentifier(type: "articles", id: "999999")),
      ], at: "operations")
  }
  await expect(
    error != nil && (400..<500).contains(error?.statusCode ?? 0), "\(String(describing: error))")
  let after = try await client.get([Article].self, from: "articles").count
  await expect(after == before, "nothing stored: \(before) before, \(after) after")
}

// MARK: Beyond the contract

await check("validation errors: 400 with a pointer per field") {
  let error = await expectThrows(JSONAPIResponseError.self) {
    _ = try await publish(client, title: "spam, spam")
  }
  await expect(error?.statusCode == 400, "status \(String(describing: error?.statusCode))")
  let pointers = error?.errors.compactMap(\.source?.pointer) ?? []
  await expect(pointers == ["/data/attributes/title"], "\(pointers)")
  await expect(message(for: error ?? CancellationError()).contains("spam"), "readable message")
}

await check("sparse fieldsets: only the listed fields come back") {
  let articles = try await titlesOnly(client)
  await expect(articles.count == 10 && articles.allSatisfy { $0.title != nil }, "titles")
  await expect(articles.allSatisfy { $0.wordCount == nil && $0.author == nil }, "no other fields")
}

await check("filter and sort") {
  let articles = try await longestArticles(client)
  await expect(
    articles.compactMap(\.id) == ["25", "24", "23", "22", "21", "20"],
    "\(articles.compactMap(\.id))")
}

await check("nested include: comments and their authors, tags") {
  let two = try await articleWithCommentsAndTheirAuthors(client)
  let comments = two.comments?.data ?? []
  await expect(comments.count == 2, "\(comments.count) comments")
  await expect(comments.allSatisfy { $0.author?.name != nil }, "comment authors from included")
  await expect(two.tags?.allSatisfy { $0.name != nil } == true, "tags from included")
}

await check("related link: an absolute URL from the document") {
  let two = try await article(client, "2")
  let comments = try await relatedComments(client, of: two)
  await expect(comments.map(\.body) == ["Comment 1", "Comment 2"], "\(comments.map(\.body))")
}

await check("include with nothing to include: `included` must still be present (R67)") {
  try await clearAuthor(client, "7")
  let body = try await rawBody(
    baseURL.appendingPathComponent("articles/7"), query: "include=author")
  if !body.contains("\"included\"") {
    await departure(
      "R67", "include=author on a resource without author answers without an `included` member")
  }
  let seven = try await client.get(
    Article.self, from: "articles/7", query: JSONAPIQuery().including("author"))
  await expect(seven.author == nil, "decodes either way")
}

await check("406: every Accept instance asks for an unsupported extension") {
  await departure(
    "R61",
    "djangorestframework-jsonapi ignores ext/profile in Accept and Content-Type and never "
      + "answers 406 or 415 (patched in the test app by blog/middleware.py)")
  var configuration = client.configuration
  configuration.mediaType = JSONAPIMediaType(extensions: ["https://example.com/ext/unknown"])
  let strict = JSONAPIClient(baseURL: baseURL, configuration: configuration)
  let error = await expectThrows(JSONAPIResponseError.self) { _ = try await article(strict, "1") }
  await expect(error?.isNotAcceptable == true, "\(String(describing: error))")
  await expect(error?.errors.first?.source?.header == "Accept", "source.header")
}

await check("415: Content-Type with an unsupported extension") {
  var configuration = client.configuration
  configuration.mediaType = JSONAPIMediaType(extensions: ["https://example.com/ext/unknown"])
  let strict = JSONAPIClient(baseURL: baseURL, configuration: configuration)
  strict.encoder.keyEncodingStrategy = .convertToKebabCase
  let error = await expectThrows(JSONAPIResponseError.self) {
    _ = try await rename(strict, "1", to: "Never")
  }
  await expect(error?.isUnsupportedMediaType == true, "\(String(describing: error))")
}

await check("an HTML 500 page gives a clear error, not invalid JSON") {
  let error = await expectThrows(JSONAPIResponseError.self) {
    _ = try await client.get(Article.self, from: "test/crash")
  }
  await expect(error?.statusCode == 500 && error?.errors.isEmpty == true, "status, no errors")
  await expect(error?.contentType?.hasPrefix("text/html") == true, "content type")
  await expect(error?.description.contains("text/html") == true, error?.description ?? "")
}

await check("429 exposes Retry-After") {
  let error = await expectThrows(JSONAPIResponseError.self) {
    _ = try await client.get(Article.self, from: "test/busy")
  }
  await expect(
    error?.statusCode == 429 && error?.retryAfter == .seconds(7), "\(String(describing: error))")
}

await check("the request hook adds a bearer token; Accept is the JSON:API media type") {
  // (No Content-Type check here: Django's development server reports `text/plain` for a request
  // without one. The unit tests check that a GET sends none.)
  let meta = try await client.get(
    JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self, from: "test/echo-headers"
  ).meta
  await expect(meta?["authorization"] == .string("Bearer secret"), "\(String(describing: meta))")
  await expect(meta?["accept"] == .string("application/vnd.api+json"), "Accept")
}

await check("links to another origin are refused before any request") {
  let elsewhere = otherOrigin.appendingPathComponent("articles/1")
  let error = await expectThrows(JSONAPIClientError.self) {
    _ = try await client.get(Article.self, from: elsewhere)
  }
  await expect(error == .originNotAllowed(elsewhere), "\(String(describing: error))")
  var configuration = client.configuration
  configuration.allowedOrigins = .baseURLAnd([otherOrigin])
  let trusting = JSONAPIClient(baseURL: baseURL, configuration: configuration)
  await expect(try await article(trusting, "1").id == "1", "allowed when configured")
}

await check("redirects: followed within the origin, not to another one") {
  let within = try await client.get(Article.self, from: "test/redirect-within")
  await expect(within.id == "1", "same-origin redirect followed")
  let error = await expectThrows(JSONAPIResponseError.self) {
    _ = try await client.get(Article.self, from: "test/redirect-away")
  }
  await expect(error?.statusCode == 302, "the 302 itself: \(String(describing: error))")
  await expect(error?.header("location")?.hasPrefix("http://localhost") == true, "Location kept")
}

await check("response size limit: streamed, refused past the limit") {
  var configuration = client.configuration
  configuration.maxResponseBytes = 512 * 1024
  let small = JSONAPIClient(baseURL: baseURL, configuration: configuration)
  let error = await expectThrows(JSONAPIClientError.self) {
    _ = try await small.get(
      JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self, from: "test/big?kib=2048")
  }
  await expect(error == .responseTooLarge(limit: 512 * 1024), "\(String(describing: error))")
  let fits = try await small.get(
    JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self, from: "test/big?kib=100")
  await expect(fits.meta != nil, "under the limit")
}

await check("cancelling the task cancels the request") {
  let started = ContinuousClock.now
  let task = Task {
    try await client.get(
      JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self, from: "test/slow?seconds=5")
  }
  try await Task.sleep(for: .milliseconds(300))
  task.cancel()
  let result = await task.result
  let elapsed = ContinuousClock.now - started
  var cancelled = false
  if case .failure(let error) = result { cancelled = error is CancellationError }
  await expect(cancelled, "\(result)")
  await expect(elapsed < .seconds(3), "returned after \(elapsed)")
}

await check("pagination is bounded by maxPages") {
  var configuration = client.configuration
  configuration.maxPages = 2
  let bounded = JSONAPIClient(baseURL: baseURL, configuration: configuration)
  var pages = 0
  let error = await expectThrows(JSONAPIClientError.self) {
    for try await _ in bounded.pages(of: [Article].self, from: "articles") { pages += 1 }
  }
  await expect(error == .tooManyPages(limit: 2) && pages == 2, "\(String(describing: error))")
}

await check("atomic operations endpoint answers the extension's media type (raw request)") {
  // The endpoint itself, with the URLRequest helper: what the server answers to a raw request.
  let atomic = JSONAPIMediaType(extensions: ["https://jsonapi.org/ext/atomic"])
  let body = Data(
    #"""
    {"atomic:operations":[
      {"op":"add","data":{"type":"tags","lid":"new","attributes":{"name":"atomic"}}},
      {"op":"add","data":{"type":"articles","attributes":{"title":"Atomic"},
        "relationships":{"tags":{"data":[{"type":"tags","lid":"new"}]}}}},
      {"op":"remove","ref":{"type":"articles","id":"8"}}]}
    """#.utf8)
  guard
    let request = URLRequest(
      jsonAPI: baseURL.appendingPathComponent("operations"), method: "POST", body: body,
      mediaType: atomic)
  else { throw JSONAPIClientError.invalidURL("operations") }
  let (data, response) = try await URLSessionTransport.shared.send(
    request, maxResponseBytes: 1 << 20)
  await expect(response.statusCode == 200, "status \(response.statusCode)")
  let contentType = response.value(forHTTPHeaderField: "Content-Type") ?? ""
  await expect(JSONAPIMediaType(headerValue: contentType) == atomic, contentType)
  let text = String(decoding: data, as: UTF8.self)
  let results = text.components(separatedBy: "\"data\":{\"type\"").count - 1
  await expect(text.hasPrefix("{\"atomic:results\":["), text)
  if results != 3 {
    await departure(
      "R111", "3 operations answered with \(results) results: the remove operation has none")
  }
  let error = await expectThrows(JSONAPIResponseError.self) { _ = try await article(client, "8") }
  await expect(error?.statusCode == 404, "the remove operation ran")
}

await graphCreateScenario(client)
await changesScenario(baseURL)
await pagingScenario(client)

// The second server: IntegrationTests/bent/server.py, from the second argument or
// JSONAPI_BENT_SERVER_URL (Scripts/integration.sh starts it and passes its URL).
let bentAddress =
  CommandLine.arguments.dropFirst(2).first
  ?? ProcessInfo.processInfo.environment["JSONAPI_BENT_SERVER_URL"]
if let bentAddress, let bentURL = URL(string: bentAddress) {
  await bentServerScenario(bentURL)
} else {
  await check("bent server: its URL is given") {
    await expect(false, "pass the bent server's URL as the second argument")
  }
}

// MARK: Summary

let passed = harness.passed
let failed = harness.failed
let departures = harness.departures
print("")
print(
  "integration: \(passed) checks passed, \(failed.count) failed, \(departures.count) departures")
for failure in failed { print("  FAILED: \(failure)") }
exit(failed.isEmpty ? 0 : 1)

/// The raw body of a GET, for the checks that look at the document's text rather than a model.
func rawBody(_ url: URL, query: String) async throws -> String {
  guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
    throw JSONAPIClientError.invalidURL(url.absoluteString)
  }
  components.percentEncodedQuery = query
  guard let target = components.url, let request = URLRequest(jsonAPI: target) else {
    throw JSONAPIClientError.invalidURL(url.absoluteString)
  }
  let (data, _) = try await URLSessionTransport.shared.send(request, maxResponseBytes: 1 << 20)
  return String(decoding: data, as: UTF8.self)
}
