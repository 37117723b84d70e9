import Foundation
import Testing

@testable import JSONAPICodable

// The first snippet of README.md's "Serving JSON:API", compiled and run against requests it is
// meant for (the framework routes after it are marked as not compiled). Keep both in step.
@Suite struct ReadmeServerSnippetTests {
  struct Person: Codable {
    var id: String
    var type = "people"
    var name: String
  }
  struct Article: Codable {
    var id: String
    var type = "articles"
    var title: String
    var author: Person
  }
  struct Store {
    func article(_ id: String) -> Article? {
      id == "1" ? Article(id: "1", title: "Hello", author: Person(id: "9", name: "Dan")) : nil
    }
  }
  let store = Store()
  let negotiation = JSONAPIContentNegotiation()
  let rules = JSONAPIQueryRules(
    includePaths: ["author", "comments.author"], sortFields: ["title"],
    fieldsets: ["articles": ["title", "author", "comments"], "people": ["name"]])

  func showArticle(id: String, accept: String?, query: String) -> (Int, [String: String], Data) {
    let encoder = JSONAPIEncoder()
    do {
      let mediaType = try negotiation.negotiate(accept: accept, contentType: nil)
      let query = try JSONAPIQuery(parsing: query)
      try rules.validate(query)
      guard let article = store.article(id) else {
        throw JSONAPIRequestError.resourceNotFound(type: "articles", id: id)
      }
      return (200, ["Content-Type": mediaType.headerValue], try encoder.encode(article, for: query))
    } catch {
      let object = JSONAPIErrorObject(describing: error)  // status, code, detail, source
      let body = (try? encoder.encode(errors: [object])) ?? Data()
      return (
        Int(object.status ?? "500") ?? 500, ["Content-Type": "application/vnd.api+json"], body
      )
    }
  }

  @Test func answersWhatWasAskedFor() throws {
    let (status, headers, body) = showArticle(
      id: "1", accept: "application/vnd.api+json", query: "include=author&fields%5Bpeople%5D=name")
    #expect(status == 200)
    #expect(headers["Content-Type"] == "application/vnd.api+json")
    let document = try JSONDecoder().decode(JSONAPIValue.self, from: body)
    #expect(document["included"] == [["type": "people", "id": "9", "attributes": ["name": "Dan"]]])
  }

  @Test func answersEveryFailureWithAnErrorDocument() throws {
    let cases: [(String, String?, String, Int)] = [
      ("1", "application/vnd.api+json", "include=editor", 400),
      ("1", #"application/vnd.api+json; ext="https://example.com/ext""#, "", 406),
      ("2", nil, "", 404),
    ]
    for (id, accept, query, expected) in cases {
      let (status, _, body) = showArticle(id: id, accept: accept, query: query)
      #expect(status == expected, "\(id) \(accept ?? "-") \(query)")
      let errors = try JSONAPIDecoder().decodeErrors(JSONAPIErrorObject.self, from: body)
      #expect(errors.first?.status == String(expected))
    }
  }
}
