import Foundation

/// The pagination metadata of the Cursor Pagination profile
/// (`https://jsonapi.org/profiles/ethanresnick/cursor-pagination/`): what a page's top-level
/// `meta.page` says about the collection.
///
/// Use it as the `Meta` of a page document, or as the `meta:` of
/// `JSONAPIClient.pages(of:meta:from:query:direction:)`:
///
/// ```swift
/// let page = try JSONAPIDecoder().decode(
///   JSONAPIDocument<[Article], JSONAPICursorPageMeta>.self, from: data)
/// page.meta?.total           // 200, from "meta": {"page": {"total": 200}}
/// page.meta?.rangeTruncated  // false unless "rangeTruncated": true
/// ```
///
/// The profile's members are read from `meta.page`; any other member of `meta` is ignored (decode
/// a type of your own to read them too). As the profile asks of a recipient, a value of a shape
/// the profile does not define is treated as absent instead of failing the page: a `page` that is
/// not an object, a `rangeTruncated` that is not a Boolean, a total that is not a non-negative
/// integer (a string, a fraction, `null`). Totals are `Int64`, whatever the platform's `Int`
/// (`Int` has 32 bits on watchOS).
public struct JSONAPICursorPageMeta: Sendable, Hashable {
  /// `meta.page.rangeTruncated`: `true` when the answer to a range request (both `page[after]`
  /// and `page[before]`) holds only the first items of the range, because more fell in it than the
  /// page size. Request the rest after the last item received. `false` when absent.
  public var rangeTruncated: Bool
  /// `meta.page.total`: the number of items in the whole collection, when the server counts them.
  public var total: Int64?
  /// `meta.page.estimatedTotal.bestGuess`: the server's estimate of the collection's size, sent by
  /// servers for which an exact `total` costs too much.
  public var estimatedTotal: Int64?

  /// Creates pagination metadata, such as the one a server sends with a page.
  public init(rangeTruncated: Bool = false, total: Int64? = nil, estimatedTotal: Int64? = nil) {
    self.rangeTruncated = rangeTruncated
    self.total = total
    self.estimatedTotal = estimatedTotal
  }

  /// Reads the profile's members from a page's `meta` of any shape, such as the `JSONAPIValue`
  /// meta of the pages `JSONAPIClient.pages(of:from:query:direction:)` gives.
  ///
  /// ```swift
  /// let meta: JSONAPIValue = ["page": ["total": 200, "rangeTruncated": true]]
  /// JSONAPICursorPageMeta(meta).total  // 200
  /// ```
  ///
  /// A member the profile does not define, or a value of another shape, is ignored; so is a total
  /// beyond `Int64` (decoding a document into `JSONAPICursorPageMeta` refuses it instead).
  /// `nil` gives the empty metadata.
  public init(_ meta: JSONAPIValue?) {
    let page = meta?["page"]
    self.init(
      rangeTruncated: page?["rangeTruncated"]?.boolValue ?? false,
      total: Self.count(page?["total"]),
      estimatedTotal: Self.count(page?["estimatedTotal"]?["bestGuess"]))
  }

  /// A count held by a meta value: a non-negative integer that fits in `Int64`.
  private static func count(_ value: JSONAPIValue?) -> Int64? {
    let count: Int64?
    switch value {
    case .integer(let integer): count = Int64(integer)
    // On a 32-bit platform, integers beyond `Int` are held as a `Double`.
    case .number(let number): count = number.isFinite ? Int64(exactly: number) : nil
    default: count = nil
    }
    guard let count, count >= 0 else { return nil }
    return count
  }
}

extension JSONAPICursorPageMeta: Decodable {
  private enum Key: String, CodingKey {
    case page, rangeTruncated, total, estimatedTotal, bestGuess
  }

  /// Decodes the profile's members from a page's top-level `meta` object.
  ///
  /// - Throws: `DecodingError.typeMismatch` when `meta` is not an object (JSON:API requires one);
  ///   `DecodingError.dataCorrupted` for a total or estimate that is an integer too large for
  ///   `Int64`, rather than a wrong count. Other unexpected values are ignored.
  public init(from decoder: any Decoder) throws {
    let meta = try decoder.container(keyedBy: Key.self)
    self.init()
    // The profile: a `page` member that is not an object is unrecognized, so ignored.
    guard meta.contains(.page),
      let page = try? meta.nestedContainer(keyedBy: Key.self, forKey: .page)
    else { return }
    rangeTruncated = (try? page.decodeIfPresent(Bool.self, forKey: .rangeTruncated)) ?? false
    total = try Self.count(in: page, forKey: .total)
    if page.contains(.estimatedTotal),
      let estimate = try? page.nestedContainer(keyedBy: Key.self, forKey: .estimatedTotal)
    {
      estimatedTotal = try Self.count(in: estimate, forKey: .bestGuess)
    }
  }

  /// The non-negative integer at `key`, `nil` when absent or not such an integer.
  ///
  /// - Throws: the decoder's error when the value is a non-negative integer beyond `Int64`: a
  ///   count that cannot be held is reported, not dropped.
  private static func count(in container: KeyedDecodingContainer<Key>, forKey key: Key) throws
    -> Int64?
  {
    guard container.contains(key) else { return nil }
    do {
      let count = try container.decode(Int64.self, forKey: key)
      return count >= 0 ? count : nil
    } catch {
      guard let number = try? container.decode(Double.self, forKey: key), number >= 0,
        number.rounded() == number
      else { return nil }
      throw error
    }
  }
}

extension JSONAPIDocument where Meta == JSONAPICursorPageMeta {
  /// Whether this page answers a range request with only the first items of the range
  /// (`meta.page.rangeTruncated`); `false` when the page has no `meta`.
  ///
  /// ```swift
  /// if page.rangeTruncated { /* ask again after the last item received */ }
  /// ```
  public var rangeTruncated: Bool { meta?.rangeTruncated ?? false }
}

extension JSONAPIDocument where Meta == JSONAPIValue {
  /// Whether this page answers a range request with only the first items of the range: the
  /// Cursor Pagination profile's `meta.page.rangeTruncated`. `false` when absent or not `true`.
  ///
  /// ```swift
  /// for try await page in client.pages(of: [Article].self, from: "articles", query: range) {
  ///   if page.rangeTruncated { print("more items fall in the range") }
  /// }
  /// ```
  public var rangeTruncated: Bool { meta?["page"]?["rangeTruncated"]?.boolValue ?? false }

  /// The Cursor Pagination profile's members of this page's `meta` (`meta.page`): see
  /// ``JSONAPICursorPageMeta/init(_:)``.
  ///
  /// ```swift
  /// let total = page.cursorPageMeta.total  // Int64?
  /// ```
  public var cursorPageMeta: JSONAPICursorPageMeta { JSONAPICursorPageMeta(meta) }
}
