import Foundation
import Testing

@testable import JSONAPICodable

/// Every included resource of a type, reachable from the primary data or not (R36, R38: a local store
/// wants them all).
@Suite struct IncludedByTypeTests {
  struct Person: Decodable, Equatable, JSONAPIResource {
    static let jsonAPIType = "people"
    var id: String
    var name: String
    var mentor: Indirect<Person>?
  }

  static let json = """
    {"data": [{"type": "articles", "id": "1", "relationships": {"author": {"data": {"type": "people", "id": "9"}}}}],
     "included": [
       {"type": "people", "id": "9", "attributes": {"name": "Dan"}},
       {"type": "comments", "id": "c1", "attributes": {"body": "hi"}},
       {"type": "people", "id": "10", "attributes": {"name": "Eve"},
        "relationships": {"mentor": {"data": {"type": "people", "id": "9"}}}}]}
    """

  @Test func everyIncludedResourceOfTheTypeDecodesInDocumentOrder() throws {
    let people = try JSONAPIDecoder().decodeIncluded(
      Person.self, ofType: "people", from: Data(Self.json.utf8))
    #expect(people.map(\.id) == ["9", "10"])
    // Relationships inside resolve as everywhere else.
    #expect(people.last?.mentor?.value == Person(id: "9", name: "Dan", mentor: nil))
  }

  @Test func theDeclaredTypeSelectsTheResources() throws {
    let people = try JSONAPIDecoder().decodeIncluded(Person.self, from: Data(Self.json.utf8))
    #expect(people.map(\.name) == ["Dan", "Eve"])
  }

  @Test func noIncludedMemberGivesNone() throws {
    let json = #"{"data": []}"#
    #expect(try JSONAPIDecoder().decodeIncluded(Person.self, from: Data(json.utf8)).isEmpty)
  }

  @Test func anErrorDocumentIsThrown() throws {
    let json = #"{"errors": [{"status": "500"}]}"#
    #expect(throws: JSONAPIError.errorDocument([JSONAPIErrorObject(status: "500")])) {
      try JSONAPIDecoder().decodeIncluded(Person.self, from: Data(json.utf8))
    }
  }
}
