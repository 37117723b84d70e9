import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

@Suite struct QueryRulesTests {
  let rules = JSONAPIQueryRules(
    includePaths: ["author", "comments.author"], sortFields: ["title", "author.name"],
    fieldsets: ["articles": ["title", "author"], "people": ["name"]],
    pageMembers: ["number", "size", "offset", "limit", "cursor"], maxPageSize: 50,
    filterMembers: ["tag"], additionalParameters: ["camelCase"])

  func error(_ query: String) throws -> JSONAPIQueryError? {
    do {
      try rules.validate(JSONAPIQuery(parsing: query))
      return nil
    } catch let error as JSONAPIQueryError {
      return error
    }
  }

  @Test func acceptsWhatTheRulesAllow() throws {
    // R67: a leading part of an allowed path (`comments`) is allowed: its resources are included
    // on the way.
    #expect(
      try error(
        "include=author,comments,comments.author&fields%5Barticles%5D=title&sort=-author.name"
          + "&page%5Bnumber%5D=1&page%5Bsize%5D=50&page%5Boffset%5D=0&page%5Bcursor%5D=xyz"
          + "&filter%5Btag%5D=swift&camelCase=1") == nil)
  }

  // R67-R71: everything outside the rules is a 400 naming the parameter.
  @Test(arguments: [
    ("include=tags", JSONAPIQueryError.includeNotAllowed(path: "tags")),
    ("include=author.articles", .includeNotAllowed(path: "author.articles")),
    ("sort=body", .sortNotAllowed(field: "body")),
    ("fields%5Bcomments%5D=body", .unknownField(type: "comments", field: nil)),
    ("fields%5Bpeople%5D=name,age", .unknownField(type: "people", field: "age")),
    ("filter%5Bauthor%5D=9", .unsupportedParameter(name: "filter[author]", reason: "")),
    ("page%5Bcount%5D=9", .unsupportedParameter(name: "page[count]", reason: "")),
    ("foo=1", .unsupportedParameter(name: "foo", reason: "")),
    ("filter=x", .unsupportedParameter(name: "filter", reason: "")),
    ("otherParam=1", .unsupportedParameter(name: "otherParam", reason: "")),
  ])
  func refusesWhatTheRulesDoNotAllow(query: String, expected: JSONAPIQueryError) throws {
    let found = try #require(try error(query))
    #expect(found.parameter == expected.parameter)
    #expect(found.code == expected.code)
    if case .unsupportedParameter = expected {} else { #expect(found == expected) }
  }

  // R65: page numbers and sizes are whole numbers within bounds.
  @Test(arguments: [
    "page%5Bsize%5D=ten", "page%5Bsize%5D=0", "page%5Bsize%5D=51", "page%5Bsize%5D=-1",
    "page%5Bnumber%5D=0", "page%5Bnumber%5D=", "page%5Bnumber%5D=1.5",
    "page%5Boffset%5D=-3", "page%5Blimit%5D=99999999999999999999999",
  ])
  func malformedPagesAreRefused(query: String) throws {
    let found = try #require(try error(query))
    guard case .invalidPageValue(let name, _, _) = found else {
      Issue.record("expected invalidPageValue, got \(found)")
      return
    }
    #expect(name.hasPrefix("page["))
    #expect(found.parameter == name)
  }

  // R67, R69: an endpoint without include or sort support refuses them.
  @Test func defaultRulesSupportNeitherIncludeNorSort() throws {
    let plain = JSONAPIQueryRules()
    #expect(throws: JSONAPIQueryError.self) {
      try plain.validate(JSONAPIQuery(parsing: "include="))
    }
    #expect(throws: JSONAPIQueryError.self) { try plain.validate(JSONAPIQuery(parsing: "sort=a")) }
    #expect(throws: Never.self) {
      try plain.validate(
        JSONAPIQuery(parsing: "fields%5Bx%5D=y&page%5Bsize%5D=100&filter%5Bz%5D=1"))
    }
  }

  @Test func messagesCiteTheSpecificationNotTheDigest() throws {
    let found = try #require(try error("include=tags"))
    #expect(found.description.contains("https://jsonapi.org/format/#fetching-includes"))
    #expect(!found.description.contains("R67"))
  }
}
