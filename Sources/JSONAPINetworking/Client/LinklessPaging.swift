import Foundation
import JSONAPICodable

/// How ``JSONAPIPages`` reads on when a page has no pagination links but its request named
/// `page[number]` or `page[offset]`: links are optional (R65), and a server that pages by number
/// or offset without them still pages. The next request is the last one with that member advanced
/// (`page[number]` by one, `page[offset]` by the number of resources the page held), every other
/// parameter kept byte for byte.
///
/// Paging ends at an empty page, at the end that a total in `meta` gives, or (without a total) at
/// a page shorter than the size asked (or than the first page, when no size was asked: the
/// server's default); at a page whose resources repeat the previous page's (a server that ignores
/// the parameter); or at `maxPages`.
///
/// A total is not trusted alone when the page that reaches it came back full: some servers count
/// the page in `meta` rather than the collection (`{"count": 5, "totalPages": 1}` on a page of 5
/// out of 25), and trusting them would end the walk early in silence. The next page is then asked
/// for once more (a probe): empty, it ends the walk and is not given; with resources, the totals
/// of `meta` are wrong and are ignored for the rest of the walk, which then ends as it would
/// without a total. The cost is one request at most, for a collection whose size is an exact
/// multiple of the page size.
struct LinklessPaging: Sendable {
  enum Member: Sendable {
    case number
    case offset

    /// The query parameter this member is.
    var parameter: String {
      switch self {
      case .number: return "page[number]"
      case .offset: return "page[offset]"
      }
    }
  }

  /// A resource of a page, as far as paging needs it: to count the page and to see it repeat.
  struct Item: Decodable, Hashable, Sendable {
    var type: String
    var id: String?
  }

  /// The member advanced from page to page.
  let member: Member
  /// Its value in the request of the page just read.
  let value: Int
  /// `page[size]` (with a number) or `page[limit]` (with an offset), when the request named it.
  let size: Int?

  /// The paging `url` asks for, or `nil` when its query names neither `page[number]` nor
  /// `page[offset]` with a whole number.
  init?(url: URL) {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let query = try? JSONAPIQuery(parsing: components.percentEncodedQuery ?? "")
    else { return nil }
    if let number = query.page["number"].flatMap(Self.wholeNumber) {
      (member, value, size) = (.number, number, query.page["size"].flatMap(Self.wholeNumber))
    } else if let offset = query.page["offset"].flatMap(Self.wholeNumber) {
      (member, value, size) = (.offset, offset, query.page["limit"].flatMap(Self.wholeNumber))
    } else {
      return nil
    }
  }

  /// Whether `links` holds none of the pagination links (R65), not even as `null`: a `null`
  /// link is the server saying there is no such page.
  static func hasNoPaginationLinks(_ links: JSONAPILinks?) -> Bool {
    guard let links else { return true }
    let named = links.names + links.nullNames
    return !named.contains { ["first", "last", "prev", "next"].contains($0) }
  }

  /// The request after a page: its URL, and whether it is a probe, asked for although a total in
  /// `meta` says the page just read was the last (see ``LinklessPaging``).
  struct Step: Sendable, Equatable {
    var url: URL
    var probe: Bool
  }

  /// The request after the page `url` asked for, which held `count` resources and `meta`; `nil`
  /// when that page was the last. `firstCount` is the length of the first page read: the
  /// server's page size, whatever size was asked. `trustsTotals` is `false` once a probe has shown
  /// the totals of `meta` wrong.
  ///
  /// A total in `meta` decides where it is given (a server may cap a size asked above its
  /// maximum, so a short page then says nothing), except that a full page reaching the total
  /// leads to a probe; without one, a page shorter than the size asked (or than the first page,
  /// when no size was asked) is the last.
  func next(
    after url: URL, count: Int, firstCount: Int, meta: JSONAPIValue?, trustsTotals: Bool = true
  ) -> Step? {
    guard count > 0 else { return nil }
    let pages =
      trustsTotals && member == .number ? Self.total(in: meta, named: Self.pageTotals) : nil
    let items = trustsTotals ? Self.total(in: meta, named: Self.itemTotals) : nil
    // Where this page ends in the collection: after `value` pages of the server's size, or at
    // the offset plus what this page held.
    let (end, endOverflows) =
      member == .number
      ? value.multipliedReportingOverflow(by: firstCount) : value.addingReportingOverflow(count)
    if endOverflows { return nil }
    let full = count >= (size ?? firstCount)
    var probe = false
    if let pages {
      if value >= pages {
        guard full else { return nil }
        probe = true
      }
    } else if let items {
      if end >= items {
        guard full else { return nil }
        probe = true
      }
    } else if !full {
      return nil
    }
    let (following, overflows) =
      member == .number ? value.addingReportingOverflow(1) : (end, false)
    if overflows { return nil }
    return Self.url(url, setting: member.parameter, to: following).map {
      Step(url: $0, probe: probe)
    }
  }

  /// `url` with the parameter `name` (however its brackets are encoded) set to `value`, and every
  /// other byte of its query as it was.
  static func url(_ url: URL, setting name: String, to value: Int) -> URL? {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let query = components.percentEncodedQuery
    else { return nil }
    // Split at the byte `&` (R72), as JSONAPIQuery(parsing:) does.
    let parts = Substring(query).utf8.split(
      separator: UInt8(ascii: "&"), omittingEmptySubsequences: false)
    let rewritten = parts.map { part -> String in
      let rawName = Substring(part.prefix { $0 != UInt8(ascii: "=") })
      let decoded = rawName.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
      return decoded == name ? "\(rawName)=\(value)" : String(Substring(part))
    }
    components.percentEncodedQuery = rewritten.joined(separator: "&")
    return components.url
  }

  /// The spellings of a collection's item count in real servers' `meta`: `total` (JSON:API's
  /// own examples, the Cursor Pagination profile's `meta.page.total`), `count` (Django REST
  /// framework JSON:API's `meta.pagination.count`, Kitsu), `record_count` (JSONAPI::Resources),
  /// `totalCount`/`total_count`, `totalItems`, `totalRecords`, in their case styles.
  static let itemTotals = [
    "total", "count", "totalCount", "total_count", "total-count", "totalItems", "total_items",
    "total-items", "recordCount", "record_count", "record-count", "totalRecords",
    "total_records", "total-records",
  ]

  /// The spellings of a collection's page count: `totalPages` (this library's page-number meta),
  /// `pages` (Django REST framework JSON:API), `page_count` (JSONAPI::Resources), `lastPage`
  /// (Laravel), in their case styles.
  static let pageTotals = [
    "totalPages", "total_pages", "total-pages", "pages", "pageCount", "page_count", "page-count",
    "lastPage", "last_page", "last-page",
  ]

  /// The first whole number named one of `names` in `meta`, `meta.page` or `meta.pagination`.
  static func total(in meta: JSONAPIValue?, named names: [String]) -> Int? {
    guard let meta else { return nil }
    for object in [meta, meta["page"], meta["pagination"]] {
      for name in names {
        if let total = object?[name]?.intValue, total >= 0 { return total }
      }
    }
    return nil
  }

  /// A page member's value as a whole number: ASCII digits only, within `Int`.
  private static func wholeNumber(_ text: String) -> Int? {
    guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
    return Int(text)
  }
}
