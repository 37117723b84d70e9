import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

// The hand-written handler that README.md's "Serving JSON:API" showed until issue 47 (the README
// now links to ServerSide.md in JSONAPIServer.docc, which shows the same steps), compiled and run
// against requests it is meant for. `Answer` stands for a framework's response.
@Suite struct ReadmeServerSnippetTests {
  struct Person: Codable {
    var id: String
    var type = "people"
    var name: String?  // optional: an update body carries the author as its identifier alone
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
  struct Answer {
    var status: Int
    var contentType: String
    var body: Data

    init(_ status: Int, _ contentType: String, _ body: Data) {
      self.status = status
      self.contentType = contentType
      self.body = body
    }
  }
  let store = Store()
  let negotiation = JSONAPIContentNegotiation()
  let rules = JSONAPIQueryRules(
    includePaths: ["author", "comments.author"], sortFields: ["title"],
    fieldsets: ["articles": ["title", "author", "comments"], "people": ["name"]])

  func showArticle(id: String, query: String, headers: [String: String]) -> Answer {
    let encoder = JSONAPIEncoder()
    do {
      let mediaType = try negotiation.negotiate(headers: headers, hasBody: false)
      let query = try JSONAPIQuery(parsing: query)
      try rules.validate(query)
      guard let article = store.article(id) else {
        throw JSONAPIRequestError.resourceNotFound(type: "articles", id: id)
      }
      return Answer(200, mediaType.headerValue, try encoder.encode(article, for: query))
    } catch {
      let object = JSONAPIErrorObject(describing: error)  // status, code, detail, source
      let body = (try? encoder.encode(errors: [object])) ?? Data()
      return Answer(Int(object.status ?? "500") ?? 500, "application/vnd.api+json", body)
    }
  }

  func updateArticle(id: String, headers: [String: String], body: Data) throws -> Article {
    _ = try negotiation.negotiate(headers: headers, hasBody: !body.isEmpty)
    try JSONAPIRequestRules().checkUpdate(body, type: "articles", id: id)  // 409 on a mismatch
    return try JSONAPIDecoder().decode(Article.self, from: body)
  }

  @Test func answersWhatWasAskedFor() throws {
    // HTTP/2 sends header names in lower case; the lookup ignores case.
    let answer = showArticle(
      id: "1", query: "include=author&fields%5Bpeople%5D=name",
      headers: ["accept": "application/vnd.api+json"])
    #expect(answer.status == 200)
    #expect(answer.contentType == "application/vnd.api+json")
    let document = try JSONDecoder().decode(JSONAPIValue.self, from: answer.body)
    #expect(document["included"] == [["type": "people", "id": "9", "attributes": ["name": "Dan"]]])
  }

  @Test func answersEveryFailureWithAnErrorDocument() throws {
    let cases: [(String, [String: String], String, Int)] = [
      ("1", ["Accept": "application/vnd.api+json"], "include=editor", 400),
      ("1", ["ACCEPT": #"application/vnd.api+json; ext="https://example.com/ext""#], "", 406),
      ("2", [:], "", 404),
    ]
    for (id, headers, query, expected) in cases {
      let answer = showArticle(id: id, query: query, headers: headers)
      #expect(answer.status == expected, "\(id) \(headers) \(query)")
      let errors = try JSONAPIDecoder().decodeErrors(JSONAPIErrorObject.self, from: answer.body)
      #expect(errors.first?.status == String(expected))
    }
  }

  @Test func updatesCheckTheMediaTypeAndTheBody() throws {
    let body = Data(
      (#"{"data": {"type": "articles", "id": "1", "attributes": {"title": "Renamed"},"#
        + #""relationships": {"author": {"data": {"type": "people", "id": "9"}}}}}"#).utf8)
    let headers = ["content-type": "application/vnd.api+json"]
    let article = try updateArticle(id: "1", headers: headers, body: body)
    #expect(article.title == "Renamed")
    #expect(article.author.id == "9")

    // The body's id is not the URL's: 409.
    #expect(throws: JSONAPIRequestError.idMismatch(expected: "2", found: "1")) {
      try updateArticle(id: "2", headers: headers, body: body)
    }

    // A body without a Content-Type: 415, and the message says the header is missing.
    var refusal: (any Error)?
    do {
      _ = try updateArticle(id: "1", headers: [:], body: body)
    } catch {
      refusal = error
    }
    let error = try #require(refusal)
    #expect(JSONAPIErrorObject(describing: error).status == "415")
    let message = String(describing: error).lowercased()
    #expect(message.contains("no `content-type` header"), "\(message)")
  }
}
