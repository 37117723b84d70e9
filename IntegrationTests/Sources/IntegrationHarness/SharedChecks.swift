import Foundation
import JSONAPICodable
import JSONAPINetworking

// The checks both suites run with the same assertions, on what both servers' seeds have alike:
// articles 1 to 25, person 3, article 5 free to change its author. Each suite calls them in its
// own order; a departure a server needs noted is passed in and noted as the check begins.

/// A departure from the spec that a check notes for one server: the rule and what the server does.
public typealias DepartureNote = (rule: String, text: String)

/// "pages follows links.next to the last page": every article, 1 to 25 in order.
@MainActor public func checkAllPages<Article, PageMeta>(
  _ blog: BlogCalls<Article, PageMeta>
) async {
  await check("pages follows links.next to the last page") {
    let all = try await blog.allArticles()
    await expect(all.compactMap(\.id) == (1...25).map(String.init), "\(all.compactMap(\.id))")
  }
}

/// "a 404 throws JSONAPIResponseError with the error objects".
@MainActor public func checkNotFound<Article, PageMeta>(
  _ blog: BlogCalls<Article, PageMeta>
) async {
  await check("a 404 throws JSONAPIResponseError with the error objects") {
    let error = await expectThrows(JSONAPIResponseError.self) {
      _ = try await blog.article("404")
    }
    await expect(error?.statusCode == 404, "status")
    await expect(error?.errors.first?.status == "404", "\(String(describing: error?.errors))")
    await expect(error?.isErrorDocument == true, "decoded as an error document")
  }
}

/// "updateRelationship to-one: null clears, an identifier sets", on article 5's author.
@MainActor public func checkToOneRelationship<Article, PageMeta>(
  _ blog: BlogCalls<Article, PageMeta>, noting note: DepartureNote? = nil
) async {
  await check("updateRelationship to-one: null clears, an identifier sets") {
    if let note { await departure(note.rule, note.text) }
    try await blog.clearAuthor("5")
    await expect(try await blog.article("5").author == nil, "author cleared")
    try await blog.setAuthor("5", to: "3")
    await expect(try await blog.article("5").author?.id == "3", "author set")
  }
}

/// "406: every Accept instance asks for an unsupported extension", then "415: Content-Type with an
/// unsupported extension", with a client whose media type names an extension no server knows.
@MainActor public func checkUnsupportedExtensions<Article, PageMeta>(
  _ blog: BlogCalls<Article, PageMeta>, noting note: DepartureNote? = nil
) async {
  let strict = BlogCalls<Article, PageMeta>(
    blog.client.configured {
      $0.mediaType = JSONAPIMediaType(extensions: ["https://example.com/ext/unknown"])
    })
  await check("406: every Accept instance asks for an unsupported extension") {
    if let note { await departure(note.rule, note.text) }
    let error = await expectThrows(JSONAPIResponseError.self) { _ = try await strict.article("1") }
    await expect(error?.isNotAcceptable == true, "\(String(describing: error))")
    await expect(error?.errors.first?.source?.header == "Accept", "source.header")
  }
  await check("415: Content-Type with an unsupported extension") {
    let error = await expectThrows(JSONAPIResponseError.self) {
      _ = try await strict.rename("1", to: "Never")
    }
    await expect(error?.isUnsupportedMediaType == true, "\(String(describing: error))")
  }
}

/// "links to another origin are refused before any request": article 1 at `otherOrigin`; then
/// `more`, a server's further assertions in the same check.
@MainActor public func checkOtherOrigin<Article, PageMeta>(
  _ blog: BlogCalls<Article, PageMeta>, _ otherOrigin: URL,
  more: () async throws -> Void = {}
) async {
  await check("links to another origin are refused before any request") {
    let elsewhere = otherOrigin.appendingPathComponent("articles/1")
    let error = await expectThrows(JSONAPIClientError.self) {
      _ = try await blog.client.get(Article.self, from: elsewhere)
    }
    await expect(error == .originNotAllowed(elsewhere), "\(String(describing: error))")
    try await more()
  }
}

/// "pagination is bounded by maxPages": a client that reads 2 pages at most.
@MainActor public func checkMaxPages<Article, PageMeta>(
  _ blog: BlogCalls<Article, PageMeta>
) async {
  await check("pagination is bounded by maxPages") {
    let bounded = blog.client.configured { $0.maxPages = 2 }
    var pages = 0
    let error = await expectThrows(JSONAPIClientError.self) {
      for try await _ in bounded.pages(of: [Article].self, from: "articles") { pages += 1 }
    }
    await expect(error == .tooManyPages(limit: 2) && pages == 2, "\(String(describing: error))")
  }
}

/// A check named `name` that `publish`, creating an article, fails validation: with `status`, one
/// error pointing at the title, and a message for the user that says `word`.
@MainActor public func checkValidation(
  _ name: String, status: Int, says word: String, _ publish: () async throws -> Void
) async {
  await check(name) {
    let error = await expectThrows(JSONAPIResponseError.self) { try await publish() }
    await expect(error?.statusCode == status, "status \(String(describing: error?.statusCode))")
    let pointers = error?.errors.compactMap(\.source?.pointer) ?? []
    await expect(pointers == ["/data/attributes/title"], "\(pointers)")
    await expect(message(for: error ?? CancellationError()).contains(word), "readable message")
  }
}

/// Posts an Atomic Operations `document` to `operations` past the client, expects the answer to be
/// 200 in the extension's media type, and returns its body.
@MainActor public func postRawOperations(_ baseURL: URL, _ document: String) async throws -> Data {
  let atomic = JSONAPIMediaType.atomicOperations
  let (data, response) = try await rawRequest(
    baseURL, "operations", method: "POST", body: Data(document.utf8), mediaType: atomic)
  await expect(response.statusCode == 200, "status \(response.statusCode)")
  let contentType = response.value(forHTTPHeaderField: "Content-Type") ?? ""
  await expect(JSONAPIMediaType(headerValue: contentType) == atomic, contentType)
  return data
}
