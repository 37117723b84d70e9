import Foundation
import IntegrationHarness
import JSONAPICodable
import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Counts the requests a client sends and the body bytes their answers bring, over the default
/// transport: what an app pays for refreshing a list.
struct CountingTransport: JSONAPITransport {
  actor Counts {
    var requests = 0
    var bytes = 0
    func add(_ count: Int) {
      requests += 1
      bytes += count
    }
  }
  let counts = Counts()

  func send(_ request: URLRequest, maxResponseBytes: Int) async throws -> (Data, HTTPURLResponse) {
    let (body, response) = try await JSONAPIClient.defaultTransport.send(
      request, maxResponseBytes: maxResponseBytes)
    await counts.add(body.count)
    return (body, response)
  }
}

/// Issue 48 over HTTP: the blog's validators as the client uses them, on articles of their own.
@MainActor func checkConditionalRequests(_ baseURL: URL) async {
  let list = JSONAPIQuery().including("author", "comments").page("size", "20")

  await check("a second read through the cache is a 304, decoded anew from the kept body") {
    var configuration = JSONAPIClient.Configuration()
    configuration.cache = JSONAPIResponseCache(maxEntries: 16, maxBytes: 1 << 20)
    let cached = JSONAPIClient(baseURL: baseURL, configuration: configuration)
    let first = try await cached.getResponse([Article].self, from: "articles", query: list)
    let second = try await cached.getResponse([Article].self, from: "articles", query: list)
    await expect(first.etag != nil && !first.isFromCache, "first read: \(first.headers)")
    await expect(second.isFromCache && second.etag == first.etag, "second: \(second.headers)")
    await expect(
      second.value.map(\.title) == first.value.map(\.title) && second.value.count == 20,
      "\(second.value.map(\.title))")
  }

  await check("update from a stale read is 412 and changes nothing; from a fresh read it wins") {
    let client = JSONAPIClient(baseURL: baseURL)
    let path =
      try await "articles/" + required(publish(client, title: "Versioned one").value.id, "id")
    let read = try await client.getResponse(EditableArticle.self, from: path)
    await expect(read.etag != nil, "no ETag on \(path)")
    // Another user renames it after `read` was read.
    var theirs = read.value
    theirs.title = "Renamed elsewhere"
    let _: EditableArticle? = try await client.update(theirs, at: path)
    var mine = read.value
    mine.title = "Mine"
    let error = await expectThrows(JSONAPIResponseError.self) {
      let _: EditableArticle? = try await client.update(from: read, to: mine, at: path)
    }
    await expect(error?.isPreconditionFailed == true, "\(String(describing: error))")
    let stored = try await client.get(EditableArticle.self, from: path)
    await expect(stored.title == "Renamed elsewhere", "the stale update changed it: \(stored)")
    let fresh = try await client.getResponse(EditableArticle.self, from: path)
    let saved: EditableArticle? = try await client.update(from: fresh, to: mine, at: path)
    await expect(saved?.title == "Mine", "\(String(describing: saved))")
  }

  await check("a stale If-Match on DELETE is 412 and the article stays") {
    let client = JSONAPIClient(baseURL: baseURL)
    let path =
      try await "articles/" + required(publish(client, title: "Versioned two").value.id, "id")
    let read = try await client.getResponse(EditableArticle.self, from: path)
    var theirs = read.value
    theirs.body = "Edited before the delete"
    let _: EditableArticle? = try await client.update(theirs, at: path)
    let error = await expectThrows(JSONAPIResponseError.self) {
      try await client.delete(path, ifMatch: read.etag)
    }
    await expect(error?.isPreconditionFailed == true, "\(String(describing: error))")
    let stored = try await client.get(EditableArticle.self, from: path)
    await expect(stored.body == "Edited before the delete", "\(stored)")
  }

  await check(
    "refreshing a list of 20 articles with includes ten times: bytes without and with the cache"
  ) {
    var totals: [Int] = []
    for cache in [nil, JSONAPIResponseCache(maxEntries: 16, maxBytes: 4 << 20)] {
      let transport = CountingTransport()
      var configuration = JSONAPIClient.Configuration()
      configuration.cache = cache
      let client = JSONAPIClient(
        baseURL: baseURL, configuration: configuration, transport: transport)
      for _ in 0..<10 {
        let page = try await client.get([Article].self, from: "articles", query: list)
        await expect(page.count == 20, "a page of \(page.count)")
      }
      let requests = await transport.counts.requests
      let bytes = await transport.counts.bytes
      await expect(requests == 10, "\(requests) requests")
      totals.append(bytes)
      print("  refresh x10 \(cache == nil ? "without" : "with") the cache: \(bytes) body bytes")
    }
    await expect(totals.count == 2 && totals[1] * 5 < totals[0], "\(totals)")
  }
}
