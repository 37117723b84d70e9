import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

@Suite struct RequestRulesTests {
  func body(_ json: String) -> Data { Data(json.utf8) }

  // R75, R77: a create body may carry a client id (when allowed) or a lid.
  @Test func createAcceptsLidAndAllowedClientIDs() throws {
    let strict = JSONAPIRequestRules()
    let created = try strict.checkCreate(
      body(#"{"data":{"type":"articles","lid":"new-1","attributes":{"title":"x"}}}"#),
      type: "articles")
    #expect(created.lid == "new-1")
    #expect(created.id == nil)
    let withID = body(#"{"data":{"type":"articles","id":"7f3e","attributes":{"title":"x"}}}"#)
    #expect(throws: JSONAPIRequestError.clientGeneratedIDNotSupported(id: "7f3e")) {
      try strict.checkCreate(withID, type: "articles")
    }
    #expect(
      try JSONAPIRequestRules(acceptsClientGeneratedIDs: true).checkCreate(withID, type: "articles")
        .id == "7f3e")
  }

  // R78: 409 when the type is not the collection's.
  @Test func createOfAnotherTypeConflicts() {
    #expect(
      throws: JSONAPIRequestError.typeMismatch(
        expected: "articles", found: "people", pointer: "/data/type")
    ) {
      try JSONAPIRequestRules().checkCreate(body(#"{"data":{"type":"people"}}"#), type: "articles")
    }
  }

  // R79, R82: an update's type and id must match the URL (409); the id is required (400).
  @Test func updateMustMatchTheURL() {
    let rules = JSONAPIRequestRules()
    #expect(throws: Never.self) {
      try rules.checkUpdate(
        body(#"{"data":{"type":"articles","id":"1"}}"#), type: "articles", id: "1")
    }
    #expect(throws: JSONAPIRequestError.idMismatch(expected: "1", found: "2")) {
      try rules.checkUpdate(
        body(#"{"data":{"type":"articles","id":"2"}}"#), type: "articles", id: "1")
    }
    #expect(
      throws: JSONAPIRequestError.typeMismatch(
        expected: "articles", found: "people", pointer: "/data/type")
    ) {
      try rules.checkUpdate(
        body(#"{"data":{"type":"people","id":"1"}}"#), type: "articles", id: "1")
    }
    #expect(throws: JSONAPIRequestError.missingID(pointer: "/data")) {
      try rules.checkUpdate(body(#"{"data":{"type":"articles"}}"#), type: "articles", id: "1")
    }
  }

  @Test func statusesAndPointers() {
    let cases: [(JSONAPIRequestError, Int, String?)] = [
      (.typeMismatch(expected: "a", found: "b", pointer: "/data/type"), 409, "/data/type"),
      (.idMismatch(expected: "1", found: "2"), 409, "/data/id"),
      (.missingID(pointer: "/data"), 400, "/data"),
      (.clientGeneratedIDNotSupported(id: "1"), 403, "/data/id"),
      (.resourceAlreadyExists(type: "a", id: "1"), 409, "/data/id"),
      (.resourceNotFound(type: "a", id: "1"), 404, nil),
      (
        .relatedResourceNotFound(type: "a", id: "1", pointer: "/data/relationships/x/data"), 404,
        "/data/relationships/x/data"
      ),
      (.fullReplacementNotAllowed(relationship: "tags"), 403, nil),
      (.relationshipNotFound(name: "x"), 404, nil),
    ]
    for (error, status, pointer) in cases {
      #expect(error.status == status)
      #expect(error.pointer == pointer)
      let object = JSONAPIErrorObject(describing: error)
      #expect(object.status == String(status))
      #expect(object.source?.pointer == pointer)
      #expect(object.code == error.code)
    }
  }

  // R83, R84: identifiers sent to a relationship endpoint must have its type.
  @Test func linkageOfAnotherTypeConflicts() {
    let rules = JSONAPIRequestRules()
    let tags = [
      JSONAPIResourceIdentifier(type: "tags", id: "1"),
      JSONAPIResourceIdentifier(type: "people", id: "2"),
    ]
    #expect(
      throws: JSONAPIRequestError.typeMismatch(
        expected: "tags", found: "people", pointer: "/data/1/type")
    ) {
      try rules.checkLinkage(tags, type: "tags", toMany: true)
    }
    #expect(
      throws: JSONAPIRequestError.typeMismatch(
        expected: "tags", found: "people", pointer: "/data/type")
    ) {
      try rules.checkLinkage([tags[1]], type: "tags", toMany: false)
    }
  }
}

extension RequestRulesTests {
  // R34, R84: an identifier without `id` is named by its position.
  @Test func linkageWithoutIDNamesTheIdentifier() {
    let identifiers = [
      JSONAPIResourceIdentifier(type: "tags", id: "1"),
      JSONAPIResourceIdentifier(type: "tags", lid: "x"),
    ]
    #expect(throws: JSONAPIRequestError.missingID(pointer: "/data/1")) {
      try JSONAPIRequestRules().checkLinkage(identifiers, type: "tags", toMany: true)
    }
  }

  // R102: inside Atomic Operations a `lid` names a resource an earlier operation created.
  @Test func linkageByLidIsAcceptedWhereLocalIDsAre() throws {
    let identifiers = [
      JSONAPIResourceIdentifier(type: "tags", id: "1"),
      JSONAPIResourceIdentifier(type: "tags", lid: "x"),
    ]
    try JSONAPIRequestRules().checkLinkage(
      identifiers, type: "tags", toMany: true, allowsLocalIDs: true)
    let neither = JSONAPIResourceIdentifier(type: "tags", lid: "x")
    var bare = neither
    bare.lid = nil
    #expect(throws: JSONAPIRequestError.missingID(pointer: "/data")) {
      try JSONAPIRequestRules().checkLinkage(
        [bare], type: "tags", toMany: false, allowsLocalIDs: true)
    }
  }

  // R60: the extensions a request's body applies are read from its Content-Type.
  @Test func theRequestsMediaTypeNamesItsExtensions() {
    let atomic = JSONAPIContentNegotiation.requestMediaType(headers: [
      ("accept", "application/vnd.api+json"),
      ("content-type", #"application/vnd.api+json;ext="https://jsonapi.org/ext/atomic""#),
    ])
    #expect(atomic?.extensions == [JSONAPIMediaType.atomicExtension])
    #expect(JSONAPIContentNegotiation.requestMediaType(headers: [("Accept", "x")]) == nil)
    let twice = JSONAPIContentNegotiation.requestMediaType(headers: [
      ("Content-Type", JSONAPIMediaType.name), ("Content-Type", JSONAPIMediaType.name),
    ])
    #expect(twice == nil, "two Content-Type fields name no one media type")
  }
}
