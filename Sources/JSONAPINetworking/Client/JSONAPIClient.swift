import Foundation
import JSONAPICodable

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Talks to a JSON:API server with async/await: builds URLs and headers, sends requests through a
/// ``JSONAPITransport``, decodes answers with ``decoder`` and turns failures into errors.
///
/// ```swift
/// let client = JSONAPIClient(baseURL: URL(string: "https://api.example.com/")!)
/// client.decoder.keyDecodingStrategy = .convertFromKebabCase
/// let articles = try await client.get([Article].self, from: "articles", query: JSONAPIQuery().including("author"))
/// let created: Article = try await client.create(newArticle, at: "articles")
/// try await client.delete("articles/1")
/// ```
///
/// ## Paths and URLs
/// A path is a URI reference resolved against ``baseURL`` as a browser resolves a link:
/// `articles/1` is appended to the base URL's path (a missing final `/` on the base is added),
/// `/articles/1` replaces the base path, and an absolute URL (a `links.related` or `Location`
/// value) is used as it is. Query parameters from a `JSONAPIQuery` are appended to any query the
/// path already has.
///
/// ## Security
/// The client sends requests only to the origin (scheme, host and port) of ``baseURL`` unless
/// ``Configuration/allowedOrigins`` says otherwise, whatever path or link it is given: a server that
/// links elsewhere cannot collect the credentials that ``Configuration/prepareRequest`` adds. Bodies
/// larger than ``Configuration/maxResponseBytes`` are refused.
///
/// ## Errors
/// - ``JSONAPIResponseError`` for every answer outside 200–299;
/// - ``JSONAPIUnreadableSuccessError`` when a write was answered with 2xx (so the server most
///   likely applied it) but the answer cannot be read: read the resource back, do not retry;
/// - ``JSONAPIClientError`` for a refused URL, an oversized body, a runaway pagination, or a
///   successful answer that is not a document;
/// - `JSONAPIError` and `DecodingError` from decoding;
/// - the transport's errors (`URLError`), and `CancellationError` when the task is cancelled.
///
/// The client is a value: copies share the transport, decoder and encoder (both classes), so
/// settings made on ``decoder`` apply to every copy.
public struct JSONAPIClient: Sendable {
  /// Where relative paths resolve, and the origin requests may go to.
  public let baseURL: URL
  /// Decodes every response. Change its strategies before the first request.
  public let decoder: JSONAPIDecoder
  /// Encodes every request body. Change its strategies before the first request. Bodies are
  /// request documents whatever its `includesRelatedResources` says: related
  /// resources go as identifiers, never to `included` (`JSONAPIEncoder.encodeRequestBody(_:)`).
  public let encoder: JSONAPIEncoder
  /// Sends the requests.
  public let transport: any JSONAPITransport
  /// Media type, limits, allowed origins and the request hook.
  public var configuration: Configuration

  /// Creates a client for the server at `baseURL`.
  ///
  /// ```swift
  /// let client = JSONAPIClient(
  ///   baseURL: URL(string: "https://api.example.com/v1/")!,
  ///   configuration: .init(prepareRequest: { request in
  ///     request.setValue("Bearer \(try await tokens.current())", forHTTPHeaderField: "Authorization")
  ///   }))
  /// ```
  ///
  /// - Parameters:
  ///   - baseURL: The API root; paths resolve against it.
  ///   - configuration: Media type, limits, origins and request hook. Default: ``Configuration/init(mediaType:allowedOrigins:maxResponseBytes:maxPages:prepareRequest:)``'s defaults.
  ///   - transport: The HTTP stack. Default: ``defaultTransport``.
  ///   - decoder: Decodes responses. Default: a new `JSONAPIDecoder`.
  ///   - encoder: Encodes request bodies. Default: a new `JSONAPIEncoder`.
  public init(
    baseURL: URL, configuration: Configuration = Configuration(),
    transport: any JSONAPITransport = JSONAPIClient.defaultTransport,
    decoder: JSONAPIDecoder = JSONAPIDecoder(), encoder: JSONAPIEncoder = JSONAPIEncoder()
  ) {
    self.baseURL = baseURL
    self.configuration = configuration
    self.transport = transport
    self.decoder = decoder
    self.encoder = encoder
  }
}

extension JSONAPIClient {
  /// The transport of clients given none: ``URLSessionTransport/shared`` on Apple platforms, and
  /// `LibcurlTransport.shared` on Linux, where `URLSession` cannot hold
  /// ``Configuration/maxResponseBytes`` nor keep one request's answer from another (see
  /// `LibcurlTransport`). On Linux it stays `LibcurlTransport` when libcurl cannot be loaded: then
  /// each request fails with `LibcurlTransport.UnavailableError`, which says why, rather than
  /// quietly losing those bounds; pass `transport: URLSessionTransport.shared` to choose
  /// URLSession there.
  public static let defaultTransport: any JSONAPITransport = {
    #if os(Linux)
      return LibcurlTransport.shared
    #else
      return URLSessionTransport.shared
    #endif
  }()

  /// The settings of a ``JSONAPIClient`` beyond its base URL and coders.
  public struct Configuration: Sendable {
    /// The largest response body accepted by default: 16 MiB.
    public static let defaultMaxResponseBytes = 16 * 1024 * 1024
    /// The most pages ``JSONAPIClient/pages(of:from:query:direction:)`` reads by default: 1,000.
    public static let defaultMaxPages = 1_000

    /// The media type sent in `Accept`, and in `Content-Type` when there is a body. Set
    /// extensions and profiles here only when the server supports them: a JSON:API 1.0 server
    /// answers 415 or 406 to any parameter. Default: `application/vnd.api+json`.
    public var mediaType: JSONAPIMediaType
    /// Origins other than the base URL's that requests may go to. Default: none.
    public var allowedOrigins: OriginPolicy
    /// The largest response body accepted, in bytes; larger ones throw
    /// ``JSONAPIClientError/responseTooLarge(limit:)``. Default: ``defaultMaxResponseBytes``.
    public var maxResponseBytes: Int
    /// The most pages one ``JSONAPIClient/pages(of:from:query:direction:)`` sequence reads before
    /// throwing ``JSONAPIClientError/tooManyPages(limit:)``. Default: ``defaultMaxPages``.
    public var maxPages: Int
    /// Called for every request after the client has set its URL, method, headers and body and
    /// checked its origin, and before it is sent: add headers, sign it, refresh a token. It
    /// sees the target URL in `request.url`; errors it throws end the call.
    public var prepareRequest: (@Sendable (inout URLRequest) async throws -> Void)?
    /// Where `GET` answers with an `ETag` are kept, so that the next read of the same URL (with
    /// the same credentials) asks `If-None-Match` and a `304 Not Modified` is served from the kept
    /// body; see ``JSONAPIResponseCache``. Copies of a configuration share it. Default: `nil`, no
    /// cache.
    public var cache: JSONAPIResponseCache?
    /// When a request is sent again by itself after `429`, `503` or a connection that could not
    /// be made; see ``JSONAPIClient/RetryPolicy``. Default: ``JSONAPIClient/RetryPolicy/none``,
    /// so that an app's own retry loop is not multiplied and every wait is one it chose;
    /// ``JSONAPIClient/RetryPolicy/standard`` is the suggested opt-in.
    public var retryPolicy: RetryPolicy = .none

    /// Creates a configuration; every argument has the default documented on its property.
    public init(
      mediaType: JSONAPIMediaType = JSONAPIMediaType(),
      allowedOrigins: OriginPolicy = .baseURLOnly,
      maxResponseBytes: Int = Configuration.defaultMaxResponseBytes,
      maxPages: Int = Configuration.defaultMaxPages,
      prepareRequest: (@Sendable (inout URLRequest) async throws -> Void)? = nil
    ) {
      self.mediaType = mediaType
      self.allowedOrigins = allowedOrigins
      self.maxResponseBytes = maxResponseBytes
      self.maxPages = maxPages
      self.prepareRequest = prepareRequest
    }
  }

  /// Which origins, besides the base URL's, a ``JSONAPIClient`` may send requests to.
  ///
  /// ```swift
  /// var configuration = JSONAPIClient.Configuration()
  /// configuration.allowedOrigins = .baseURLAnd([URL(string: "https://files.example.com")!])
  /// ```
  public enum OriginPolicy: Sendable, Hashable {
    /// Only the base URL's origin. The default.
    case baseURLOnly
    /// The base URL's origin and the origins of these URLs (their paths are ignored).
    case baseURLAnd([URL])
    /// Any origin. Only for servers you trust completely, and without credentials in
    /// ``Configuration/prepareRequest`` that another host must not see.
    case any
  }
}
