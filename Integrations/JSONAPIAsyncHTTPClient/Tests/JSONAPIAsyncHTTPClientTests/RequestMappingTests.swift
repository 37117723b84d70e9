import AsyncHTTPClient
import Foundation
import JSONAPINetworking
import NIOCore
import NIOHTTP1
import Testing

@testable import JSONAPIAsyncHTTPClient

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// A URLRequest becomes the HTTPClientRequest that AsyncHTTPClient sends, and its answer the
// HTTPURLResponse that JSONAPIClient reads.
@Suite struct RequestMappingTests {
  static func url() throws -> URL {
    try #require(URL(string: "https://api.example.com/articles/1?include=author"))
  }

  /// The bytes of a request body, read the way AsyncHTTPClient reads them.
  static func bytes(of body: HTTPClientRequest.Body?) async throws -> [UInt8] {
    guard let body else { return [] }
    var bytes: [UInt8] = []
    for try await buffer in body { bytes += buffer.readableBytesView }
    return bytes
  }

  @Test func methodURLHeadersAndBodyAreSent() async throws {
    let url = try Self.url()
    var request = URLRequest(url: url)
    request.httpMethod = "PATCH"
    request.setValue("application/vnd.api+json", forHTTPHeaderField: "Content-Type")
    request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
    let body = Data(#"{"data":{"type":"articles","id":"1"}}"#.utf8)
    request.httpBody = body

    let outgoing = try AsyncHTTPClientTransport.makeRequest(from: request)

    #expect(outgoing.url == url.absoluteString)
    #expect(outgoing.method == .PATCH)
    #expect(outgoing.headers["Content-Type"] == ["application/vnd.api+json"])
    #expect(outgoing.headers["Authorization"] == ["Bearer secret"])
    #expect(outgoing.headers["Accept-Encoding"] == ["identity"])
    #expect(try await Self.bytes(of: outgoing.body) == Array(body))
  }

  @Test func aRequestWithoutMethodOrBodyIsAPlainGET() async throws {
    let outgoing = try AsyncHTTPClientTransport.makeRequest(from: URLRequest(url: try Self.url()))
    #expect(outgoing.method == .GET)
    #expect(outgoing.body == nil)
  }

  @Test func anExtensionMethodIsSentAsItIs() throws {
    var request = URLRequest(url: try Self.url())
    request.httpMethod = "PURGE"
    let outgoing = try AsyncHTTPClientTransport.makeRequest(from: request)
    #expect(outgoing.method.rawValue == "PURGE")
  }

  @Test func headersGoOutInTheSameOrderEveryTime() throws {
    var request = URLRequest(url: try Self.url())
    for name in ["X-C", "X-A", "X-B", "Accept"] { request.setValue("1", forHTTPHeaderField: name) }
    let outgoing = try AsyncHTTPClientTransport.makeRequest(from: request)
    #expect(outgoing.headers.map(\.name) == ["Accept", "X-A", "X-B", "X-C", "Accept-Encoding"])
  }

  @Test func theCallersAcceptEncodingIsKept() throws {
    var request = URLRequest(url: try Self.url())
    request.setValue("identity;q=1, *;q=0", forHTTPHeaderField: "accept-encoding")
    let outgoing = try AsyncHTTPClientTransport.makeRequest(from: request)
    #expect(outgoing.headers["Accept-Encoding"] == ["identity;q=1, *;q=0"])
  }

  @Test func aRequestWithoutURLIsRefused() throws {
    var request = URLRequest(url: try Self.url())
    request.url = nil
    #expect(throws: AsyncHTTPClientTransportError.missingURL) {
      try AsyncHTTPClientTransport.makeRequest(from: request)
    }
  }

  @Test func aStreamedBodyIsRefusedRatherThanDropped() throws {
    var request = URLRequest(url: try Self.url())
    request.httpMethod = "POST"
    request.httpBodyStream = InputStream(data: Data("{}".utf8))
    #expect(throws: AsyncHTTPClientTransportError.bodyStreamNotSupported) {
      try AsyncHTTPClientTransport.makeRequest(from: request)
    }
  }

  @Test func theAnswerKeepsItsStatusVersionAndHeaders() throws {
    let headers: HTTPHeaders = [
      "Content-Type": "application/vnd.api+json", "Location": "https://api.example.com/a/2",
    ]
    let url = try Self.url()
    let response = try AsyncHTTPClientTransport.makeResponse(
      url: url, status: .created, version: .http1_1, headers: headers)
    #expect(response.statusCode == 201)
    #expect(response.url == url)
    #expect(response.value(forHTTPHeaderField: "content-type") == "application/vnd.api+json")
    #expect(response.value(forHTTPHeaderField: "Location") == "https://api.example.com/a/2")
  }

  @Test func repeatedHeaderFieldsAreJoinedUnderTheFirstSpelling() {
    // RFC 9110 section 5.3: a repeated field means the same as one with the values joined by
    // commas; HTTPURLResponse holds one value per name.
    let headers: HTTPHeaders = [
      "Link": "</a>; rel=next", "X-Other": "1", "link": "</b>; rel=prev",
    ]
    let fields = AsyncHTTPClientTransport.headerFields(headers)
    #expect(fields == ["Link": "</a>; rel=next, </b>; rel=prev", "X-Other": "1"])
  }

  @Test func theHeadTimeoutIsTheRequestsTimeoutWithinBounds() {
    #expect(AsyncHTTPClientTransport.headTimeout(15) == .seconds(15))
    #expect(AsyncHTTPClientTransport.headTimeout(0.25) == .milliseconds(250))
    // Values that would overflow nanoseconds in 64 bits, or mean nothing, fall back or are capped.
    #expect(AsyncHTTPClientTransport.headTimeout(1e300) == .seconds(86_400))
    #expect(AsyncHTTPClientTransport.headTimeout(.infinity) == .seconds(60))
    #expect(AsyncHTTPClientTransport.headTimeout(.nan) == .seconds(60))
    #expect(AsyncHTTPClientTransport.headTimeout(-1) == .seconds(60))
  }

  @Test func theRecommendedConfigurationBoundsWhatTheTransportReliesOn() {
    let configuration = AsyncHTTPClientTransport.recommendedConfiguration()
    #expect(configuration.maximumUsesPerConnection == 1)
    #expect(configuration.timeout.read == .seconds(30))
    #expect(configuration.timeout.connect == .seconds(10))
    guard case .disabled = configuration.decompression else {
      Issue.record("decompression is enabled: its limit is the client's, not the request's")
      return
    }
  }

  @Test func aCancelledTaskSendsNothing() async throws {
    let httpClient = HTTPClient(
      eventLoopGroup: HTTPClient.defaultEventLoopGroup,
      configuration: AsyncHTTPClientTransport.recommendedConfiguration())
    let transport = AsyncHTTPClientTransport(client: httpClient)
    // Port 9 (discard) on loopback: nothing needs to listen, as nothing may be sent.
    let request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:9/articles")))
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await transport.send(request, maxResponseBytes: 1024)
    }
    let result = await task.result
    try await httpClient.shutdown()
    #expect(throws: CancellationError.self) { try result.get() }
  }
}
