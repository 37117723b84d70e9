import Foundation

// The client side of the Cursor Pagination profile
// (https://jsonapi.org/profiles/ethanresnick/cursor-pagination/): `page[size]`, `page[after]`
// and `page[before]` (R65 leaves the `page` family's members to the strategy).
extension JSONAPIQuery {
  /// A copy asking for the items right after `cursor` (`page[after]`), `size` of them
  /// (`page[size]`) when given: the next page of the Cursor Pagination profile.
  ///
  /// ```swift
  /// let next = JSONAPIQuery().page(size: 10, after: "c1")
  /// // page%5Bafter%5D=c1&page%5Bsize%5D=10
  /// ```
  ///
  /// A cursor is an opaque string the server made: take it from an item's `meta.page.cursor`, or
  /// let `JSONAPIClient.pages(of:from:query:direction:)` (JSONAPINetworking) follow the `next`
  /// links. The copy sends
  /// no `page[before]`, even when this query had one: a query that carried a cursor for one
  /// direction and is turned to the other must not become a range request by accident. To ask
  /// for a range (the items between two cursors), set both members with ``page(_:_:)``:
  ///
  /// ```swift
  /// let range = JSONAPIQuery().page(after: "c1").page("before", "c9")
  /// ```
  ///
  /// Without `size`, any `page[size]` the query has stays as it is; with none, the server uses
  /// its default size (its maximum size for a range). The profile asks for a positive size: a
  /// server answers `0`, or a size above its maximum, with `400 Bad Request` naming `page[size]`
  /// in the error's `source.parameter`. Other `page` members (`number`, `offset`) are left alone.
  public func page(size: Int? = nil, after cursor: String) -> JSONAPIQuery {
    cursorPage(size: size, set: "after", to: cursor, removing: "before")
  }

  /// A copy asking for the items right before `cursor` (`page[before]`), `size` of them
  /// (`page[size]`) when given: the previous page of the Cursor Pagination profile.
  ///
  /// ```swift
  /// let previous = JSONAPIQuery().page(size: 10, before: "c9")
  /// // page%5Bbefore%5D=c9&page%5Bsize%5D=10
  /// ```
  ///
  /// The page's last item is the one right before `cursor`; the items keep the collection's
  /// order. The copy sends no `page[after]`, even when this query had one, so that turning a
  /// query around never makes a range request by accident; set both members with ``page(_:_:)``
  /// to ask for a range. Without `size`, any `page[size]` the query has stays as it is. See
  /// ``page(size:after:)`` for the errors a server answers.
  public func page(size: Int? = nil, before cursor: String) -> JSONAPIQuery {
    cursorPage(size: size, set: "before", to: cursor, removing: "after")
  }

  private func cursorPage(size: Int?, set member: String, to cursor: String, removing other: String)
    -> JSONAPIQuery
  {
    var copy = self
    copy.page[member] = cursor
    copy.page[other] = nil
    if let size { copy.page["size"] = String(size) }
    return copy
  }
}
