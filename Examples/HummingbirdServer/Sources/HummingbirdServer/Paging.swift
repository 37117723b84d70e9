import JSONAPICodable

/// Page-number paging (`page[number]`, `page[size]`), written by hand in this one place so that
/// it can give way to the library's paging helpers as a whole: collections call ``rules(_:)``,
/// ``window(for:)`` and ``response(for:total:path:query:baseURL:)`` and nothing else.
enum Paging {
  static let defaultSize: Int64 = 10
  /// The largest `page[size]` accepted: a page is read and encoded in one go.
  static let maxSize = 50

  /// Which rows of the sorted collection a request asks for.
  struct Window: Sendable {
    var number: Int64
    var size: Int64
    /// `nil` when the page lies past any offset SQLite can reach: the page is empty.
    var offset: Int64?
  }

  /// `rules`, accepting `page[number]` and `page[size]` up to ``maxSize``.
  static func rules(_ rules: JSONAPIQueryRules) -> JSONAPIQueryRules {
    var rules = rules
    rules.pageMembers = ["number", "size"]
    rules.maxPageSize = maxSize
    return rules
  }

  /// The page a query validated by ``rules(_:)`` asks for. The rules have checked that each value
  /// is a whole number of at most 18 digits, so it fits in `Int64` on every platform.
  static func window(for query: JSONAPIQuery) -> Window {
    let number = query.page["number"].flatMap { Int64($0) } ?? 1
    let size = query.page["size"].flatMap { Int64($0) } ?? defaultSize
    // A page number far past the end (up to 18 digits) overflows the offset: an empty page.
    let (offset, overflow) = (number - 1).multipliedReportingOverflow(by: size)
    return Window(number: number, size: size, offset: overflow ? nil : offset)
  }

  /// The collection's pagination links (`self`, `first`, `last`, and `prev`/`next` where there is
  /// such a page) and `meta.page`. Links keep every other parameter of the query.
  static func response(
    for window: Window, total: Int64, path: String, query: JSONAPIQuery, baseURL: String
  ) -> (links: JSONAPILinks, meta: JSONAPIValue) {
    let pages = max(1, (total + window.size - 1) / window.size)
    func link(_ number: Int64) -> JSONAPILink {
      let paged = query.page("number", String(number)).page("size", String(window.size))
      return JSONAPILink(href: baseURL + path + "?" + paged.percentEncodedQuery)
    }
    var links = JSONAPILinks()
    links["self"] = link(window.number)
    links["first"] = link(1)
    links["last"] = link(pages)
    if window.number > 1 { links["prev"] = link(min(window.number - 1, pages)) }
    if window.number < pages { links["next"] = link(window.number + 1) }
    let meta: JSONAPIValue = [
      "page": [
        "number": .integer(Int(clamping: window.number)), "size": .integer(Int(window.size)),
        "total": .integer(Int(clamping: total)), "pages": .integer(Int(clamping: pages)),
      ]
    ]
    return (links, meta)
  }
}
