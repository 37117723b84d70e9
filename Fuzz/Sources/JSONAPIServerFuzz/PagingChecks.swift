import Foundation
import JSONAPIServer

// The paging request: `JSONAPIPaging.page(for:)` under each strategy, with bounds small enough
// for the fuzzer to cross and large enough to reach the arithmetic guards. A page it gives is
// within the strategy's bounds and takes the cursors the client sent; rules made by the strategy
// give the same answer; the links built for the page change nothing but `page[…]` members, and
// `self` parses back to the request's query itself.

enum PagingChecks {
  static let strategies: [JSONAPIPaging] = [
    .cursor(defaultSize: 10, maxSize: 50),
    .cursor(
      defaultSize: 1, maxSize: 3, allowsRangePagination: true, sortFields: ["title", "created"]),
    .cursor(defaultSize: 5, maxSize: .max, allowsRangePagination: true),
    .pageNumber(defaultSize: 20, maxSize: 100),
    .pageNumber(defaultSize: 1, maxSize: .max),
    .offset(defaultLimit: 20, maxLimit: 100),
    .offset(defaultLimit: 1, maxLimit: .max),
  ]

  static func run(_ query: JSONAPIQuery, _ request: FuzzRequest, _ failures: inout Failures) {
    // Rules that allow everything the query holds but its `page` members, which the strategy
    // checks: their answer must be `page(for:)`'s.
    let allowing = JSONAPIQueryRules(
      includePaths: Set(query.include ?? []), sortFields: Set(query.sort.map(\.field)),
      filterMembers: nil, additionalParameters: Set(query.additionalParameters.map(\.name)))
    // The store's answer, varied by the input so that every branch of the links is reached.
    let variant = request.target.utf8.count
    let hasMore = variant % 2 == 0
    let count = variant % 5 == 0 ? 0 : 2
    let total: Int? = [nil, 0, 7, .max][variant % 4]

    for paging in strategies {
      let page: JSONAPIPaging.Page
      let viaRules = Result { try paging.rules(allowing).validate(query) }
      do {
        page = try paging.page(for: query)
      } catch {
        if !sameFailure(error, viaRules) {
          report("\(paging): page(for:) threw \(error), rules gave \(viaRules)", request: request)
        }
        if !(error is JSONAPIPagingError) {
          guard case .unsupportedParameter(let name, _) = error as? JSONAPIQueryError,
            name.hasPrefix("page[")
          else {
            report("\(paging): page(for:) threw \(error)", request: request)
          }
        }
        failures.answer(error, "JSONAPIPaging.page(for:)", request: request)
        continue
      }
      if case .failure(let error) = viaRules {
        report("\(paging): rules threw \(error), page(for:) gave \(page)", request: request)
      }
      checkBounds(page, paging, query, request)
      let response = paging.response(
        for: page, target: request.target, cursors: count == 0 ? [] : ["c1", "c 2&"],
        count: count, hasMore: hasMore, total: total)
      checkLinks(response.links, paging, query, request)
    }
  }

  static func checkBounds(
    _ page: JSONAPIPaging.Page, _ paging: JSONAPIPaging, _ query: JSONAPIQuery,
    _ request: FuzzRequest
  ) {
    var fits = page.size >= 1 && page.size <= paging.maxSize
    if paging.appliesCursorPaginationProfile {
      fits =
        fits && page.after == query.page["after"] && page.before == query.page["before"]
        && page.number == nil && page.offset == nil
        && (page.isRange ? paging.allowsRangePagination : true)
    } else {
      fits =
        fits && page.after == nil && page.before == nil
        && (page.offset.map { $0 >= 0 && $0 <= Int.max } ?? false)
      if let number = page.number {
        fits = fits && number >= 1 && number <= JSONAPIPaging.largestNumber
      } else {
        fits = fits && page.offset.map { $0 <= JSONAPIPaging.largestNumber } ?? false
      }
    }
    if query.page[paging.pageMembers.contains("limit") ? "limit" : "size"] == nil {
      fits = fits && page.size == (page.isRange ? paging.maxSize : paging.defaultSize)
    }
    if !fits {
      report("\(paging) gave \(page) for \(query.page)", request: request)
    }
  }

  /// Every link is the request's query with other `page` members only; `self` is the query.
  static func checkLinks(
    _ links: JSONAPILinks, _ paging: JSONAPIPaging, _ query: JSONAPIQuery, _ request: FuzzRequest
  ) {
    var rest = query
    rest.page = [:]
    for name in links.names {
      guard let href = links[name]?.href else { continue }
      let rawQuery = href.utf8.firstIndex(of: UInt8(ascii: "?")).map {
        Substring(href.utf8[href.utf8.index(after: $0)...])
      }
      guard
        let linked = try? JSONAPIQuery(
          parsing: String(rawQuery ?? ""), limits: QueryChecks.roomyLimits)
      else {
        report("\(paging): the `\(name)` link \(href) does not parse", request: request)
      }
      var linkedRest = linked
      linkedRest.page = [:]
      if linkedRest != rest || !Set(linked.page.keys).isSubset(of: paging.pageMembers) {
        report("\(paging): the `\(name)` link \(href) changed more than page[…]", request: request)
      }
      if name == "self", linked != query {
        report("\(paging): the self link \(href) is not the request", request: request)
      }
      if !href.utf8.starts(with: request.path.utf8) {
        report("\(paging): the `\(name)` link \(href) left the request's path", request: request)
      }
    }
  }

  static func sameFailure(_ error: any Error, _ other: Result<Void, any Error>) -> Bool {
    guard case .failure(let otherError) = other else { return false }
    switch (error, otherError) {
    case (let left as JSONAPIPagingError, let right as JSONAPIPagingError): return left == right
    case (let left as JSONAPIQueryError, let right as JSONAPIQueryError): return left == right
    default: return false
    }
  }
}
