import Foundation
import JSONAPICodable
import Testing

@testable import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 48, item 2: the opt-in conditional-`GET` cache. A read with an `ETag` is kept; the next
/// read of the same request asks `If-None-Match` and a `304` is decoded anew from the kept body;
/// bounded by entries and bytes; never across origins or credentials.
@Suite struct ResponseCacheTests {
  struct Article: Codable, Sendable, Equatable {
    var id: String
    var type = "articles"
    var title: String
  }

  /// The same resource read through another model: proof that a `304` is decoded anew.
  struct Headline: Codable, Sendable, Equatable {
    var id: String
    var type = "articles"
    var title: String
  }

  static func cached(
    _ server: VersionedServer, cache: JSONAPIResponseCache = JSONAPIResponseCache(),
    baseURL: URL = Stub.baseURL,
    prepare: (@Sendable (inout URLRequest) async throws -> Void)? = nil
  ) -> JSONAPIClient {
    var configuration = JSONAPIClient.Configuration(prepareRequest: prepare)
    configuration.cache = cache
    return Stub.client(server.transport, baseURL: baseURL, configuration: configuration)
  }

  @Test func aSecondReadAsksIfNoneMatchAndA304IsDecodedAnew() async throws {
    let server = VersionedServer()
    let client = Self.cached(server)
    let first = try await client.getResponse(Article.self, from: "articles/1")
    #expect(!first.isFromCache)
    client.decoder.keyDecodingStrategy = .useDefaultKeys
    let second = try await client.getResponse(Headline.self, from: "articles/1")
    #expect(server.ifNoneMatches == [nil, #""v1""#])
    #expect(second.isFromCache)
    #expect(second.statusCode == 200)
    #expect(second.value == Headline(id: "1", title: "Draft"))
    #expect(second.etag?.headerValue == #""v1""#)
    // `get` is served the same way.
    let third = try await client.get(Article.self, from: "articles/1")
    #expect(third == Article(id: "1", title: "Draft"))
    #expect(server.ifNoneMatches.count == 3 && server.ifNoneMatches.last == #""v1""#)
  }

  @Test func aChangedResourceIsTransferredAndReplacesTheEntry() async throws {
    let server = VersionedServer()
    let client = Self.cached(server)
    _ = try await client.get(Article.self, from: "articles/1")
    server.setTitle("1", "Changed elsewhere")
    let changed = try await client.getResponse(Article.self, from: "articles/1")
    #expect(!changed.isFromCache)
    #expect(changed.value.title == "Changed elsewhere")
    _ = try await client.get(Article.self, from: "articles/1")
    #expect(server.ifNoneMatches == [nil, #""v1""#, #""v2""#])
  }

  @Test func withoutACacheNothingIsConditional() async throws {
    let server = VersionedServer()
    let client = Stub.client(server.transport)
    _ = try await client.get(Article.self, from: "articles/1")
    _ = try await client.get(Article.self, from: "articles/1")
    #expect(server.ifNoneMatches == [nil, nil])
  }

  @Test func weakTagsAreKeptAndSentBack() async throws {
    let server = VersionedServer()
    server.weakETag = true
    let client = Self.cached(server)
    _ = try await client.get(Article.self, from: "articles/1")
    let second = try await client.getResponse(Article.self, from: "articles/1")
    #expect(server.ifNoneMatches == [nil, #"W/"v1""#])
    #expect(second.isFromCache)
  }

  @Test func theLeastRecentlyUsedEntryGoesPastMaxEntries() async throws {
    let server = VersionedServer(articles: ["1": "A", "2": "B", "3": "C"])
    let cache = JSONAPIResponseCache(maxEntries: 2)
    let client = Self.cached(server, cache: cache)
    _ = try await client.get(Article.self, from: "articles/1")
    _ = try await client.get(Article.self, from: "articles/2")
    _ = try await client.get(Article.self, from: "articles/1")  // 1 is now the most recent
    _ = try await client.get(Article.self, from: "articles/3")  // evicts 2
    #expect(cache.count == 2)
    _ = try await client.get(Article.self, from: "articles/1")
    _ = try await client.get(Article.self, from: "articles/2")
    let conditions = server.ifNoneMatches
    #expect(conditions == [nil, nil, #""v1""#, nil, #""v1""#, nil])
  }

  @Test func entriesAreBoundedByBytes() async throws {
    let server = VersionedServer(articles: ["1": "A", "2": "B", "3": "C"])
    let probe = JSONAPIResponseCache()
    _ = try await Self.cached(server, cache: probe).get(Article.self, from: "articles/1")
    let one = probe.totalBytes
    #expect(one > 0)
    // Room for two entries, not three.
    let cache = JSONAPIResponseCache(maxEntries: 100, maxBytes: one * 2 + one / 2)
    let client = Self.cached(server, cache: cache)
    for id in ["1", "2", "3"] { _ = try await client.get(Article.self, from: "articles/\(id)") }
    #expect(cache.count == 2)
    #expect(cache.totalBytes <= cache.maxBytes)
    // An answer larger than the whole budget is not kept at all.
    let tiny = JSONAPIResponseCache(maxEntries: 100, maxBytes: one - 1)
    _ = try await Self.cached(server, cache: tiny).get(Article.self, from: "articles/1")
    #expect(tiny.count == 0 && tiny.totalBytes == 0)
  }

  @Test func noEntryIsServedForOtherCredentials() async throws {
    let server = VersionedServer()
    let cache = JSONAPIResponseCache()
    func client(token: String) -> JSONAPIClient {
      Self.cached(server, cache: cache) { request in
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
      }
    }
    _ = try await client(token: "alice").get(Article.self, from: "articles/1")
    _ = try await client(token: "bob").get(Article.self, from: "articles/1")
    _ = try await Self.cached(server, cache: cache).get(Article.self, from: "articles/1")
    // Each set of credentials has its own entry: nothing was conditional, nothing was shared.
    #expect(server.ifNoneMatches == [nil, nil, nil])
    #expect(cache.count == 3)
    _ = try await client(token: "alice").get(Article.self, from: "articles/1")
    #expect(server.ifNoneMatches.last == #""v1""#)
  }

  @Test func noEntryIsServedForAnotherOrigin() async throws {
    let server = VersionedServer()
    let cache = JSONAPIResponseCache()
    let other = try #require(URL(string: "https://other.example.com/"))
    _ = try await Self.cached(server, cache: cache).get(Article.self, from: "articles/1")
    let there = try await Self.cached(server, cache: cache, baseURL: other).getResponse(
      Article.self, from: "articles/1")
    #expect(!there.isFromCache)
    #expect(server.ifNoneMatches == [nil, nil])
    #expect(server.requests.map { $0.url?.host } == ["api.example.com", "other.example.com"])
  }

  @Test func aWriteRemovesTheEntriesOfItsURL() async throws {
    let server = VersionedServer()
    let cache = JSONAPIResponseCache()
    let client = Self.cached(server, cache: cache)
    _ = try await client.get(Article.self, from: "articles/1")
    _ = try await client.get(Article.self, from: "articles/1", query: JSONAPIQuery().including("x"))
    #expect(cache.count == 2)
    try await client.update(Article(id: "1", title: "Edited"), at: "articles/1")
    #expect(cache.count == 0)
    let after = try await client.getResponse(Article.self, from: "articles/1")
    #expect(!after.isFromCache && after.value.title == "Edited")
    #expect(server.ifNoneMatches.last == .some(nil))
  }

  @Test func onlyA200WithAnETagThatMayBeStoredIsKept() async throws {
    let unversioned = VersionedServer()
    unversioned.sendsETag = false
    let none = JSONAPIResponseCache()
    _ = try await Self.cached(unversioned, cache: none).get(Article.self, from: "articles/1")
    #expect(none.count == 0)

    for headers in [["Cache-Control": "private, no-store"], ["Vary": "Accept, *"]] {
      let server = VersionedServer()
      server.extraHeaders = headers
      let refused = JSONAPIResponseCache()
      _ = try await Self.cached(server, cache: refused).get(Article.self, from: "articles/1")
      #expect(refused.count == 0, "\(headers)")
    }

    let missing = VersionedServer()
    let errors = JSONAPIResponseCache()
    await #expect(throws: JSONAPIResponseError.self) {
      _ = try await Self.cached(missing, cache: errors).get(Article.self, from: "articles/9")
    }
    #expect(errors.count == 0)
  }

  @Test func a304ThatNamesAnotherVersionIsAskedAgainWithoutTheCondition() async throws {
    // A confused server: 304 with a tag other than the one sent.
    let calls = Recorder<String?>()
    let transport = StubTransport { request in
      calls.append(request.value(forHTTPHeaderField: "If-None-Match"))
      let body = #"{"data":{"type":"articles","id":"1","attributes":{"title":"T"}}}"#
      if request.value(forHTTPHeaderField: "If-None-Match") != nil {
        return (Data(), try Stub.response(for: request, status: 304, headers: ["ETag": #""v9""#]))
      }
      let headers = Stub.jsonAPI.merging(["ETag": #""v1""#]) { $1 }
      return (Data(body.utf8), try Stub.response(for: request, status: 200, headers: headers))
    }
    var configuration = JSONAPIClient.Configuration()
    configuration.cache = JSONAPIResponseCache()
    let client = Stub.client(transport, configuration: configuration)
    _ = try await client.get(Article.self, from: "articles/1")
    let second = try await client.getResponse(Article.self, from: "articles/1")
    #expect(calls.values == [nil, #""v1""#, nil])
    #expect(!second.isFromCache && second.value.title == "T")
  }

  @Test func anAppThatSetsItsOwnConditionBypassesTheCache() async throws {
    let server = VersionedServer()
    let cache = JSONAPIResponseCache()
    let client = Self.cached(server, cache: cache) { request in
      request.setValue(#""mine""#, forHTTPHeaderField: "If-None-Match")
    }
    _ = try await client.get(Article.self, from: "articles/1")
    _ = try await client.get(Article.self, from: "articles/1")
    #expect(server.ifNoneMatches == [#""mine""#, #""mine""#])
    #expect(cache.count == 0)
  }

  @Test func pagesAreReadThroughTheCacheToo() async throws {
    let server = VersionedServer()
    let cache = JSONAPIResponseCache()
    let client = Self.cached(server, cache: cache)
    for _ in 0..<2 {
      for try await page in client.pages(of: Article.self, from: "articles/1") {
        #expect(page.data.title == "Draft")
      }
    }
    #expect(server.ifNoneMatches == [nil, #""v1""#])
    cache.removeAll()
    #expect(cache.count == 0 && cache.totalBytes == 0)
  }
}
