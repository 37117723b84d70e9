import Foundation
import JSONAPICodable
import Testing

@testable import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 48, item 2: the version a read came with (`ETag`) goes back in `If-Match` on
/// `update(from:to:at:)` and `delete`, and a `412` is an error that says what happened.
@Suite struct ConditionalWriteTests {
  struct Article: Codable, Sendable, Equatable {
    var id: String
    var type = "articles"
    var title: String
  }

  @Test func aReadCarriesTheETagItCameWith() async throws {
    let server = VersionedServer()
    let read = try await Stub.client(server.transport).getResponse(
      Article.self, from: "articles/1")
    #expect(read.value == Article(id: "1", title: "Draft"))
    #expect(read.etag?.headerValue == #""v1""#)
    #expect(read.etag?.isWeak == false)
    #expect(read.header("ETag") == #""v1""#)
  }

  @Test func updateFromAReadSendsIfMatchWithItsETag() async throws {
    let server = VersionedServer()
    let client = Stub.client(server.transport)
    let read = try await client.getResponse(Article.self, from: "articles/1")
    var edited = read.value
    edited.title = "Final"
    let updated: Article? = try await client.update(from: read, to: edited, at: "articles/1")
    #expect(updated == nil)  // 204: applied as sent
    let patch = try #require(server.requests.last)
    #expect(patch.httpMethod == "PATCH")
    #expect(patch.value(forHTTPHeaderField: "If-Match") == #""v1""#)
    #expect(
      patch.bodyText == #"{"data":{"type":"articles","id":"1","attributes":{"title":"Final"}}}"#)
    #expect(server.title("1") == "Final")
  }

  @Test func aStaleUpdateIsAPreconditionFailureAndChangesNothing() async throws {
    let server = VersionedServer()
    let client = Stub.client(server.transport)
    let mine = try await client.getResponse(Article.self, from: "articles/1")
    // Someone else saves first.
    server.setTitle("1", "Theirs")
    var edited = mine.value
    edited.title = "Mine"
    let error = await #expect(throws: JSONAPIResponseError.self) {
      let _: Article? = try await client.update(
        from: mine.value, to: edited, at: "articles/1", ifMatch: mine.etag)
    }
    #expect(error?.isPreconditionFailed == true)
    #expect(error?.statusCode == 412)
    let text = error?.description ?? ""
    #expect(text.contains("HTTP 412 Precondition Failed for PATCH"))
    #expect(text.contains("someone else changed the resource"))
    #expect(text.contains("read it again"))
    #expect(text.contains("RFC 9110"))
    #expect(server.title("1") == "Theirs")
    // Read again, apply the edit to what it is now: the write goes through.
    let current = try await client.getResponse(Article.self, from: "articles/1")
    var merged = current.value
    merged.title = "Mine, after theirs"
    let _: Article? = try await client.update(from: current, to: merged, at: "articles/1")
    #expect(server.title("1") == "Mine, after theirs")
    #expect(server.requests.last?.value(forHTTPHeaderField: "If-Match") == #""v2""#)
  }

  @Test func deleteSendsIfMatchAndAStaleOneDeletesNothing() async throws {
    let server = VersionedServer(articles: ["1": "One", "2": "Two"])
    let client = Stub.client(server.transport)
    let one = try await client.getResponse(Article.self, from: "articles/1")
    try await client.delete("articles/1", ifMatch: one.etag)
    #expect(server.requests.last?.value(forHTTPHeaderField: "If-Match") == #""v1""#)
    #expect(server.title("1") == nil)

    let two = try await client.getResponse(Article.self, from: "articles/2")
    server.setTitle("2", "Edited")
    let error = await #expect(throws: JSONAPIResponseError.self) {
      try await client.delete("articles/2", ifMatch: two.etag)
    }
    #expect(error?.isPreconditionFailed == true)
    #expect(error?.method == "DELETE")
    #expect(server.title("2") == "Edited")
  }

  @Test func theUpdateOfAWholeResourceSendsIfMatchToo() async throws {
    let server = VersionedServer()
    let client = Stub.client(server.transport)
    let read = try await client.getResponse(Article.self, from: "articles/1")
    let _: Article? = try await client.update(
      Article(id: "1", title: "Whole"), at: "articles/1", ifMatch: read.etag)
    #expect(server.requests.last?.value(forHTTPHeaderField: "If-Match") == #""v1""#)
    #expect(server.title("1") == "Whole")
  }

  @Test func withoutAnETagOrWithTheOldCallsNoIfMatchIsSent() async throws {
    let server = VersionedServer()
    server.sendsETag = false
    let client = Stub.client(server.transport)
    let read = try await client.getResponse(Article.self, from: "articles/1")
    #expect(read.etag == nil)
    var edited = read.value
    edited.title = "A"
    let _: Article? = try await client.update(from: read, to: edited, at: "articles/1")
    #expect(server.requests.last?.value(forHTTPHeaderField: "If-Match") == nil)
    edited.title = "B"
    let _: Article? = try await client.update(from: read.value, to: edited, at: "articles/1")
    #expect(server.requests.last?.value(forHTTPHeaderField: "If-Match") == nil)
    try await client.delete("articles/1")
    #expect(server.requests.last?.value(forHTTPHeaderField: "If-Match") == nil)
    #expect(server.requests.count == 4)
  }

  @Test func nothingChangedSendsNoConditionalRequest() async throws {
    let server = VersionedServer()
    let client = Stub.client(server.transport)
    let read = try await client.getResponse(Article.self, from: "articles/1")
    let updated: Article? = try await client.update(from: read, to: read.value, at: "articles/1")
    #expect(updated == nil)
    #expect(server.requests.count == 1)
  }

  @Test func entityTagsAreReadAsRFC9110WritesThem() {
    #expect(JSONAPIEntityTag(headerValue: #""abc""#)?.headerValue == #""abc""#)
    #expect(JSONAPIEntityTag(headerValue: #"  W/"abc"  "#)?.headerValue == #"W/"abc""#)
    #expect(JSONAPIEntityTag(headerValue: #"W/"abc""#)?.isWeak == true)
    #expect(JSONAPIEntityTag(headerValue: #""""#)?.isWeak == false)  // an empty tag is valid
    for invalid in ["abc", #""a"b""#, #""a b""#, #""abc"#, #"w/"abc""#, #""a","b""#, ""] {
      #expect(JSONAPIEntityTag(headerValue: invalid) == nil, "\(invalid)")
    }
    let strong = JSONAPIEntityTag(headerValue: #""v1""#)
    let weak = JSONAPIEntityTag(headerValue: #"W/"v1""#)
    #expect(strong != weak)
    if let strong, let weak { #expect(strong.matchesWeakly(weak)) }
  }

  @Test func aPreconditionRequiredSaysToSendIfMatch() {
    let error = JSONAPIResponseError(
      statusCode: 428, method: "PATCH", url: Stub.baseURL.appendingPathComponent("articles/1"))
    #expect(error.isPreconditionRequired)
    #expect(!error.isPreconditionFailed)
    #expect(error.description.contains("Precondition Required"))
    #expect(error.description.contains("If-Match"))
  }
}
