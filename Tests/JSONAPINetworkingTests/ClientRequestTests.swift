import Foundation
import JSONAPICodable
import Testing

@testable import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// How the client turns paths into URLs and which headers it sends.
@Suite struct ClientRequestTests {
  struct Article: Codable, Sendable, Equatable {
    var id: String?
    var type = "articles"
    var title: String
  }

  static let single = #"{"data":{"type":"articles","id":"1","attributes":{"title":"One"}}}"#

  func requestedURL(base: String, path: String, query: JSONAPIQuery = JSONAPIQuery()) async throws
    -> String?
  {
    let transport = StubTransport(body: Self.single, headers: Stub.jsonAPI)
    let client = Stub.client(transport, baseURL: try #require(URL(string: base)))
    _ = try await client.get(Article.self, from: path, query: query)
    return transport.requests.first?.url?.absoluteString
  }

  @Test func pathsResolveAgainstTheBaseURLLikeLinks() async throws {
    #expect(
      try await requestedURL(base: "https://api.example.com/", path: "articles/1")
        == "https://api.example.com/articles/1")
    // A base without a final slash still keeps its last segment.
    #expect(
      try await requestedURL(base: "https://api.example.com/v1", path: "articles/1")
        == "https://api.example.com/v1/articles/1")
    #expect(
      try await requestedURL(base: "https://api.example.com/v1/", path: "articles/1")
        == "https://api.example.com/v1/articles/1")
    // A leading slash replaces the base path, as in a link.
    #expect(
      try await requestedURL(base: "https://api.example.com/v1/", path: "/articles/1")
        == "https://api.example.com/articles/1")
    // An absolute URL on the same origin is used as it is.
    #expect(
      try await requestedURL(
        base: "https://api.example.com/v1/", path: "https://api.example.com/other/articles/1")
        == "https://api.example.com/other/articles/1")
  }

  @Test func queryIsAppendedToAQueryThePathHas() async throws {
    #expect(
      try await requestedURL(
        base: "https://api.example.com/", path: "articles?filter%5Bx%5D=1",
        query: JSONAPIQuery().including("author").page(number: 2))
        == "https://api.example.com/articles?filter%5Bx%5D=1&include=author&page%5Bnumber%5D=2")
  }

  @Test func urlOverloadTakesAbsoluteLinks() async throws {
    let transport = StubTransport(body: Self.single, headers: Stub.jsonAPI)
    let client = Stub.client(transport)
    let link = try #require(URL(string: "https://api.example.com/articles/1"))
    _ = try await client.get(
      Article.self, from: link, query: JSONAPIQuery().fields("articles", ["title"]))
    #expect(
      transport.requests.first?.url?.absoluteString
        == "https://api.example.com/articles/1?fields%5Barticles%5D=title")
  }

  @Test func unusablePathThrowsInvalidURL() async throws {
    let transport = StubTransport(body: Self.single, headers: Stub.jsonAPI)
    let client = Stub.client(transport)
    await #expect(throws: JSONAPIClientError.invalidURL("http://[::1")) {
      _ = try await client.get(Article.self, from: "http://[::1")
    }
    #expect(transport.requests.isEmpty)
  }

  @Test func getSendsAcceptAndNoContentType() async throws {
    let transport = StubTransport(body: Self.single, headers: Stub.jsonAPI)
    _ = try await Stub.client(transport).get(Article.self, from: "articles/1")
    let request = try #require(transport.requests.first)
    #expect(request.httpMethod == "GET")
    #expect(request.value(forHTTPHeaderField: "Accept") == "application/vnd.api+json")
    #expect(request.value(forHTTPHeaderField: "Content-Type") == nil)
    #expect(request.httpBody == nil)
  }

  @Test func deleteWithoutBodySendsNoContentType() async throws {
    let transport = StubTransport(status: 204)
    try await Stub.client(transport).delete("articles/1")
    let request = try #require(transport.requests.first)
    #expect(request.httpMethod == "DELETE")
    #expect(request.value(forHTTPHeaderField: "Content-Type") == nil)
  }

  @Test func bodiesCarryContentTypeWithConfiguredExtensionsAndProfiles() async throws {
    let transport = StubTransport(body: Self.single, headers: Stub.jsonAPI)
    let mediaType = JSONAPIMediaType(
      extensions: ["https://example.com/ext/version"], profiles: ["https://example.com/profile"])
    let client = Stub.client(transport, configuration: .init(mediaType: mediaType))
    let _: Article = try await client.create(Article(title: "One"), at: "articles")
    let request = try #require(transport.requests.first)
    #expect(request.httpMethod == "POST")
    #expect(request.value(forHTTPHeaderField: "Content-Type") == mediaType.headerValue)
    #expect(request.value(forHTTPHeaderField: "Accept") == mediaType.headerValue)
    #expect(
      mediaType.headerValue
        == #"application/vnd.api+json;ext="https://example.com/ext/version";profile="https://example.com/profile""#
    )
  }

  @Test func atomicMediaTypeAddsTheExtensionToTheConfiguredOnes() throws {
    let mediaType = JSONAPIMediaType(extensions: ["https://example.com/ext/version"])
    let client = Stub.client(StubTransport(), configuration: .init(mediaType: mediaType))
    #expect(
      client.atomicMediaType.extensions
        == ["https://example.com/ext/version", "https://jsonapi.org/ext/atomic"])
    #expect(
      Stub.client(StubTransport()).atomicMediaType.headerValue
        == #"application/vnd.api+json;ext="https://jsonapi.org/ext/atomic""#)
  }

  @Test func exchangeSendsABodyWithAGivenMediaTypeForLaterExtensions() async throws {
    // The path `perform` will take: POST with the atomic media type, generic decoding.
    let transport = StubTransport(
      status: 200, body: #"{"meta":{"ok":true}}"#, headers: Stub.jsonAPI)
    let client = Stub.client(transport)
    let raw = try await client.exchange(
      "POST", try client.url(for: "operations"), body: Data("{}".utf8),
      mediaType: client.atomicMediaType)
    let request = try #require(transport.requests.first)
    #expect(request.value(forHTTPHeaderField: "Content-Type") == client.atomicMediaType.headerValue)
    #expect(request.value(forHTTPHeaderField: "Accept") == client.atomicMediaType.headerValue)
    let meta = try client.document(JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self, from: raw)
      .meta
    #expect(meta?["ok"] == .bool(true))
  }

  @Test func prepareRequestSeesTheTargetURLAndAddsHeaders() async throws {
    let seen = Recorder<String>()
    let transport = StubTransport(body: Self.single, headers: Stub.jsonAPI)
    let configuration = JSONAPIClient.Configuration(prepareRequest: { request in
      seen.append(request.url?.absoluteString ?? "")
      try await Task.sleep(for: .milliseconds(1))  // an asynchronous token refresh
      request.setValue("Bearer token-1", forHTTPHeaderField: "Authorization")
    })
    _ = try await Stub.client(transport, configuration: configuration).get(
      Article.self, from: "articles/1")
    #expect(seen.values == ["https://api.example.com/articles/1"])
    #expect(
      transport.requests.first?.value(forHTTPHeaderField: "Authorization") == "Bearer token-1")
  }

  @Test func prepareRequestErrorsEndTheCall() async throws {
    struct Expired: Error {}
    let transport = StubTransport(body: Self.single, headers: Stub.jsonAPI)
    let configuration = JSONAPIClient.Configuration(prepareRequest: { _ in throw Expired() })
    await #expect(throws: Expired.self) {
      _ = try await Stub.client(transport, configuration: configuration).get(
        Article.self, from: "articles/1")
    }
    #expect(transport.requests.isEmpty)
  }

  @Test func relationshipBodiesAreLinkageDocuments() async throws {
    let transport = StubTransport(status: 204)
    let client = Stub.client(transport)
    client.encoder.keyEncodingStrategy = .convertToSnakeCase  // never touches identifiers
    try await client.updateRelationship("articles/1/relationships/tags", to: [])
    try await client.updateRelationship(
      "articles/1/relationships/author", to: JSONAPIResourceIdentifier(type: "people", id: "9"))
    try await client.updateRelationship(
      "articles/1/relationships/tags",
      to: [
        JSONAPIResourceIdentifier(
          type: "tags", lid: "local-1", meta: .object(["aKey": .integer(1)]))
      ])
    #expect(
      transport.requests.map { "\($0.httpMethod ?? "") \($0.bodyText ?? "")" } == [
        #"PATCH {"data":[]}"#,
        #"PATCH {"data":{"type":"people","id":"9"}}"#,
        #"PATCH {"data":[{"type":"tags","lid":"local-1","meta":{"aKey":1}}]}"#,
      ])
    #expect(
      transport.requests.allSatisfy {
        $0.value(forHTTPHeaderField: "Content-Type") == "application/vnd.api+json"
      })
  }

  @Test func clientIsSendable() {
    let client: any Sendable = Stub.client(StubTransport())
    #expect(client is JSONAPIClient)
  }
}

/// Collects values from concurrent closures.
final class Recorder<Value: Sendable>: @unchecked Sendable {
  // `stored` is guarded by `lock`.
  private let lock = NSLock()
  private var stored: [Value] = []
  func append(_ value: Value) { lock.withLock { stored.append(value) } }
  var values: [Value] { lock.withLock { stored } }
}
