import Foundation
import Testing

@testable import JSONAPICodable

@Suite("Encoding documents and error documents")
struct DocumentEncodingTests {
  @Test("JSONAPIDocument keeps meta, links and jsonapi next to data and included (R4, R7, R56)")
  func documentMembers() throws {
    struct Page: Encodable { var totalPages = 3 }
    let document = JSONAPIDocument(
      data: [Article(id: "1", title: "Hi", author: Person(id: "9", name: "Dan"))],
      meta: Page(),
      links: ["self": "/articles?page[number]=1", "next": "/articles?page[number]=2"],
      jsonapi: JSONAPIObject(version: "1.1"))
    #expect(
      try encodeDocument(document, name: "document-members") == [
        "data": [
          [
            "type": "articles", "id": "1", "attributes": ["title": "Hi"],
            "relationships": ["author": ["data": ["type": "people", "id": "9"]]],
          ]
        ],
        "included": [["type": "people", "id": "9", "attributes": ["name": "Dan"]]],
        "meta": ["totalPages": 3],
        "links": ["self": "/articles?page[number]=1", "next": "/articles?page[number]=2"],
        "jsonapi": ["version": "1.1"],
      ])
  }

  @Test("a JSONAPIDocument with nil data is data: null with its meta")
  func documentWithNilData() throws {
    let document = JSONAPIDocument<Person?, JSONAPIValue>(data: nil, meta: ["count": 0])
    #expect(
      try encodeDocument(document, name: "document-null-data") == [
        "data": nil, "meta": ["count": 0],
      ])
  }

  @Test("document meta that is not an object is an invalidValue error (R43)")
  func metaMustBeObject() throws {
    let document = JSONAPIDocument<Person?, Int>(data: nil, meta: 3)
    #expect {
      try JSONAPIEncoder().encode(document)
    } throws: { error in
      guard case JSONAPIError.invalidValue(_, let codingPath) = error else { return false }
      return codingPath == "meta"
    }
  }

  @Test("encode(errors:) writes an error document with meta, jsonapi and links (R88)")
  func errorDocument() throws {
    let errors = [
      JSONAPIErrorObject(
        status: "422", title: "Invalid Attribute", detail: "Too short",
        source: .init(pointer: "/data/attributes/firstName")),
      JSONAPIErrorObject(id: "e2", code: "42", meta: ["retry": true]),
    ]
    let data = try JSONAPIEncoder().encode(
      errors: errors, meta: ["requestId": "r1"], jsonapi: JSONAPIObject(version: "1.0"),
      links: ["self": "/articles"])
    #expect(
      try checked(data, name: "error-document", kind: .response) == [
        "errors": [
          [
            "status": "422", "title": "Invalid Attribute", "detail": "Too short",
            "source": ["pointer": "/data/attributes/firstName"],
          ],
          ["id": "e2", "code": "42", "meta": ["retry": true]],
        ],
        "meta": ["requestId": "r1"], "jsonapi": ["version": "1.0"], "links": ["self": "/articles"],
      ])
  }

  @Test("error member names are fixed by JSON:API: key strategies leave them alone")
  func errorDocumentIgnoresKeyStrategy() throws {
    let encoder = JSONAPIEncoder()
    encoder.keyEncodingStrategy = .custom { path in
      AnyCodingKey("X" + (path.last?.stringValue ?? ""))
    }
    let data = try encoder.encode(errors: [JSONAPIErrorObject(status: "500")])
    #expect(text(data) == #"{"errors":[{"status":"500"}]}"#)
  }

  @Test("an error object without members is refused (R89)")
  func emptyErrorObject() throws {
    #expect(throws: JSONAPIError.self) {
      try JSONAPIEncoder().encode(errors: [JSONAPIErrorObject()])
    }
  }

  @Test("encode(errors:) and encode(_:) write the top-level members in one order")
  func topLevelMemberOrder() throws {
    let encoder = JSONAPIEncoder()
    let errors = try encoder.encode(
      errors: [JSONAPIErrorObject(status: "500")], meta: ["n": 1],
      jsonapi: JSONAPIObject(version: "1.1"), links: ["self": "/e"])
    #expect(
      text(errors)
        == #"{"errors":[{"status":"500"}],"meta":{"n":1},"links":{"self":"\/e"},"#
        + #""jsonapi":{"version":"1.1"}}"#)
    struct Wrapper: Encodable {
      var id = "1"
      var type = "articles"
      var author = Person(id: "p", name: "Ann")
    }
    let document = try encoder.encode(
      JSONAPIDocument(
        data: Wrapper(), meta: ["n": 1] as JSONAPIValue, links: ["self": "/d"],
        jsonapi: JSONAPIObject(version: "1.1")))
    let members = try #require(
      JSONSerialization.jsonObject(with: document) as? [String: Any]
    ).keys
    #expect(Set(members) == ["data", "included", "meta", "links", "jsonapi"])
    let order = ["\"data\"", "\"included\"", "\"meta\"", "\"links\"", "\"jsonapi\""].map {
      text(document).range(of: $0)?.lowerBound
    }
    #expect(order.allSatisfy { $0 != nil })
    #expect(
      zip(order, order.dropFirst()).allSatisfy { pair in
        guard let first = pair.0, let second = pair.1 else { return false }
        return first < second
      })
  }

  @Test("string-keyed dictionaries keep nil values as null, keys sorted")
  func dictionaryWithOptionalValues() throws {
    struct Bag: Encodable {
      var id = "1"
      var type = "bags"
      var counts: [String: Int?] = ["b": nil, "a": 1]
    }
    #expect(text(try JSONAPIEncoder().encode(Bag())).contains(#""counts":{"a":1,"b":null}"#))
  }
}
