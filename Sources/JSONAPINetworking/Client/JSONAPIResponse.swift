import Foundation

/// A decoded value together with the HTTP answer it came from: status, headers and `Location`.
///
/// Returned by ``JSONAPIClient/create(_:at:query:)->_`` when the caller asks for it, to read the
/// `Location` of a created resource:
///
/// ```swift
/// let response: JSONAPIResponse<Article> = try await client.create(newArticle, at: "articles")
/// print(response.statusCode, response.location?.absoluteString ?? "-", response.value.title)
/// ```
public struct JSONAPIResponse<Value> {
  /// The decoded value.
  public var value: Value
  /// The HTTP status code, such as `201`.
  public var statusCode: Int
  /// The response headers, names lowercased (`content-type`). Prefer ``header(_:)``.
  public var headers: [String: String]
  /// The URL that answered (after any redirect within the origin).
  public var url: URL
  /// Whether the server answered `304 Not Modified` to a request that
  /// ``JSONAPIClient/Configuration/cache`` made conditional, and ``value`` was decoded anew from
  /// the body the cache kept. ``statusCode`` and ``headers`` are then those of the stored `200`,
  /// updated with the `304`'s headers.
  public var isFromCache = false

  /// Creates a response.
  public init(value: Value, statusCode: Int, headers: [String: String], url: URL) {
    self.value = value
    self.statusCode = statusCode
    self.headers = Dictionary(
      headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    self.url = url
  }

  /// The value of the header `name`, matched case-insensitively.
  public func header(_ name: String) -> String? { headers[name.lowercased()] }

  /// The version of the resource the server named in `ETag`; `nil` when it sent none or an
  /// unreadable one. Hand it to a write (`ifMatch:`) so that it fails with `412` rather than
  /// overwrite what someone else changed since this read:
  ///
  /// ```swift
  /// let read = try await client.getResponse(Article.self, from: "articles/1")
  /// try await client.delete("articles/1", ifMatch: read.etag)
  /// ```
  public var etag: JSONAPIEntityTag? { header("etag").flatMap(JSONAPIEntityTag.init(headerValue:)) }

  /// The `Location` header resolved against ``url``: where a created resource lives. `nil` when
  /// the server sent none. Read by `URL(jsonAPIReference:relativeTo:)`, so that raw brackets,
  /// spaces or non-ASCII characters give the same URL on every platform.
  public var location: URL? {
    header("location").flatMap { URL(jsonAPIReference: $0, relativeTo: url)?.absoluteURL }
  }
}

extension JSONAPIResponse: Sendable where Value: Sendable {}
extension JSONAPIResponse: Equatable where Value: Equatable {}
