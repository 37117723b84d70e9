import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// The links property of issue 30: for seeded random requests (other parameters with odd
/// characters, encoded or raw, in any order around the `page` members; random page values and
/// store answers), every link `response(for:…)` builds parses back with `JSONAPIQuery(parsing:)`
/// to the request's query with only `page` members changed, keeps every other parameter byte for
/// byte and in order, and is a request `page(for:)` accepts.
@Suite struct PagingLinkPropertyTests {
  static let seeds: [UInt64] = [1, 2, 3, 0x5EED, 0xDEAD_BEEF]
  static let requestsPerSeed = 400

  /// Raw (as a client may send them) spellings of parameters that are not `page[…]`.
  static func otherParameter(_ random: inout Generator) -> String {
    let oddValues = [
      "a+b", "a%20b", "%E2%9C%93", "%F0%9F%98%80", "caf%C3%A9", "x,y", "%2C", "%26", "%3D",
      "%25", "100%", "%zz", "[raw]", "%5Benc%5D", "", "~-._", "%2B", "é", "a/b?c", "'\"",
    ]
    let value = random.pick(oddValues) + (random.bool(0.3) ? random.pick(oddValues) : "")
    switch random.int(0...9) {
    case 0: return "include=" + random.pick(["author", "comments.author", "author,tags"])
    case 1: return "sort=" + random.pick(["-title", "title,-id", "a.b"])
    case 2:
      return random.pick(["fields[people]=", "fields%5Bpeople%5D=", "fields[x%20y]="])
        + random.pick(["name", "name,age", ""])
    case 3:
      return random.pick(["filter[", "filter%5B", "filter%5b"]) + "k\(random.int(0...99))"
        + random.pick(["]", "%5D", "%5d"]) + "=" + value
    case 4: return "filter=" + value
    case 5:
      return random.pick(["page[]=", "page%5B%5D=", "page[a][b]=", "pages=", "page="]) + value
    case 6: return "x-\(random.int(0...99))" + (random.bool() ? "=" + value : "")
    case 7: return random.pick(["ext:p", "camelCase", "%F0%9F%98%80", "a+b"]) + "=" + value
    case 8: return "filter[a][b]=" + value
    default: return "q\(random.int(0...999))=" + value
    }
  }

  /// A raw `page[member]=value` with the name spelled raw or encoded.
  static func pageParameter(_ member: String, _ value: String, _ random: inout Generator) -> String
  {
    let name = random.pick(["page[\(member)]", "page%5B\(member)%5D", "page%5b\(member)%5d"])
    return name + "=" + value
  }

  static func sizeText(_ random: inout Generator, max: Int) -> String {
    switch random.int(0...5) {
    case 0: return String(random.int(1...max))
    case 1: return "0" + String(random.int(1...max))
    case 2: return String(max)
    case 3: return "1"
    default: return String(random.int(1...max))
    }
  }

  static func cursorText(_ random: inout Generator) -> String {
    random.pick(["c1", "abc%20def", "%E2%9C%93", "a+b", "x%26y%3Dz", "%5Bc%5D", "==", "~"])
      + String(random.int(0...9))
  }

  /// A random request target for `paging` and its raw `page` parameters.
  static func target(for paging: JSONAPIPaging, _ random: inout Generator) -> String {
    var page: [String] = []
    let max = paging.maxSize
    switch (paging.pageMembers.contains("after"), paging.pageMembers.contains("number")) {
    case (true, _):
      if random.bool(0.6) {
        page.append(pageParameter("size", sizeText(&random, max: max), &random))
      }
      if random.bool(0.5) { page.append(pageParameter("after", cursorText(&random), &random)) }
      if random.bool(0.5) { page.append(pageParameter("before", cursorText(&random), &random)) }
    case (false, true):
      if random.bool(0.7) {
        page.append(
          pageParameter("number", String(random.pick([1, 2, 3, 50, 2_147_483_647])), &random))
      }
      if random.bool(0.6) {
        page.append(pageParameter("size", sizeText(&random, max: max), &random))
      }
    default:
      if random.bool(0.7) {
        page.append(
          pageParameter("offset", String(random.pick([0, 1, 9, 10, 2_147_483_000])), &random))
      }
      if random.bool(0.6) {
        page.append(pageParameter("limit", sizeText(&random, max: max), &random))
      }
    }
    var parameters = (0..<random.int(0...5)).map { _ in otherParameter(&random) } + page
    parameters.shuffle(using: &random.random)
    // Empty pieces (`&&`) carry nothing; the parser skips them.
    if random.bool(0.2) { parameters.insert("", at: random.int(0...parameters.count)) }
    let base = random.pick(["/articles", "https://api.example.com/v1/people", "/a%20b/c", ""])
    return parameters.isEmpty && random.bool()
      ? base : base + "?" + parameters.joined(separator: "&")
  }

  /// The raw parameters of `target` that are not `page[member]`, in order.
  static func otherRawParameters(_ target: String) -> [Substring] {
    guard let question = target.firstIndex(of: "?") else { return [] }
    return target[target.index(after: question)...].split(separator: "&").filter { piece in
      let name = piece.prefix { $0 != "=" }
      if case .page = QueryParameterName(QueryPercentEncoding.decode(name)) { return false }
      return true
    }
  }

  @Test(arguments: seeds)
  func linksKeepTheRequestExceptItsPage(seed: UInt64) throws {
    var random = Generator(seed: seed)
    let strategies: [JSONAPIPaging] = [
      .cursor(defaultSize: 3, maxSize: 25, allowsRangePagination: true),
      .pageNumber(defaultSize: 10, maxSize: 50),
      .offset(defaultLimit: 20, maxLimit: 100),
    ]
    var checkedLinks = 0
    var skipped = 0
    for _ in 0..<Self.requestsPerSeed {
      let paging = random.pick(strategies)
      let target = Self.target(for: paging, &random)
      let path = target.prefix { $0 != "?" }
      // A request the parser refuses (a duplicate, say) never reaches the paging helper.
      guard let query = try? JSONAPIQuery(parsing: String(target.dropFirst(path.count))) else {
        skipped += 1
        continue
      }
      let page = try paging.page(for: query)
      let count = random.int(0...page.size)
      let cursors = (0..<count).map { _ in Self.cursorText(&random) }
      let response = paging.response(
        for: page, target: target, cursors: cursors, count: count, hasMore: random.bool(),
        total: random.bool() ? random.int(0...10_000) : nil)
      let others = Self.otherRawParameters(target)
      var requestWithoutPage = query
      requestWithoutPage.page = [:]
      for name in response.links.names {
        let href = try #require(response.links[name]?.href)
        let context = "seed \(seed): \(target) → \(name) \(href)"
        #expect(href.prefix { $0 != "?" } == path, "\(context)")
        let linked = try JSONAPIQuery(parsing: String(href.dropFirst(path.count)))
        var linkedWithoutPage = linked
        linkedWithoutPage.page = [:]
        #expect(linkedWithoutPage == requestWithoutPage, "\(context)")
        #expect(Set(linked.page.keys).isSubset(of: paging.pageMembers), "\(context)")
        #expect(Self.otherRawParameters(href) == others, "\(context)")
        // A link is a request the strategy accepts.
        #expect(throws: Never.self, "\(context)") { try paging.page(for: linked) }
        if name == "self" { #expect(linked == query, "\(context)") }
        checkedLinks += 1
      }
      if paging.appliesCursorPaginationProfile {
        #expect(
          Set(response.links.names + response.links.nullNames).isSuperset(of: ["prev", "next"]))
      }
    }
    #expect(checkedLinks > Self.requestsPerSeed * 2)
    #expect(skipped < Self.requestsPerSeed / 4, "too many requests the parser refused")
  }
}
