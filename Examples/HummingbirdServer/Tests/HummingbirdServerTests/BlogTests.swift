import Foundation
import GlueTestSupport
import Hummingbird
import HummingbirdTesting
import JSONAPIHummingbird
import JSONAPIServer
import Testing

@testable import HummingbirdServer

private let base = "http://blog.test"
private let cursorAccept = #"application/vnd.api+json;profile="\#(cursorProfile)""#

/// Runs `test` against the blog on a new, seeded database, in process; `path` is the database.
private func withBlog(
  at path: String? = nil, _ test: @Sendable (GlueClient, String) async throws -> Void
) async throws {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("blog-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let database = path ?? directory.appendingPathComponent("blog.sqlite").path
  let app = buildApplication(
    server: try Blog.server(path: database, baseURL: base),
    configuration: ApplicationConfiguration())
  try await app.test(.router) { client in
    try await test(GlueClient(client: client, base: base), database)
  }
}

/// The blog (`Examples/HummingbirdServer`) in process through `buildApplication`: its seed, its
/// paging, its rules and its one store rule (an article's comments go with it), on SQLite.
@Suite struct BlogTests {
  @Test func theFirstPageOf20ArticlesWithAuthorsThenTheRestByCursor() async throws {
    try await withBlog { blog, _ in
      let first = try await blog.send(
        .get, "/articles?page%5Bsize%5D=20&include=author", accept: cursorAccept)
      #expect(first.status == 200)
      #expect(first.ids == (1...20).map(String.init))
      // Article n is by person (n - 1) % 5 + 1: the page names all five, each included once.
      let people = first.json["included"]?.arrayValue ?? []
      #expect(people.compactMap { $0["id"]?.stringValue }.sorted() == ["1", "2", "3", "4", "5"])
      #expect(people.allSatisfy { $0["type"] == "people" })
      #expect(first.json["data"]?[0]?["attributes"]?["title"] == "Article 01")
      let next = first.json["links"]?["next"]?.stringValue
      #expect(next != nil)
      let rest = try await blog.follow(next)
      #expect(rest.status == 200)
      #expect(rest.ids == (21...25).map(String.init))
      #expect(rest.json["links"]?["next"] == nil || rest.json["links"]?["next"] == .null)
      // Each article names its three comments, read through the inverse of `comment.article`.
      let comments = first.json["data"]?[1]?["relationships"]?["comments"]?["data"]?.arrayValue
      #expect(comments?.compactMap { $0["id"]?.stringValue } == ["4", "5", "6"])
    }
  }

  @Test func aCreatedArticleIsUpdatedThenDeletedWithItsComments() async throws {
    try await withBlog { blog, _ in
      let created = try await blog.send(
        .post, "/articles",
        body: #"""
          {"data":{"type":"articles","attributes":{"title":"New","body":"Text"},
          "relationships":{"author":{"data":{"type":"people","id":"2"}}}}}
          """#)
      #expect(created.status == 201)
      #expect(created.header("Location") == "\(base)/articles/26")
      let comment = try await blog.send(
        .post, "/comments",
        body: #"""
          {"data":{"type":"comments","attributes":{"body":"First"},
          "relationships":{"article":{"data":{"type":"articles","id":"26"}}}}}
          """#)
      #expect(comment.status == 201)
      let commentID = try #require(comment.json["data"]?["id"]?.stringValue)

      let updated = try await blog.send(
        .patch, "/articles/26",
        body: #"{"data":{"type":"articles","id":"26","attributes":{"title":"Renamed"}}}"#)
      #expect(updated.status == 200)
      #expect(updated.json["data"]?["attributes"]?["title"] == "Renamed")
      #expect(updated.json["data"]?["attributes"]?["body"] == "Text")
      let linkage = try await blog.send(.get, "/articles/26/relationships/comments")
      #expect(linkage.ids == [commentID])

      #expect(try await blog.send(.delete, "/articles/26").status == 204)
      #expect(try await blog.send(.get, "/articles/26").status == 404)
      #expect(try await blog.send(.get, "/comments/\(commentID)").status == 404)
      // Only that article's comments went: the seed's 75 remain.
      let rest = try await blog.send(.get, "/comments?page%5Bsize%5D=1")
      #expect(rest.json["meta"]?["page"]?["total"] == 75)
      #expect(try await blog.send(.get, "/comments/75").status == 200)
    }
  }

  @Test func textWithU0000IsKeptWholeAndMatchedWhole() async throws {
    try await withBlog { blog, _ in
      let created = try await blog.send(
        .post, "/comments",
        body: #"""
          {"data":{"type":"comments","attributes":{"body":"\u0000x"},
          "relationships":{"article":{"data":{"type":"articles","id":"1"}}}}}
          """#)
      #expect(created.status == 201)
      let id = try #require(created.json["data"]?["id"]?.stringValue)
      let read = try await blog.send(.get, "/comments/\(id)")
      #expect(read.json["data"]?["attributes"]?["body"] == .string("\u{0}x"))
      // A filter value with U+0000 is refused, not cut (SQLite would match `""`: every title).
      let refused = try await blog.send(.get, "/articles?filter%5Btitle%5D=%00zzzz")
      #expect(refused.status == 400)
      #expect(refused.errorSource == "filter[title]")
      let some = try await blog.send(.get, "/articles?filter%5Btitle%5D=Article%202")
      #expect(some.ids == ["20", "21", "22", "23", "24", "25"])  // "Article 02" is not "Article 2…"
    }
  }

  @Test func aBlankTitleIs422PointingAtIt() async throws {
    try await withBlog { blog, _ in
      let reply = try await blog.send(
        .post, "/articles", body: #"{"data":{"type":"articles","attributes":{"title":"  "}}}"#)
      #expect(reply.status == 422)
      #expect(reply.errorSource == "/data/attributes/title")
      #expect(reply.json["errors"]?[0]?["code"] == "blank")
      let tooLong = String(repeating: "n", count: 101)
      let person = try await blog.send(
        .post, "/people", body: #"{"data":{"type":"people","attributes":{"name":"\#(tooLong)"}}}"#)
      #expect(person.status == 422 && person.json["errors"]?[0]?["code"] == "too-long")
    }
  }

  @Test func atomicOperationsWithLocalIDsAreOneTransaction() async throws {
    try await withBlog { blog, _ in
      let batch = try await blog.send(
        .post, "/operations",
        body: #"""
          {"atomic:operations":[
           {"op":"add","data":{"type":"people","lid":"p","attributes":{"name":"Lin"}}},
           {"op":"add","data":{"type":"articles","lid":"a","attributes":{"title":"By Lin"},
            "relationships":{"author":{"data":{"type":"people","lid":"p"}}}}}]}
          """#, contentType: atomic, accept: atomic)
      #expect(batch.status == 200)
      #expect(batch.json["atomic:results"]?.arrayValue?.count == 2)
      let article = try await blog.send(.get, "/articles/26?include=author")
      #expect(article.json["included"]?[0]?["attributes"]?["name"] == "Lin")

      // The second operation fails (a blank title): the first is not stored either.
      let refused = try await blog.send(
        .post, "/operations",
        body: #"""
          {"atomic:operations":[
           {"op":"add","data":{"type":"people","lid":"q","attributes":{"name":"Mo"}}},
           {"op":"add","data":{"type":"articles","attributes":{"title":" "}}}]}
          """#, contentType: atomic, accept: atomic)
      #expect(refused.status == 422)
      #expect(refused.errorSource == "/atomic:operations/1/data/attributes/title")
      #expect(try await blog.send(.get, "/people/7").status == 404)
    }
  }

  @Test func aNewServerOnTheSameDatabaseServesWhatWasAcknowledged() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("blog-reopen-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("blog.sqlite").path
    try await withBlog(at: path) { blog, _ in
      let created = try await blog.send(
        .post, "/people", body: #"{"data":{"type":"people","attributes":{"name":"Kept"}}}"#)
      #expect(created.status == 201)
    }
    try await withBlog(at: path) { blog, _ in
      let person = try await blog.send(.get, "/people/6")
      #expect(person.json["data"]?["attributes"]?["name"] == "Kept")
      // Not seeded twice.
      #expect(try await blog.send(.get, "/people/7").status == 404)
      #expect(try await blog.send(.get, "/articles/26").status == 404)
    }
  }
}
