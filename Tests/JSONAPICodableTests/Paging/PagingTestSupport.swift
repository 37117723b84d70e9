import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// The Cursor Pagination profile's example data: results 1, 5, 7, 8 and 9 of type `examples`, and
/// the cursors its examples name (`abcde` falls on 5, `yyy` on 7, `zzz` on 8, `xxx` on 9). The
/// profile names no cursor for 1; `vvv` is ours.
enum ProfileExampleData {
  static let ids = ["1", "5", "7", "8", "9"]
  static let cursors = ["1": "vvv", "5": "abcde", "7": "yyy", "8": "zzz", "9": "xxx"]

  struct Example: Encodable {
    var id: String
    var type = "examples"
    var meta: JSONAPIValue
  }

  /// Answers `GET target` as a server following the profile would, with `paging`: the slice
  /// `page(for:)` asks for, the links and meta of `response(for:…)`, item cursors in each item's
  /// `meta.page.cursor`. Returns the document, checked for JSON:API compliance, as a value.
  static func serve(
    _ target: String, paging: JSONAPIPaging, total: Int? = nil, name: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> JSONAPIValue {
    let query = try JSONAPIQuery(parsing: String(target.drop { $0 != "?" }))
    let page = try paging.page(for: query)
    var start = 0
    var end = ids.count
    if let after = page.after {
      start = try index(of: after, member: "after") + 1
    }
    if let before = page.before {
      end = try index(of: before, member: "before")
    }
    let window = start < end ? Array(ids[start..<end]) : []
    // `page[before]` alone reads backwards: the last `size` items before the cursor. Otherwise,
    // ranges included, the first `size` items after the start.
    let items =
      page.before != nil && page.after == nil
      ? Array(window.suffix(page.size)) : Array(window.prefix(page.size))
    let itemCursors = items.map { cursors[$0] ?? "" }
    let paged = paging.response(
      for: page, target: target, cursors: itemCursors, count: items.count,
      hasMore: window.count > items.count, total: total)
    let document = JSONAPIDocument(
      data: zip(items, itemCursors).map {
        Example(id: $0.0, meta: JSONAPIPaging.itemMeta(cursor: $0.1))
      },
      meta: paged.meta, links: paged.links)
    let encoder = JSONAPIEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try checked(
      try encoder.encode(document), name: name, kind: .response, sourceLocation: sourceLocation)
  }

  private static func index(of cursor: String, member: String) throws -> Int {
    guard let id = cursors.first(where: { $0.value == cursor })?.key,
      let index = ids.firstIndex(of: id)
    else {
      throw JSONAPIPagingError.invalidValue(
        parameter: "page[\(member)]", value: cursor, reason: "it is not a cursor of this list")
    }
    return index
  }
}

/// Checks that `actual` is the link `expected` (compared by path and parsed query, since ours
/// percent-encode the brackets the profile writes raw), or `null` when `expected` is `nil`.
func expectLink(
  _ actual: JSONAPIValue?, _ expected: String?, _ name: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard let expected else {
    #expect(actual == .null, "\(name) must be null", sourceLocation: sourceLocation)
    return
  }
  guard let href = actual?.stringValue else {
    Issue.record("\(name): no link, expected \(expected)", sourceLocation: sourceLocation)
    return
  }
  #expect(
    sameTarget(href, expected), "\(name): \(href) is not \(expected)",
    sourceLocation: sourceLocation)
}

/// Whether two request targets have the same path and the same parsed query.
func sameTarget(_ first: String, _ second: String) -> Bool {
  func split(_ target: String) -> (Substring, JSONAPIQuery?) {
    let path = target.prefix { $0 != "?" }
    return (path, try? JSONAPIQuery(parsing: String(target.dropFirst(path.count))))
  }
  let (firstPath, firstQuery) = split(first)
  let (secondPath, secondQuery) = split(second)
  return firstPath == secondPath && firstQuery != nil && firstQuery == secondQuery
}

/// The error object `error` is answered with, encoded and read back as a value, after checking that
/// its error document is JSON:API and that the decoder reads it back as an error document.
func errorDocument(
  _ error: any Error, name: String, sourceLocation: SourceLocation = #_sourceLocation
) throws -> JSONAPIValue {
  let object = JSONAPIErrorObject(describing: error)
  let body = try JSONAPIEncoder().encode(errors: [object])
  let document = try checked(body, name: name, kind: .response, sourceLocation: sourceLocation)
  do {
    _ = try JSONAPIDecoder().decode(JSONAPIValue.self, from: body)
    Issue.record("\(name): not read as an error document", sourceLocation: sourceLocation)
  } catch JSONAPIError.errorDocument(let read) {
    #expect(read.errors == [object], "\(name): read back", sourceLocation: sourceLocation)
  }
  return document["errors"]?[0] ?? .null
}

/// The error `body` throws, or `nil` when it returns. (`#expect(throws:)` returns the error only
/// from Swift 6.1 on.)
func thrown(_ body: () throws -> Any) -> (any Error)? {
  do {
    _ = try body()
    return nil
  } catch {
    return error
  }
}
