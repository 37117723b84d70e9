import Foundation
import Testing

@testable import JSONAPICodable

// Issue 36, item 4: a value whose type says it is a related resource is never written as an
// attribute, and one member of one Swift type is the same kind of field in every resource of a
// document.

@Suite("Encoding values of related-resource types")
struct RelatedTypeEncodingTests {
  /// A model that declares its type, with an optional `id` (nil: new, or forgotten).
  struct Novelist: Codable, Equatable, JSONAPIResource {
    static let jsonAPIType = "people"
    var id: String?
    var lid: String?
    var name: String?
  }

  /// A related-resource type by `JSONAPIRelationshipExpressible`, with a stored `type`.
  struct Referee: Codable, Equatable, JSONAPIRelationshipExpressible {
    var id: String?
    var type = "people"
  }

  struct Manuscript: Codable, Equatable {
    var id = "1"
    var type = "manuscripts"
    var title = "Draft"
    var author: Novelist?
    var reviewer: Referee?
    var contributors: [Novelist]?
    var reviewers: [Referee]?
  }

  /// The `EncodingError.invalidValue` that `body` throws, or `nil` (and an issue) for anything
  /// else.
  func invalidValue(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Data
  ) -> (value: Any, context: EncodingError.Context)? {
    do {
      let data = try body()
      Issue.record("no error: \(text(data))", sourceLocation: sourceLocation)
    } catch EncodingError.invalidValue(let value, let context) {
      return (value, context)
    } catch {
      Issue.record("another error: \(error)", sourceLocation: sourceLocation)
    }
    return nil
  }

  /// An operation as `op type`, such as `add people`.
  func summary(_ operation: JSONAPIValue) -> String {
    "\(operation["op"]?.stringValue ?? "?") \(operation["data"]?["type"]?.stringValue ?? "?")"
  }

  /// The coding path as text: member names and `[index]`.
  func path(_ codingPath: [any CodingKey]) -> String {
    codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: "/")
  }

  // MARK: - Refused: a related resource by its type, without id or lid

  @Test("a to-one JSONAPIResource without id or lid is refused, with its path and the fix (R34)")
  func toOneResourceWithoutIdentity() throws {
    let draft = Manuscript(author: Novelist(name: "Dan"))
    let error = try #require(invalidValue { try JSONAPIEncoder().encode(draft) })
    #expect(path(error.context.codingPath) == "author")
    #expect(error.value as? Any.Type == Novelist.self)
    #expect(
      error.context.debugDescription
        == "The value at `author` is a Novelist, a JSONAPIResource: a related resource, which needs "
        + "an `id`, or a `lid`, to be written as a relationship, and is never written as an "
        + "attribute. Give it an `id`; or, for a new resource, a `lid`, and send it with "
        + "create(graph:at:) (JSONAPIEncoder.encode(graph:)), which creates it in the same "
        + "request (see https://jsonapi.org/format/#document-resource-identifier-objects)")
    // A request body refuses it alike: the linkage would be missing from the create (R76).
    let body = try #require(invalidValue { try JSONAPIEncoder().encodeRequestBody(draft) })
    #expect(path(body.context.codingPath) == "author")
  }

  @Test("a to-one JSONAPIRelationshipExpressible without id or lid is refused (R34)")
  func toOneRelationshipExpressibleWithoutIdentity() throws {
    let error = try #require(
      invalidValue { try JSONAPIEncoder().encode(Manuscript(reviewer: Referee())) })
    #expect(path(error.context.codingPath) == "reviewer")
    #expect(error.context.debugDescription.contains("a Referee, a JSONAPIRelationshipExpressible"))
    #expect(error.context.debugDescription.contains("Give it an `id`"))
  }

  @Test("an element of a to-many without id or lid is refused at its index (R30, R34)")
  func toManyElementWithoutIdentity() throws {
    let writers = Manuscript(contributors: [Novelist(id: "1"), Novelist(name: "New")])
    let first = try #require(invalidValue { try JSONAPIEncoder().encode(writers) })
    #expect(path(first.context.codingPath) == "contributors/[1]")
    #expect(first.context.debugDescription.contains("`contributors[1]`"))
    #expect(first.context.debugDescription.contains("create(graph:at:)"))
    let reviewers = Manuscript(reviewers: [Referee(), Referee(id: "2")])
    let second = try #require(invalidValue { try JSONAPIEncoder().encode(reviewers) })
    #expect(path(second.context.codingPath) == "reviewers/[0]")
  }

  @Test("in a collection and in an included resource, the path leads to the member (R37)")
  func pathsThroughCollectionsAndIncluded() throws {
    struct Chapter: Encodable {
      var id: String
      var type = "chapters"
      var heading = "One"
      var editor: Novelist?
    }
    struct Book: Encodable {
      var id: String
      var type = "books"
      var chapters: [Chapter]
    }
    let books = [
      Book(id: "1", chapters: [Chapter(id: "c1", editor: Novelist(id: "9"))]),
      Book(id: "2", chapters: [Chapter(id: "c2"), Chapter(id: "c3", editor: Novelist(name: "?"))]),
    ]
    let error = try #require(invalidValue { try JSONAPIEncoder().encode(books) })
    #expect(path(error.context.codingPath) == "[1]/chapters/[1]/editor")
    #expect(error.context.debugDescription.contains("`[1].chapters[1].editor`"))
  }

  @Test("optionals: nil is left out or null, a value without id or lid is refused (R30, R80)")
  func optionals() throws {
    // Left out: unchanged in an update (R80).
    #expect(
      try encodeDocument(Manuscript(), name: "related-type-nil", kind: .update) == [
        "data": ["type": "manuscripts", "id": "1", "attributes": ["title": "Draft"]]
      ])
    // An explicit nil of a related-resource type clears it: "data": null (R30).
    struct Clearing: Encodable {
      var id = "1"
      var type = "manuscripts"
      var author: Novelist??
    }
    #expect(
      try encodeDocument(Clearing(author: .some(nil)), name: "related-type-null", kind: .update)
        == ["data": ["type": "manuscripts", "id": "1", "relationships": ["author": ["data": nil]]]]
    )
    let some = try #require(
      invalidValue { try JSONAPIEncoder().encode(Clearing(author: .some(Novelist(name: "x")))) })
    #expect(path(some.context.codingPath) == "author")
  }

  @Test("with an id or a lid it is a relationship; a type-less one names the missing type (R34)")
  func identifiedOrUntyped() throws {
    let request = JSONAPIEncoder()
    request.includesRelatedResources = false
    #expect(
      try encodeDocument(
        Manuscript(author: Novelist(id: "9"), contributors: [Novelist(lid: "w1", name: "New")]),
        name: "related-type-identified", kind: .create, with: request) == [
          "data": [
            "type": "manuscripts", "id": "1", "attributes": ["title": "Draft"],
            "relationships": [
              "author": ["data": ["type": "people", "id": "9"]],
              "contributors": ["data": [["type": "people", "lid": "w1"]]],
            ],
          ]
        ])
    struct Untyped: Encodable, JSONAPIRelationshipExpressible { var id = "3" }
    struct Holder: Encodable {
      var id = "1"
      var type = "holders"
      var owner = Untyped()
    }
    #expect {
      try JSONAPIEncoder().encode(Holder())
    } throws: { error in
      guard case JSONAPIError.missingResourceType(let swiftType, let path) = error else {
        return false
      }
      return swiftType == "Untyped" && path == "owner"
    }
  }

  @Test("a value of a plain type without id stays an attribute (R21)")
  func plainTypeStaysAttribute() throws {
    struct Label: Encodable {
      var type = "labels"
      var text = "new"
    }
    struct Holder: Encodable {
      var id = "1"
      var type = "holders"
      var label = Label()
    }
    #expect(
      try encodeDocument(Holder(), name: "related-type-plain") == [
        "data": [
          "type": "holders", "id": "1",
          "attributes": ["label": ["type": "labels", "text": "new"]],
        ]
      ])
  }

  @Test("the primary resource of a create has no id, and needs none (R12, R75)")
  func primaryWithoutIdentity() throws {
    let body = try JSONAPIEncoder().encodeRequestBody(Novelist(name: "Dan"))
    #expect(
      try checked(body, name: "related-type-create", kind: .create) == [
        "data": ["type": "people", "attributes": ["name": "Dan"]]
      ])
  }

  @Test("encode(graph:) still adds nested values without id or lid as new resources (R104)")
  func graphCreatesUnaffected() throws {
    let draft = GraphEntry(
      headline: "Graphs", blog: GraphBlog(name: "Swift notes"),
      authors: [GraphPerson(name: "Dan")])
    let operations = try checkedGraph(
      try JSONAPIEncoder().encode(graph: draft), name: "related-type-graph")
    #expect(operations.map(summary) == ["add blogs", "add people", "add entries"])
    // The same draft as a plain document: the blog would be lost as an attribute.
    let error = try #require(invalidValue { try JSONAPIEncoder().encode(draft) })
    #expect(path(error.context.codingPath) == "blog")
  }

  // MARK: - Empty to-many relationships

  @Test("an empty to-many of a related-resource type is data: [], also optional (R30, R84)")
  func emptyToManyOfDeclaredTypes() throws {
    #expect(
      try encodeDocument(
        Manuscript(contributors: [], reviewers: []), name: "related-type-empty", kind: .update)
        == [
          "data": [
            "type": "manuscripts", "id": "1", "attributes": ["title": "Draft"],
            "relationships": ["contributors": ["data": []], "reviewers": ["data": []]],
          ]
        ])
  }

  @Test("one member, two resources: empty comments are data: [] beside full ones (R20, R30)")
  func mixedDocument() throws {
    let comment = Comment(id: "c1", body: "Nice")
    for articles in [
      [
        Article(id: "1", title: "Empty", comments: []),
        Article(id: "2", title: "Full", comments: [comment]),
      ],
      [
        Article(id: "2", title: "Full", comments: [comment]),
        Article(id: "1", title: "Empty", comments: []),
      ],
    ] {
      let document = try encodeDocument(
        articles, name: "related-type-mixed-\(articles[0].id ?? "")")
      let data = try #require(document["data"]?.arrayValue)
      let empty = try #require(data.first { $0["id"] == "1" })
      #expect(empty["relationships"]?["comments"] == ["data": []])
      #expect(empty["attributes"] == ["title": "Empty"])
      let full = try #require(data.first { $0["id"] == "2" })
      #expect(full["relationships"]?["comments"] == ["data": [["type": "comments", "id": "c1"]]])
    }
  }

  @Test("a member empty in every resource stays the attribute [] (R21)")
  func emptyEverywhereStaysAttribute() throws {
    let articles = [Article(id: "1", title: "A", comments: []), Article(id: "2", title: "B")]
    let document = try encodeDocument(articles, name: "related-type-all-empty")
    #expect(document["data"]?[0]?["attributes"] == ["title": "A", "comments": []])
    #expect(document["data"]?[0]?["relationships"] == nil)
    // An element type that is never a resource (`[String]`) decides at once, resource by
    // resource, even beside a full one.
    struct Labelled: Encodable {
      var id: String
      var type = "labelled"
      var labels: [String]
    }
    #expect(
      try encodeDocument(
        [Labelled(id: "1", labels: []), Labelled(id: "2", labels: ["a"])],
        name: "related-type-scalars") == [
          "data": [
            ["type": "labelled", "id": "1", "attributes": ["labels": []]],
            ["type": "labelled", "id": "2", "attributes": ["labels": ["a"]]],
          ]
        ])
  }

  @Test("the empty relationship keeps its place among the relationships, in member order")
  func memberOrder() throws {
    let articles = [
      Article(
        id: "1", title: "A", author: Person(id: "9"), comments: [], tags: [Tag(id: "t")]),
      Article(id: "2", title: "B", comments: [Comment(id: "c", body: "x")]),
    ]
    let body = text(try JSONAPIEncoder().encodeRequestBody(articles))
    #expect(
      body.contains(
        #"{"type":"articles","id":"1","attributes":{"title":"A"},"relationships":{"author":"#
          + #"{"data":{"type":"people","id":"9"}},"comments":{"data":[]},"tags":{"data":"#
          + #"[{"type":"tags","id":"t"}]}}}"#), "\(body)")
  }

  @Test("streamed past several batches, held resources come out as the whole tree writes them")
  func streamedAcrossBatches() throws {
    // Only the last of 150 articles has a comment: the first 149 wait for it.
    var articles = (0..<150).map { Article(id: "\($0)", title: "T\($0)", comments: []) }
    articles[149].comments = [Comment(id: "c", body: "last", author: Person(id: "p", name: "P"))]
    let encoder = JSONAPIEncoder()
    let streamed = try encoder.encode(articles)
    let whole = try encoder.encode(PrimaryDataStreamTests.Unstreamed(elements: articles))
    #expect(text(streamed) == text(whole))
    let document = try checked(streamed, name: "related-type-streamed", kind: .response)
    let data = try #require(document["data"]?.arrayValue)
    #expect(data.count == 150)
    #expect(data.allSatisfy { $0["relationships"]?["comments"] != nil })
    #expect(data.allSatisfy { $0["attributes"]?["comments"] == nil })
    #expect(document["included"]?.arrayValue?.map { $0["type"] } == ["comments", "people"])
    // Decided early: the empty ones after a full one are written as they stream.
    articles.swapAt(0, 149)
    let early = try encoder.encode(articles)
    #expect(
      text(early) == text(try encoder.encode(PrimaryDataStreamTests.Unstreamed(elements: articles)))
    )
  }

  /// A folder whose subfolders are included resources of the same type.
  struct Folder: Encodable {
    var id: String
    var type = "folders"
    var name: String
    var files: [File] = []
    var subfolders: [Folder] = []
  }

  struct File: Encodable {
    var id: String
    var type = "files"
  }

  @Test("a primary and an included resource of one type agree, whichever is met first (R37)")
  func primaryAndIncludedAgree() throws {
    let root = Folder(
      id: "1", name: "root",
      subfolders: [Folder(id: "2", name: "sub", files: [File(id: "f")])])
    let document = try encodeDocument(root, name: "related-type-folders")
    // `files` is learnt from the included folder, after the primary one was taken apart;
    // `subfolders` from the primary one, before the included one was.
    #expect(
      document["data"]?["relationships"] == [
        "files": ["data": []], "subfolders": ["data": [["type": "folders", "id": "2"]]],
      ])
    #expect(
      document["included"] == [
        [
          "type": "folders", "id": "2", "attributes": ["name": "sub"],
          "relationships": [
            "files": ["data": [["type": "files", "id": "f"]]], "subfolders": ["data": []],
          ],
        ]
      ])
  }

  @Test("a copy merged into an included resource brings its empty member as data: [] (R40)")
  func mergedCopies() throws {
    struct Summary: Encodable {
      var id: String
      var type = "folders"
      var name: String
    }
    struct Shelf: Encodable {
      var id = "s"
      var type = "shelves"
      var featured: Summary
      var folders: [Folder]
    }
    // Folder 1 is met first as a Summary, then as a Folder with empty files: merged; folder 2
    // shows that a Folder's files are a relationship.
    let shelf = Shelf(
      featured: Summary(id: "1", name: "one"),
      folders: [
        Folder(id: "1", name: "one"), Folder(id: "2", name: "two", files: [File(id: "f")]),
      ])
    let document = try encodeDocument(shelf, name: "related-type-merged")
    let one = try #require(document["included"]?.arrayValue?.first { $0["id"] == "1" })
    #expect(one["relationships"] == ["files": ["data": []]])
    // No folder has subfolders: they stay the attribute [].
    #expect(one["attributes"] == ["name": "one", "subfolders": []])
  }

  @Test("in a graph create, the empty member of another new resource is data: [] too (R104)")
  func graphEmptyToMany() throws {
    struct Item: Encodable {
      var type = "items"
      var label: String
    }
    struct Box: Encodable {
      var type = "boxes"
      var name: String
      var items: [Item] = []
      var inner: [Box] = []
    }
    let draft = Box(name: "outer", inner: [Box(name: "inner", items: [Item(label: "x")])])
    let operations = try checkedGraph(
      try JSONAPIEncoder().encode(graph: draft), name: "related-type-graph-empty")
    #expect(operations.map(summary) == ["add items", "add boxes", "add boxes"])
    let outer = try #require(operations.last)
    #expect(outer["data"]?["attributes"] == ["name": "outer"])
    #expect(outer["data"]?["relationships"]?["items"] == ["data": []])
    #expect(operations[1]["data"]?["relationships"]?["inner"] == ["data": []])
  }
}
