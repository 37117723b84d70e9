import Foundation
import JSONAPICodable

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A stub server that plays the Cursor Pagination profile's rules
/// (https://jsonapi.org/profiles/ethanresnick/cursor-pagination/) over a fixed list of items:
/// `page[size]` (default and maximum), `page[after]`, `page[before]`, range requests, the links
/// the profile requires, `meta.page`, item cursors, and its error objects.
///
/// Its links are as lazy as the profile allows: with `page[before]` in the request the `next`
/// link is given without checking that a next item exists (and `prev` likewise with
/// `page[after]`), so such a link may lead to an empty page.
struct CursorProfileServer: Sendable {
  struct Item: Sendable {
    var id: String
    var cursor: String
  }

  static let profile = "https://jsonapi.org/profiles/ethanresnick/cursor-pagination/"
  /// Cursors that fall on no item: before every item, and after every item (the `last` link's).
  static let start = "alpha"
  static let end = "omega"

  /// The profile's example results, `[1, 5, 7, 8, 9]`, with its cursors: `abcde` falls on 5,
  /// `yyy` on 7, `zzz` on 8, `xxx` on 9 (the profile names none for 1).
  static let profileExamples = [
    Item(id: "1", cursor: "ppp"), Item(id: "5", cursor: "abcde"), Item(id: "7", cursor: "yyy"),
    Item(id: "8", cursor: "zzz"), Item(id: "9", cursor: "xxx"),
  ]

  var path = "/example-data"
  var type = "examples"
  var items = profileExamples
  var defaultSize = 2
  var maxSize = 10
  var supportsRange = true
  var sendsTotal = false

  var transport: StubTransport {
    let server = self
    return StubTransport { request in try server.answer(request) }
  }

  func answer(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
    guard let url = request.url, url.path == path,
      let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    else { return try Stub.answer(request, 404, #"{"errors":[{"status":"404"}]}"#) }
    let body: String
    let status: Int
    do {
      let query = try JSONAPIQuery(parsing: components.percentEncodedQuery ?? "")
      (status, body) = (200, try page(for: query))
    } catch let refusal as Refusal {
      (status, body) = (400, #"{"errors":[\#(refusal.errorObject)]}"#)
    }
    return try Stub.answer(request, status, body)
  }

  /// Why a request is refused: one of the profile's error cases.
  enum Refusal: Error {
    case invalid(parameter: String)
    case maxSizeExceeded(maxSize: Int)
    case rangeNotSupported
    case unsupportedSort

    var errorObject: String {
      switch self {
      case .invalid(let parameter):
        return
          #"{"status":"400","title":"Invalid Parameter.","source":{"parameter":"\#(parameter)"}}"#
      case .maxSizeExceeded(let maxSize):
        return #"""
          {"status":"400","title":"Page size requested is too large.","meta":{"page":{"maxSize":\#(maxSize)}},\#
          "source":{"parameter":"page[size]"},"links":{"type":"\#(profile)max-size-exceeded"}}
          """#
      case .rangeNotSupported:
        return #"{"status":"400","links":{"type":"\#(profile)range-pagination-not-supported"}}"#
      case .unsupportedSort:
        return #"""
          {"status":"400","source":{"parameter":"sort"},"links":{"type":"\#(profile)unsupported-sort"}}
          """#
      }
    }
  }

  /// A cursor's place: an item's index, or -1 / `items.count` for the cursors before and after
  /// every item. Items after it have greater indices, items before it smaller ones.
  func position(of cursor: String, parameter: String) throws -> Int {
    if cursor == Self.start { return -1 }
    if cursor == Self.end { return items.count }
    guard let index = items.firstIndex(where: { $0.cursor == cursor }) else {
      throw Refusal.invalid(parameter: parameter)
    }
    return index
  }

  func page(for query: JSONAPIQuery) throws -> String {
    if !query.sort.isEmpty { throw Refusal.unsupportedSort }
    var size: Int?
    if let text = query.page["size"] {
      // The profile: `^[0-9]+$`, a positive integer.
      guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
        throw Refusal.invalid(parameter: "page[size]")
      }
      guard let value = Int(text) else { throw Refusal.maxSizeExceeded(maxSize: maxSize) }
      guard value > 0 else { throw Refusal.invalid(parameter: "page[size]") }
      guard value <= maxSize else { throw Refusal.maxSizeExceeded(maxSize: maxSize) }
      size = value
    }
    let after = try query.page["after"].map { try position(of: $0, parameter: "page[after]") }
    let before = try query.page["before"].map { try position(of: $0, parameter: "page[before]") }
    var truncated = false
    let selected: Range<Int>
    switch (after, before) {
    case (let after?, let before?):
      guard supportsRange else { throw Refusal.rangeNotSupported }
      // A range's used size defaults to the maximum size.
      let used = size ?? maxSize
      let range = (after + 1)..<max(after + 1, before)
      truncated = range.count > used
      selected = range.lowerBound..<(range.lowerBound + min(used, range.count))
    case (let after?, nil):
      let from = min(after + 1, items.count)
      selected = from..<min(items.count, from + (size ?? defaultSize))
    case (nil, let before?):
      let upTo = max(0, min(before, items.count))
      selected = max(0, upTo - (size ?? defaultSize))..<upTo
    case (nil, nil):
      selected = 0..<min(items.count, size ?? defaultSize)
    }
    let sentSize = query.page["size"]
    func link(_ member: String?, _ cursor: String?) -> String {
      var target = query
      target.page = [:]
      if let member, let cursor { target.page[member] = cursor }
      if let sentSize { target.page["size"] = sentSize }
      let text = target.percentEncodedQuery
      return "\"" + path + (text.isEmpty ? "" : "?" + text) + "\""
    }
    var next = "null"
    var prev = "null"
    if let last = selected.last, before != nil || last + 1 < items.count {
      next = link("after", items[last].cursor)
    }
    if let first = selected.first, after != nil || first > 0 {
      prev = link("before", items[first].cursor)
    }
    let data = selected.map { index in
      #"{"type":"\#(type)","id":"\#(items[index].id)","meta":{"page":{"cursor":"\#(items[index].cursor)"}}}"#
    }
    var page: [String] = []
    if truncated { page.append(#""rangeTruncated":true"#) }
    if sendsTotal { page.append(#""total":\#(items.count)"#) }
    let links =
      #""first":\#(link(nil, nil)),"last":\#(link("before", Self.end)),"prev":\#(prev),"next":\#(next)"#
    return #"""
      {"data":[\#(data.joined(separator: ","))],"links":{\#(links)},\#
      "meta":{"page":{\#(page.joined(separator: ","))}}}
      """#
  }
}
