import Foundation
import JSONAPIServer

// The query string: parsed by each overload of `JSONAPIQuery(parsing:)`, which must agree; a
// parsed query re-renders to text that parses back to it and renders the same again; every rule
// set validates it, and each failure names a parameter the client sent.

enum QueryChecks {
  /// Limits that never stop a re-render from parsing back: percent-encoding makes text longer,
  /// and a link adds the base URL's own parameters.
  static let roomyLimits = JSONAPIQuery.ParsingLimits(maxQueryLength: .max, maxParameters: .max)

  /// What three kinds of endpoint support: nothing but the defaults, a rich collection endpoint,
  /// and one that supports no paging, no filter and only `include=`.
  static let ruleSets: [JSONAPIQueryRules] = [
    JSONAPIQueryRules(),
    JSONAPIQueryRules(
      includePaths: ["author", "comments.author", "tags"],
      sortFields: ["title", "publishedAt", "author.name"],
      fieldsets: [
        "articles": ["title", "body", "author", "comments", "tags"], "people": ["name", "age"],
      ],
      pageMembers: ["number", "size", "offset", "limit", "after", "before"], maxPageSize: 50,
      filterMembers: ["tag", "author.name", "id"], additionalParameters: ["camelCase", "ext:param"]),
    JSONAPIQueryRules(
      includePaths: [], pageMembers: [], filterMembers: [], additionalParameters: ["filter"]),
  ]

  /// Parses and checks the request's query; the parsed query when parsing succeeded.
  static func run(_ request: FuzzRequest, _ failures: inout Failures) -> JSONAPIQuery? {
    let raw = request.rawQuery ?? ""
    let parsed = Result { try JSONAPIQuery(parsing: String(raw)) }
    if raw.utf8.first != UInt8(ascii: "?") {
      let withMark = Result { try JSONAPIQuery(parsing: "?" + raw) }
      if !agree(parsed, withMark, toleratingLimits: false) {
        report("a leading `?` changed the parse: \(parsed) vs \(withMark)", request: request)
      }
    }
    let decodedItems = formDecodedItems(raw)
    if let items = decodedItems {
      let viaItems = Result { try JSONAPIQuery(parsing: items) }
      if !agree(parsed, viaItems, toleratingLimits: true) {
        report("the [URLQueryItem] overload disagrees: \(parsed) vs \(viaItems)", request: request)
      }
    }
    if let components = URL(jsonAPIReference: request.target).flatMap({
      URLComponents(url: $0, resolvingAgainstBaseURL: false)
    }) {
      let viaComponents = Result { try JSONAPIQuery(parsing: components) }
      if !agree(parsed, viaComponents, toleratingLimits: true) {
        report(
          "the URLComponents overload (query \(components.percentEncodedQuery ?? "nil")) "
            + "disagrees: \(parsed) vs \(viaComponents)", request: request)
      }
    }

    let query: JSONAPIQuery
    switch parsed {
    case .success(let value):
      query = value
    case .failure(let error):
      failures.answer(error, "JSONAPIQuery(parsing:)", request: request)
      if let error = error as? JSONAPIQueryError, let name = error.parameter,
        let items = decodedItems, !items.contains(where: { $0.name == name })
      {
        report("\(error) names `\(name)`, which the query does not have", request: request)
      }
      return nil
    }
    reRender(query, request)
    for rules in ruleSets {
      do {
        try rules.validate(query)
      } catch {
        failures.answer(error, "JSONAPIQueryRules.validate", request: request)
        let name = (error as? JSONAPIQueryError)?.parameter
        if name.map({ name in !query.queryItems.contains { $0.name == name } }) ?? true {
          report("validate threw \(error), which names no parameter sent", request: request)
        }
      }
    }
    return query
  }

  /// The re-render property, through every way the library gives the query out.
  static func reRender(_ query: JSONAPIQuery, _ request: FuzzRequest) {
    let text = query.percentEncodedQuery
    let again: JSONAPIQuery
    do {
      again = try JSONAPIQuery(parsing: text, limits: roomyLimits)
    } catch {
      report("the re-rendered query `\(text)` does not parse: \(error)", request: request)
    }
    if again != query {
      report("`\(text)` parses back to \(again), not \(query)", request: request)
    }
    let secondText = again.percentEncodedQuery
    if !secondText.utf8.elementsEqual(text.utf8) {
      report("re-rendering changed `\(text)` into `\(secondText)`", request: request)
    }
    if (try? JSONAPIQuery(parsing: query.queryItems, limits: roomyLimits)) != query {
      report("the queryItems of \(query) do not parse back to it", request: request)
    }
    var components = URLComponents()
    components.percentEncodedQueryItems = query.percentEncodedQueryItems
    if (try? JSONAPIQuery(parsing: components, limits: roomyLimits)) != query {
      report("percentEncodedQueryItems of \(query) do not parse back to it", request: request)
    }
    // The links a server writes: the query on its own base URL.
    let base = URL(string: "https://api.example.com/articles?camelCase=1")
    if let base, let url = query.url(relativeTo: base) {
      let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
      let back = components.flatMap { try? JSONAPIQuery(parsing: $0, limits: roomyLimits) }
      let expected = JSONAPIQuery().adding("camelCase", "1")
      let rest = back.map { query in
        var rest = query
        rest.additionalParameters.removeFirst(min(1, rest.additionalParameters.count))
        return rest
      }
      if back?.additionalParameters.first != expected.additionalParameters.first || rest != query {
        report("url(relativeTo:) gave \(url), which does not parse back", request: request)
      }
    } else {
      report("url(relativeTo:) failed for \(query)", request: request)
    }
  }

  /// The query's parameters decoded as form data by Foundation (`+` a space, `%XX` a byte), for
  /// the `[URLQueryItem]` overload; `nil` when Foundation cannot decode one (a stray `%`, bytes
  /// that are not UTF-8), which the library reads leniently instead.
  static func formDecodedItems(_ raw: Substring) -> [URLQueryItem]? {
    var text = raw.utf8
    if text.first == UInt8(ascii: "?") { text = text.dropFirst() }
    var items: [URLQueryItem] = []
    for pair in text.split(separator: UInt8(ascii: "&")) {
      let name: Substring
      let value: Substring?
      if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
        name = Substring(pair[..<equals])
        value = Substring(pair[pair.index(after: equals)...])
      } else {
        name = Substring(pair)
        value = nil
      }
      guard let decodedName = formDecode(name) else { return nil }
      if let value {
        guard let decodedValue = formDecode(value) else { return nil }
        items.append(URLQueryItem(name: decodedName, value: decodedValue))
      } else {
        items.append(URLQueryItem(name: decodedName, value: nil))
      }
    }
    return items
  }

  /// `+` is replaced byte by byte: a `+` followed by a combining mark is one `Character` with
  /// it, so a `String`-level replacement would miss it.
  static func formDecode(_ text: Substring) -> String? {
    let spaced = text.utf8.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }
    return String(decoding: spaced, as: UTF8.self).removingPercentEncoding
  }

  /// Whether two parses agree: the same query or the same error. With `toleratingLimits`, a
  /// size limit on the whole query may stop one and not the other, since the overloads measure
  /// encoded and decoded text.
  static func agree(
    _ left: Result<JSONAPIQuery, any Error>, _ right: Result<JSONAPIQuery, any Error>,
    toleratingLimits: Bool
  ) -> Bool {
    func isWholeQueryLimit(_ result: Result<JSONAPIQuery, any Error>) -> Bool {
      guard toleratingLimits, case .failure(let error) = result,
        case .limitExceeded(nil, _) = error as? JSONAPIQueryError
      else { return false }
      return true
    }
    if isWholeQueryLimit(left) || isWholeQueryLimit(right) { return true }
    switch (left, right) {
    case (.success(let left), .success(let right)):
      return left == right
    case (.failure(let left as JSONAPIQueryError), .failure(let right as JSONAPIQueryError)):
      return left == right
    default:
      return false
    }
  }
}
