import Foundation

/// One fuzz input read as the HTTP/1.1 request a stranger sends to a JSON:API server:
///
///     PATCH /articles/1?include=author HTTP/1.1
///     Accept: application/vnd.api+json
///     Content-Type: application/vnd.api+json
///
///     {"data": {"type": "articles", "id": "1", "attributes": {"title": "New"}}}
///
/// The request line gives the method and the target (path and raw query); header lines run to the
/// first empty line, and everything after it is the body. Lines end with LF or CRLF. A header
/// block that never ends leaves no body; a header line without `:` is skipped, as servers drop
/// what they cannot read. Text that is not UTF-8 reads with U+FFFD in its place, as a framework
/// that hands out `String`s gives it. The seeds in `Fuzz/seeds-server/` are written this way, so
/// mutations keep the parts apart and the corpus stays readable.
struct FuzzRequest {
  var method: String
  /// The request target as sent: origin form (`/articles?sort=-title`) or absolute form.
  var target: String
  /// Header fields in the order received, names as sent.
  var headers: [(name: String, value: String)]
  var body: Data

  var hasBody: Bool { !body.isEmpty }

  init(_ bytes: [UInt8]) {
    var lineStart = 0
    var lines: [ArraySlice<UInt8>] = []
    var bodyStart: Int?
    var index = 0
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "\n") else {
        index += 1
        continue
      }
      var line = bytes[lineStart..<index]
      if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
      index += 1
      lineStart = index
      // The first empty line after the request line ends the header block.
      if line.isEmpty, !lines.isEmpty {
        bodyStart = index
        break
      }
      lines.append(line)
    }
    if bodyStart == nil, lineStart < bytes.count { lines.append(bytes[lineStart...]) }

    let requestLine = lines.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
    let words = requestLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    method = words.first.map(String.init) ?? ""
    target = words.count > 1 ? String(words[1]) : ""
    headers = lines.dropFirst().compactMap { line in
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
      let name = String(decoding: line[..<colon], as: UTF8.self)
      let value = String(decoding: line[(colon + 1)...], as: UTF8.self)
      // HTTP's optional whitespace around a field value (RFC 9110 §5.5), which servers drop.
      return (name, String(value.trimmingSpacesAndTabs()))
    }
    body = bodyStart.map { Data(bytes[$0...]) } ?? Data()
  }

  /// The raw query: after the first `?` of the target, up to its first `#`; `nil` without `?`.
  /// Split at bytes, as a server splits a request target: a combining mark after `?` or `#`
  /// does not hide it.
  var rawQuery: Substring? {
    let bytes = Substring(target).utf8
    let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
    guard let mark = bytes[..<end].firstIndex(of: UInt8(ascii: "?")) else { return nil }
    return Substring(bytes[bytes.index(after: mark)..<end])
  }

  /// The target before its query and fragment.
  var path: Substring {
    let bytes = Substring(target).utf8
    let end = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
    return Substring(bytes[..<(end ?? bytes.endIndex)])
  }

  /// The path's segments, percent-decoded where they decode: `/articles/1/relationships/tags` →
  /// `["articles", "1", "relationships", "tags"]`. An absolute-form target loses its scheme and
  /// authority first.
  var pathSegments: [String] {
    var path = self.path
    if let scheme = path.range(of: "://") {
      path = path[scheme.upperBound...].drop { $0 != "/" }
    }
    return path.utf8.split(separator: UInt8(ascii: "/")).map { bytes in
      let segment = Substring(bytes)
      return segment.removingPercentEncoding ?? String(segment)
    }
  }

  /// The values of every header field called `name`, ignoring ASCII case.
  func values(of name: String) -> [String] {
    headers.filter { $0.name.lowercasedASCII() == name }.map(\.value)
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs.
  func trimmingSpacesAndTabs() -> SubSequence {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = firstIndex(where: { !isSpace($0) }),
      let last = lastIndex(where: { !isSpace($0) })
    else { return self[endIndex...] }
    return self[first...last]
  }

  /// Lower-cases ASCII letters only, as HTTP compares field names and media type tokens.
  func lowercasedASCII() -> String {
    String(
      decoding: utf8.map { (65...90).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
  }
}
