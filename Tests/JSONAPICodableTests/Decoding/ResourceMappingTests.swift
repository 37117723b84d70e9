import Foundation
import Testing

@testable import JSONAPICodable

/// How the members of a resource object map onto a plain model (R12–R24, R50, R51, R121).
@Suite struct ResourceMappingTests {
  let decoder = JSONAPIDecoder()

  struct Article: Decodable, Equatable {
    var id: String
    var type: String
    var title: String
    var views: Int
    var subtitle: String?
  }

  @Test func attributesIdAndTypeMapToProperties() throws {
    let json = """
      {"data": {"type": "articles", "id": "1",
        "attributes": {"title": "Hello", "views": 3, "subtitle": null}}}
      """
    let article = try decoder.decode(Article.self, from: json)
    #expect(article == Article(id: "1", type: "articles", title: "Hello", views: 3, subtitle: nil))
  }

  struct Numbered: Decodable, Equatable { var id: Int }
  struct Identified: Decodable, Equatable { var id: UUID }
  struct Wrapped: Decodable, Equatable {
    enum Kind: String, Decodable {
      case one = "1"
      case two = "2"
    }
    var id: Kind
  }
  struct Precise: Decodable, Equatable { var id: Double }

  @Test func idDecodesIntoStringConvertibleTypes() throws {
    // R14: ids are strings in the document; models may hold them as numbers, UUIDs or enums.
    #expect(try decoder.decode(Numbered.self, from: #"{"data":{"type":"t","id":"42"}}"#).id == 42)
    let uuid = UUID()
    let text = #"{"data":{"type":"t","id":"\#(uuid.uuidString)"}}"#
    #expect(try decoder.decode(Identified.self, from: text).id == uuid)
    #expect(try decoder.decode(Wrapped.self, from: #"{"data":{"type":"t","id":"2"}}"#).id == .two)
    #expect(try decoder.decode(Precise.self, from: #"{"data":{"type":"t","id":"2.5"}}"#).id == 2.5)
  }

  @Test func idThatDoesNotFitTheModelIsADecodingError() throws {
    let error = thrownError {
      try decoder.decode(Numbered.self, from: #"{"data":{"type":"t","id":"abc"}}"#)
    }
    guard case .dataCorrupted(let context) = error as? DecodingError else {
      Issue.record("expected dataCorrupted, got \(String(describing: error))")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["id"])
  }

  @Test func integerIdsConvertOnlyFromTheirCanonicalSpelling() throws {
    // R14 ids are strings: "05" and "5" name different resources, so both cannot become 5.
    for id in ["0", "7", "-12", "9223372036854775807"] {
      #expect(
        try decoder.decode(Numbered.self, from: #"{"data":{"type":"t","id":"\#(id)"}}"#).id
          == Int(id))
    }
    for id in ["05", "+5", "-0", "00", " 5", "5 ", "", "-", "1_000", "9223372036854775808"] {
      let error = thrownError {
        try decoder.decode(Numbered.self, from: #"{"data":{"type":"t","id":"\#(id)"}}"#)
      }
      guard case .dataCorrupted(let context) = error as? DecodingError else {
        Issue.record("id \"\(id)\": expected dataCorrupted, got \(String(describing: error))")
        continue
      }
      #expect(context.debugDescription.contains(#"The identifier "\#(id)" is not a valid Int"#))
    }
  }

  @Test func fuzzFindingTwoIdsForOneIntegerNoLongerMergeResources() throws {
    // Fuzzer finding (round trip changed the value): linkage to comments "5" (included) and "05"
    // (not included) decoded both as Comment(id: 5); encoding merged them into one included
    // resource, and decoding that gave the second comment the first one's body.
    struct Comment: Codable, Equatable {
      var id: Int
      var body: String?
    }
    struct Article: Codable, Equatable {
      var id: String
      var comments: [Comment]
    }
    let json = """
      {"data": [{"type": "articles", "id": "1", "relationships": {"comments": {"data": [
         {"type": "comments", "id": "5"}, {"type": "comments", "id": "05"}]}}}],
       "included": [{"type": "comments", "id": "5", "attributes": {"body": "First!"}}]}
      """
    let error = thrownError { try decoder.decode([Article].self, from: json) }
    guard case .dataCorrupted(let context) = error as? DecodingError else {
      Issue.record("expected dataCorrupted, got \(String(describing: error))")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["Index 0", "comments", "Index 1", "id"])
  }

  struct WithMeta: Decodable, Equatable {
    struct Meta: Decodable, Equatable { var cursor: String }
    var id: String
    var meta: Meta
    var links: JSONAPILinks
  }

  @Test func metaAndLinksReadTheResourcesOwnMembers() throws {
    let json = """
      {"data": {"type": "t", "id": "1", "meta": {"cursor": "abc"},
        "links": {"self": "/t/1"}, "attributes": {"meta": "shadowed"}}}
      """
    let value = try decoder.decode(WithMeta.self, from: json)
    #expect(value.meta.cursor == "abc")
    #expect(value.links.selfLink?.href == "/t/1")
  }

  struct MenuItem: Decodable {
    struct Meta: Decodable {
      var entityID: String
      enum CodingKeys: String, CodingKey { case entityID = "entity_id" }
    }
    var id: String
    var meta: Meta
    var menuName: String
    enum CodingKeys: String, CodingKey {
      case id, meta
      case menuName = "menu_name"
    }
  }

  @Test func metaFallsBackToAnAttributeWhenTheResourceHasNone() throws {
    // drupal_menu-items has an attribute called "meta" and no resource meta.
    let items = try decoder.decode([MenuItem].self, from: Fixture.corpus("drupal_menu-items"))
    #expect(items.first?.meta.entityID == "2")
    #expect(items.first?.id == "menu_link_content:1c6d3476-61b1-4b7e-a580-6fa63bdac5d1")
  }

  struct Created: Decodable, Equatable {
    var id: String?
    var lid: String?
    var type: String
    var title: String
  }

  @Test func lidReadsTheLocalIdentifierOfANewResource() throws {
    // R13: a resource created by the client may carry lid instead of id.
    let photo = try decoder.decode(Created.self, from: Fixture.corpus("art4_create-with-lid"))
    #expect(photo.id == nil)
    #expect(photo.lid == "2d81d40d-fa78-4d34-acd1-b66a39a343d5")
    #expect(photo.title == "Ember Hamster")
  }

  @Test func missingRequiredAttributeIsKeyNotFoundWithItsPath() throws {
    let json = #"{"data": [{"type": "articles", "id": "1", "attributes": {"title": "x"}}]}"#
    let error = thrownError { try decoder.decode([Article].self, from: json) }
    guard case .keyNotFound(let key, let context) = error as? DecodingError else {
      Issue.record("expected keyNotFound, got \(String(describing: error))")
      return
    }
    #expect(key.stringValue == "views")
    #expect(context.codingPath.map(\.intValue) == [0])
  }

  @Test func wrongAttributeTypeIsTypeMismatchNamingTheMember() throws {
    let json = #"{"data": {"type": "articles", "id": "1", "attributes": {"title": 5, "views": 1}}}"#
    let error = thrownError { try decoder.decode(Article.self, from: json) }
    guard case .typeMismatch(_, let context) = error as? DecodingError else {
      Issue.record("expected typeMismatch, got \(String(describing: error))")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["title"])
    #expect(context.debugDescription.contains("/data/attributes/title"))
  }

  struct Fields: Decodable { var fields: [String: JSONAPIValue] }

  @Test func atMembersAndExtensionMembersAreNotFields() throws {
    // R50, R51, R121: "@context" and "version:id" never become attributes.
    struct KeyList: Decodable {
      var keys: [String]
      init(from decoder: any Decoder) throws {
        keys = try decoder.container(keyedBy: AnyCodingKey.self).allKeys.map(\.stringValue)
      }
    }
    let json = """
      {"data": {"type": "t", "id": "1", "@context": "/x",
        "attributes": {"@context": "/y", "ns:extra": 1, "name": "n"},
        "relationships": {"@meta": {"data": null}, "owner": {"data": null}}}}
      """
    let keys = try decoder.decode(KeyList.self, from: json).keys
    #expect(Set(keys) == ["id", "type", "owner", "name"])
  }

  struct Payment: Decodable, Equatable, JSONAPIAttributeExpressible {
    var id: String
    var type: String
  }
  struct Order: Decodable, Equatable {
    var id: String
    var payment: Payment
  }

  @Test func attributeExpressibleValueWithIdAndTypeIsReadFromAttributes() throws {
    let json = """
      {"data": {"type": "orders", "id": "1",
        "attributes": {"payment": {"id": "card-1", "type": "card"}},
        "relationships": {"payment": {"data": {"type": "payments", "id": "9"}}}}}
      """
    let order = try decoder.decode(Order.self, from: json)
    #expect(order.payment == Payment(id: "card-1", type: "card"))
  }

  struct Manual: Decodable, Equatable {
    var title: String
    var first: Int
    var id: String
    init(title: String, first: Int, id: String) {
      self.title = title
      self.first = first
      self.id = id
    }
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: AnyCodingKey.self)
      title = try container.decode(String.self, forKey: AnyCodingKey("title"))
      var numbers = try container.nestedUnkeyedContainer(forKey: AnyCodingKey("numbers"))
      first = try numbers.decode(Int.self)
      let nested = try container.nestedContainer(
        keyedBy: AnyCodingKey.self, forKey: AnyCodingKey("box"))
      let superDecoder = try nested.superDecoder(forKey: AnyCodingKey("inner"))
      id = try superDecoder.singleValueContainer().decode(String.self)
      #expect(superDecoder.codingPath.map(\.stringValue) == ["box", "inner"])
    }
  }

  @Test func nestedContainersAndSuperDecoderWorkInsideAResource() throws {
    let json = """
      {"data": {"type": "t", "id": "1",
        "attributes": {"title": "t", "numbers": [7, 8], "box": {"inner": "deep"}}}}
      """
    #expect(try decoder.decode(Manual.self, from: json) == Manual(title: "t", first: 7, id: "deep"))
  }

  @Test func resourceWithoutTypeIsAnInvalidDocument() throws {
    // R12: type is required.
    let error = thrownError { try decoder.decode(Article.self, from: #"{"data": {"id": "1"}}"#) }
    guard case .invalidDocument(_, let pointer) = error as? JSONAPIError else {
      Issue.record("expected invalidDocument, got \(String(describing: error))")
      return
    }
    #expect(pointer == "/data")
  }

  @Test func escapedReservedNamesInsideResourcesAreTheNamesTheySpell() throws {
    // "\u0074ype" is "type" (RFC 8259 escapes), inside resources as at the top level (R12).
    struct Person: Decodable, Equatable {
      var id: String
      var type: String
      var name: String
    }
    let json =
      #"{"data": {"\u0074ype": "people", "i\u0064": "1", "\u0061ttributes": {"name": "A"}}}"#
    #expect(
      try decoder.decode(Person.self, from: json) == Person(id: "1", type: "people", name: "A"))
  }

  @Test func integerIdReadsAsItsDigits() throws {
    // R14 wants a string; corpus art4_invalid-id-integer sends 1, read as "1" (issue 36).
    struct Post: Decodable {
      var id: String
      var type: String
      var title: String
    }
    let post = try decoder.decode(Post.self, from: Fixture.corpus("art4_invalid-id-integer"))
    #expect(post.id == "1")
    #expect(post.title == "Post 1 title")
  }
}
