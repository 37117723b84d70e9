import Foundation
import Testing

@testable import JSONAPICodable

@Suite("Encoding resources")
struct ResourceEncodingTests {
  @Test("a resource becomes a single-resource document: type, id, attributes (R12, R17, R21)")
  func singleResource() throws {
    struct Book: Encodable {
      var id = "1"
      var type = "books"
      var title = "Dune"
      var pages = 412
      var price = 9.5
      var inPrint = true
      var isbn: String? = nil
    }
    let document = try encodeDocument(Book(), name: "single-resource")
    #expect(
      document == [
        "data": [
          "type": "books", "id": "1",
          "attributes": ["title": "Dune", "pages": 412, "price": 9.5, "inPrint": true],
        ]
      ])
  }

  @Test("a create request leaves out a nil id (R12 exception)")
  func createRequestWithoutID() throws {
    let article = Article(id: nil, title: "New")
    let document = try encodeDocument(article, name: "create-without-id", kind: .create)
    #expect(document == ["data": ["type": "articles", "attributes": ["title": "New"]]])
  }

  @Test("ids of any Swift type are written as strings (R14)")
  func idsAreStrings() throws {
    struct Numbered: Encodable {
      var id = 7
      var type = "counters"
    }
    struct ClientGenerated: Encodable {
      var id = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00CF4FC964FF") ?? UUID()
      var type = "photos"
      var title = "Ember Hamster"
    }
    #expect(
      try encodeDocument(Numbered(), name: "int-id") == ["data": ["type": "counters", "id": "7"]])
    let document = try encodeDocument(ClientGenerated(), name: "uuid-id", kind: .create)
    #expect(
      document == [
        "data": [
          "type": "photos", "id": "6F9619FF-8B86-D011-B42D-00CF4FC964FF",
          "attributes": ["title": "Ember Hamster"],
        ]
      ])
  }

  @Test("lid and meta are the resource's own members in a create request (R13, R17)")
  func ownMembersInRequest() throws {
    struct Draft: Encodable {
      var type = "articles"
      var lid = "tmp-1"
      var title = "Draft"
      var meta: JSONAPIValue = ["revision": 3]
    }
    let document = try encodeDocument(Draft(), name: "lid-meta", kind: .create)
    #expect(
      document == [
        "data": [
          "type": "articles", "lid": "tmp-1", "attributes": ["title": "Draft"],
          "meta": ["revision": 3],
        ]
      ])
  }

  @Test("meta and links are the resource's own members in a response (R17, R18)")
  func ownMembersInResponse() throws {
    struct Stored: Encodable {
      var id = "1"
      var type = "articles"
      var title = "Stored"
      var meta: JSONAPIValue = ["revision": 3]
      var links: JSONAPILinks = ["self": "/articles/1"]
    }
    #expect(
      try encodeDocument(Stored(), name: "meta-links") == [
        "data": [
          "type": "articles", "id": "1", "attributes": ["title": "Stored"],
          "meta": ["revision": 3], "links": ["self": "/articles/1"],
        ]
      ])
  }

  @Test("an array of resources is a collection; an empty one is data: [] (R9)")
  func collections() throws {
    let people = [Person(id: "1", name: "Ann"), Person(id: "2", name: "Bo")]
    #expect(
      try encodeDocument(people, name: "collection") == [
        "data": [
          ["type": "people", "id": "1", "attributes": ["name": "Ann"]],
          ["type": "people", "id": "2", "attributes": ["name": "Bo"]],
        ]
      ])
    #expect(try encodeDocument([Person](), name: "empty-collection") == ["data": []])
  }

  @Test("nil at the top level is data: null (R8)")
  func nilPrimaryData() throws {
    let none: Person? = nil
    #expect(try encodeDocument(none, name: "null-data") == ["data": nil])
  }

  @Test("a top-level value without type throws missingResourceType naming the Swift type")
  func missingType() throws {
    struct Untyped: Encodable { var id = "1" }
    #expect(
      throws: JSONAPIError.missingResourceType(
        swiftType: "Untyped", codingPath: EncodingPath.topLevelText)
    ) {
      try JSONAPIEncoder().encode(Untyped())
    }
    #expect(throws: JSONAPIError.missingResourceType(swiftType: "Untyped", codingPath: "[1]")) {
      try JSONAPIEncoder().encode(MixedArray())
    }
    #expect(
      throws: JSONAPIError.missingResourceType(
        swiftType: "String", codingPath: EncodingPath.topLevelText)
    ) {
      try JSONAPIEncoder().encode("just a string")
    }
  }

  struct MixedArray: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.unkeyedContainer()
      try container.encode(Person(id: "1"))
      struct Untyped: Encodable { var id = "1" }
      try container.encode(Untyped())
    }
  }

  @Test("a non-string type or an object id is an invalidValue error")
  func invalidIdentifierMembers() throws {
    struct NumericType: Encodable {
      var id = "1"
      var type = 5
    }
    struct ObjectID: Encodable {
      struct Key: Encodable { var a = 1 }
      var id = Key()
      var type = "things"
    }
    #expect {
      try JSONAPIEncoder().encode(NumericType())
    } throws: { error in
      guard case JSONAPIError.invalidValue(_, let codingPath) = error else { return false }
      return codingPath == "type"
    }
    #expect {
      try JSONAPIEncoder().encode(ObjectID())
    } throws: { error in
      guard case JSONAPIError.invalidValue(_, let codingPath) = error else { return false }
      return codingPath == "id"
    }
  }

  @Test("a nested struct without type is an attribute, nested objects kept whole (R21)")
  func nestedStructIsAttribute() throws {
    struct Address: Encodable {
      var street = "Main St"
      var id = "not-a-resource"
    }
    struct Shop: Encodable {
      var id = "1"
      var type = "shops"
      var address = Address()
      var tags = ["a", "b"]
    }
    #expect(
      try encodeDocument(Shop(), name: "nested-attribute") == [
        "data": [
          "type": "shops", "id": "1",
          "attributes": [
            "address": ["street": "Main St", "id": "not-a-resource"], "tags": ["a", "b"],
          ],
        ]
      ])
  }

  @Test("a JSONAPIAttributeExpressible value with id and type stays an attribute")
  func attributeExpressible() throws {
    struct PaymentMethod: Encodable, JSONAPIAttributeExpressible {
      var id = "pm_1"
      var type = "card"
    }
    struct Order: Encodable {
      var id = "1"
      var type = "orders"
      var payment = PaymentMethod()
      var alternatives = [PaymentMethod()]
    }
    #expect(
      try encodeDocument(Order(), name: "attribute-expressible") == [
        "data": [
          "type": "orders", "id": "1",
          "attributes": [
            "payment": ["id": "pm_1", "type": "card"],
            "alternatives": [["id": "pm_1", "type": "card"]],
          ],
        ]
      ])
  }

  @Test("a resource with only type and id writes neither attributes nor relationships")
  func noEmptyFieldObjects() throws {
    let data = try JSONAPIEncoder().encode(Tag(id: "t"))
    #expect(text(data) == #"{"data":{"type":"tags","id":"t"}}"#)
  }

  @Test("a primary resource given twice is an invalidValue error (R40)")
  func duplicatePrimary() throws {
    #expect(throws: JSONAPIError.self) {
      try JSONAPIEncoder().encode([Tag(id: "1"), Tag(id: "1")])
    }
  }
}
