import Foundation
import Testing

@testable import JSONAPICodable

/// A model that declares its type (`JSONAPIResource`) is checked on every resource it decodes
/// (R12, R31: type and id together identify a resource).
@Suite struct ResourceTypeDecodingTests {
  struct Person: Decodable, Equatable, JSONAPIResource {
    static let jsonAPIType = "people"
    var id: String
  }
  struct Article: Decodable, JSONAPIResource {
    static let jsonAPIType = "articles"
    var id: String
    var author: Person?
  }

  func mismatch(_ json: String) -> (expected: String, found: String, pointer: String)? {
    let error = thrownError { try JSONAPIDecoder().decode(Article.self, from: json) }
    guard case .resourceTypeMismatch(let expected, let found, let pointer)? = error as? JSONAPIError
    else {
      Issue.record("expected resourceTypeMismatch, got \(String(describing: error))")
      return nil
    }
    return (expected, found, pointer)
  }

  @Test func primaryDataOfAnotherTypeIsAClearError() throws {
    let found = mismatch(#"{"data": {"type": "people", "id": "1"}}"#)
    #expect(found?.expected == "articles" && found?.found == "people" && found?.pointer == "/data")
  }

  @Test func aRelatedResourceOfAnotherTypeIsAClearError() throws {
    let json = """
      {"data": {"type": "articles", "id": "1", "relationships": {"author": {"data": {"type": "robots", "id": "2"}}}},
       "included": [{"type": "robots", "id": "2"}]}
      """
    let found = mismatch(json)
    #expect(found?.expected == "people" && found?.found == "robots")
    #expect(found?.pointer == "/data/relationships/author/data")
  }

  @Test func matchingTypesDecode() throws {
    let json = """
      {"data": {"type": "articles", "id": "1", "relationships": {"author": {"data": {"type": "people", "id": "2"}}}}}
      """
    #expect(try JSONAPIDecoder().decode(Article.self, from: json).author == Person(id: "2"))
  }
}
