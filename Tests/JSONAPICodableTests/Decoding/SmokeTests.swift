import Foundation
import Testing

@testable import JSONAPICodable

@Suite struct SmokeTests {
  struct Person: Decodable, Equatable {
    var id: String
    var firstName: String?
    var twitter: String?
  }
  struct Comment: Decodable, Equatable {
    var id: String
    var body: String
    var author: Person?
  }
  struct Article: Decodable, Equatable {
    var id: String
    var type: String
    var title: String
    var author: Person
    var comments: [Comment]
  }

  @Test func specCompoundDocument() throws {
    let articles = try JSONAPIDecoder().decode(
      [Article].self, from: Fixture.corpus("spec-1.1_compound-document"))
    #expect(articles.count == 1)
    #expect(articles[0].title == "JSON:API paints my bikeshed!")
    #expect(articles[0].author == Person(id: "9", firstName: "Dan", twitter: "dgeb"))
    #expect(articles[0].comments.map(\.body) == ["First!", "I like XML better"])
    #expect(articles[0].comments[0].author == Person(id: "2", firstName: nil, twitter: nil))
    #expect(articles[0].comments[1].author?.firstName == "Dan")
  }
}
