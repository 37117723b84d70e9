import Foundation
import Testing

@testable import JSONAPICodable

@Suite("Encoding relationships")
struct RelationshipEncodingTests {
  @Test("a nested resource is a to-one relationship with linkage (R29, R30)")
  func toOne() throws {
    let article = Article(id: "1", title: "Hi", author: Person(id: "9"))
    #expect(
      try encodeDocument(article, name: "to-one") == [
        "data": [
          "type": "articles", "id": "1", "attributes": ["title": "Hi"],
          "relationships": ["author": ["data": ["type": "people", "id": "9"]]],
        ]
      ])
  }

  @Test(
    "an array of resources is a to-many relationship; identifier-only relatives are not included")
  func toMany() throws {
    let article = Article(id: "1", title: "Hi", tags: [Tag(id: "a"), Tag(id: "b")])
    #expect(
      try encodeDocument(article, name: "to-many") == [
        "data": [
          "type": "articles", "id": "1", "attributes": ["title": "Hi"],
          "relationships": [
            "tags": ["data": [["type": "tags", "id": "a"], ["type": "tags", "id": "b"]]]
          ],
        ]
      ])
  }

  struct Post: Codable, Equatable {
    var id: String
    var type = "posts"
    var editor: JSONAPIRelationship<Person?>?
    var tags: JSONAPIRelationship<[Tag]>?
  }

  @Test("JSONAPIRelationship(data: nil) clears a to-one: data: null (R30, R83, R120)")
  func clearToOne() throws {
    let update = Post(id: "1", editor: JSONAPIRelationship(data: nil))
    #expect(
      try encodeDocument(update, name: "clear-to-one", kind: .update) == [
        "data": ["type": "posts", "id": "1", "relationships": ["editor": ["data": nil]]]
      ])
  }

  @Test("JSONAPIRelationship(data: []) empties a to-many: data: [] (R30, R84, R120)")
  func emptyToMany() throws {
    let update = Post(id: "1", tags: JSONAPIRelationship(data: []))
    #expect(
      try encodeDocument(update, name: "empty-to-many", kind: .update) == [
        "data": ["type": "posts", "id": "1", "relationships": ["tags": ["data": []]]]
      ])
  }

  @Test("JSONAPIRelationship writes the relationship's meta and links")
  func relationshipMetaAndLinks() throws {
    let post = Post(
      id: "1",
      tags: JSONAPIRelationship(
        data: [Tag(id: "x")], meta: ["count": 1],
        links: ["self": "/posts/1/relationships/tags", "related": "/posts/1/tags"]))
    #expect(
      try encodeDocument(post, name: "relationship-meta-links") == [
        "data": [
          "type": "posts", "id": "1",
          "relationships": [
            "tags": [
              "data": [["type": "tags", "id": "x"]], "meta": ["count": 1],
              "links": ["self": "/posts/1/relationships/tags", "related": "/posts/1/tags"],
            ]
          ],
        ]
      ])
  }

  @Test("a nil optional relationship is left out: omitted means unchanged in PATCH (R80)")
  func nilOptionalIsOmitted() throws {
    let article = Article(id: "1", title: "Hi", author: nil)
    #expect(
      try encodeDocument(article, name: "nil-relationship-omitted", kind: .update) == [
        "data": ["type": "articles", "id": "1", "attributes": ["title": "Hi"]]
      ])
  }

  @Test("an explicitly encoded nil of a JSONAPIRelationshipExpressible type is data: null")
  func explicitNilOfRelationshipType() throws {
    struct Assignment: Encodable {
      var id = "1"
      var type = "assignments"
      var assignee: Person? = nil
      enum CodingKeys: String, CodingKey { case id, type, assignee }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(type, forKey: .type)
        try container.encode(assignee, forKey: .assignee)
      }
    }
    #expect(
      try encodeDocument(Assignment(), name: "explicit-nil-relationship", kind: .update) == [
        "data": ["type": "assignments", "id": "1", "relationships": ["assignee": ["data": nil]]]
      ])
  }

  @Test("an empty plain array is an attribute; of a JSONAPIRelationshipExpressible type, data: []")
  func emptyArrays() throws {
    struct Plain: Encodable {
      var id: String
      var type = "plains"
    }
    struct Holder: Encodable {
      var id = "1"
      var type = "holders"
      var plains: [Plain] = []
      var tags: [Tag] = []
    }
    #expect(
      try encodeDocument(Holder(), name: "empty-arrays") == [
        "data": [
          "type": "holders", "id": "1", "attributes": ["plains": []],
          "relationships": ["tags": ["data": []]],
        ]
      ])
  }

  @Test("an array mixing resources and other values is an attribute")
  func mixedArrayIsAttribute() throws {
    struct Holder: Encodable {
      var id = "1"
      var type = "holders"
      var items: [JSONAPIValue] = [["type": "tags", "id": "a"], "loose"]
      var objects: [JSONAPIValue] = [["type": "tags", "id": "a"]]
    }
    #expect(
      try encodeDocument(Holder(), name: "mixed-array") == [
        "data": [
          "type": "holders", "id": "1",
          // JSONAPIValue objects are dictionaries: data, never resources.
          "attributes": [
            "items": [["type": "tags", "id": "a"], "loose"],
            "objects": [["type": "tags", "id": "a"]],
          ],
        ]
      ])
  }

  @Test("a related resource's meta rides on its identifier when it carries nothing else (R36)")
  func identifierMeta() throws {
    struct Tagged: Encodable {
      var id = "1"
      var type = "items"
      var tag = MetaTag()
    }
    struct MetaTag: Encodable {
      var id = "t"
      var type = "tags"
      var meta: JSONAPIValue = ["weight": 2]
    }
    #expect(
      try encodeDocument(Tagged(), name: "identifier-meta") == [
        "data": [
          "type": "items", "id": "1",
          "relationships": ["tag": ["data": ["type": "tags", "id": "t", "meta": ["weight": 2]]]],
        ]
      ])
  }

  @Test("lid links a new related resource (R13, R34, R41)")
  func localIdentifiers() throws {
    struct NewPerson: Encodable {
      var type = "people"
      var lid = "p1"
      var name = "New"
    }
    struct NewArticle: Encodable {
      var type = "articles"
      var lid = "a1"
      var author = NewPerson()
    }
    // Request bodies go without `included` (the create schema refuses it): the request form is
    // dumped for the schema check, the full form only checked here.
    let request = JSONAPIEncoder()
    request.includesRelatedResources = false
    #expect(
      try encodeDocument(NewArticle(), name: "lid-linkage", kind: .create, with: request) == [
        "data": [
          "type": "articles", "lid": "a1",
          "relationships": ["author": ["data": ["type": "people", "lid": "p1"]]],
        ]
      ])
    let full = try JSONAPIEncoder().encode(NewArticle())
    #expect(JSONAPIComplianceChecker.violations(in: full, purpose: .create) == [])
    #expect(
      try JSONDecoder().decode(JSONAPIValue.self, from: full) == [
        "data": [
          "type": "articles", "lid": "a1",
          "relationships": ["author": ["data": ["type": "people", "lid": "p1"]]],
        ],
        "included": [["type": "people", "lid": "p1", "attributes": ["name": "New"]]],
      ])
  }

  @Test("a JSONAPIRelationship whose data is not a resource is an invalidValue error")
  func relationshipOfNonResources() throws {
    struct Bad: Encodable {
      var id = "1"
      var type = "bad"
      var numbers = JSONAPIRelationship(data: [1, 2])
    }
    #expect {
      try JSONAPIEncoder().encode(Bad())
    } throws: { error in
      guard case JSONAPIError.invalidValue(_, let path) = error else { return false }
      return path == "numbers.data[0]"
    }
  }
}
