import Foundation
import Testing

@testable import JSONAPICodable

@Suite("Encoding included resources")
struct IncludedEncodingTests {
  static let ann = Person(id: "1", name: "Ann")
  static let bo = Person(id: "2", name: "Bo")

  @Test("shared relatives appear once in included, in first-seen order (R40)")
  func sharedRelativesDeduplicated() throws {
    let articles = [
      Article(id: "10", title: "A", author: Self.ann),
      Article(id: "11", title: "B", author: Self.bo),
      Article(id: "12", title: "C", author: Self.ann),
    ]
    let document = try encodeDocument(articles, name: "shared-relatives")
    #expect(
      document["included"] == [
        ["type": "people", "id": "1", "attributes": ["name": "Ann"]],
        ["type": "people", "id": "2", "attributes": ["name": "Bo"]],
      ])
    #expect(
      document["data"]?[2]?["relationships"] == ["author": ["data": ["type": "people", "id": "1"]]])
  }

  @Test("nested relatives are collected recursively, breadth first: article → comments → author")
  func nestedRelatives() throws {
    let article = Article(
      id: "1", title: "Hi", author: Person(id: "9", name: "Dan"),
      comments: [
        Comment(id: "c1", body: "First", author: Self.ann),
        Comment(id: "c2", body: "Second", author: Self.bo),
      ])
    let document = try encodeDocument(article, name: "nested-relatives")
    let included = document["included"]?.arrayValue ?? []
    #expect(
      included.map { "\($0["type"]?.stringValue ?? "")/\($0["id"]?.stringValue ?? "")" } == [
        "people/9", "comments/c1", "comments/c2", "people/1", "people/2",
      ])
    #expect(
      included[1] == [
        "type": "comments", "id": "c1", "attributes": ["body": "First"],
        "relationships": ["author": ["data": ["type": "people", "id": "1"]]],
      ])
  }

  @Test("a primary resource is never repeated in included; the primary as encoded wins (R40, R42)")
  func primaryNeverRepeated() throws {
    let nodes = [
      LinkedNode(id: "1", label: "one", next: .init(id: "2", label: "copy of two")),
      LinkedNode(id: "2", label: "two", next: .init(id: "1", label: "copy of one")),
    ]
    let document = try encodeDocument(nodes, name: "primary-not-repeated")
    #expect(document["included"] == nil)
    #expect(document["data"]?[1]?["attributes"] == ["label": "two"])
  }

  @Test("two payloads for one resource merge field-wise; the first-encoded value wins conflicts")
  func conflictingPayloadsMerge() throws {
    struct Writer: Encodable {
      var id = "w"
      var type = "writers"
      var name: String?
      var age: Int?
      var meta: JSONAPIValue?
    }
    struct Book: Encodable {
      var id: String
      var type = "books"
      var writer: Writer
    }
    let books = [
      Book(id: "1", writer: Writer(name: "First", age: nil, meta: ["a": 1])),
      Book(id: "2", writer: Writer(name: "Second", age: 40, meta: ["a": 2, "b": 3])),
    ]
    let document = try encodeDocument(books, name: "conflict-merge")
    #expect(
      document["included"] == [
        [
          "type": "writers", "id": "w", "attributes": ["name": "First", "age": 40],
          "meta": ["a": 1, "b": 3],
        ]
      ])
  }

  @Test("a relationship added by a later copy brings its relatives along (full linkage, R38)")
  func mergedRelationshipCollectsRelatives() throws {
    struct Member: Encodable {
      var id: String
      var type = "members"
      var name: String?
      var mentor: Mentor?
    }
    struct Mentor: Encodable {
      var id = "m"
      var type = "mentors"
      var name = "Mia"
    }
    struct Team: Encodable {
      var id = "t"
      var type = "teams"
      var members: [Member]
      var captain: Member
    }
    let team = Team(
      members: [Member(id: "1", name: "Ann", mentor: nil)],
      captain: Member(id: "1", name: "Ann", mentor: Mentor()))
    let document = try encodeDocument(team, name: "merged-relatives")
    #expect(
      document["included"] == [
        [
          "type": "members", "id": "1", "attributes": ["name": "Ann"],
          "relationships": ["mentor": ["data": ["type": "mentors", "id": "m"]]],
        ],
        ["type": "mentors", "id": "m", "attributes": ["name": "Mia"]],
      ])
  }

  @Test("includesRelatedResources = false leaves included out and keeps linkage")
  func withoutIncluded() throws {
    let encoder = JSONAPIEncoder()
    encoder.includesRelatedResources = false
    let article = Article(
      id: "1", title: "Hi", author: Self.ann,
      comments: [Comment(id: "c1", body: "x", author: Self.bo)])
    let document = try encodeDocument(article, name: "no-included", kind: .update, with: encoder)
    #expect(document["included"] == nil)
    #expect(
      document["data"]?["relationships"] == [
        "author": ["data": ["type": "people", "id": "1"]],
        "comments": ["data": [["type": "comments", "id": "c1"]]],
      ])
  }

  @Test("identifier-only relatives produce no included member at all (no \"included\": [])")
  func noEmptyIncluded() throws {
    let data = try JSONAPIEncoder().encode(Article(id: "1", title: "t", author: Person(id: "2")))
    #expect(!text(data).contains("included"))
  }

  @Test("many relatives: one per identity, type and id both count, first-met order")
  func manyIdentities() throws {
    struct Editor: Encodable {
      var id: String
      var type = "editors"
      var name = "E"
    }
    struct Post: Encodable {
      var id: String
      var type = "posts"
      var author: Person
      var editor: Editor
    }
    // 400 people and 400 editors with the same ids, each met three times: the identity
    // table grows many times over while it is read.
    let posts = (0..<1_200).map { number in
      let other = (number * 7) % 400
      return Post(
        id: "\(number)", author: Person(id: "\(number % 400)", name: "P\(number % 400)"),
        editor: Editor(id: "\(other)"))
    }
    let data = try JSONAPIEncoder().encode(posts)
    let document = try JSONDecoder().decode(JSONAPIValue.self, from: data)
    let included = document["included"]?.arrayValue ?? []
    let keys = included.map { "\($0["type"]?.stringValue ?? "")/\($0["id"]?.stringValue ?? "")" }
    var expected: [String] = []
    for number in 0..<400 {
      expected.append("people/\(number)")
      expected.append("editors/\((number * 7) % 400)")
    }
    #expect(keys == expected)
  }
}
