import Foundation
import JSONAPICodable

// PAGING SLOT (issue 30 item 1) ------------------------------------------------------------------
// `JSONAPIPaging.page(for:)` is written on branch wt-paging and is not on main yet. The input
// already reaches this slot: every request whose query parses comes through `PagingSlot.run`.
// Once wt-paging is merged, delete each `#if JSONAPI_PAGING_MERGED` line and its `#endif` (three
// pairs, all in this file). The code between them is written against the contract in
// ISSUE30-SHARED.md and needs only the names helper S may have changed.
// -------------------------------------------------------------------------------------------------

enum PagingSlot {
  #if JSONAPI_PAGING_MERGED
    /// Each strategy, with small bounds so that the fuzzer reaches them: cursor paging with and
    /// without range pagination, page numbers and offsets.
    static let strategies: [JSONAPIPaging] = [
      .cursor(defaultSize: 10, maxSize: 50),
      .cursor(defaultSize: 1, maxSize: 3, allowsRangePagination: true),
      .pageNumber(defaultSize: 20, maxSize: 100),
      .offset(defaultLimit: 20, maxLimit: 100),
    ]
  #endif

  /// The paging request: `page(for:)` under every strategy. A page it gives is within the
  /// strategy's bounds and takes the cursors the client sent; its links parse back to the
  /// request's query with only `page[…]` members changed; each refusal is answered as every
  /// other failure (400, `source.parameter`).
  static func run(_ query: JSONAPIQuery, _ request: FuzzRequest, _ failures: inout Failures) {
    #if JSONAPI_PAGING_MERGED
      for paging in strategies {
        let page: JSONAPIPaging.Page
        do {
          page = try paging.page(for: query)
        } catch {
          failures.answer(error, "JSONAPIPaging.page(for:)", request: request)
          continue
        }
        if page.size < 1 || page.size > 100 {
          report("\(paging) gave a page of \(page.size) items", request: request)
        }
        if page.after != nil || page.before != nil {
          if page.after != query.page["after"] || page.before != query.page["before"] {
            report("\(paging) gave cursors \(page) for \(query.page)", request: request)
          }
        }
        if let number = page.number, number < 1 {
          report("\(paging) gave page number \(number)", request: request)
        }
        if let offset = page.offset, offset < 0 {
          report("\(paging) gave offset \(offset)", request: request)
        }
        let response = paging.response(
          for: page, target: request.target, cursors: ["c1", "c2"], count: 2, hasMore: true,
          total: 7)
        var rest = query
        rest.page = [:]
        for name in response.links.names {
          guard let href = response.links[name]?.href else { continue }
          let components = URL(jsonAPIReference: href).flatMap {
            URLComponents(url: $0, resolvingAgainstBaseURL: false)
          }
          guard
            var linked = components.flatMap({
              try? JSONAPIQuery(parsing: $0, limits: QueryChecks.roomyLimits)
            })
          else {
            report("the `\(name)` link \(href) does not parse", request: request)
          }
          linked.page = [:]
          if linked != rest {
            report("the `\(name)` link \(href) changed more than page[…]", request: request)
          }
        }
      }
    #endif
  }

  /// The status of a paging error (400), or `nil` for an error that is not one.
  static func expectedStatus(of error: any Error) -> Int? {
    #if JSONAPI_PAGING_MERGED
      if error is JSONAPIPagingError { return 400 }
    #endif
    return nil
  }
}
