import Foundation
import JSONAPICodable
import Testing

@testable import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// Following links: pagination, relative and absolute links, and the origin rule.
@Suite struct PagesAndOriginTests {
  struct Article: Codable, Sendable, Equatable {
    var id: String
    var type = "articles"
  }

  static func page(_ ids: [Int], next: String?) -> String {
    let data = ids.map { #"{"type":"articles","id":"\#($0)"}"# }.joined(separator: ",")
    let links = next.map { #"{"next":"\#($0)"}"# } ?? #"{"next":null}"#
    return #"{"data":[\#(data)],"links":\#(links)}"#
  }

  /// A server whose pages are chosen by the request's path and query.
  static func server(_ pages: [String: String]) -> StubTransport {
    StubTransport { request in
      guard let body = pages[request.target] else {
        return try Stub.answer(request, 404, #"{"errors":[{"status":"404"}]}"#)
      }
      return try Stub.answer(request, 200, body)
    }
  }

  func collect(_ client: JSONAPIClient, from path: String = "v1/articles") async throws -> [String]
  {
    var ids: [String] = []
    for try await page in client.pages(of: [Article].self, from: path) {
      ids += page.data.map(\.id)
    }
    return ids
  }

  @Test func relativeNextLinksResolveAgainstThePageURL() async throws {
    let transport = Self.server([
      "/v1/articles": Self.page([1], next: "?page=2"),  // query only
      "/v1/articles?page=2": Self.page([2], next: "articles?page=3"),  // relative path
      "/v1/articles?page=3": Self.page([3], next: "/v1/articles?page=4"),  // absolute path
      "/v1/articles?page=4": Self.page([4], next: "https://api.example.com/v1/articles?page=5"),
      "/v1/articles?page=5": Self.page([5], next: nil),
    ])
    #expect(try await collect(Stub.client(transport)) == ["1", "2", "3", "4", "5"])
    #expect(transport.requests.count == 5)
  }

  @Test func aPageWithoutLinksIsTheLast() async throws {
    let transport = Self.server(["/v1/articles": #"{"data":[{"type":"articles","id":"1"}]}"#])
    #expect(try await collect(Stub.client(transport)) == ["1"])
  }

  @Test func pagesExposeMetaAndLinks() async throws {
    let transport = Self.server([
      "/v1/articles": #"{"data":[],"meta":{"total":0},"links":{"self":"/v1/articles"}}"#
    ])
    var metas: [JSONAPIValue?] = []
    for try await page in Stub.client(transport).pages(of: [Article].self, from: "v1/articles") {
      metas.append(page.meta)
      #expect(page.links?.selfLink?.href == "/v1/articles")
    }
    #expect(metas == [.object(["total": .integer(0)])])
  }

  @Test func aSelfLinkingPageStopsWithACycleError() async throws {
    let transport = Self.server(["/v1/articles": Self.page([1], next: "articles")])
    var seen: [String] = []
    await #expect(
      throws: JSONAPIClientError.paginationCycle(
        try #require(URL(string: "https://api.example.com/v1/articles")))
    ) {
      for try await page in Stub.client(transport).pages(of: [Article].self, from: "v1/articles") {
        seen += page.data.map(\.id)
      }
    }
    #expect(seen == ["1"])
    #expect(transport.requests.count == 1)
  }

  @Test func endlessPaginationStopsAtMaxPages() async throws {
    // Each page links a new one: no cycle, only the page limit ends it.
    let transport = StubTransport { request in
      let number = Int(request.url?.query?.split(separator: "=").last ?? "1") ?? 1
      return try Stub.answer(request, 200, Self.page([number], next: "articles?page=\(number + 1)"))
    }
    let client = Stub.client(transport, configuration: .init(maxPages: 3))
    var pages = 0
    await #expect(throws: JSONAPIClientError.tooManyPages(limit: 3)) {
      for try await _ in client.pages(of: [Article].self, from: "v1/articles") { pages += 1 }
    }
    #expect(pages == 3 && transport.requests.count == 3)
    #expect(JSONAPIClient.Configuration().maxPages == 1_000)
  }

  @Test func theSequenceEndsAfterAnError() async throws {
    let transport = Self.server(["/v1/articles": Self.page([1], next: "articles?page=2")])
    var iterator = Stub.client(transport).pages(of: [Article].self, from: "v1/articles")
      .makeAsyncIterator()
    #expect(try await iterator.next()?.data.map(\.id) == ["1"])
    await #expect(throws: JSONAPIResponseError.self) { _ = try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test func aNextLinkToAnotherOriginIsNotFollowed() async throws {
    let transport = Self.server([
      "/v1/articles": Self.page([1], next: "https://evil.example.net/collect")
    ])
    let client = Stub.client(
      transport,
      configuration: .init(prepareRequest: { request in
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
      }))
    await #expect(
      throws: JSONAPIClientError.originNotAllowed(
        try #require(URL(string: "https://evil.example.net/collect")))
    ) {
      _ = try await collect(client)
    }
    #expect(transport.requests.compactMap(\.url?.host) == ["api.example.com"])
  }

  @Test func originsCompareSchemeHostAndEffectivePort() async throws {
    let transport = StubTransport(
      status: 200, body: Self.page([1], next: nil), headers: Stub.jsonAPI)
    let client = Stub.client(transport)
    // Same origin: default port written out, host in capitals.
    _ = try await client.get([Article].self, from: "https://API.example.com:443/v1/articles")
    for other in [
      "http://api.example.com/v1/articles",  // scheme
      "https://api.example.com:8443/v1/articles",  // port
      "https://cdn.example.com/v1/articles",  // host
      "//cdn.example.com/v1/articles",  // scheme-relative
    ] {
      await #expect(throws: JSONAPIClientError.self) {
        _ = try await client.get([Article].self, from: other)
      }
    }
    #expect(transport.requests.count == 1)
  }

  @Test func allowedOriginsOpenOtherOrigins() async throws {
    let transport = StubTransport(
      status: 200, body: Self.page([1], next: nil), headers: Stub.jsonAPI)
    let cdn = try #require(URL(string: "https://cdn.example.com/anything"))
    let some = Stub.client(transport, configuration: .init(allowedOrigins: .baseURLAnd([cdn])))
    _ = try await some.get([Article].self, from: "https://cdn.example.com/v1/articles")
    await #expect(throws: JSONAPIClientError.self) {
      _ = try await some.get([Article].self, from: "https://other.example.com/v1/articles")
    }
    let any = Stub.client(transport, configuration: .init(allowedOrigins: .any))
    _ = try await any.get([Article].self, from: "https://other.example.com/v1/articles")
    #expect(transport.requests.count == 2)
  }

  @Test func theHookCannotMoveARequestToAnotherOrigin() async throws {
    let transport = StubTransport(
      status: 200, body: Self.page([1], next: nil), headers: Stub.jsonAPI)
    let client = Stub.client(
      transport,
      configuration: .init(prepareRequest: { request in
        request.url = URL(string: "https://elsewhere.example.com/")
      }))
    await #expect(throws: JSONAPIClientError.self) {
      _ = try await client.get([Article].self, from: "v1/articles")
    }
    #expect(transport.requests.isEmpty)
  }

  @Test func originNotAllowedSaysWhich() throws {
    let url = try #require(URL(string: "https://evil.example.net:8443/x"))
    #expect(
      JSONAPIClientError.originNotAllowed(url).description
        == "Refused to send a request to https://evil.example.net:8443/x: its origin "
        + "https://evil.example.net:8443 is not the base URL's and Configuration.allowedOrigins "
        + "does not allow it")
  }
}
