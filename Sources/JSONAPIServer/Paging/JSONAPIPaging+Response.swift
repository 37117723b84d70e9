extension JSONAPIPaging {
  /// The pagination `links` and `meta` of a paged response, made by
  /// ``JSONAPIPaging/response(for:target:cursors:count:hasMore:total:)``; put them into the
  /// document next to the paged data.
  public struct Response: Sendable, Hashable {
    /// `self`, `first`, `prev`, `next` and `last`, those that can be known. The cursor strategy
    /// writes a missing `prev` or `next` as `null` (see `JSONAPILinks.setNull(_:)`), as the
    /// profile requires; the others leave it out (R63).
    public var links: JSONAPILinks
    /// The strategy's `meta`, `nil` when it has nothing to say (a cursor page that is not a
    /// truncated range, without a total).
    public var meta: JSONAPIValue?

    /// Creates a response.
    ///
    /// ```swift
    /// let response = JSONAPIPaging.Response(links: ["next": "/people?page%5Bafter%5D=c2"])
    /// ```
    public init(links: JSONAPILinks, meta: JSONAPIValue? = nil) {
      self.links = links
      self.meta = meta
    }
  }

  /// The pagination links and `meta` for what the store returned for `page`.
  ///
  /// Every link is `target` with other `page` members: parameters that are not `page[…]` stay
  /// byte for byte and in order, and the `page` members (written where the first one stood,
  /// percent-encoded as `JSONAPIQuery` encodes them) are `page[size]` (`page[limit]`) only when
  /// the request sent it, and the number, offset or cursor of the linked page. `self` has the
  /// request's own `page` members.
  ///
  /// | Strategy | `prev` | `next` | `last` |
  /// |---|---|---|---|
  /// | cursor | before the first item's cursor; `null` on a first page, and on a `page[before]` page without `hasMore` | after the last item's cursor; `null` without `hasMore`, unless the request had `page[before]` | none |
  /// | page number | number − 1 (at most the last page when `total` is known); none on page 1 | number + 1 with `hasMore` | with `total` |
  /// | offset | offset − limit, from 0; none at offset 0 | offset + limit with `hasMore` | offset `total` − limit, with `total` |
  ///
  /// An empty cursor page has no item cursors to link from, so its `prev` and `next` are `null`;
  /// except for an empty range, with nothing between its cursors: its `prev` is before the
  /// range's `before` cursor and its `next` after its `after` cursor.
  ///
  /// ```swift
  /// // GET /example-data?page[after]=abcde&page[size]=2 gave items 7 and 8, and 9 is next.
  /// let paging = JSONAPIPaging.cursor(defaultSize: 10, maxSize: 100)
  /// let page = try paging.page(for: query)
  /// let paged = paging.response(
  ///   for: page, target: "/example-data?page[after]=abcde&page[size]=2",
  ///   cursors: ["yyy", "zzz"], count: 2, hasMore: true)
  /// paged.links.prev?.href   // /example-data?page%5Bbefore%5D=yyy&page%5Bsize%5D=2
  /// paged.links.next?.href   // /example-data?page%5Bafter%5D=zzz&page%5Bsize%5D=2
  /// ```
  ///
  /// - Parameters:
  ///   - page: What ``page(for:)`` read from the request.
  ///   - target: The request target exactly as received: the path and the raw percent-encoded
  ///     query (`/articles?sort=-title&page%5Bsize%5D=2`), or an absolute URL.
  ///   - cursors: Cursor strategy: the cursor of each returned item, in order (the first and last
  ///     anchor `prev` and `next`). Ignored by the other strategies.
  ///   - count: How many items the page holds.
  ///   - hasMore: Whether more items exist in the direction of reading: after the page; before
  ///     it for a cursor request with only `page[before]`; and for a cursor range request, more in
  ///     the range than the page holds (`meta.page.rangeTruncated`).
  ///   - total: The number of items in the whole collection, when known (`meta.page.total`, and
  ///     the `last` link of the page number and offset strategies).
  public func response(
    for page: Page, target: String, cursors: [String] = [], count: Int, hasMore: Bool,
    total: Int? = nil
  ) -> Response {
    let target = PagingTarget(target)
    var links = JSONAPILinks()
    links.selfLink = target.link(target.page)
    let total = total.map { max($0, 0) }
    let size = max(page.size, 1)
    // The size goes into links only when the request sent it, as in the profile's examples; the
    // default then applies again.
    let sized: [String: String] =
      target.page[sizeMember] == nil ? [:] : [sizeMember: String(size)]
    func link(_ members: [String: String]) -> JSONAPILink {
      target.link(members.merging(sized) { first, _ in first })
    }
    switch strategy {
    case .cursor:
      links.first = link([:])
      return cursorResponse(
        page, links: links, link: link, cursors: cursors, count: count, hasMore: hasMore,
        total: total)
    case .pageNumber:
      let number = min(max(page.number ?? 1, 1), Self.largestNumber)
      let last = total.map { Self.pageCount(total: $0, size: size) }
      links.first = link(["number": "1"])
      if number > 1 {
        links.prev = link(["number": String(min(number - 1, last ?? number))])
      }
      if hasMore, number < Self.largestNumber {
        links.next = link(["number": String(number + 1)])
      }
      if let last, last <= Self.largestNumber { links.last = link(["number": String(last)]) }
      var meta: [String: JSONAPIValue] = ["number": .integer(number), "size": .integer(size)]
      if let total, let last {
        meta["total"] = .integer(total)
        meta["totalPages"] = .integer(last)
      }
      return Response(links: links, meta: ["page": .object(meta)])
    case .offset:
      let offset = min(max(page.offset ?? 0, 0), Self.largestNumber)
      // Offsets stay at most `largestNumber`, so `offset + size` is computed only when `size` is
      // small enough not to pass it.
      let lastOffset = total.map { $0 > size ? $0 - size : 0 }
      links.first = link(["offset": "0"])
      if offset > 0 {
        let previous = offset > size ? offset - size : 0
        links.prev = link(["offset": String(min(previous, lastOffset ?? previous))])
      }
      if hasMore, size <= Self.largestNumber - offset {
        links.next = link(["offset": String(offset + size)])
      }
      if let lastOffset, lastOffset <= Self.largestNumber {
        links.last = link(["offset": String(lastOffset)])
      }
      var meta: [String: JSONAPIValue] = ["offset": .integer(offset), "limit": .integer(size)]
      if let total { meta["total"] = .integer(total) }
      return Response(links: links, meta: ["page": .object(meta)])
    }
  }

  /// The profile's links: `prev` and `next` always present, `null` when there is none.
  private func cursorResponse(
    _ page: Page, links: JSONAPILinks, link: ([String: String]) -> JSONAPILink,
    cursors: [String], count: Int, hasMore: Bool, total: Int?
  ) -> Response {
    var links = links
    let before = cursors.first.map { link(["before": $0]) }
    let after = cursors.last.map { link(["after": $0]) }
    // An empty range has nothing between its cursors: the items before its `before` cursor
    // end at its `after` cursor, and those after its `after` cursor start at its `before` one.
    let emptyRange = page.isRange && count <= 0 && cursors.isEmpty
    let prev: JSONAPILink?
    let next: JSONAPILink?
    switch (page.after, page.before) {
    case (nil, nil):
      // A first page: nothing before it; what follows is known (the profile: MUST).
      prev = nil
      next = hasMore ? after : nil
    case (nil, .some):
      // Read backwards: whether items come before is known; after may turn out empty.
      prev = hasMore ? before : nil
      next = after
    case (.some, nil):
      prev = before
      next = hasMore ? after : nil
    case (.some(let afterCursor), .some(let beforeCursor)):
      prev = before ?? (emptyRange ? link(["before": beforeCursor]) : nil)
      next = after ?? (emptyRange ? link(["after": afterCursor]) : nil)
    }
    if let prev { links.prev = prev } else { links.setNull("prev") }
    if let next { links.next = next } else { links.setNull("next") }
    var meta: [String: JSONAPIValue] = [:]
    if page.isRange, hasMore { meta["rangeTruncated"] = true }
    if let total { meta["total"] = .integer(total) }
    return Response(links: links, meta: meta.isEmpty ? nil : ["page": .object(meta)])
  }

  /// The number of pages of `size` items that hold `total` items, at least 1, without the
  /// overflow of `(total + size - 1) / size`.
  static func pageCount(total: Int, size: Int) -> Int {
    let size = max(size, 1)
    return max(1, total / size + (total % size == 0 ? 0 : 1))
  }
}
