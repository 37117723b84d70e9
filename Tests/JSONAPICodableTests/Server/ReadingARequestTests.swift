import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

// The DocC article "Reading a request", step by step: each value it says a step gives, and each
// error it says a step throws (R61 negotiation, R67-R75 query parameters, R39-R44 request bodies).
@Suite struct ReadingARequestTests {
  static let queryString =
    "include=author,comments.author&fields%5Barticles%5D=title,author"
    + "&fields%5Bpeople%5D=name&sort=-publishedAt,title&page%5Bnumber%5D=2&page%5Bsize%5D=10"
    + "&filter%5Btag%5D=swift"

  @Test func headers() throws {
    let negotiation = JSONAPIContentNegotiation()
    let mediaType = try negotiation.negotiate(
      headers: ["content-type": "application/vnd.api+json", "accept": "application/vnd.api+json"],
      hasBody: true)
    #expect(mediaType.headerValue == "application/vnd.api+json")
  }

  @Test func theParsedQueryHoldsWhatTheTableSays() throws {
    let query = try JSONAPIQuery(parsing: Self.queryString)
    #expect(query.include == ["author", "comments.author"])
    #expect(query.fields == ["articles": ["title", "author"], "people": ["name"]])
    #expect(query.sort == [.descending("publishedAt"), .ascending("title")])
    #expect(query.page == ["number": "2", "size": "10"])
    #expect(query.filter == ["tag": "swift"])
    #expect(query.additionalParameters.isEmpty)
    #expect(try JSONAPIQuery(parsing: "").include == nil)
    #expect(try JSONAPIQuery(parsing: "include=").include == [])
    let other = try JSONAPIQuery(parsing: "camelCase")
    #expect(other.additionalParameters.map(\.name) == ["camelCase"])
  }

  @Test func parsingRefusesMalformedAndRepeatedParameters() {
    #expect(throws: JSONAPIQueryError.self) { try JSONAPIQuery(parsing: "fields=title") }
    #expect(throws: JSONAPIQueryError.duplicateParameter(name: "sort")) {
      try JSONAPIQuery(parsing: "sort=title&sort=-title")
    }
  }

  @Test func theRulesAcceptTheArticlesQueryAndNameWhatTheyRefuse() throws {
    let rules = JSONAPIQueryRules(
      includePaths: ["author", "comments.author"], sortFields: ["publishedAt", "title"],
      fieldsets: ["articles": ["title", "author", "comments"], "people": ["name"]],
      maxPageSize: 50, filterMembers: ["tag"])
    try rules.validate(JSONAPIQuery(parsing: Self.queryString))
    #expect(throws: JSONAPIQueryError.sortNotAllowed(field: "age")) {
      try rules.validate(JSONAPIQuery(parsing: "sort=-age"))
    }
  }

  @Test func theBodyIsCheckedAgainstTheURL() throws {
    let body = Data(#"{"data":{"type":"articles","lid":"a1","attributes":{"title":"Hi"}}}"#.utf8)
    let created = try JSONAPIRequestRules().checkCreate(body, type: "articles")
    #expect(created.lid == "a1")
    #expect(created.id == nil)
    let withID = Data(#"{"data":{"type":"articles","id":"7"}}"#.utf8)
    #expect(throws: JSONAPIRequestError.clientGeneratedIDNotSupported(id: "7")) {
      try JSONAPIRequestRules().checkCreate(withID, type: "articles")
    }
    #expect(throws: JSONAPIRequestError.idMismatch(expected: "1", found: "7")) {
      try JSONAPIRequestRules().checkUpdate(withID, type: "articles", id: "1")
    }
  }
}
