import Foundation
import GlueTestSupport
import Hummingbird
import HummingbirdTesting
import JSONAPIHummingbird
import JSONAPIServer
import Testing

@testable import HummingbirdServer

private let base = "http://blog.test"

/// Runs `test` against the blog on a new, seeded SQLite database, in process through the glue.
private func withBlog(_ test: @Sendable (GlueClient) async throws -> Void) async throws {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("blog-conditional-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let app = buildApplication(
    server: try Blog.server(
      path: directory.appendingPathComponent("blog.sqlite").path, baseURL: base),
    configuration: ApplicationConfiguration())
  try await app.test(.router) { client in
    try await test(GlueClient(client: client, base: base))
  }
}

private func retitle(_ id: String, _ title: String) -> String {
  #"{"data":{"type":"articles","id":""# + id + #"","attributes":{"title":""# + title + #""}}}"#
}

/// The blog's validators and conditions as issue 48 pins them, through the Hummingbird glue:
/// headers in (`If-Match`, `If-None-Match`) and out (`ETag`), and a `304` without a body.
@Suite struct BlogConditionalTests {
  static func etag(_ blog: GlueClient, _ path: String) async throws -> String {
    let reply = try await blog.send(.get, path)
    #expect(reply.status == 200, "\(path)")
    return try #require(reply.header("ETag"), "\(path) has no ETag")
  }

  @Test(arguments: ["/articles", "/articles/1", "/people/1", "/articles?include=author"])
  func readsCarryAnETagAndIfNoneMatchIs304(_ path: String) async throws {
    try await withBlog { blog in
      let tag = try await Self.etag(blog, path)
      #expect(!tag.hasPrefix("W/") && tag.hasPrefix("\""))
      let head = try await blog.send(.head, path)
      #expect(head.status == 200)
      #expect(head.header("ETag") == tag)
      #expect(head.body.isEmpty)
      for method in [HTTPRequest.Method.get, .head] {
        let cached = try await blog.send(method, path, headers: [.ifNoneMatch: tag])
        #expect(cached.status == 304, "\(method) \(path)")
        #expect(cached.body.isEmpty)
        #expect(cached.header("ETag") == tag)
        #expect(cached.header("Content-Length") == nil)
      }
      let other = try await blog.send(.get, path, headers: [.ifNoneMatch: "\"other\""])
      #expect(other.status == 200)
      #expect(!other.body.isEmpty)
    }
  }

  @Test func theETagChangesAfterAWriteThatChangesTheAnswer() async throws {
    try await withBlog { blog in
      let article = try await Self.etag(blog, "/articles/1")
      let list = try await Self.etag(blog, "/articles")
      let person = try await Self.etag(blog, "/people/1")
      let updated = try await blog.send(.patch, "/articles/1", body: retitle("1", "Changed"))
      #expect(updated.status == 200)
      #expect(try await Self.etag(blog, "/articles/1") != article)
      #expect(try await Self.etag(blog, "/articles") != list)
      #expect(try await Self.etag(blog, "/people/1") == person)
      let renamed = try await blog.send(
        .patch, "/people/1",
        body: #"{"data":{"type":"people","id":"1","attributes":{"name":"Renamed"}}}"#)
      #expect(renamed.status == 200)
      #expect(try await Self.etag(blog, "/people/1") != person)
    }
  }

  @Test func aStaleIfMatchIs412AndChangesNothingTheCurrentOneSucceeds() async throws {
    try await withBlog { blog in
      let read = try await Self.etag(blog, "/articles/2")
      let theirs = try await blog.send(.patch, "/articles/2", body: retitle("2", "Theirs"))
      #expect(theirs.status == 200)
      let current = try await Self.etag(blog, "/articles/2")
      let mine = try await blog.send(
        .patch, "/articles/2", body: retitle("2", "Mine"), headers: [.ifMatch: read])
      #expect(mine.status == 412)
      #expect(mine.json["errors"]?[0]?["code"] == "precondition-failed")
      let deleted = try await blog.send(.delete, "/articles/2", headers: [.ifMatch: read])
      #expect(deleted.status == 412)
      #expect(try await Self.etag(blog, "/articles/2") == current)
      let again = try await blog.send(
        .patch, "/articles/2", body: retitle("2", "Mine"), headers: [.ifMatch: current])
      #expect(again.status == 200)
      #expect(again.json["data"]?["attributes"]?["title"] == "Mine")
      let next = try #require(again.header("ETag"))
      #expect(try await Self.etag(blog, "/articles/2") == next)
      let gone = try await blog.send(.delete, "/articles/2", headers: [.ifMatch: next])
      #expect(gone.status == 204)
      #expect(try await blog.send(.get, "/articles/2").status == 404)
    }
  }

  @Test func ifMatchStarOnAnExistingArticleSucceeds() async throws {
    try await withBlog { blog in
      let updated = try await blog.send(
        .patch, "/articles/3", body: retitle("3", "Star"), headers: [.ifMatch: "*"])
      #expect(updated.status == 200)
      let deleted = try await blog.send(.delete, "/articles/3", headers: [.ifMatch: "*"])
      #expect(deleted.status == 204)
      let missing = try await blog.send(.delete, "/articles/3", headers: [.ifMatch: "*"])
      #expect(missing.status == 412)
    }
  }
}
