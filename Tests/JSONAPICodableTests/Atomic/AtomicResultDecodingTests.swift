import Foundation
import Testing

@testable import JSONAPICodable

/// `JSONAPIDecoder().decode([JSONAPIOperationResult].self, from:)` reads `atomic:results`
/// documents as a client does (R109, R111); `result.decode(_:)` resolves across results.
@Suite struct AtomicResultDecodingTests {
  let decoder = JSONAPIDecoder()

  struct Author: Decodable, Equatable {
    var id: String
    var name: String
  }
  struct Post: Decodable {
    var id: String
    var title: String
    var links: JSONAPILinks?
    var author: JSONAPIRelationship<Author?>
  }

  @Test func theSpecsResultsDecodeAsModels() throws {
    // R109: each result's data is the created resource; here the author relationship has links only.
    let results = try decoder.decode(
      [JSONAPIOperationResult].self, from: Fixture.corpus("atomic_multiple-results"))
    #expect(results.count == 2)
    #expect(try results[0].decode(Author.self).name == "dgeb")
    let post = try results[1].decode(Post.self)
    #expect(post.title == "JSON API paints my bikeshed!")
    #expect(post.author.data == nil)
    #expect(post.author.links?.related?.href.hasSuffix("/author") == true)
    #expect(
      post.links?.selfLink?.href
        == "http://example.com/articles/bb3ad581-806f-4237-b748-f2ea0261845c")
  }

  @Test func relationshipsResolveAcrossResultsByIDAndLID() throws {
    // R111: result i answers operation i; the article's author is the person of result 0, named
    // by id in one relationship and by lid in the other.
    let json = """
      {"atomic:results": [
        {"data": {"type": "people", "id": "9", "lid": "p1", "attributes": {"name": "Dan"}}},
        {"data": {"type": "articles", "id": "1", "attributes": {"title": "Hello"},
                  "relationships": {"author": {"data": {"type": "people", "id": "9"}}}},
         "meta": {"revision": 1}},
        {"data": {"type": "articles", "id": "2", "attributes": {"title": "Again"},
                  "relationships": {"author": {"data": {"type": "people", "lid": "p1"}}}}},
        {}
      ]}
      """
    let results = try decoder.decode([JSONAPIOperationResult].self, from: Data(json.utf8))
    #expect(results.count == 4)
    #expect(
      try results[1].decode(AtomicArticle.self).author
        == AtomicPerson(id: "9", lid: "p1", name: "Dan"))
    #expect(try results[2].decode(AtomicArticle.self).author?.name == "Dan")
    #expect(results[1].meta == ["revision": 1])
    #expect(results[0].meta == nil)
    #expect(results[3].hasData == false)
    #expect(try results[3].decode(AtomicArticle?.self) == nil)
    #expect(throws: DecodingError.self) { try results[3].decode(AtomicArticle.self) }
  }

  @Test func aResultWithNullDataDecodesAsNil() throws {
    let results = try decoder.decode(
      [JSONAPIOperationResult].self, from: Data(#"{"atomic:results": [{"data": null}]}"#.utf8))
    #expect(results[0].hasData)
    #expect(try results[0].decode(AtomicArticle?.self) == nil)
  }

  @Test func topLevelMetaAndResultMetaAreKept() throws {
    let data = try Fixture.corpus("art4_atomic-results-with-meta")
    let results = try decoder.decode([JSONAPIOperationResult].self, from: data)
    #expect(try results[0].decode(AtomicArticle.self).id == "13")
    // The document's own meta is read as usual, beside the results.
    struct Note: Decodable { var note: String }
    let document = try decoder.decode(JSONAPIDocument<AtomicArticle?, Note>.self, from: data)
    #expect(document.meta?.note.hasPrefix("BC 1.0") == true)
  }

  @Test func theDecodersSettingsApplyToResults() throws {
    let decoder = JSONAPIDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let json =
      #"{"atomic:results": [{"data": {"type": "articles", "id": "1", "attributes": {"word_count": 3}}}]}"#
    let results = try decoder.decode([JSONAPIOperationResult].self, from: Data(json.utf8))
    #expect(try results[0].decode(AtomicArticle.self).wordCount == 3)
  }

  @Test func anErrorDocumentPointingIntoOperationsIsAnErrorDocument() throws {
    // R113: errors point into the request's operations; R100: never beside results.
    let json = """
      {"errors": [{"status": "422", "title": "Invalid title",
                   "source": {"pointer": "/atomic:operations/1/data/attributes/title"}}],
       "jsonapi": {"version": "1.1", "ext": ["https://jsonapi.org/ext/atomic"]}}
      """
    let error = thrownError {
      try decoder.decode([JSONAPIOperationResult].self, from: Data(json.utf8))
    }
    guard case .errorDocument(let document)? = error as? JSONAPIError else {
      Issue.record("expected an error document, got \(String(describing: error))")
      return
    }
    #expect(document.errors.first?.source?.pointer == "/atomic:operations/1/data/attributes/title")
    #expect(document.errors.first?.status == "422")
  }

  @Test func membersTheExtensionDoesNotDefineAreIgnored() throws {
    let json = #"{"atomic:results": [{"links": {"self": "/x"}, "data": null, "other:x": 1}]}"#
    #expect(try decoder.decode([JSONAPIOperationResult].self, from: Data(json.utf8)).count == 1)
  }

  @Test func aDocumentWithoutResultsGivesNone() throws {
    // R100: results MAY be absent (a meta-only answer).
    #expect(
      try decoder.decode([JSONAPIOperationResult].self, from: Data(#"{"meta": {"a": 1}}"#.utf8))
        .isEmpty)
  }

  @Test func documentsBreakingTheExtensionThrowWithPointers() throws {
    // R99: no data beside results; R100: not both operations and results; results are objects.
    #expect(pointer(#"{"atomic:results": [{}], "data": null}"#) == "/data")
    #expect(
      pointer(#"{"atomic:results": [{}], "atomic:operations": [{"op": "remove"}]}"#)
        == "/atomic:operations")
    #expect(pointer(#"{"atomic:results": [{}, 3]}"#) == "/atomic:results/1")
    #expect(pointer(#"{"atomic:results": {}}"#) == "/atomic:results")
    #expect(pointer(#"{"atomic:results": [{"meta": 1}]}"#) == "/atomic:results/0/meta")
  }

  @Test func errorsInsideAResultPointIntoTheResultsDocument() throws {
    // R40: two resources with one identity; R12: a resource needs a type.
    let json = """
      {"atomic:results": [{"data": {"type": "people", "id": "9"}},
                          {"data": [{"type": "people", "id": "9"}, {"type": "people", "id": "9"}]},
                          {"data": {"id": "3"}}]}
      """
    let results = try decoder.decode([JSONAPIOperationResult].self, from: Data(json.utf8))
    let duplicate = thrownError { try results[1].decode([AtomicPerson].self) }
    guard case .duplicateResource(_, _, let pointer)? = duplicate as? JSONAPIError else {
      Issue.record("expected duplicateResource, got \(String(describing: duplicate))")
      return
    }
    #expect(pointer == "/atomic:results/1/data/1")
    let untyped = thrownError { try results[2].decode(AtomicPerson.self) }
    guard case .invalidDocument(_, let untypedPointer)? = untyped as? JSONAPIError else {
      Issue.record("expected invalidDocument, got \(String(describing: untyped))")
      return
    }
    #expect(untypedPointer == "/atomic:results/2/data")
  }

  @Test func resultsReadByOtherDecodersKeepTheirData() throws {
    // Foundation's decoder reads a result object on its own: no resolution across results.
    let result = try JSONDecoder().decode(
      JSONAPIOperationResult.self,
      from: Data(
        #"{"data": {"type": "people", "id": "9", "attributes": {"name": "Dan"}}, "meta": {"a": 1}}"#
          .utf8))
    #expect(try result.decode(AtomicPerson.self).name == "Dan")
    #expect(result.meta == ["a": 1])
  }

  private func pointer(_ json: String) -> String? {
    let error = thrownError {
      try decoder.decode([JSONAPIOperationResult].self, from: Data(json.utf8))
    }
    guard case .invalidDocument(_, let pointer)? = error as? JSONAPIError else { return nil }
    return pointer
  }
}
