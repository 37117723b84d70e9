import Foundation
import Testing

@testable import JSONAPICodable

@Suite struct JSONAPIQueryTests {
  @Test func emptyQuerySendsNothingAndLeavesTheURLAlone() throws {
    let base = try #require(URL(string: "https://api.example.com/articles?x=1"))
    let query = JSONAPIQuery()
    #expect(query.isEmpty)
    #expect(query.percentEncodedQuery == "")
    #expect(query.queryItems.isEmpty)
    #expect(query.url(relativeTo: base) == base)
  }

  // R67, R68, R69, R124: commas separate list items, dots separate path segments, both unencoded.
  @Test func listValuesKeepCommasAndDots() {
    let query = JSONAPIQuery()
      .including("author", "comments.author")
      .fields("articles", ["title", "author"])
      .sorted(by: .descending("publishedAt"), "author.name")
    #expect(
      query.percentEncodedQuery
        == "include=author,comments.author&fields%5Barticles%5D=title,author"
        + "&sort=-publishedAt,author.name")
  }

  // R72, R124: brackets in parameter names are percent-encoded.
  @Test func bracketsInNamesArePercentEncoded() {
    let query = JSONAPIQuery().page(number: 2, size: 20).filter("author.name", "Dana")
    #expect(
      query.percentEncodedQueryItems.map(\.name)
        == ["page%5Bnumber%5D", "page%5Bsize%5D", "filter%5Bauthor.name%5D"])
    #expect(
      query.queryItems.map(\.name) == ["page[number]", "page[size]", "filter[author.name]"])
    #expect(query.queryItems.map(\.value) == ["2", "20", "Dana"])
  }

  @Test func valuesThatWouldSplitTheQueryAreEncoded() {
    let query = JSONAPIQuery().filter("q", "a&b=c+d #e/ü")
    #expect(query.percentEncodedQuery == "filter%5Bq%5D=a%26b%3Dc%2Bd%20%23e%2F%C3%BC")
  }

  @Test func encodedQueryDecodesBackToTheSameParameters() throws {
    let query = JSONAPIQuery()
      .including("comments.author")
      .fields("people", ["name"])
      .sorted(by: "-createdAt")
      .page(offset: 40, limit: 20)
      .filter("tag", ["swift", "server side"])
      .adding("camelCase", "yes")
    let base = try #require(URL(string: "https://api.example.com/articles"))
    let url = try #require(query.url(relativeTo: base))
    let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
    let decoded = try #require(components.queryItems)
    #expect(decoded.map(\.name) == query.queryItems.map(\.name))
    #expect(decoded.map(\.value) == query.queryItems.map(\.value))
    #expect(decoded.first { $0.name == "filter[tag]" }?.value == "swift,server side")
  }

  @Test func parametersComeOutInAFixedOrder() {
    let one = JSONAPIQuery()
      .filter("b", "2").filter("a", "1").fields("z", ["x"]).fields("m", ["y"])
      .page("size", "5").page("number", "1")
    let other = JSONAPIQuery()
      .page("number", "1").fields("m", ["y"]).filter("a", "1").page("size", "5")
      .fields("z", ["x"]).filter("b", "2")
    #expect(one == other)
    #expect(one.percentEncodedQuery == other.percentEncodedQuery)
    #expect(
      one.queryItems.map(\.name)
        == ["fields[m]", "fields[z]", "page[number]", "page[size]", "filter[a]", "filter[b]"])
  }

  // R67, R68 (1.1): an empty value asks for no related resources, or no fields of a type.
  @Test func emptyIncludeAndFieldsAreSentAsEmptyValues() {
    let query = JSONAPIQuery(include: []).fields("articles", [])
    #expect(query.percentEncodedQuery == "include=&fields%5Barticles%5D=")
    #expect(JSONAPIQuery().including([]).percentEncodedQuery == "include=")
  }

  @Test func appendsToAnExistingQuery() throws {
    let base = try #require(URL(string: "https://api.example.com/articles?api%5Bv%5D=2"))
    let url = JSONAPIQuery().including("author").url(relativeTo: base)
    #expect(
      url?.absoluteString == "https://api.example.com/articles?api%5Bv%5D=2&include=author")
  }

  @Test func relativeBaseURLsKeepTheirPath() throws {
    let base = try #require(URL(string: "/articles"))
    let url = JSONAPIQuery().page(number: 3).url(relativeTo: base)
    #expect(url?.absoluteString == "/articles?page%5Bnumber%5D=3")
  }

  @Test func sortFieldLiteralReadsTheMinusPrefix() {
    let descending: JSONAPIQuery.SortField = "-publishedAt"
    #expect(descending == .descending("publishedAt"))
    #expect(descending.isDescending)
    let ascending: JSONAPIQuery.SortField = "title"
    #expect(ascending == .ascending("title"))
    #expect(
      JSONAPIQuery(sort: [descending, ascending]).queryItems.first?.value == "-publishedAt,title")
  }

  @Test func additionalParametersWithoutValueAreWrittenAsNameOnly() {
    let query = JSONAPIQuery().adding("filter", "published").adding("debug", nil)
    #expect(query.percentEncodedQuery == "filter=published&debug")
  }
}
