import Foundation
import Testing

@testable import JSONAPICodable

/// `JSONAPIDecoder().decodeOperations(from:)` reads `atomic:operations` documents as a server does
/// (R101-R108); `operation.decode(_:)` resolves `lid`s against earlier operations.
@Suite struct AtomicOperationDecodingTests {
  let decoder = JSONAPIDecoder()

  @Test func theSpecsOperationsDecode() throws {
    // R104: add with href to a collection of another name.
    let add = try decoder.decodeOperations(from: Fixture.corpus("atomic_add-with-href"))
    #expect(add.count == 1)
    #expect(add[0].op == .add)
    #expect(add[0].href == "/blogPosts")
    #expect(add[0].ref == nil)
    #expect(try add[0].decode(AtomicArticle.self).title == "JSON API paints my bikeshed!")
    // R106: remove by ref, no data.
    let remove = try decoder.decodeOperations(from: Fixture.corpus("atomic_remove-by-ref"))
    #expect(remove[0].op == .remove)
    #expect(remove[0].ref == JSONAPIOperationReference(type: "articles", id: "13"))
    #expect(remove[0].ref?.identifier == JSONAPIResourceIdentifier(type: "articles", id: "13"))
    #expect(remove[0].hasData == false)
    // R107: clearing a to-one relationship.
    let clear = try decoder.decodeOperations(from: Fixture.corpus("atomic_update-to-one-null"))
    #expect(clear[0].ref?.relationship == "author")
    #expect(clear[0].hasData)
    #expect(try clear[0].decode(JSONAPIResourceIdentifier?.self) == nil)
  }

  @Test func clientGeneratedIDsResolveAgainstEarlierOperations() throws {
    struct Author: Decodable, Equatable {
      var id: String
      var name: String
    }
    struct Post: Decodable {
      var id: String
      var author: Author
    }
    let operations = try decoder.decodeOperations(
      from: Fixture.corpus("atomic_multiple-ops-client-ids"))
    let post = try operations[1].decode(Post.self)
    #expect(post.author == Author(id: "acb2ebd6-ed30-4877-80ce-52a14d77d470", name: "dgeb"))
  }

  @Test func localIdentifiersResolveAgainstEarlierOperationsOnly() throws {
    // R102/R104: a lid names a resource an earlier operation created.
    let json = """
      {"atomic:operations": [
        {"op": "add", "data": {"type": "people", "lid": "p1", "attributes": {"name": "Dan"}}},
        {"op": "add", "data": {"type": "articles", "lid": "a1", "attributes": {"title": "Hi"},
                               "relationships": {"author": {"data": {"type": "people", "lid": "p1"}}}},
         "meta": {"draft": true}},
        {"op": "update", "ref": {"type": "articles", "lid": "a1", "relationship": "author"},
         "data": {"type": "people", "lid": "p1"}}
      ], "meta": {"batch": 1}}
      """
    let operations = try decoder.decodeOperations(from: Data(json.utf8))
    let article = try operations[1].decode(AtomicArticle.self)
    #expect(article.lid == "a1")
    #expect(article.author == AtomicPerson(lid: "p1", name: "Dan"))
    #expect(operations[1].meta == ["draft": true])
    #expect(
      operations[2].ref
        == JSONAPIOperationReference(type: "articles", lid: "a1", relationship: "author"))
    #expect(
      try operations[2].decode(JSONAPIResourceIdentifier.self)
        == JSONAPIResourceIdentifier(type: "people", lid: "p1"))
    // The first operation cannot see the later ones.
    let first = try operations[0].decode(AtomicPerson.self)
    #expect(first == AtomicPerson(lid: "p1", name: "Dan"))
  }

  @Test func relationshipDataDecodesAsIdentifiers() throws {
    let json = """
      {"atomic:operations": [
        {"op": "add", "ref": {"type": "articles", "id": "1", "relationship": "tags"},
         "data": [{"type": "tags", "id": "2"}, {"type": "tags", "id": "3", "meta": {"w": 1}}]}
      ]}
      """
    let operations = try decoder.decodeOperations(from: Data(json.utf8))
    #expect(
      try operations[0].decode([JSONAPIResourceIdentifier].self) == [
        JSONAPIResourceIdentifier(type: "tags", id: "2"),
        JSONAPIResourceIdentifier(type: "tags", id: "3", meta: ["w": 1]),
      ])
  }

  @Test func aMalformedResourceStillLetsTheOtherOperationsDecode() throws {
    // From Nekidev/jsonapi-atomic: resources with a `data` member instead of attributes.
    let operations = try decoder.decodeOperations(
      from: Fixture.corpus("nekidev_atomic-lid-malformed"))
    #expect(operations.map(\.op) == [.add, .add, .add, .update])
    #expect(
      try operations[3].decode(JSONAPIResourceIdentifier.self)
        == JSONAPIResourceIdentifier(type: "artist", lid: "artist-1"))
  }

  @Test func operationsBreakingTheExtensionThrowWithPointers() throws {
    // R101: op; R102: ref/href; R106: remove target; R104/R105: data.
    #expect(
      pointer(#"{"atomic:operations": [{"op": "delete", "ref": {"type": "a", "id": "1"}}]}"#)
        == "/atomic:operations/0/op")
    #expect(
      pointer(#"{"atomic:operations": [{"ref": {"type": "a", "id": "1"}}]}"#)
        == "/atomic:operations/0/op")
    #expect(
      pointer(
        #"{"atomic:operations": [{"op": "remove", "ref": {"type": "a", "id": "1"}, "href": "/a/1"}]}"#
      ) == "/atomic:operations/0")
    #expect(
      pointer(
        #"{"atomic:operations": [{"op": "remove", "ref": {"type": "a", "id": "1", "lid": "x"}}]}"#)
        == "/atomic:operations/0/ref")
    #expect(
      pointer(#"{"atomic:operations": [{"op": "remove", "ref": {"id": "1"}}]}"#)
        == "/atomic:operations/0/ref")
    #expect(
      // An integer id reads as its digits (issue 36); a fraction makes it no id (R14).
      pointer(#"{"atomic:operations": [{"op": "remove", "ref": {"type": "a", "id": 1.5}}]}"#)
        == "/atomic:operations/0/ref/id")
    #expect(pointer(#"{"atomic:operations": [{"op": "remove"}]}"#) == "/atomic:operations/0")
    #expect(
      pointer(#"{"atomic:operations": [{"op": "add", "href": "/a"}]}"#) == "/atomic:operations/0")
    #expect(
      pointer(#"{"atomic:operations": [{"op": "remove", "href": 3}]}"#)
        == "/atomic:operations/0/href")
    #expect(
      pointer(#"{"atomic:operations": [{"op": "remove", "href": "/a"}], "included": []}"#)
        == "/included")
    #expect(pointer(#"{"atomic:results": [{}]}"#) == "/atomic:results")
  }

  @Test func membersTheExtensionDoesNotDefineAreIgnored() throws {
    // R103 lists the members; JSON:API asks implementations to ignore the ones it does not define.
    let json = """
      {"atomic:operations": [{"op": "remove", "href": "/a/1", "other:flag": true, "@note": 1,
                              "links": {}},
                             {"op": "remove", "ref": {"type": "a", "id": "1", "x/y": "1"}}]}
      """
    let operations = try decoder.decodeOperations(from: Data(json.utf8))
    #expect(operations.count == 2)
    #expect(operations[1].ref == JSONAPIOperationReference(type: "a", id: "1"))
  }

  private func pointer(_ json: String) -> String? {
    let error = thrownError { try decoder.decodeOperations(from: Data(json.utf8)) }
    guard case .invalidDocument(_, let pointer)? = error as? JSONAPIError else { return nil }
    return pointer
  }
}
