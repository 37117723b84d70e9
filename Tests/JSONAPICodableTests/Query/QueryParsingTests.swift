import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

@Suite struct QueryParsingTests {
  @Test func parsesEveryFamilyFromTheIssueExample() throws {
    let query = try JSONAPIQuery(
      parsing: "?include=author,comments.author&fields%5Barticles%5D=title,author"
        + "&sort=-publishedAt,title&page%5Bnumber%5D=2&page%5Bsize%5D=20&filter%5Btag%5D=swift"
        + "&camelCase=yes&flag")
    #expect(query.include == ["author", "comments.author"])
    #expect(query.fields == ["articles": ["title", "author"]])
    #expect(query.sort == [.descending("publishedAt"), .ascending("title")])
    #expect(query.page == ["number": "2", "size": "20"])
    #expect(query.filter == ["tag": "swift"])
    #expect(
      query.additionalParameters == [
        URLQueryItem(name: "camelCase", value: "yes"), URLQueryItem(name: "flag", value: nil),
      ])
  }

  // R72: brackets encoded or not are the same parameter; `+` is a space (form encoding).
  @Test func unencodedBracketsAndPlusAreReadAsWHATWGDoes() throws {
    let query = try JSONAPIQuery(parsing: "fields[people]=name&filter[q]=a+b%2Bc%zz")
    #expect(query.fields == ["people": ["name"]])
    #expect(query.filter == ["q": "a b+c%zz"])
  }

  // R67, R68 (1.1): an empty value asks for nothing.
  @Test func emptyIncludeAndFieldsAreEmptyLists() throws {
    let query = try JSONAPIQuery(parsing: "include=&fields%5Bpeople%5D=")
    #expect(query.include == [])
    #expect(query.fields == ["people": []])
  }

  @Test func queryItemsAndComponentsParseAlike() throws {
    let fromItems = try JSONAPIQuery(parsing: [
      URLQueryItem(name: "include", value: "author"),
      URLQueryItem(name: "fields[articles]", value: "title"),
    ])
    let components = try #require(
      URLComponents(
        string: "https://example.com/articles?include=author&fields%5Barticles%5D=title"))
    #expect(try JSONAPIQuery(parsing: components) == fromItems)
    #expect(try JSONAPIQuery(parsing: "include=author&fields%5Barticles%5D=title") == fromItems)
  }

  // R66-R69: the syntax errors name the parameter.
  @Test(arguments: [
    ("include=author,,comments", "include"),
    ("include=comments..author", "include"),
    ("sort=title,-", "sort"),
    ("sort=,title", "sort"),
    ("fields=title", "fields"),
    ("fields%5B%5D=title", "fields[]"),
    ("fields%5Bpeople%5D=name,,age", "fields[people]"),
    ("include%5Bx%5D=author", "include[x]"),
    ("sort[a][b]=x", "sort[a][b]"),
  ])
  func malformedParametersThrowWithTheirName(query: String, name: String) {
    #expect(throws: JSONAPIQueryError.self) { try JSONAPIQuery(parsing: query) }
    do {
      _ = try JSONAPIQuery(parsing: query)
    } catch let error as JSONAPIQueryError {
      #expect(error.parameter == name)
      guard case .malformedParameter = error else {
        Issue.record("expected malformedParameter, got \(error)")
        return
      }
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func repeatedJSONAPIParametersAreRefused() {
    #expect(throws: JSONAPIQueryError.duplicateParameter(name: "include")) {
      try JSONAPIQuery(parsing: "include=a&include=b")
    }
    #expect(throws: JSONAPIQueryError.duplicateParameter(name: "page[size]")) {
      try JSONAPIQuery(parsing: "page[size]=1&page%5Bsize%5D=2")
    }
    // Implementation-specific parameters may repeat.
    #expect(throws: Never.self) { try JSONAPIQuery(parsing: "tagId=1&tagId=2") }
  }

  // Hostile input: every bound is checked before the work it bounds.
  @Test func limitsBoundTheWork() {
    let limits = JSONAPIQuery.ParsingLimits(
      maxQueryLength: 200, maxParameters: 3, maxIncludePaths: 2, maxIncludeDepth: 2,
      maxSortFields: 2, maxFieldsPerType: 2)
    let cases: [(String, JSONAPIQueryError)] = [
      (String(repeating: "a", count: 201), .limitExceeded(name: nil, limit: 200)),
      ("a&b&c&d", .limitExceeded(name: nil, limit: 3)),
      ("include=a,b,c", .limitExceeded(name: "include", limit: 2)),
      ("include=a.b.c", .limitExceeded(name: "include", limit: 2)),
      ("sort=a,b,c", .limitExceeded(name: "sort", limit: 2)),
      ("fields%5Bx%5D=a,b,c", .limitExceeded(name: "fields[x]", limit: 2)),
    ]
    for (query, expected) in cases {
      #expect(throws: expected) { try JSONAPIQuery(parsing: query, limits: limits) }
    }
    let items = (0..<4).map { URLQueryItem(name: "p\($0)", value: nil) }
    #expect(throws: JSONAPIQueryError.limitExceeded(name: nil, limit: 3)) {
      try JSONAPIQuery(parsing: items, limits: limits)
    }
  }

  @Test func aHugeHostileQueryIsRefusedQuickly() {
    let hostile = "include=" + String(repeating: "a.", count: 100_000) + "a"
    #expect(throws: JSONAPIQueryError.limitExceeded(name: nil, limit: 8192)) {
      try JSONAPIQuery(parsing: hostile)
    }
  }

  // The property: parsing is the exact inverse of the builder, for 500 seeded random queries.
  @Test func parsingInvertsTheBuilder() throws {
    for seed in UInt64(0)..<500 {
      var generator = Generator(seed: seed)
      let query = Self.randomQuery(&generator)
      let text = query.percentEncodedQuery
      let parsed = try JSONAPIQuery(parsing: text)
      #expect(parsed == query, "seed \(seed): \(text)")
      #expect(parsed.percentEncodedQuery == text, "seed \(seed)")
      #expect(try JSONAPIQuery(parsing: "?" + text) == query, "seed \(seed)")
      #expect(try JSONAPIQuery(parsing: query.queryItems) == query, "seed \(seed)")
    }
  }

  /// A query the builder can write and JSON:API can express: member names without `,` `.` or
  /// brackets where the syntax uses them; values of any text.
  static func randomQuery(_ generator: inout Generator) -> JSONAPIQuery {
    func name(_ generator: inout Generator) -> String {
      let alphabet = Array("abcXYZ09_-é中😀 +&=%~")
      let count = generator.int(1...6)
      var text = ""
      for _ in 0..<count { text.append(generator.pick(alphabet)) }
      return text
    }
    func path(_ generator: inout Generator) -> String {
      generator.array(1...3) { name(&$0) }.joined(separator: ".")
    }
    var query = JSONAPIQuery()
    if generator.bool() { query.include = generator.array(0...4) { path(&$0) } }
    for _ in 0..<generator.int(0...3) {
      query.fields[name(&generator)] = generator.array(0...4) { name(&$0) }
    }
    query.sort = generator.array(0...3) {
      // A leading `-` is the descending marker, so a field never starts with one.
      JSONAPIQuery.SortField(field: "s" + path(&$0), isDescending: $0.bool())
    }
    for _ in 0..<generator.int(0...3) { query.page[name(&generator)] = generator.string() }
    for _ in 0..<generator.int(0...3) { query.filter[path(&generator)] = generator.string() }
    for _ in 0..<generator.int(0...2) {
      let value: String? = generator.bool(0.2) ? nil : generator.string()
      query.additionalParameters.append(
        URLQueryItem(
          name: "x" + name(&generator).replacingOccurrences(of: "[", with: ""), value: value))
    }
    return query
  }
}

extension QueryParsingTests {
  // Hostile input: random query strings over the characters that matter either parse or throw a
  // JSONAPIQueryError, and a parsed query validates or throws one too. Never anything else.
  @Test func randomQueryStringsParseOrThrowQueryErrors() {
    let alphabet = Array("include=fields[]%5B%5Dsortpagefilter&,.-+ab%zz\u{0}é")
    let rules = JSONAPIQueryRules(includePaths: ["a.b"], sortFields: ["a"])
    for seed in UInt64(0)..<2000 {
      var generator = Generator(seed: seed)
      var text = ""
      for _ in 0..<generator.int(0...60) { text.append(generator.pick(alphabet)) }
      do {
        try rules.validate(JSONAPIQuery(parsing: text))
      } catch is JSONAPIQueryError {
      } catch {
        Issue.record("seed \(seed): \(error)")
      }
    }
  }
}
