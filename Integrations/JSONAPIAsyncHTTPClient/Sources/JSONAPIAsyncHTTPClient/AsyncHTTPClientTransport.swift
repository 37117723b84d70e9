import AsyncHTTPClient
import Foundation
import JSONAPINetworking
import NIOCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A `JSONAPITransport` over AsyncHTTPClient, for servers that talk to JSON:API servers.
///
/// It streams each response body and holds at most `maxResponseBytes` of it: the read stops, the
/// connection is closed and `JSONAPIClientError.responseTooLarge(limit:)` is thrown as soon as
/// the count passes the limit, or before the body when its `Content-Length` already does. AsyncHTTPClient reads the next piece of the body only once the previous one has
/// been taken, so the memory held while refusing a body is the limit plus about one read.
///
/// You own the `HTTPClient`: create it with ``recommendedConfiguration()``, share it between
/// transports and clients as you like, and shut it down when you are done (after the last
/// request, before the program ends).
///
/// ```swift
/// let httpClient = HTTPClient(
///   eventLoopGroup: HTTPClient.defaultEventLoopGroup,
///   configuration: AsyncHTTPClientTransport.recommendedConfiguration())
/// let client = JSONAPIClient(
///   baseURL: URL(string: "https://api.example.com/")!,
///   transport: AsyncHTTPClientTransport(client: httpClient))
/// let articles = try await client.get([Article].self, from: "articles")
/// try await httpClient.shutdown()
/// ```
///
/// Request and response mapping:
/// - the method, URL, header fields and `httpBody` of the `URLRequest` are sent as they are; a
///   request with an `httpBodyStream` instead is refused;
/// - `Accept-Encoding: identity` is added unless the request has an `Accept-Encoding`, and an
///   answer whose `Content-Encoding` is anything but identity is refused before its body
///   (``AsyncHTTPClientTransportError/unsupportedContentEncoding(_:)``): the size limit is the
///   request's, and only an unencoded body can be counted against it as it arrives;
/// - `timeoutInterval` bounds the wait for the response head (URLRequest's default is 60 seconds);
///   the client's `timeout.read` bounds each wait for the next piece of the body;
/// - repeated response header fields are joined with ", ", as `HTTPURLResponse` holds one value
///   per name.
public struct AsyncHTTPClientTransport: JSONAPITransport {
  /// The client that sends the requests. The transport never shuts it down.
  public let client: HTTPClient

  /// Creates a transport that sends its requests with `client`.
  ///
  /// Configure `client` as ``recommendedConfiguration()`` does: the transport relies on it not
  /// following redirects and not reusing connections. The caller keeps ownership: call
  /// `client.shutdown()` once no request is left.
  public init(client: HTTPClient) {
    self.client = client
  }

  /// The configuration this transport is designed for, with what each setting bounds.
  ///
  /// - `redirectConfiguration: .disallow`: a 3xx answer is returned as it is.
  ///   `JSONAPIClient` checks the origin of every URL it sends to, and a redirect followed
  ///   inside the HTTP stack would carry the request's credentials past that check.
  /// - `decompression: .disabled`: the bytes counted against `maxResponseBytes` are the bytes
  ///   that arrive. AsyncHTTPClient's decompressor has one limit for the whole client, while the
  ///   size limit belongs to each request: a gzip bomb could inflate up to the client's limit in
  ///   one read before a smaller request limit is checked. The transport asks for identity
  ///   instead and refuses an encoded answer on its head, so a gzip bomb stops before any of its
  ///   body is read (AsyncHTTPClient may have buffered about one read of it).
  /// - `maximumUsesPerConnection = 1`: every request gets a connection of its own, closed after
  ///   its answer. Over HTTP/1.1 an answer is matched to its request only by its order on the
  ///   connection, so a server that sends bytes beyond a complete answer, or a connection left in
  ///   the middle of a refused or cancelled body, could otherwise hand those bytes to the next
  ///   request; no reuse rules that out, whatever the timing. AsyncHTTPClient applies the same
  ///   count to HTTP/2 connections (one stream each), so HTTP/2 costs a new connection per
  ///   request too.
  /// - `timeout`: 10 seconds to connect and 30 seconds between two reads, so a server that
  ///   stops sending cannot hold a request forever.
  ///
  /// ```swift
  /// var configuration = AsyncHTTPClientTransport.recommendedConfiguration()
  /// configuration.timeout.read = .seconds(5)
  /// let httpClient = HTTPClient(
  ///   eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
  /// ```
  public static func recommendedConfiguration() -> HTTPClient.Configuration {
    var configuration = HTTPClient.Configuration(
      redirectConfiguration: .disallow,
      timeout: HTTPClient.Configuration.Timeout(connect: .seconds(10), read: .seconds(30)),
      decompression: .disabled
    )
    configuration.maximumUsesPerConnection = 1
    return configuration
  }

  /// Sends `request` and returns its answer, whatever its status, holding at most
  /// `maxResponseBytes` of body.
  ///
  /// - Throws: `JSONAPIClientError.responseTooLarge(limit:)` when the body is larger than
  ///   `maxResponseBytes` (before reading it when `Content-Length` says so); `CancellationError`
  ///   when the calling task is cancelled; an ``AsyncHTTPClientTransportError`` for a request it
  ///   cannot send or an answer it refuses; AsyncHTTPClient's `HTTPClientError` for a failed
  ///   connection or a timeout.
  public func send(_ request: URLRequest, maxResponseBytes: Int) async throws -> (
    Data, HTTPURLResponse
  ) {
    guard let url = request.url else { throw AsyncHTTPClientTransportError.missingURL }
    let outgoing = try Self.makeRequest(from: request)
    do {
      try Task.checkCancellation()
      let response = try await client.execute(
        outgoing, timeout: Self.headTimeout(request.timeoutInterval))
      let head = try Self.makeResponse(
        url: url, status: response.status, version: response.version, headers: response.headers)
      let announced = try Self.announcedLength(
        status: response.status, headers: response.headers, method: outgoing.method,
        limit: maxResponseBytes)
      let body = try await Self.collect(
        response.body, announcedLength: announced, limit: maxResponseBytes)
      return (body, head)
    } catch {
      // Leaving this scope drops `response.body`, which makes AsyncHTTPClient cancel the request
      // and close its connection if the body was not read to its end.
      throw Self.mapped(error, cancelled: Task.isCancelled)
    }
  }
}
