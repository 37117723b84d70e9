import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A bounded, in-memory store of `GET` answers and their `ETag`s, that lets a ``JSONAPIClient``
/// ask the server whether a body changed instead of transferring it again: opt in by setting
/// ``JSONAPIClient/Configuration/cache``.
///
/// ```swift
/// var configuration = JSONAPIClient.Configuration()
/// configuration.cache = JSONAPIResponseCache(maxEntries: 200, maxBytes: 4 * 1024 * 1024)
/// let client = JSONAPIClient(baseURL: URL(string: "https://api.example.com/")!, configuration: configuration)
/// let first = try await client.getResponse([Article].self, from: "articles")   // 200, stored
/// let again = try await client.getResponse([Article].self, from: "articles")   // 304 from the server
/// print(again.isFromCache)   // true: decoded anew from the stored body
/// ```
///
/// How it works:
/// - A `GET` answered `200` with an `ETag` (strong or weak) is stored, unless it says
///   `Cache-Control: no-store` or `Vary: *`, or is larger than ``maxBytes``.
/// - The next `GET` of the same request sends `If-None-Match` with that tag. A `304 Not Modified`
///   is answered from the stored body, decoded anew (so the decoder's settings and the type asked
///   apply); any other answer is used as it is and replaces the entry. Every read still asks the
///   server: nothing is served without its word that it is current.
/// - Entries are keyed by the whole URL requested (so by origin) and by a hash of every request
///   header the client and ``JSONAPIClient/Configuration/prepareRequest`` set (`Authorization`,
///   cookies, API keys, `Accept`): a body stored for one origin or one set of credentials is never
///   served for another. The header values themselves are not kept.
/// - A request with another method (`POST`, `PATCH`, `DELETE`) removes the entries of its URL's
///   path, whatever their query, and those of the answer's `Location` on the same origin.
/// - Past ``maxEntries`` entries or ``maxBytes`` bytes (bodies, header texts and URLs counted),
///   the least recently used entries are removed.
/// - A request whose hook sets `If-None-Match` or `If-Match` itself bypasses the cache.
///
/// The cache is a class, safe to share between clients and tasks: every access takes a lock.
public final class JSONAPIResponseCache: @unchecked Sendable {
  /// The default bound on entries: 256.
  public static let defaultMaxEntries = 256
  /// The default bound on bytes: 8 MiB.
  public static let defaultMaxBytes = 8 * 1024 * 1024

  /// The most entries kept.
  public let maxEntries: Int
  /// The most bytes kept, counting bodies, header names and values, and URLs.
  public let maxBytes: Int

  // `entries`, `bytes` and `clock` are guarded by `lock`.
  private let lock = NSLock()
  private var entries: [Key: Entry] = [:]
  private var bytes = 0
  private var clock: UInt64 = 0

  /// Creates an empty cache bounded by `maxEntries` entries and `maxBytes` bytes; a bound of `0`
  /// or less keeps nothing.
  ///
  /// ```swift
  /// let cache = JSONAPIResponseCache(maxEntries: 100, maxBytes: 2 * 1024 * 1024)
  /// ```
  public init(maxEntries: Int = defaultMaxEntries, maxBytes: Int = defaultMaxBytes) {
    self.maxEntries = max(maxEntries, 0)
    self.maxBytes = max(maxBytes, 0)
  }

  /// The number of entries kept now.
  public var count: Int { lock.withLock { entries.count } }

  /// The bytes the entries take now, as counted against ``maxBytes``.
  public var totalBytes: Int { lock.withLock { bytes } }

  /// Removes every entry, such as when the user signs out.
  public func removeAll() {
    lock.withLock {
      entries.removeAll()
      bytes = 0
    }
  }

  // MARK: For the client

  /// What an entry is found by: the URL requested and a hash of its request headers.
  struct Key: Hashable, Sendable {
    var url: String
    var headerHash: [Int]

    /// The key of `request`, whose URL is absolute. Two hashes of the sorted headers, told apart
    /// by a leading byte, make a 128-bit digest (Hasher is seeded per process).
    init?(_ request: URLRequest) {
      guard let url = request.url?.absoluteString else { return nil }
      var headers: [(name: String, value: String)] = []
      for (name, value) in request.allHTTPHeaderFields ?? [:] {
        let lowercased = name.lowercased()
        if !JSONAPIResponseCache.conditionalHeaders.contains(lowercased) {
          headers.append((lowercased, value))
        }
      }
      headers.sort { $0.name == $1.name ? $0.value < $1.value : $0.name < $1.name }
      var hashes: [Int] = []
      for domain in [UInt8(1), UInt8(2)] {
        var hasher = Hasher()
        hasher.combine(domain)
        hasher.combine(headers.count)
        for header in headers {
          hasher.combine(header.name)
          hasher.combine(header.value)
        }
        hashes.append(hasher.finalize())
      }
      headerHash = hashes
      self.url = url
    }
  }

  /// A stored `200`.
  struct Entry: Sendable {
    var etag: JSONAPIEntityTag
    var headers: [String: String]
    var body: Data
    /// The URL that answered, against which the body's relative links resolve.
    var url: URL
    /// Origin and path of the request, for invalidation by writes.
    var resource: String
    var cost: Int
    var lastUse: UInt64
  }

  static let conditionalHeaders: Set<String> = [
    "if-none-match", "if-match", "if-modified-since", "if-unmodified-since", "if-range",
  ]

  /// The origin and path of `url`, without query or fragment: what a write invalidates.
  static func resource(of url: URL) -> String? {
    guard let origin = Origin(url) else { return nil }
    let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
    return origin.description + (path.isEmpty ? "/" : path)
  }

  /// The entry for `key`, marked as just used.
  func entry(for key: Key) -> Entry? {
    lock.withLock {
      guard var entry = entries[key] else { return nil }
      clock &+= 1
      entry.lastUse = clock
      entries[key] = entry
      return entry
    }
  }

  /// Stores a `200` answer when it may be stored; otherwise removes what `key` held.
  func store(
    _ key: Key, requestURL: URL, answeredURL: URL, headers: [String: String], body: Data
  ) {
    guard let etag = headers["etag"].flatMap(JSONAPIEntityTag.init(headerValue:)),
      Self.mayStore(headers), let resource = Self.resource(of: requestURL),
      let cost = Self.cost(key: key, headers: headers, body: body), cost <= maxBytes,
      maxEntries > 0
    else {
      remove(key)
      return
    }
    lock.withLock {
      if let old = entries.removeValue(forKey: key) { bytes -= old.cost }
      // Make room first: `bytes <= maxBytes - cost` afterwards, so the sum cannot overflow.
      while !entries.isEmpty && (entries.count >= maxEntries || bytes > maxBytes - cost) {
        evictLeastRecentlyUsed()
      }
      clock &+= 1
      entries[key] = Entry(
        etag: etag, headers: headers, body: body, url: answeredURL, resource: resource,
        cost: cost, lastUse: clock)
      bytes += cost
    }
  }

  /// Refreshes a stored entry's headers from a `304` (RFC 9111 §4.3.4), keeping those that
  /// describe the stored body.
  func refresh(_ key: Key, with notModified: [String: String]) -> Entry? {
    lock.withLock {
      guard var entry = entries[key] else { return nil }
      let kept: Set<String> = [
        "content-length", "content-type", "content-encoding", "transfer-encoding",
      ]
      var headers = entry.headers
      for (name, value) in notModified where !kept.contains(name) { headers[name] = value }
      // A refreshed ETag must still name the stored body; the client has checked it matches.
      if let cost = Self.cost(key: key, headers: headers, body: entry.body),
        cost <= maxBytes, bytes - entry.cost <= maxBytes - cost
      {
        bytes += cost - entry.cost
        entry.cost = cost
        entry.headers = headers
        entries[key] = entry
      }
      return entry
    }
  }

  func remove(_ key: Key) {
    lock.withLock {
      if let old = entries.removeValue(forKey: key) { bytes -= old.cost }
    }
  }

  /// Removes the entries of `url`'s origin and path, whatever their query and credentials.
  func invalidate(_ url: URL) {
    guard let resource = Self.resource(of: url) else { return }
    lock.withLock {
      for (key, entry) in entries where entry.resource == resource {
        entries.removeValue(forKey: key)
        bytes -= entry.cost
      }
    }
  }

  /// Removes the least recently used entry; `lock` is held. O(n), n being at most `maxEntries`.
  private func evictLeastRecentlyUsed() {
    guard let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { return }
    entries.removeValue(forKey: oldest.key)
    bytes -= oldest.value.cost
  }

  /// Whether the answer's headers allow a private cache to store it.
  private static func mayStore(_ headers: [String: String]) -> Bool {
    let directives = (headers["cache-control"] ?? "").lowercased().split(separator: ",")
      .map { $0.trimmingCharacters(in: .whitespaces) }
    if directives.contains(where: { $0 == "no-store" || $0.hasPrefix("no-store=") }) {
      return false
    }
    let vary = (headers["vary"] ?? "").split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    return !vary.contains("*")
  }

  /// The bytes an entry takes, or `nil` when the count overflows.
  private static func cost(key: Key, headers: [String: String], body: Data) -> Int? {
    var total = body.count
    for part in [key.url] + headers.flatMap({ [$0.key, $0.value] }) {
      let (sum, overflows) = total.addingReportingOverflow(part.utf8.count)
      if overflows { return nil }
      total = sum
    }
    return total
  }
}
