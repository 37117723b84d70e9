import Foundation
import Testing

@testable import JSONAPICodable

/// Relationship-endpoint bodies (R83-R85) and identifiers inside resources (R30-R35), written by
/// the encoder and validated against `schema_update_relationship.json` by
/// `Scripts/validate-encoded-documents.sh` (the suite name contains "Encoding" for that reason).
@Suite struct IdentifierEncodingTests {
  @Test func aToManyBodyIsAnArrayOfIdentifiers() throws {
    let body = try encodeDocument(
      [
        JSONAPIResourceIdentifier(type: "tags", id: "2"),
        JSONAPIResourceIdentifier(type: "tags", id: "3", meta: ["weight": 5]),
      ],
      name: "identifier-to-many", kind: .relationship)
    #expect(
      body == [
        "data": [["type": "tags", "id": "2"], ["type": "tags", "id": "3", "meta": ["weight": 5]]]
      ])
  }

  @Test func anEmptyToManyBodyClearsTheRelationship() throws {
    let body = try encodeDocument(
      [JSONAPIResourceIdentifier](), name: "identifier-empty", kind: .relationship)
    #expect(body == ["data": []])
  }

  @Test func aToOneBodyAndItsNull() throws {
    let one = try encodeDocument(
      JSONAPIResourceIdentifier(type: "people", id: "9"), name: "identifier-to-one",
      kind: .relationship)
    #expect(one == ["data": ["type": "people", "id": "9"]])
    let none = try encodeDocument(
      JSONAPIResourceIdentifier?.none, name: "identifier-null", kind: .relationship)
    #expect(none == ["data": nil])
  }

  @Test func aLocalIdentifierIsWrittenWithItsLid() throws {
    let body = try encodeDocument(
      [JSONAPIResourceIdentifier(type: "tags", lid: "new-tag")], name: "identifier-lid",
      kind: .relationship)
    #expect(body == ["data": [["type": "tags", "lid": "new-tag"]]])
  }

  @Test func aTopLevelRelationshipIsARelationshipEndpointBody() throws {
    let relationship = JSONAPIRelationship(
      data: [JSONAPIResourceIdentifier(type: "tags", id: "2")], meta: ["note": "bulk"])
    let body = try encodeDocument(relationship, name: "relationship-top-level", kind: .relationship)
    #expect(body == ["data": [["type": "tags", "id": "2"]], "meta": ["note": "bulk"]])
  }

  @Test func anIdentifierPropertyIsLinkageWithItsMetaAndNeverIncluded() throws {
    struct Article: Encodable {
      var id: String
      var type = "articles"
      var author: JSONAPIResourceIdentifier
      var tags: [JSONAPIResourceIdentifier]
    }
    let article = Article(
      id: "1", author: JSONAPIResourceIdentifier(type: "people", id: "9", meta: ["role": "lead"]),
      tags: [JSONAPIResourceIdentifier(type: "tags", id: "2")])
    let body = try encodeDocument(article, name: "identifier-properties")
    #expect(body["included"] == nil)
    #expect(
      body["data"]?["relationships"]
        == [
          "author": ["data": ["type": "people", "id": "9", "meta": ["role": "lead"]]],
          "tags": ["data": [["type": "tags", "id": "2"]]],
        ])
  }

  @Test func identifiersRoundTripThroughTheDecoder() throws {
    let identifiers = [
      JSONAPIResourceIdentifier(type: "tags", id: "2", meta: ["a": [1, 2]]),
      JSONAPIResourceIdentifier(type: "tags", lid: "l1"),
    ]
    let data = try JSONAPIEncoder().encode(identifiers)
    #expect(
      try JSONAPIDecoder().decode([JSONAPIResourceIdentifier].self, from: data) == identifiers)
  }
}

@Suite struct IdentifierEdgeEncodingTests {
  struct Article: Codable, Equatable {
    var id: String
    var type = "articles"
    var reviewers: [JSONAPIResourceIdentifier]
  }

  @Test func anEmptyArrayOfIdentifiersIsAnEmptyToMany() throws {
    let body = try encodeDocument(Article(id: "1", reviewers: []), name: "identifier-empty-to-many")
    #expect(body["data"]?["relationships"]?["reviewers"] == ["data": []])
  }

  @Test func identifierMetaMustBeAnObject() throws {
    let identifier = JSONAPIResourceIdentifier(type: "tags", id: "1", meta: 5)
    #expect(throws: EncodingError.self) { try JSONAPIEncoder().encode([identifier]) }
    // Read leniently: a meta that is not an object is not meta.
    let read = try JSONAPIDecoder().decode(
      JSONAPIResourceIdentifier.self, from: #"{"data": {"type": "tags", "id": "1", "meta": 5}}"#)
    #expect(read == JSONAPIResourceIdentifier(type: "tags", id: "1"))
  }
}
