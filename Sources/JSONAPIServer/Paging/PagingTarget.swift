/// A request target split for pagination links: what comes before the query, the parameters that
/// are not `page[…]` exactly as received, and the `page` members as sent (decoded).
///
/// Links keep every other parameter byte for byte and in order (a client's own encoding, even raw
/// brackets, is its business), and write the `page` members where the first one stood, encoded
/// as `JSONAPIQuery` encodes them, so that each link parses back to the request's query with
/// only its `page` members changed.
struct PagingTarget {
  /// The path, or the absolute URL without its query.
  let base: Substring
  /// Non-`page` parameters before the first `page` one.
  let leading: [Substring]
  /// Non-`page` parameters after the first `page` one (or none when there is no `page` one).
  let trailing: [Substring]
  /// The request's `page` members and their values, decoded.
  let page: [String: String]

  init(_ target: String) {
    // Bytes, never Characters, as `JSONAPIQuery(parsing:)` splits (R72): a combining mark after
    // `#`, `?`, `&` or `=` makes one Character with it and would hide the separator.
    let bytes = Substring(target).utf8
    // A fragment never reaches a server; if one is there, it is no part of the query.
    let withoutFragment = bytes[..<(bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex)]
    guard let question = withoutFragment.firstIndex(of: UInt8(ascii: "?")) else {
      base = Substring(withoutFragment)
      leading = []
      trailing = []
      page = [:]
      return
    }
    base = Substring(withoutFragment[..<question])
    var leading: [Substring] = []
    var trailing: [Substring] = []
    var page: [String: String] = [:]
    var seenPage = false
    var query = withoutFragment[withoutFragment.index(after: question)...]
    // `JSONAPIQuery(parsing:)` drops one leading `?` (`/a??x=1`): read the parameters as it does.
    if query.first == UInt8(ascii: "?") { query = query.dropFirst() }
    for parameter in query.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
      let equals = parameter.firstIndex(of: UInt8(ascii: "="))
      let name = QueryPercentEncoding.decode(
        Substring(parameter[..<(equals ?? parameter.endIndex)]))
      // Decoded as `JSONAPIQuery(parsing:)` decodes it, so that the two agree on what is `page`.
      if case .page(let member) = QueryParameterName(name) {
        seenPage = true
        if page[member] == nil {
          page[member] =
            equals.map {
              QueryPercentEncoding.decode(Substring(parameter[parameter.index(after: $0)...]))
            } ?? ""
        }
      } else if seenPage {
        trailing.append(Substring(parameter))
      } else {
        leading.append(Substring(parameter))
      }
    }
    self.leading = leading
    self.trailing = trailing
    self.page = page
  }

  /// The target with `members` as its `page` parameters.
  func link(_ members: [String: String]) -> JSONAPILink {
    let encoded = JSONAPIQuery(page: members).percentEncodedQuery
    var parameters = leading
    if !encoded.isEmpty { parameters.append(Substring(encoded)) }
    parameters += trailing
    guard !parameters.isEmpty else { return JSONAPILink(href: String(base)) }
    let query = parameters.joined(separator: "&")
    // A query that starts with `?` loses it when read back (see `init`): keep it with another.
    return JSONAPILink(href: base + (query.utf8.first == UInt8(ascii: "?") ? "??" : "?") + query)
  }
}
