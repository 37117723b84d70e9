import Foundation
import ServerExampleKit
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// The example server's request/response table: every route and every error path, each body
/// checked by the compliance checker and dumped for the schema check
/// (`Scripts/validate-encoded-documents.sh`).
@Suite struct ServerExampleTests {
  static let person = #"{"type":"people","id":"2"}"#
  static let newArticle =
    #"{"data":{"type":"articles","attributes":{"title":"Hello"},"relationships":{"author":{"data":"#
    + person + "}}}}"

  static func article(_ members: String) -> String {
    #"{"data":{"type":"articles","# + members + "}}"
  }

  static let base = ExampleServer.baseURL
  static let profile = JSONAPIPaging.cursorPaginationProfile
  /// A cursor-paged answer names the Cursor Pagination profile in its media type (R60).
  static let cursorHeaders = [
    "Content-Type": #"application/vnd.api+json;profile="\#(JSONAPIPaging.cursorPaginationProfile)""#
  ]

  static let cases: [ServerCase] = [
    // GET collections: include (R67), sort (R69), page (R65), filter, fields (R68).
    .get("list", "/articles", dataIDs: ["1", "2", "3"]),
    .get("list-include-author", "/articles?include=author", included: ["people/9", "people/2"]),
    .get(
      "list-include-comments-author", "/articles?include=comments.author",
      included: ["comments/5", "comments/12", "comments/13", "people/2", "people/9", "people/5"]),
    .get("list-include-nothing", "/articles?include=", included: []),
    .get("list-sort-title", "/articles?sort=title", dataIDs: ["3", "2", "1"]),
    .get("list-sort-descending", "/articles?sort=-revision,-title", dataIDs: ["1", "2", "3"]),
    .get("list-page", "/articles?page%5Bnumber%5D=2&page%5Bsize%5D=2", dataIDs: ["3"]),
    .get(
      "list-page-far-away", "/articles?page%5Bnumber%5D=2147483647", dataIDs: [],
      links: ["prev": "\(base)/articles?page%5Bnumber%5D=1", "next": .absent]),
    .get("list-filter", "/articles?filter%5Bauthor%5D=9,5", dataIDs: ["1"]),
    .get(
      "list-fields", "/articles?include=author&fields%5Barticles%5D=title&fields%5Bpeople%5D=name",
      dataIDs: ["1", "2", "3"], included: []),
    .get("show", "/articles/1", dataIDs: ["1"]),
    .get(
      "show-include", "/articles/1?include=author,comments.author", dataIDs: ["1"],
      included: ["people/9", "comments/5", "comments/12", "people/2"]),
    .get("related-author", "/articles/1/author", dataIDs: ["9"]),
    .get("related-author-null", "/articles/3/author"),
    .get(
      "related-comments", "/articles/1/comments?include=author", dataIDs: ["5", "12"],
      included: ["people/2", "people/9"]),
    .get("relationship-author", "/articles/1/relationships/author", dataIDs: ["9"]),
    .get("relationship-comments", "/articles/1/relationships/comments", dataIDs: ["5", "12"]),
    .get("people", "/people?sort=-name", dataIDs: ["5", "9", "2"]),
    .get("person", "/people/9", dataIDs: ["9"]),
    .get("comment", "/comments/5?include=author", dataIDs: ["5"], included: ["people/2"]),
    // Paging (R62-R65): page numbers on /articles, cursors (the Cursor Pagination profile) on
    // /people and /articles/{id}/comments, offsets on /comments. Links keep every other
    // parameter as sent, raw brackets included.
    .get(
      "articles-first-page", "/articles?sort=title&page%5Bsize%5D=1", dataIDs: ["3"],
      links: [
        "self": "\(base)/articles?sort=title&page%5Bsize%5D=1",
        "first": "\(base)/articles?sort=title&page%5Bnumber%5D=1&page%5Bsize%5D=1",
        "prev": .absent,
        "next": "\(base)/articles?sort=title&page%5Bnumber%5D=2&page%5Bsize%5D=1",
        "last": "\(base)/articles?sort=title&page%5Bnumber%5D=3&page%5Bsize%5D=1",
      ],
      meta: ["page": ["number": 1, "size": 1, "total": 3, "totalPages": 3]]),
    .get(
      "articles-middle-page", "/articles?sort=title&page[number]=2&page[size]=1&include=author",
      dataIDs: ["2"], included: ["people/2"],
      links: [
        "prev": "\(base)/articles?sort=title&page%5Bnumber%5D=1&page%5Bsize%5D=1&include=author",
        "next": "\(base)/articles?sort=title&page%5Bnumber%5D=3&page%5Bsize%5D=1&include=author",
      ]),
    .get(
      "articles-last-page", "/articles?filter[author]=9,2&page[number]=2&page[size]=1",
      dataIDs: ["2"],
      links: [
        "prev": "\(base)/articles?filter[author]=9,2&page%5Bnumber%5D=1&page%5Bsize%5D=1",
        "next": .absent,
        "last": "\(base)/articles?filter[author]=9,2&page%5Bnumber%5D=2&page%5Bsize%5D=1",
      ],
      meta: ["page": ["number": 2, "size": 1, "total": 2, "totalPages": 2]]),
    .get(
      "articles-empty", "/articles?filter%5Bauthor%5D=404", dataIDs: [],
      links: [
        "first": "\(base)/articles?filter%5Bauthor%5D=404&page%5Bnumber%5D=1",
        "last": "\(base)/articles?filter%5Bauthor%5D=404&page%5Bnumber%5D=1",
        "prev": .absent, "next": .absent,
      ],
      meta: ["page": ["number": 1, "size": 10, "total": 0, "totalPages": 1]]),
    .get(
      "people-first-page", "/people?page%5Bsize%5D=1", dataIDs: ["2"], headers: cursorHeaders,
      links: [
        "self": "\(base)/people?page%5Bsize%5D=1", "first": "\(base)/people?page%5Bsize%5D=1",
        "prev": .null, "next": "\(base)/people?page%5Bafter%5D=2&page%5Bsize%5D=1",
      ],
      meta: ["page": ["total": 3]]),
    .get(
      "people-middle-page", "/people?fields[people]=name&page[after]=2&page[size]=1",
      dataIDs: ["9"], headers: cursorHeaders,
      links: [
        "first": "\(base)/people?fields[people]=name&page%5Bsize%5D=1",
        "prev": "\(base)/people?fields[people]=name&page%5Bbefore%5D=9&page%5Bsize%5D=1",
        "next": "\(base)/people?fields[people]=name&page%5Bafter%5D=9&page%5Bsize%5D=1",
      ]),
    .get(
      "people-last-page", "/people?page[after]=9&page[size]=1", dataIDs: ["5"],
      headers: cursorHeaders,
      links: ["prev": "\(base)/people?page%5Bbefore%5D=5&page%5Bsize%5D=1", "next": .null]),
    .get(
      "people-backwards", "/people?sort=-name&page[before]=2&page[size]=1", dataIDs: ["9"],
      links: [
        "prev": "\(base)/people?sort=-name&page%5Bbefore%5D=9&page%5Bsize%5D=1",
        "next": "\(base)/people?sort=-name&page%5Bafter%5D=9&page%5Bsize%5D=1",
      ]),
    .get(
      "people-range", "/people?page[after]=2&page[before]=5", dataIDs: ["9"],
      links: [
        "prev": "\(base)/people?page%5Bbefore%5D=9", "next": "\(base)/people?page%5Bafter%5D=9",
      ],
      meta: ["page": ["total": 3]]),
    .get(
      "people-unsupported-sort", "/people?sort=id", 400, code: "unsupported-sort",
      source: ("parameter", "sort"), links: ["type": .href(profile + "unsupported-sort")]),
    .get(
      "people-max-size-exceeded", "/people?page%5Bsize%5D=21", 400, code: "max-size-exceeded",
      source: ("parameter", "page[size]"), links: ["type": .href(profile + "max-size-exceeded")]),
    .get(
      "people-size-zero", "/people?page%5Bsize%5D=0", 400, code: "invalid-page-value",
      source: ("parameter", "page[size]"), links: ["type": .absent]),
    .get(
      "people-unknown-cursor", "/people?page%5Bafter%5D=404", 400, code: "invalid-page-value",
      source: ("parameter", "page[after]")),
    .get(
      "people-page-number", "/people?page%5Bnumber%5D=2", 400, code: "unsupported-parameter",
      source: ("parameter", "page[number]")),
    .get(
      "related-comments-page", "/articles/1/comments?page[size]=1", dataIDs: ["5"],
      headers: cursorHeaders,
      links: [
        "prev": .null, "next": "\(base)/articles/1/comments?page%5Bafter%5D=5&page%5Bsize%5D=1",
      ]),
    .get(
      "related-comments-empty", "/articles/3/comments", dataIDs: [], headers: cursorHeaders,
      links: ["self": "\(base)/articles/3/comments", "prev": .null, "next": .null]),
    .get(
      "related-comments-range", "/articles/1/comments?page%5Bafter%5D=5&page%5Bbefore%5D=12", 400,
      code: "range-pagination-not-supported", source: ("parameter", "page[before]"),
      links: ["type": .href(profile + "range-pagination-not-supported")]),
    .get(
      "comments-first-page", "/comments?page%5Blimit%5D=2", dataIDs: ["5", "12"],
      links: [
        "first": "\(base)/comments?page%5Blimit%5D=2&page%5Boffset%5D=0", "prev": .absent,
        "next": "\(base)/comments?page%5Blimit%5D=2&page%5Boffset%5D=2",
        "last": "\(base)/comments?page%5Blimit%5D=2&page%5Boffset%5D=1",
      ],
      meta: ["page": ["offset": 0, "limit": 2, "total": 3]]),
    .get(
      "comments-middle-page", "/comments?page[offset]=1&page[limit]=1", dataIDs: ["12"],
      links: [
        "prev": "\(base)/comments?page%5Blimit%5D=1&page%5Boffset%5D=0",
        "next": "\(base)/comments?page%5Blimit%5D=1&page%5Boffset%5D=2",
      ]),
    .get(
      "comments-last-page", "/comments?include=author&page%5Boffset%5D=2&page%5Blimit%5D=2",
      dataIDs: ["13"], included: ["people/5"],
      links: [
        "prev": "\(base)/comments?include=author&page%5Blimit%5D=2&page%5Boffset%5D=0",
        "next": .absent,
      ],
      meta: ["page": ["offset": 2, "limit": 2, "total": 3]]),
    .get(
      "comments-past-end", "/comments?page%5Boffset%5D=2147483647", dataIDs: [],
      links: ["prev": "\(base)/comments?page%5Boffset%5D=0", "next": .absent]),
    .get(
      "comments-limit-too-large", "/comments?page%5Blimit%5D=21", 400, code: "invalid-page-value",
      source: ("parameter", "page[limit]")),
    .get(
      "comments-offset-too-large", "/comments?page%5Boffset%5D=2147483648", 400,
      code: "invalid-page-value", source: ("parameter", "page[offset]")),
    .raw(
      "profile-applied",
      ExampleRequest(
        method: "GET", url: "/people/9",
        headers: [
          "Accept": "application/vnd.api+json;profile=\"\(ExampleServer.timestampsProfile)\""
        ]),
      200,
      headers: [
        "Content-Type": "application/vnd.api+json;profile=\"\(ExampleServer.timestampsProfile)\"",
        "Vary": "Accept",
      ]),
    // POST (R75-R78).
    .send(
      "create", "POST", "/articles", newArticle, 201,
      headers: ["Location": "https://api.example.com/articles/100"]),
    .send(
      "create-client-id", "POST", "/articles",
      article(#""id":"5f7a0c1e-7d1b-4c5e-9f00-1b2c3d4e5f60","attributes":{"title":"Mine"}"#), 201,
      headers: ["Location": "https://api.example.com/articles/5f7a0c1e-7d1b-4c5e-9f00-1b2c3d4e5f60"]
    ),
    .send(
      "create-lid", "POST", "/articles", article(#""lid":"a1","attributes":{"title":"Local"}"#), 201
    ),
    .send(
      "create-with-comments", "POST", "/articles?include=comments",
      article(
        #""attributes":{"title":"T"},"relationships":{"comments":{"data":[{"type":"comments","id":"5"}]}}"#
      ),
      201),
    .send(
      "create-wrong-type", "POST", "/articles", #"{"data":{"type":"people","attributes":{}}}"#, 409,
      code: "type-mismatch", source: ("pointer", "/data/type")),
    .send(
      "create-existing-id", "POST", "/articles", article(#""id":"1","attributes":{"title":"T"}"#),
      409, code: "resource-exists", source: ("pointer", "/data/id")),
    .send(
      "create-blank-title", "POST", "/articles", article(#""attributes":{"title":" "}"#), 422,
      code: "blank", source: ("pointer", "/data/attributes/title")),
    .send(
      "create-title-not-string", "POST", "/articles", article(#""attributes":{"title":42}"#), 422,
      code: "type-mismatch", source: ("pointer", "/data/attributes/title")),
    .send(
      "create-title-null", "POST", "/articles", article(#""attributes":{"title":null}"#), 422,
      code: "null-value", source: ("pointer", "/data/attributes/title")),
    .send(
      "create-title-missing", "POST", "/articles", article(#""attributes":{}"#), 422,
      code: "missing-member", source: ("pointer", "/data")),
    .send(
      "create-author-missing", "POST", "/articles",
      article(
        #""attributes":{"title":"T"},"relationships":{"author":{"data":{"type":"people","id":"77"}}}"#
      ),
      404, code: "related-not-found", source: ("pointer", "/data/relationships/author/data")),
    .send(
      "create-author-wrong-type", "POST", "/articles",
      article(
        #""attributes":{"title":"T"},"relationships":{"author":{"data":{"type":"tags","id":"2"}}}"#),
      409, code: "type-mismatch", source: ("pointer", "/data/relationships/author/data/type")),
    .send(
      "create-comment-missing", "POST", "/articles",
      article(
        #""attributes":{"title":"T"},"relationships":{"comments":{"data":[{"type":"comments","id":"5"},{"type":"comments","id":"404"}]}}"#
      ),
      404, code: "related-not-found", source: ("pointer", "/data/relationships/comments/data/1")),
    .send(
      "create-malformed-json", "POST", "/articles", #"{"data":{"type":"articles""#, 400,
      code: "invalid-json"),
    .send(
      "create-not-a-document", "POST", "/articles", #"{"links":{}}"#, 400, code: "not-a-document",
      source: ("pointer", "")),
    .send(
      "create-bad-linkage", "POST", "/articles",
      article(#""attributes":{"title":"T"},"relationships":{"author":{"data":5}}"#), 400,
      code: "invalid-document", source: ("pointer", "/data/relationships/author/data")),
    .send(
      "create-no-body", "POST", "/articles", nil, 400, code: "missing-body", source: ("pointer", "")
    ),
    // Content negotiation (R61).
    .raw(
      "create-json-content-type",
      ExampleRequest(
        method: "POST", url: "/articles", headers: ["Content-Type": "application/json"],
        body: Data(newArticle.utf8)),
      415, code: "unsupported-media-type", source: ("header", "Content-Type")),
    .raw(
      "create-charset",
      ExampleRequest(
        method: "POST", url: "/articles",
        headers: ["Content-Type": "application/vnd.api+json; charset=utf-8"],
        body: Data(newArticle.utf8)),
      415, code: "unsupported-media-type", source: ("header", "Content-Type")),
    .raw(
      "create-unsupported-ext",
      ExampleRequest(
        method: "POST", url: "/articles",
        headers: [
          "Content-Type": "application/vnd.api+json;ext=\"https://jsonapi.org/ext/atomic\""
        ],
        body: Data(newArticle.utf8)),
      415, code: "unsupported-media-type", source: ("header", "Content-Type")),
    .raw(
      "accept-html",
      ExampleRequest(method: "GET", url: "/articles", headers: ["Accept": "text/html"]),
      406, code: "not-acceptable", source: ("header", "Accept")),
    .raw(
      "accept-with-parameter",
      ExampleRequest(
        method: "GET", url: "/articles", headers: ["Accept": "application/vnd.api+json; version=2"]),
      406, code: "not-acceptable", source: ("header", "Accept")),
    // PATCH (R79-R82).
    .send(
      "update", "PATCH", "/articles/1", article(#""id":"1","attributes":{"title":"New"}"#), 200),
    .send(
      "update-unchanged", "PATCH", "/articles/1",
      article(#""id":"1","attributes":{"title":"Swift on the server"}"#), 204),
    .send(
      "update-clear-author", "PATCH", "/articles/1",
      article(#""id":"1","relationships":{"author":{"data":null}}"#), 200),
    .send(
      "update-id-mismatch", "PATCH", "/articles/1", article(#""id":"2""#), 409,
      code: "id-mismatch", source: ("pointer", "/data/id")),
    .send(
      "update-type-mismatch", "PATCH", "/articles/1", #"{"data":{"type":"people","id":"1"}}"#, 409,
      code: "type-mismatch", source: ("pointer", "/data/type")),
    .send(
      "update-missing-id", "PATCH", "/articles/1", article(#""attributes":{"title":"x"}"#), 400,
      code: "missing-id", source: ("pointer", "/data")),
    .send(
      "update-not-found", "PATCH", "/articles/99", article(#""id":"99""#), 404, code: "not-found"),
    .send(
      "update-blank-title", "PATCH", "/articles/1", article(#""id":"1","attributes":{"title":""}"#),
      422, code: "blank", source: ("pointer", "/data/attributes/title")),
    // DELETE (R86).
    .send("delete", "DELETE", "/articles/2", nil, 204),
    .send("delete-not-found", "DELETE", "/articles/99", nil, 404, code: "not-found"),
    // Relationship endpoints (R83-R85).
    .send(
      "set-author", "PATCH", "/articles/3/relationships/author", #"{"data":"# + person + "}", 204),
    .send("clear-author", "PATCH", "/articles/1/relationships/author", #"{"data":null}"#, 204),
    .send(
      "set-author-wrong-type", "PATCH", "/articles/1/relationships/author",
      #"{"data":{"type":"comments","id":"5"}}"#, 409, code: "type-mismatch",
      source: ("pointer", "/data/type")),
    .send(
      "set-author-missing", "PATCH", "/articles/1/relationships/author",
      #"{"data":{"type":"people","id":"404"}}"#, 404, code: "related-not-found",
      source: ("pointer", "/data")),
    .send(
      "replace-comments", "PATCH", "/articles/1/relationships/comments", #"{"data":[]}"#, 403,
      code: "full-replacement-forbidden"),
    .send(
      "add-comments", "POST", "/articles/1/relationships/comments",
      #"{"data":[{"type":"comments","id":"13"},{"type":"comments","id":"5"}]}"#, 204),
    .send(
      "remove-comments", "DELETE", "/articles/1/relationships/comments",
      #"{"data":[{"type":"comments","id":"5"}]}"#, 204),
    .send(
      "add-missing-comment", "POST", "/articles/1/relationships/comments",
      #"{"data":[{"type":"comments","id":"404"}]}"#, 404, code: "related-not-found",
      source: ("pointer", "/data/0")),
    .get(
      "unknown-relationship", "/articles/1/relationships/tags", 404, code: "relationship-not-found"),
    .get("unknown-related", "/articles/1/tags", 404, code: "relationship-not-found"),
    // Query parameters (R66-R71): 400 naming the parameter.
    .get(
      "include-not-allowed", "/articles?include=tags", 400, code: "include-not-allowed",
      source: ("parameter", "include")),
    .get(
      "sort-not-allowed", "/articles?sort=body", 400, code: "sort-not-allowed",
      source: ("parameter", "sort")),
    .get(
      "page-size-not-a-number", "/articles?page%5Bsize%5D=ten", 400, code: "invalid-page-value",
      source: ("parameter", "page[size]")),
    .get(
      "page-size-too-large", "/articles?page[size]=500", 400, code: "invalid-page-value",
      source: ("parameter", "page[size]")),
    .get(
      "page-number-too-large", "/articles?page%5Bnumber%5D=999999999999999999", 400,
      code: "invalid-page-value", source: ("parameter", "page[number]")),
    .get(
      "unknown-field", "/articles?fields%5Barticles%5D=secret", 400, code: "unknown-field",
      source: ("parameter", "fields[articles]")),
    .get(
      "unknown-filter", "/articles?filter%5Btitle%5D=x", 400, code: "unsupported-parameter",
      source: ("parameter", "filter[title]")),
    .get(
      "reserved-parameter", "/articles?foo=1", 400, code: "unsupported-parameter",
      source: ("parameter", "foo")),
    .get(
      "malformed-include", "/articles?include=author,,comments", 400, code: "malformed-parameter",
      source: ("parameter", "include")),
    .get(
      "duplicate-include", "/articles?include=author&include=comments", 400,
      code: "duplicate-parameter", source: ("parameter", "include")),
    .get(
      "include-unsupported", "/people?include=articles", 400, code: "unsupported-parameter",
      source: ("parameter", "include")),
    .get(
      "sort-single-resource", "/articles/1?sort=title", 400, code: "unsupported-parameter",
      source: ("parameter", "sort")),
    // Routing.
    .get("not-found", "/articles/99", 404, code: "not-found"),
    .get("no-route", "/tags", 404, code: "no-route"),
    .send(
      "method-not-allowed", "PUT", "/articles/1", nil, 405, code: "method-not-allowed",
      headers: ["Allow": "GET, PATCH, DELETE"]),
  ]

  @Test func theTableCoversEnoughCases() {
    #expect(Self.cases.count >= 40)
    #expect(Set(Self.cases.map(\.name)).count == Self.cases.count)
  }

  @Test(arguments: cases)
  func answers(_ row: ServerCase) throws {
    var server = ExampleServer()
    let response = server.handle(row.request)
    #expect(response.status == row.status, "\(row.name): \(response.text)")
    for (name, value) in row.headers {
      #expect(response.headers[name] == value, "\(row.name): header \(name)")
    }
    guard let body = response.body else {
      #expect(row.status == 204, "\(row.name): no body")
      return
    }
    #expect(response.headers["Content-Type"]?.hasPrefix("application/vnd.api+json") == true)
    let answersInclude =
      (try? JSONAPIQuery(parsing: URLComponents(string: row.request.url) ?? URLComponents()))?
      .include != nil
    let document = try checked(
      body, name: "server-\(row.name)", kind: .response, answersInclude: answersInclude)
    if row.status >= 400 {
      let error = document["errors"]?[0]
      #expect(error?["status"]?.stringValue == String(row.status), "\(row.name)")
      if let code = row.code { #expect(error?["code"]?.stringValue == code, "\(row.name)") }
      if let source = row.source {
        #expect(error?["source"]?[source.member]?.stringValue == source.value, "\(row.name)")
      }
      for (name, link) in row.links {
        #expect(link.matches(error?["links"]?[name]), "\(row.name): error link \(name)")
      }
      return
    }
    for (name, link) in row.links {
      #expect(link.matches(document["links"]?[name]), "\(row.name): link \(name)")
    }
    if let meta = row.meta { #expect(document["meta"] == meta, "\(row.name): meta") }
    if let ids = row.dataIDs {
      let data = document["data"]
      let found =
        data?.arrayValue?.compactMap { $0["id"]?.stringValue }
        ?? [data?["id"]?.stringValue].compactMap { $0 }
      #expect(found == ids, "\(row.name)")
    }
    if let included = row.included {
      let found = (document["included"]?.arrayValue ?? []).map {
        "\($0["type"]?.stringValue ?? "")/\($0["id"]?.stringValue ?? "")"
      }
      #expect(Set(found) == included, "\(row.name)")
      #expect(found.count == included.count, "\(row.name): duplicates")
    } else if row.request.method == "GET" {
      #expect(document["included"] == nil || answersInclude, "\(row.name)")
    }
  }

  // A whole session against one store: what a request changes, the next one sees.
  @Test func aSessionSeesItsOwnChanges() throws {
    var server = ExampleServer()
    let created = server.handle(.jsonAPI("POST", "/articles", body: Self.newArticle))
    #expect(created.status == 201)
    let location = try #require(created.headers["Location"])
    let path = String(location.dropFirst(ExampleServer.baseURL.count))
    // R78: Location matches the resource's links.self.
    let document = try JSONDecoder().decode(JSONAPIValue.self, from: created.body ?? Data())
    #expect(document["data"]?["links"]?["self"]?.stringValue == location)
    #expect(server.handle(.jsonAPI("GET", path)).status == 200)
    let update = server.handle(
      .jsonAPI(
        "PATCH", path, body: Self.article(#""id":"100","attributes":{"title":"Renamed"}"#)))
    #expect(update.status == 200)
    let updated = try JSONDecoder().decode(JSONAPIValue.self, from: update.body ?? Data())
    #expect(updated["data"]?["attributes"]?["revision"] == 2)
    #expect(server.handle(.jsonAPI("DELETE", path)).status == 204)
    #expect(server.handle(.jsonAPI("GET", path)).status == 404)
    #expect(server.store.articles["100"] == nil)
  }

  // R74: a failing request changes nothing.
  @Test func failedRequestsChangeNothing() {
    var server = ExampleServer()
    let before = server.store.articles["1"]?.title
    let response = server.handle(
      .jsonAPI(
        "PATCH", "/articles/1",
        body: Self.article(
          #""id":"1","attributes":{"title":"Changed"},"relationships":{"author":{"data":{"type":"people","id":"404"}}}"#
        )))
    #expect(response.status == 404)
    #expect(server.store.articles["1"]?.title == before)
  }
}
