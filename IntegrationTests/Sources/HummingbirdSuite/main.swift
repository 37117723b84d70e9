import Foundation
import IntegrationHarness
import JSONAPICodable
import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// JSONAPIClient against Examples/HummingbirdServer over HTTP, on a freshly seeded database:
// people 1–5, articles 1–25 ("Article NN", author (n - 1) % 5 + 1), comments 3n-2…3n on article n
// ("Comment k on article n"), 10 per page: articles by cursor (the Cursor Pagination profile),
// people and comments by page number. Run by Scripts/hummingbird.sh; the server URL comes
// from the first argument or JSONAPI_SERVER_URL. Checks that change data use their own articles
// (3–8 and new ones), so that the others can count on the seed.

let server = SuiteServer.fromCommandLine(
  suite: "HummingbirdSuite", fallback: "http://127.0.0.1:8080/",
  server: "Examples/HummingbirdServer")
let baseURL = server.baseURL
let client = JSONAPIClient(baseURL: baseURL)
let blog = Blog(client)
let articleComments = blog.toMany("comments")

// MARK: Reading

await check("a page with included authors, meta.page and links.next") {
  let page = try await blog.firstPageWithAuthors()
  await expect(page.data.count == 10, "\(page.data.count) articles")
  await expect(page.data.allSatisfy { $0.author?.name != nil }, "authors resolved from included")
  await expect(page.data.first?.author?.name == "Ada Lovelace", "article 1's author")
  await expect(page.meta?.page.total == 25, "\(String(describing: page.meta))")
  await expect(page.links?.next != nil && page.links?.prev == nil, "links.next, no links.prev")
}

await check("one resource, with linkage and links") {
  let one = try await blog.article("1")
  await expect(one.title == "Article 01" && one.body == "Body of article 1.", "\(one)")
  await expect(one.author?.id == "1", "author linkage")
  await expect(one.comments?.data.compactMap(\.id) == ["1", "2", "3"], "comments linkage")
  await expect(one.links?.selfLink?.href == baseURL.absoluteString + "articles/1", "links.self")
}

await checkAllPages(blog)

await check("cursor pages: backwards from the last page's links.prev, every earlier article") {
  var forward: [[String]] = []
  var last: JSONAPIDocument<[Article], JSONAPIValue>?
  for try await page in client.pages(
    of: [Article].self, from: "articles", query: JSONAPIQuery().page("size", "7"))
  {
    forward.append(page.data.compactMap(\.id))
    last = page
  }
  await expect(forward.map(\.count) == [7, 7, 7, 4], "page sizes \(forward.map(\.count))")
  let prev = try await required(last?.links?.prev?.href, "the last page's links.prev")
  let query = try JSONAPIQuery(parsing: URLComponents(string: prev)?.percentEncodedQuery ?? "")
  let cursor = try await required(query.page["before"], "page[before] in links.prev")
  var backward: [[String]] = []
  for try await page in client.pages(
    of: [Article].self, from: "articles", query: JSONAPIQuery().page(size: 7, before: cursor),
    direction: .backward)
  {
    backward.append(page.data.compactMap(\.id))
  }
  await expect(
    Array(backward.reversed()) == Array(forward.dropLast()), "backward pages \(backward)")
}

await check("cursor pages: a page too large is the profile's error, with meta.page.maxSize") {
  let error = await expectThrows(JSONAPIResponseError.self) {
    _ = try await client.get(
      [Article].self, from: "articles", query: JSONAPIQuery().page("size", "500"))
  }
  let object = error?.errors.first
  await expect(
    error?.statusCode == 400 && object?.source?.parameter == "page[size]",
    "\(String(describing: error))")
  await expect(
    object?.links?.type?.href
      == "https://jsonapi.org/profiles/ethanresnick/cursor-pagination/max-size-exceeded",
    "links.type \(String(describing: object?.links))")
  await expect(object?.meta?["page"]?["maxSize"] == 50, "\(String(describing: object?.meta))")
}

await check("cursor pages: a cursor the server did not make is 400 naming page[after]") {
  let error = await expectThrows(JSONAPIResponseError.self) {
    _ = try await client.get(
      [Article].self, from: "articles", query: JSONAPIQuery().page(after: "not-a-cursor"))
  }
  await expect(error?.statusCode == 400, "\(String(describing: error))")
  await expect(
    error?.errors.first?.source?.parameter == "page[after]", "\(String(describing: error))")
}

await check("page numbers: totals in meta.page, and a page past the end is empty") {
  let second = try await client.get(
    JSONAPIDocument<[Person], PageMeta>.self, from: "people",
    query: JSONAPIQuery().page(number: 2, size: 2))
  await expect(second.data.compactMap(\.id) == ["3", "4"], "\(second.data.compactMap(\.id))")
  await expect(
    second.meta?.page.total == 5 && second.meta?.page.totalPages == 3,
    "\(String(describing: second.meta))")
  await expect(second.links?.prev != nil && second.links?.last != nil, "prev and last")
  let past = try await client.get(
    JSONAPIDocument<[Comment], PageMeta>.self, from: "comments",
    query: JSONAPIQuery().page(number: 99, size: 10))
  await expect(past.data.isEmpty, "\(past.data.count) comments")
  await expect(past.links?.first != nil && past.links?.next == nil, "first, no next")
}

await check("sparse fieldsets: only the listed fields come back") {
  let articles = try await blog.titlesOnly()
  await expect(articles.count == 10 && articles.allSatisfy { $0.title != nil }, "titles")
  await expect(
    articles.allSatisfy { $0.body == nil && $0.author == nil && $0.comments == nil },
    "no other fields")
}

await check("filter and sort") {
  let articles = try await articlesBy(client, person: "2")
  await expect(
    articles.compactMap(\.id) == ["22", "17", "12", "7", "2"], "\(articles.compactMap(\.id))")
}

await check("nested include: comments and their authors") {
  let two = try await articleWithCommentsAndTheirAuthors(client, "2")
  let comments = two.comments?.data ?? []
  await expect(comments.compactMap(\.id) == ["4", "5", "6"], "\(comments.compactMap(\.id))")
  // Comment k on article 2 is by person (2 + k) % 5 + 1: 4, 5, 1.
  await expect(
    comments.map { $0.author?.name } == ["Barbara Liskov", "Edsger Dijkstra", "Ada Lovelace"],
    "\(comments.map { $0.author?.name })")
}

await check("related link: the comments of an article, from its document") {
  let two = try await blog.article("2")
  let comments = try await blog.related(two.comments)
  await expect(
    comments.map(\.body) == (1...3).map { "Comment \($0) on article 2" },
    "\(comments.map(\.body))")
}

await check("related link: a comment's article (to-one)") {
  let related = try await client.get(Article.self, from: "comments/5/article")
  await expect(related.id == "2" && related.title == "Article 02", "\(related)")
}

await check("include with nothing to include: `included` is still there (R67)") {
  try await blog.clearAuthor("8")
  let body = try await rawBody(baseURL, "articles/8", query: "include=author")
  await expect(body.contains("\"included\":[]"), body)
  let eight = try await client.get(
    Article.self, from: "articles/8", query: JSONAPIQuery().including("author"))
  await expect(eight.author == nil, "no author")
}

// MARK: Writing

await check("create: 201, and Location is links.self (R78)") {
  let response = try await publish(client, title: "Hello from Swift")
  await expect(response.statusCode == 201, "status \(response.statusCode)")
  await expect(response.value.title == "Hello from Swift", "\(response.value)")
  await expect(response.value.author?.id == "1", "author linkage")
  await expect(
    response.location != nil
      && response.location?.absoluteString == response.value.links?.selfLink?.href,
    "Location \(response.location?.absoluteString ?? "-")")
  if let location = response.location {
    let fetched = try await client.get(Article.self, from: location)
    await expect(fetched.title == "Hello from Swift", "fetched through Location")
  }
}

await check("create with a client-generated id: 403 pointing at /data/id (R77)") {
  let error = await expectThrows(JSONAPIResponseError.self) {
    let _: Article = try await client.create(
      NewArticleWithID(id: UUID().uuidString, title: "Mine"), at: "articles")
  }
  await expect(error?.statusCode == 403, "status \(String(describing: error?.statusCode))")
  await expect(error?.errors.first?.source?.pointer == "/data/id", "\(String(describing: error))")
}

await checkValidation(
  "validation: 422 with a pointer to the attribute", status: 422, says: "blank"
) {
  _ = try await publish(client, title: "   ")
}

await check("update: PATCH answered 200 with the resource") {
  let updated = try await blog.rename("3", to: "Renamed")
  await expect(
    updated?.title == "Renamed" && updated?.body == "Body of article 3.",
    "\(String(describing: updated))")
  await expect(try await blog.article("3").title == "Renamed", "stored")
}

await check("delete, then the resource is gone (404) with its comments") {
  try await blog.remove("4")
  let error = await expectThrows(JSONAPIResponseError.self) { _ = try await blog.article("4") }
  await expect(error?.statusCode == 404, "status \(String(describing: error?.statusCode))")
  let comment = await expectThrows(JSONAPIResponseError.self) {
    _ = try await client.get(Comment.self, from: "comments/10")
  }
  await expect(comment?.statusCode == 404, "article 4's comment 10 went with it")
}

await checkNotFound(blog)

await check("a query the endpoint does not support: 400 naming the parameter") {
  let error = await expectThrows(JSONAPIResponseError.self) {
    _ = try await client.get(
      [Article].self, from: "articles", query: JSONAPIQuery().including("tags"))
  }
  await expect(error?.statusCode == 400, "status")
  await expect(error?.errors.first?.source?.parameter == "include", "\(String(describing: error))")
}

// MARK: Relationships

await check("relationship endpoint: to-many linkage as identifiers") {
  let comments = try await articleComments.identifiers(of: "2")
  await expect(comments.map(\.type) == ["comments", "comments", "comments"], "\(comments)")
  await expect(comments.compactMap(\.id) == ["4", "5", "6"], "\(comments)")
}

await checkToOneRelationship(blog)

await check("addToRelationship and removeFromRelationship") {
  try await articleComments.add("1", to: "6")
  await expect(try await articleComments.identifiers(of: "6").contains { $0.id == "1" }, "added")
  await expect(!(try await articleComments.identifiers(of: "1").contains { $0.id == "1" }), "moved")
  try await articleComments.add("1", to: "6")  // R84: adding a member again is no error
  await expect(
    try await articleComments.identifiers(of: "6").filter { $0.id == "1" }.count == 1, "once")
  try await articleComments.remove("1", from: "6")
  await expect(
    !(try await articleComments.identifiers(of: "6").contains { $0.id == "1" }), "removed")
  try await articleComments.add("1", to: "1")
  await expect(
    try await articleComments.identifiers(of: "1").compactMap(\.id) == ["1", "2", "3"], "back")
}

await check("updateRelationship to-many replaces all members") {
  try await articleComments.replace(of: "7", with: ["19"])
  await expect(
    try await articleComments.identifiers(of: "7").compactMap(\.id) == ["19"], "replaced")
  try await articleComments.replace(of: "7", with: [])
  await expect(try await articleComments.identifiers(of: "7").isEmpty, "cleared")
  try await articleComments.replace(of: "7", with: ["19", "20", "21"])
  await expect(
    try await articleComments.identifiers(of: "7").compactMap(\.id) == ["19", "20", "21"],
    "restored")
}

await check("a relationship endpoint refuses another type: 409 with the pointer") {
  let error = await expectThrows(JSONAPIResponseError.self) {
    try await client.updateRelationship(
      "articles/5/relationships/author", to: JSONAPIResourceIdentifier(type: "comments", id: "1"))
  }
  await expect(error?.statusCode == 409, "status \(String(describing: error?.statusCode))")
  await expect(error?.errors.first?.source?.pointer == "/data/type", "\(String(describing: error))")
}

// MARK: Atomic Operations

await check("perform: a person and an article naming it by lid, in one request") {
  let results = try await publishWithNewAuthor(client, title: "Atomic", author: "Margaret Hamilton")
  await expect(results.count == 2, "\(results.count) results")
  let person = try results[0].decode(Person.self)
  let created = try results[1].decode(Article.self)
  await expect(person.name == "Margaret Hamilton" && person.id != nil, "person \(person)")
  // The article's author names the new person by its server id; it resolves across the results.
  await expect(created.author?.name == "Margaret Hamilton", "\(created)")
  let id = try await required(created.id, "article id")
  let stored = try await client.get(
    Article.self, from: "articles/\(id)", query: JSONAPIQuery().including("author"))
  await expect(stored.author?.id == person.id, "stored author \(String(describing: stored.author))")
}

await check("perform: update one article and remove another atomically") {
  let keep = try await required(try await publish(client, title: "To rename").value.id, "kept")
  let gone = try await required(try await publish(client, title: "To remove").value.id, "gone")
  let results = try await blog.renameAndRemove(rename: keep, remove: gone)
  await expect(results.count == 2, "R111: one result per operation, \(results.count)")
  await expect(try results.first?.decode(Article.self).title == "Renamed atomically", "renamed")
  await expect(results.last?.hasData == false, "the remove has no data")
  let error = await expectThrows(JSONAPIResponseError.self) {
    _ = try await client.get(Article.self, from: "articles/\(gone)")
  }
  await expect(error?.statusCode == 404, "the removed article is gone")
}

await check("perform: a failing operation rolls back the whole request (R110)") {
  let before = try await blog.firstPageWithAuthors().meta?.page.total
  let error = await expectThrows(JSONAPIResponseError.self) {
    _ = try await client.perform(
      [
        .add(NewArticle(title: "Never stored")),
        .remove(JSONAPIResourceIdentifier(type: "articles", id: "999999")),
      ], at: "operations")
  }
  await expect(error?.statusCode == 404, "\(String(describing: error))")
  await expect(
    error?.errors.first?.source?.pointer?.hasPrefix("/atomic:operations/1") == true,
    "R113: the pointer names the operation: \(String(describing: error?.errors.first?.source))")
  let after = try await blog.firstPageWithAuthors().meta?.page.total
  await expect(
    before != nil && after == before,
    "nothing stored: \(String(describing: before)) before, \(String(describing: after)) after")
}

await check("perform: a failing operation's error points into it") {
  let error = await expectThrows(JSONAPIResponseError.self) {
    _ = try await client.perform(
      [.add(NewArticle(title: "Fine")), .add(NewArticle(title: ""))], at: "operations")
  }
  await expect(error?.statusCode == 422, "status \(String(describing: error?.statusCode))")
  await expect(
    error?.errors.first?.source?.pointer == "/atomic:operations/1/data/attributes/title",
    "\(String(describing: error?.errors.first?.source))")
}

await check("the operations endpoint answers the extension's media type (raw request)") {
  let data = try await postRawOperations(
    baseURL,
    #"""
    {"atomic:operations":[
      {"op":"add","data":{"type":"people","lid":"new","attributes":{"name":"Raw"}}},
      {"op":"add","data":{"type":"articles","attributes":{"title":"Raw"},
        "relationships":{"author":{"data":{"type":"people","lid":"new"}}}}},
      {"op":"remove","ref":{"type":"articles","id":"6"}}]}
    """#)
  let results = try JSONAPIDecoder().decode([JSONAPIOperationResult].self, from: data)
  await expect(results.count == 3 && results[2].hasData == false, "3 results, the last {}")
  let error = await expectThrows(JSONAPIResponseError.self) { _ = try await blog.article("6") }
  await expect(error?.statusCode == 404, "the remove operation ran")
}

await check("create(graph:): a new article with its new author, read back") {
  let stamp = String(UUID().uuidString.prefix(8))
  let created = try await publishWithGraph(
    client, title: "Graph \(stamp)", author: "Author \(stamp)")
  let id = try await required(created.id, "the article's server id")
  let authorID = try await required(created.author?.id, "the author's server id")
  await expect(created.author?.name == "Author \(stamp)", "author resolved from its result")
  let read = try await client.get(
    Article.self, from: "articles/\(id)", query: JSONAPIQuery().including("author"))
  await expect(read.title == "Graph \(stamp)", "\(read)")
  await expect(read.author?.id == authorID && read.author?.name == "Author \(stamp)", "author")
}

// MARK: Changes only

await check("update(from:to:) sends the changed title only: an edit of body in between survives") {
  let read = try await client.get(EditableArticle.self, from: "articles/9")
  // Another user edits `body` on the server after `read` was read.
  let _: EditableArticle? = try await client.update(
    EditableArticle(id: "9", title: read.title, body: "Edited elsewhere", author: read.author),
    at: "articles/9")
  var edited = read
  edited.title = "Retitled"
  let updated: EditableArticle? = try await client.update(from: read, to: edited, at: "articles/9")
  await expect(updated?.title == "Retitled", "\(String(describing: updated))")
  let stored = try await client.get(EditableArticle.self, from: "articles/9")
  await expect(stored.title == "Retitled" && stored.body == "Edited elsewhere", "\(stored)")
  await expect(stored.author?.id == "4", "author untouched: \(String(describing: stored.author))")
}

await check("update(from:to:) clearing an optional attribute sends null; the server stores null") {
  let read = try await client.get(EditableArticle.self, from: "articles/10")
  var edited = read
  edited.body = nil
  let _: EditableArticle? = try await client.update(from: read, to: edited, at: "articles/10")
  let body = try await rawBody(baseURL, "articles/10", query: "fields%5Barticles%5D=body")
  await expect(body.contains("\"body\":null"), body)
}

// MARK: Versions: ETag, If-None-Match, If-Match (issue 48)

await checkConditionalRequests(baseURL)

// MARK: Negotiation and the client's own rules

await checkUnsupportedExtensions(blog)

await check("405 names the methods in Allow") {
  let error = await expectThrows(JSONAPIResponseError.self) {
    try await client.delete("articles")
  }
  await expect(error?.statusCode == 405, "\(String(describing: error))")
  // JSON:API says nothing of 405; HTTP (RFC 9110, 15.5.6 and 10.2.1) has `Allow` list every
  // method the target supports, and the server answers HEAD on every path it answers GET on.
  await expect(
    error?.header("allow") == "GET, POST, HEAD", "\(String(describing: error?.header("allow")))")
}

await checkOtherOrigin(blog, server.otherOrigin)
await checkMaxPages(blog)

finish("hummingbird")
