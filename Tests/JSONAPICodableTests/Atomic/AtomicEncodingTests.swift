import Foundation
import Testing

@testable import JSONAPICodable

/// `JSONAPIEncoder.encode(operations:)` writes Atomic Operations requests (digest §17, R98-R108);
/// every document is checked by `AtomicComplianceChecker` and its resource objects by the schema.
@Suite struct AtomicEncodingTests {
  let encoder = JSONAPIEncoder()
  let article = JSONAPIResourceIdentifier(type: "articles", id: "13")

  @Test func operationsComeInOneDocumentWithMembersInSpecOrder() throws {
    // R101-R103: op, ref or href, data, meta, in this order; top level meta after the operations.
    let data = try encoder.encode(
      operations: [
        .add(AtomicPerson(lid: "p1", name: "Dan"), href: "/people", meta: ["source": "import"]),
        .remove(article, meta: ["reason": "spam"]),
      ],
      meta: ["batch": 7])
    #expect(
      text(data)
        == #"{"atomic:operations":[{"op":"add","href":"\/people","data":{"type":"people","lid":"p1","#
        + #""attributes":{"name":"Dan"}},"meta":{"source":"import"}},{"op":"remove","ref":{"type":"#
        + #""articles","id":"13"},"meta":{"reason":"spam"}}],"meta":{"batch":7}}"#)
    _ = try checkedAtomic(data, name: "atomic-member-order")
  }

  @Test func aResourceIsEncodedAsTheEncoderEncodesPrimaryDataWithoutIncluded() throws {
    // R104: add with lid; the related person (more than an identifier) is linkage only, never
    // included (R99).
    let encoder = JSONAPIEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let new = AtomicArticle(
      lid: "a1", title: "Hello", wordCount: 2, author: AtomicPerson(lid: "p1", name: "Dan"))
    let document = try checkedAtomic(
      encoder.encode(operations: [.add(new)]), name: "atomic-add-snake-case")
    let expected: JSONAPIValue = [
      "atomic:operations": [
        [
          "op": "add",
          "data": [
            "type": "articles", "lid": "a1",
            "attributes": ["title": "Hello", "word_count": 2],
            "relationships": ["author": ["data": ["type": "people", "lid": "p1"]]],
          ],
        ]
      ]
    ]
    #expect(document == expected)
    // The same resource as the encoder writes it as a create body, but for included.
    encoder.includesRelatedResources = false
    let body = try JSONDecoder().decode(JSONAPIValue.self, from: encoder.encode(new))
    #expect(document["atomic:operations"]?[0]?["data"] == body["data"])
  }

  @Test func sparseFieldsetsApplyToResourcesInOperations() throws {
    // R105: an update sends only the fields asked for.
    let encoder = JSONAPIEncoder()
    encoder.sparseFieldsets = ["articles": ["title"]]
    let document = try checkedAtomic(
      encoder.encode(operations: [
        .update(AtomicArticle(id: "13", title: "Renamed", wordCount: 9))
      ]), name: "atomic-update-sparse")
    #expect(
      document["atomic:operations"]?[0]?["data"]
        == ["type": "articles", "id": "13", "attributes": ["title": "Renamed"]])
  }

  @Test func relationshipOperationsWriteRefWithRelationshipAndLinkage() throws {
    // R107: to-one set and cleared; R108: to-many add, replace, remove.
    let person = JSONAPIResourceIdentifier(type: "people", lid: "p1")
    let tag = JSONAPIResourceIdentifier(type: "tags", id: "2", meta: ["weight": 1])
    let document = try checkedAtomic(
      encoder.encode(operations: [
        .add(AtomicPerson(lid: "p1", name: "Dan")),
        .updateRelationship("author", of: article, to: person),
        .updateRelationship("editor", of: article, to: nil),
        .addToRelationship("tags", of: article, [tag]),
        .updateRelationship("tags", of: article, to: []),
        .removeFromRelationship("tags", of: article, [tag]),
      ]), name: "atomic-relationships")
    let operations = document["atomic:operations"]?.arrayValue ?? []
    #expect(operations.map { $0["op"] } == ["add", "update", "update", "add", "update", "remove"])
    #expect(
      operations[1]
        == [
          "op": "update",
          "ref": ["type": "articles", "id": "13", "relationship": "author"],
          "data": ["type": "people", "lid": "p1"],
        ])
    #expect(operations[2]["data"] == .null)
    #expect(operations[3]["data"] == [["type": "tags", "id": "2", "meta": ["weight": 1]]])
    #expect(operations[4]["data"] == [])
    #expect(operations[5]["ref"]?["relationship"] == "tags")
  }

  @Test func hrefTargetsReplaceRef() throws {
    // R102: href instead of ref, for resources and relationships.
    let tag = JSONAPIResourceIdentifier(type: "tags", id: "2")
    let document = try checkedAtomic(
      encoder.encode(operations: [
        .add(AtomicArticle(title: "Hi"), href: "/blogPosts"),
        .update(AtomicArticle(id: "13", title: "Renamed"), href: "/articles/13"),
        .remove(href: "/articles/7"),
        .updateRelationship(href: "/articles/13/relationships/author", to: nil),
        .updateRelationship(href: "/articles/13/relationships/tags", to: [tag]),
        .addToRelationship(href: "/articles/13/relationships/tags", [tag]),
        .removeFromRelationship(href: "/articles/13/relationships/tags", [tag]),
      ]), name: "atomic-href")
    let operations = document["atomic:operations"]?.arrayValue ?? []
    #expect(operations.allSatisfy { $0["href"] != nil && $0["ref"] == nil })
    #expect(operations[2] == ["op": "remove", "href": "/articles/7"])
    #expect(operations[3]["data"] == .null)
  }

  @Test func removeByLocalIdentifierAndTheGeneralInitializer() throws {
    // R102: ref by type+lid; an operation without data built from its parts.
    var operation = JSONAPIOperation(
      op: .remove, ref: JSONAPIOperationReference(type: "people", lid: "p1"))
    operation.meta = ["soft": true]
    let document = try checkedAtomic(
      encoder.encode(operations: [.add(AtomicPerson(lid: "p1", name: "Dan")), operation]),
      name: "atomic-remove-lid")
    #expect(
      document["atomic:operations"]?[1]
        == ["op": "remove", "ref": ["type": "people", "lid": "p1"], "meta": ["soft": true]])
  }

  @Test func topLevelJSONAPIObjectDeclaresTheExtension() throws {
    // R98: the extension's URI, also in the jsonapi object.
    let data = try encoder.encode(
      operations: [.remove(article)],
      jsonapi: JSONAPIObject(version: "1.1", ext: ["https://jsonapi.org/ext/atomic"]))
    let document = try checkedAtomic(data, name: "atomic-jsonapi")
    #expect(document["jsonapi"]?["ext"] == ["https://jsonapi.org/ext/atomic"])
  }

  @Test func outputIsDeterministic() throws {
    let operations: [JSONAPIOperation] = [
      .add(AtomicArticle(lid: "a1", title: "Hello", author: AtomicPerson(lid: "p1"))),
      .updateRelationship(
        "tags", of: article, to: [JSONAPIResourceIdentifier(type: "tags", id: "1")]),
    ]
    let first = try encoder.encode(operations: operations)
    for _ in 0..<5 { #expect(try encoder.encode(operations: operations) == first) }
  }

  @Test func outputFormattingApplies() throws {
    let encoder = JSONAPIEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    let data = try encoder.encode(
      operations: [.add(AtomicPerson(lid: "p1", name: "Dan"), meta: ["b": 1, "a": 2])])
    #expect(
      text(data) == """
        {
          "atomic:operations" : [
            {
              "data" : {
                "attributes" : {
                  "name" : "Dan"
                },
                "lid" : "p1",
                "type" : "people"
              },
              "meta" : {
                "a" : 2,
                "b" : 1
              },
              "op" : "add"
            }
          ]
        }
        """)
  }

  /// A class, so not `Sendable`: operations take such values too (given up through `sending`).
  final class NestedArrays: Encodable {
    let depth: Int
    init(depth: Int) { self.depth = depth }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.unkeyedContainer()
      if depth > 0 { try container.encode(NestedArrays(depth: depth - 1)) }
    }
  }

  struct Deep: Encodable {
    var id = "1"
    var type = "deep"
    var nested: NestedArrays
  }

  @Test func theNestingLimitCountsFromTheResourceAsInADocument() throws {
    let encoder = JSONAPIEncoder()
    encoder.limits.maxNestingDepth = 10
    // What a document of the resource accepts, operations and results accept too.
    for depth in 5...12 {
      let document = Result { try encoder.encode(Deep(nested: NestedArrays(depth: depth))) }
      let operations = Result {
        try encoder.encode(operations: [.update(Deep(nested: NestedArrays(depth: depth)))])
      }
      let results = Result {
        try encoder.encode(results: [
          JSONAPIOperationResult(data: Deep(nested: NestedArrays(depth: depth)))
        ])
      }
      #expect((try? document.get()) != nil ? (try? operations.get()) != nil : true)
      #expect((try? document.get()) != nil ? (try? results.get()) != nil : true)
    }
    #expect(
      throws: JSONAPIError.encodingNestingTooDeep(
        limit: 10, codingPath: "atomic:operations[0].data.nested[0][0][0][0][0][0][0][0][0]")
    ) {
      try encoder.encode(operations: [.add(Deep(nested: NestedArrays(depth: 20)))])
    }
  }

  // MARK: - Errors

  @Test func invalidOperationsThrowWithTheirPath() throws {
    // R100: at least one operation.
    #expect(throws: JSONAPIError.self) { try encoder.encode(operations: []) }
    // R102: ref or href, not both.
    var both = JSONAPIOperation.remove(article)
    both.href = "/articles/13"
    #expect(
      codingPath(of: { try encoder.encode(operations: [.remove(article), both]) })
        == "atomic:operations[1]")
    // R102: a ref with neither id nor lid.
    var neither = JSONAPIOperationReference(type: "articles", id: "1")
    neither.id = nil
    #expect(
      codingPath(of: {
        try encoder.encode(operations: [JSONAPIOperation(op: .remove, ref: neither)])
      })
        == "atomic:operations[0].ref")
    // R106: a remove needs a target.
    #expect(
      codingPath(of: { try encoder.encode(operations: [JSONAPIOperation(op: .remove)]) })
        == "atomic:operations[0]")
    // R104: an add of a resource has one resource object as data.
    #expect(
      codingPath(of: { try encoder.encode(operations: [.add([AtomicPerson(id: "1")])]) })
        == "atomic:operations[0].data")
    // R43: meta is an object.
    #expect(
      codingPath(of: { try encoder.encode(operations: [.remove(article, meta: 3)]) })
        == "atomic:operations[0].meta")
    // R34: an identifier needs an id or a lid.
    var bare = JSONAPIResourceIdentifier(type: "tags", id: "1")
    bare.id = nil
    #expect(
      codingPath(of: {
        try encoder.encode(operations: [.addToRelationship("tags", of: article, [bare])])
      })
        == "atomic:operations[0].data[0]")
  }

  @Test func aResourceErrorNamesItsPlaceInTheOperations() throws {
    struct Untyped: Encodable { var id = "1" }
    let error = thrownError { try encoder.encode(operations: [.remove(article), .add(Untyped())]) }
    guard case .missingResourceType(_, let codingPath)? = error as? JSONAPIError else {
      Issue.record("expected missingResourceType, got \(String(describing: error))")
      return
    }
    #expect(codingPath == "atomic:operations[1].data")
  }

  private func codingPath(of body: () throws -> Data) -> String? {
    guard case .invalidValue(_, let codingPath)? = thrownError(body) as? JSONAPIError else {
      return nil
    }
    return codingPath
  }
}
