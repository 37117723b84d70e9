/// How a server pages a collection: reads the `page[…]` parameters of a request into the slice to
/// fetch, and turns what the store returned into the pagination `links` and `meta`.
///
/// Three strategies (R65 leaves the choice to the server):
///
/// | Strategy | Parameters | Links | `meta` |
/// |---|---|---|---|
/// | ``cursor(defaultSize:maxSize:allowsRangePagination:sortFields:)`` | `page[size]`, `page[after]`, `page[before]` | `self`, `first`, `prev`, `next` (`prev` and `next` written as `null` when there is none) | `{"page": {"rangeTruncated": true, "total": 42}}`, each member only when it applies; no `meta` otherwise |
/// | ``pageNumber(defaultSize:maxSize:)`` | `page[number]`, `page[size]` | `self`, `first`, `prev`, `next`, `last` (with a total) | `{"page": {"number": 2, "size": 10, "total": 42, "totalPages": 5}}`, the totals only when known |
/// | ``offset(defaultLimit:maxLimit:)`` | `page[offset]`, `page[limit]` | `self`, `first`, `prev`, `next`, `last` (with a total) | `{"page": {"offset": 20, "limit": 10, "total": 42}}`, the total only when known |
///
/// The cursor strategy is the
/// [Cursor Pagination profile](https://jsonapi.org/profiles/ethanresnick/cursor-pagination/):
/// list ``cursorPaginationProfile`` in ``JSONAPIContentNegotiation/supportedProfiles`` and answer
/// with ``mediaType(applyingTo:)``.
///
/// ```swift
/// let paging = JSONAPIPaging.cursor(defaultSize: 20, maxSize: 100)
/// let rules = paging.rules(JSONAPIQueryRules(sortFields: ["name"]))
///
/// let query = try JSONAPIQuery(parsing: target.query)
/// try rules.validate(query)                  // page errors are the profile's
/// let page = try paging.page(for: query)     // page.size, page.after, page.before
/// let (people, hasMore) = try store.people(after: page.after, before: page.before, limit: page.size)
/// let paged = paging.response(
///   for: page, target: target.text, cursors: people.map(\.cursor), count: people.count,
///   hasMore: hasMore)
/// let body = try encoder.encode(
///   JSONAPIDocument(data: people, meta: paged.meta, links: paged.links), for: query)
/// ```
///
/// Numbers read from the query are safe in 32 bits: sizes and limits at most the maximum,
/// numbers and offsets at most ``largestNumber``, and the arithmetic on them (the offset of a page
/// number, the next page) never overflows.
public struct JSONAPIPaging: Sendable, Hashable {
  /// The URI of the Cursor Pagination profile, for
  /// ``JSONAPIContentNegotiation/init(supportedExtensions:supportedProfiles:)`` and the response's
  /// media type: `https://jsonapi.org/profiles/ethanresnick/cursor-pagination/`.
  public static let cursorPaginationProfile = CursorPaginationProfile.uri

  /// The largest `page[number]` and `page[offset]` accepted, `Int32.max`, so that they fit an
  /// `Int` on every platform (watchOS runs on arm64_32).
  public static let largestNumber = Int(Int32.max)

  enum Strategy: Sendable, Hashable {
    case cursor(allowsRangePagination: Bool, sortFields: Set<String>?)
    case pageNumber
    case offset
  }

  let strategy: Strategy
  /// The size of a page whose request gives none (`page[size]`, or `page[limit]` for the offset
  /// strategy), from 1 to ``maxSize``.
  public let defaultSize: Int
  /// The largest page the server sends, at least 1. A larger `page[size]` (`page[limit]`) is
  /// refused.
  public let maxSize: Int

  private init(_ strategy: Strategy, defaultSize: Int, maxSize: Int) {
    self.strategy = strategy
    // Settings, not input: clamped rather than trapped, so any values give a working strategy.
    self.maxSize = max(1, maxSize)
    self.defaultSize = min(max(1, defaultSize), self.maxSize)
  }

  /// Cursor paging, as the Cursor Pagination profile defines it: `page[size]` (a positive whole
  /// number, at most `maxSize`), `page[after]` and `page[before]` (cursors the server made).
  ///
  /// ```swift
  /// let paging = JSONAPIPaging.cursor(defaultSize: 20, maxSize: 100, allowsRangePagination: true)
  /// ```
  ///
  /// - Parameters:
  ///   - defaultSize: The size of a page when `page[size]` is not sent, clamped to 1...`maxSize`.
  ///   - maxSize: The largest page (at least 1); a larger `page[size]` is the profile's Max Page
  ///     Size Exceeded error. Range requests without `page[size]` use it as their size.
  ///   - allowsRangePagination: Whether `page[after]` and `page[before]` may come together (a
  ///     range); when `false`, such a request is the profile's Range Pagination Not Supported
  ///     error.
  ///   - sortFields: The `sort` fields whose order the cursors can follow; a `sort` naming any
  ///     other field is the profile's Unsupported Sort error. `nil` (the default) pages every
  ///     sort the endpoint accepts.
  public static func cursor(
    defaultSize: Int, maxSize: Int, allowsRangePagination: Bool = false,
    sortFields: Set<String>? = nil
  ) -> JSONAPIPaging {
    JSONAPIPaging(
      .cursor(allowsRangePagination: allowsRangePagination, sortFields: sortFields),
      defaultSize: defaultSize, maxSize: maxSize)
  }

  /// Page-number paging: `page[number]` (from 1, default 1) and `page[size]` (1...`maxSize`).
  ///
  /// ```swift
  /// let paging = JSONAPIPaging.pageNumber(defaultSize: 10, maxSize: 50)
  /// ```
  ///
  /// - Parameters:
  ///   - defaultSize: The size of a page when `page[size]` is not sent, clamped to 1...`maxSize`.
  ///   - maxSize: The largest `page[size]` accepted (at least 1).
  public static func pageNumber(defaultSize: Int, maxSize: Int) -> JSONAPIPaging {
    JSONAPIPaging(.pageNumber, defaultSize: defaultSize, maxSize: maxSize)
  }

  /// Offset paging: `page[offset]` (items to skip, default 0) and `page[limit]` (1...`maxLimit`).
  ///
  /// ```swift
  /// let paging = JSONAPIPaging.offset(defaultLimit: 25, maxLimit: 100)
  /// ```
  ///
  /// - Parameters:
  ///   - defaultLimit: The limit when `page[limit]` is not sent, clamped to 1...`maxLimit`.
  ///   - maxLimit: The largest `page[limit]` accepted (at least 1).
  public static func offset(defaultLimit: Int, maxLimit: Int) -> JSONAPIPaging {
    JSONAPIPaging(.offset, defaultSize: defaultLimit, maxSize: maxLimit)
  }

  /// Whether this is the cursor strategy, which applies the Cursor Pagination profile.
  public var appliesCursorPaginationProfile: Bool {
    if case .cursor = strategy { return true }
    return false
  }

  /// Whether a request may send both `page[after]` and `page[before]`; always `false` for the
  /// page number and offset strategies.
  public var allowsRangePagination: Bool {
    if case .cursor(let allowsRangePagination, _) = strategy { return allowsRangePagination }
    return false
  }

  /// The `page[…]` members the strategy reads: `size`, `after` and `before`; `number` and `size`;
  /// or `offset` and `limit`.
  public var pageMembers: Set<String> {
    switch strategy {
    case .cursor: return ["size", "after", "before"]
    case .pageNumber: return ["number", "size"]
    case .offset: return ["offset", "limit"]
    }
  }

  /// The member that holds the page size: `size`, or `limit` for the offset strategy.
  var sizeMember: String {
    if case .offset = strategy { return "limit" }
    return "size"
  }

  /// `rules` with the strategy's page members and largest size, whose
  /// ``JSONAPIQueryRules/validate(_:)`` checks the `page` members as ``page(for:)`` does, with
  /// the same errors (for the cursor strategy, the profile's), so that the two agree whichever
  /// runs first. Rules whose ``JSONAPIQueryRules/pageMembers`` or
  /// ``JSONAPIQueryRules/maxPageSize`` are changed afterwards (`pageMembers = []` for an endpoint
  /// that does not page) check as plain rules do.
  ///
  /// ```swift
  /// let rules = JSONAPIPaging.cursor(defaultSize: 20, maxSize: 100)
  ///   .rules(JSONAPIQueryRules(sortFields: ["name"]))
  /// try rules.validate(JSONAPIQuery(parsing: "page%5Bsize%5D=500"))
  /// // throws JSONAPIPagingError.maxSizeExceeded(parameter: "page[size]", size: "500", maxSize: 100)
  /// ```
  public func rules(_ rules: JSONAPIQueryRules) -> JSONAPIQueryRules {
    var copy = rules
    copy.pageMembers = pageMembers
    copy.maxPageSize = maxSize
    copy.paging = self
    return copy
  }

  /// The media type to answer a paged request with: `negotiated` with the Cursor Pagination
  /// profile added to its `profile` parameter when this is the cursor strategy (R60: a server
  /// names the profiles it applies), unchanged otherwise.
  ///
  /// ```swift
  /// let negotiation = JSONAPIContentNegotiation(
  ///   supportedProfiles: [JSONAPIPaging.cursorPaginationProfile])
  /// let negotiated = try negotiation.negotiate(headers: headers, hasBody: false)
  /// headers["Content-Type"] = paging.mediaType(applyingTo: negotiated).headerValue
  /// // application/vnd.api+json;profile="https://jsonapi.org/profiles/ethanresnick/cursor-pagination/"
  /// ```
  public func mediaType(applyingTo negotiated: JSONAPIMediaType) -> JSONAPIMediaType {
    guard appliesCursorPaginationProfile,
      !negotiated.profiles.contains(Self.cursorPaginationProfile)
    else { return negotiated }
    var mediaType = negotiated
    mediaType.profiles.append(Self.cursorPaginationProfile)
    return mediaType
  }

  /// The `meta` of one item of cursor-paged data that gives its cursor, as the profile's item
  /// cursors do: `{"page": {"cursor": "…"}}`.
  ///
  /// ```swift
  /// JSONAPIPaging.itemMeta(cursor: "abcde")   // ["page": ["cursor": "abcde"]]
  /// ```
  public static func itemMeta(cursor: String) -> JSONAPIValue {
    ["page": ["cursor": .string(cursor)]]
  }
}
