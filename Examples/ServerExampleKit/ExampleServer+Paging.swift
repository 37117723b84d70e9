import JSONAPIServer

// How the example pages its collections, one strategy each (R65 leaves the choice to the server):
//
// - `/articles`: page numbers, `page[number]` and `page[size]` (10 by default, at most 50), with
//   `first`, `prev`, `next` and `last` links and the totals in `meta.page`.
// - `/people`: cursors, as the Cursor Pagination profile defines them: `page[size]` (10 by
//   default, at most 20), `page[after]` and `page[before]`, ranges allowed. A cursor is a person's
//   id and stands for that person's place in name order, so `sort=id`, which the endpoint
//   otherwise understands, cannot be paged: the profile's Unsupported Sort error.
// - `/comments`: offsets, `page[offset]` and `page[limit]` (10 by default, at most 20).
// - `/articles/{id}/comments`: cursors again (a comment's id), without ranges: the profile's
//   Range Pagination Not Supported error.

extension ExampleServer {
  static let articlePaging = JSONAPIPaging.pageNumber(defaultSize: 10, maxSize: 50)
  static let peoplePaging = JSONAPIPaging.cursor(
    defaultSize: 10, maxSize: 20, allowsRangePagination: true, sortFields: ["name"])
  static let commentPaging = JSONAPIPaging.offset(defaultLimit: 10, maxLimit: 20)
  static let articleCommentPaging = JSONAPIPaging.cursor(defaultSize: 10, maxSize: 10)

  /// The items of a cursor page, in `items`' order, and whether more lie in the direction of
  /// reading (for a range, in the range). `cursor` gives an item's cursor; a cursor that falls on
  /// no item is refused, as the profile asks of an invalid cursor.
  static func cursorPage<Item>(
    _ items: [Item], _ page: JSONAPIPaging.Page, cursor: (Item) -> String
  ) throws -> (items: [Item], hasMore: Bool) {
    func position(_ value: String, _ member: String) throws -> Int {
      guard let index = items.firstIndex(where: { cursor($0) == value }) else {
        throw JSONAPIPagingError.invalidValue(
          parameter: "page[\(member)]", value: value, reason: "it is not a cursor of this list")
      }
      return index
    }
    let start = try page.after.map { try position($0, "after") + 1 } ?? 0
    let end = try page.before.map { try position($0, "before") } ?? items.count
    let window = start < end ? Array(items[start..<end]) : []
    // `page[before]` alone reads backwards: the last items before the cursor. Otherwise, ranges
    // included, the first items after the start.
    let slice =
      page.before != nil && page.after == nil
      ? Array(window.suffix(page.size)) : Array(window.prefix(page.size))
    return (slice, window.count > slice.count)
  }

  /// The items of an offset page (page number or offset strategy) and whether more follow.
  static func offsetPage<Item>(_ items: [Item], _ page: JSONAPIPaging.Page) -> (
    items: [Item], hasMore: Bool
  ) {
    let start = min(max(page.offset ?? 0, 0), items.count)
    let end = start + min(max(page.size, 0), items.count - start)
    return (Array(items[start..<end]), end < items.count)
  }
}

extension ExampleServer.Context {
  /// The request target the links are made from: absolute, as the server's other links are, and
  /// otherwise exactly as the client sent it.
  var linkTarget: String {
    request.url.hasPrefix("/") ? ExampleServer.baseURL + request.url : request.url
  }
}
