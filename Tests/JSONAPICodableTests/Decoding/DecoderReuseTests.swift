import Foundation
import Testing

@testable import JSONAPICodable

/// A decoder keeps what its calls learn about types (``DecodingTypeMemos``) for its next calls:
/// that must make later calls cheaper and never change what they return or throw.
@Suite struct DecoderReuseTests {
  struct Person: Decodable, Equatable, JSONAPIResource {
    static let jsonAPIType = "people"
    var id: String
    var name: String
  }
  struct Post: Decodable, Equatable, JSONAPIResource {
    static let jsonAPIType = "posts"
    var id: String
    var title: String
    var tags: [String]
    var author: Person
  }
  /// The same resources read as a model that declares another type: must throw on every call.
  struct Article: Decodable, Equatable, JSONAPIResource {
    static let jsonAPIType = "articles"
    var id: String
  }
  /// The relationship read as its object rather than as the resource.
  struct PostWithLinkage: Decodable, Equatable {
    var id: String
    var author: JSONAPIRelationship<Person?>
  }

  static let json = #"""
    {"data":[{"type":"posts","id":"1","attributes":{"title":"One","tags":["a","b"]},
    "relationships":{"author":{"data":{"type":"people","id":"9"}}}}],
    "included":[{"type":"people","id":"9","attributes":{"name":"Dan"}}]}
    """#

  @Test func aSecondCallLearnsNothingAndDecodesTheSame() throws {
    let decoder = JSONAPIDecoder()
    #expect(decoder.rememberedTypeCount == 0)
    let first = try decoder.decode([Post].self, from: Self.json)
    let learnt = decoder.rememberedTypeCount
    #expect(learnt > 0)
    let second = try decoder.decode([Post].self, from: Self.json)
    #expect(second == first)
    #expect(decoder.rememberedTypeCount == learnt)
    #expect(
      first == [
        Post(id: "1", title: "One", tags: ["a", "b"], author: Person(id: "9", name: "Dan"))
      ])
  }

  @Test func answersStayWithTheirTypes() throws {
    let decoder = JSONAPIDecoder()
    let posts = try decoder.decode([Post].self, from: Self.json)
    // Each model type has its own answers: another declared type still throws, and how one model
    // reads a relationship does not leak into another's.
    for _ in 0..<2 {
      #expect(throws: JSONAPIError.self) { try decoder.decode([Article].self, from: Self.json) }
      let linkage = try decoder.decode([PostWithLinkage].self, from: Self.json)
      #expect(linkage.first?.author.data == Person(id: "9", name: "Dan"))
      #expect(try decoder.decode([Post].self, from: Self.json) == posts)
    }
  }

  @Test func aCallThatThrowsKeepsWhatItLearnt() throws {
    let decoder = JSONAPIDecoder()
    do {
      _ = try decoder.decode([Article].self, from: Self.json)
      Issue.record("a resource of type posts decoded as articles")
    } catch JSONAPIError.resourceTypeMismatch(let expected, let found, _) {
      #expect(expected == "articles" && found == "posts")
    }
    #expect(decoder.rememberedTypeCount > 0)
  }

  @Test func decodersDoNotShareWhatTheyLearnt() throws {
    let used = JSONAPIDecoder()
    _ = try used.decode([Post].self, from: Self.json)
    #expect(used.rememberedTypeCount > 0)
    #expect(JSONAPIDecoder().rememberedTypeCount == 0)
  }
}
