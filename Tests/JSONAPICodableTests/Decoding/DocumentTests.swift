import Foundation
import Testing

@testable import JSONAPICodable

/// The top level: primary data shapes, JSONAPIDocument, error documents and non-documents (R1–R11, R88).
@Suite struct DocumentTests {
  let decoder = JSONAPIDecoder()

  struct Article: Decodable, Equatable {
    var id: String
    var title: String
  }

  struct PageMeta: Decodable, Equatable { var totalPages: Int }

  @Test func documentExposesMetaLinksAndJSONAPI() throws {
    let json = """
      {"jsonapi": {"version": "1.1", "ext": ["https://jsonapi.org/ext/atomic"]},
       "meta": {"totalPages": 13},
       "links": {"self": "/articles?page[number]=3", "next": {"href": "/articles?page[number]=4", "meta": {"n": 4}},
                 "prev": null},
       "data": [{"type": "articles", "id": "1", "attributes": {"title": "t"}}]}
      """
    let document = try decoder.decode(JSONAPIDocument<[Article], PageMeta>.self, from: json)
    #expect(document.data == [Article(id: "1", title: "t")])
    #expect(document.meta == PageMeta(totalPages: 13))
    #expect(document.links?.selfLink?.href == "/articles?page[number]=3")
    #expect(document.links?.next == JSONAPILink(href: "/articles?page[number]=4", meta: ["n": 4]))
    #expect(document.links?.prev == nil)
    #expect(
      document.jsonapi == JSONAPIObject(version: "1.1", ext: ["https://jsonapi.org/ext/atomic"]))
  }

  @Test func paginationLinksOfTheSpecExample() throws {
    let document = try decoder.decode(
      JSONAPIDocument<[JSONAPIValue], JSONAPIValue>.self,
      from: Fixture.corpus("examples_pagination-page-based"))
    #expect(document.meta?["totalPages"] == 13)
    #expect(document.links?.names == ["self", "first", "prev", "next", "last"])
    #expect(document.links?.last?.href.contains("page[number]=13") == true)
  }

  @Test func nullPrimaryDataDecodesIntoAnOptional() throws {
    // R8, R10
    let json = Fixture.corpus
    #expect(
      try decoder.decode(Article?.self, from: json("spec-1.1_fetch-null-primary-data")) == nil)
    let document = try decoder.decode(
      JSONAPIDocument<Article?, JSONAPIValue>.self, from: json("spec-1.1_fetch-null-primary-data"))
    #expect(document.data == nil)
  }

  @Test func metaOnlyDocumentGivesNilPrimaryData() throws {
    // R2: meta alone makes a document; R78/R82: 1.1 allows meta-only success responses.
    let document = try decoder.decode(
      JSONAPIDocument<Article?, JSONAPIValue>.self, from: Fixture.corpus("lode_meta-empty-only"))
    #expect(document.data == nil)
    #expect(document.meta == .object([:]))
    #expect(try decoder.decode(Article?.self, from: #"{"meta": {}}"#) == nil)
    let error = thrownError { try decoder.decode(Article.self, from: #"{"meta": {}}"#) }
    guard case .valueNotFound = error as? DecodingError else {
      Issue.record("expected valueNotFound, got \(String(describing: error))")
      return
    }
  }

  @Test func singleVersusCollectionIsDecidedByShape() throws {
    // R9: a collection is an array even with one element.
    let one = #"{"data": [{"type": "articles", "id": "1", "attributes": {"title": "t"}}]}"#
    #expect(try decoder.decode([Article].self, from: one).count == 1)
    let error = thrownError { try decoder.decode(Article.self, from: one) }
    guard case .typeMismatch = error as? DecodingError else {
      Issue.record("expected typeMismatch, got \(String(describing: error))")
      return
    }
    let single = #"{"data": {"type": "articles", "id": "1", "attributes": {"title": "t"}}}"#
    guard
      case .typeMismatch = thrownError({ try decoder.decode([Article].self, from: single) })
        as? DecodingError
    else {
      Issue.record("expected typeMismatch for an object decoded as an array")
      return
    }
  }

  @Test func emptyCollection() throws {
    let articles = try decoder.decode(
      [Article].self, from: Fixture.corpus("spec-1.1_fetch-empty-collection"))
    #expect(articles.isEmpty)
  }

  @Test func errorDocumentThrowsItsErrorsFromAnyDecode() throws {
    // R88, R126: errors alone make an error document.
    let data = try Fixture.corpus("examples_error-basic")
    let error = thrownError { try decoder.decode([Article].self, from: data) }
    guard case .errorDocument(let errors) = error as? JSONAPIError else {
      Issue.record("expected errorDocument, got \(String(describing: error))")
      return
    }
    #expect(errors.count == 1)
    #expect(errors[0].status == "422")
    #expect(errors[0].source?.pointer == "/data/attributes/firstName")
    #expect(errors[0].title == "Invalid Attribute")
    let document = thrownError {
      try decoder.decode(JSONAPIDocument<[Article], JSONAPIValue>.self, from: data)
    }
    #expect(document as? JSONAPIError == error as? JSONAPIError)
  }

  @Test func errorObjectsKeepEveryMember() throws {
    let data = try Fixture.corpus("lode_errors-all-options")
    guard
      case .errorDocument(let errors) = thrownError({
        try decoder.decode(JSONAPIValue.self, from: data)
      })
        as? JSONAPIError
    else {
      Issue.record("expected an error document")
      return
    }
    #expect(errors.contains { $0.id == "42" })  // numeric id read leniently (R90)
    #expect(errors.contains { $0.source?.header != nil && $0.source?.parameter != nil })
    #expect(errors.contains { $0.links?.about != nil && $0.links?.type != nil })
  }

  @Test func errorObjectWithOnlySourceHeader() throws {
    guard
      case .errorDocument(let errors) = thrownError({
        try decoder.decode(JSONAPIValue.self, from: Fixture.corpus("art4_error-source-header"))
      }) as? JSONAPIError
    else {
      Issue.record("expected an error document")
      return
    }
    #expect(errors.first?.source?.header != nil)
  }

  @Test func notADocument() throws {
    // R1, R2
    for (json, needle) in [
      ("[]", "top level is an array"), ("{}", "none of data, errors and meta"),
      (#"{"jsonapi": {"version": "1.1"}}"#, "none of data"),
      // `"meta": null` reads as absent (issue 36), so nothing makes this a document.
      (#"{"meta": null}"#, "none of data, errors and meta"),
      (#"{"meta": []}"#, "meta must be an object"),
      (#""data""#, "top level is a string"),
    ] {
      guard
        case .notADocument(let reason) = thrownError({
          try decoder.decode(Article?.self, from: json)
        })
          as? JSONAPIError
      else {
        Issue.record("\(json): expected notADocument")
        continue
      }
      #expect(reason.contains(needle), "\(json): \(reason)")
    }
  }

  @Test func structuralViolationsAtTheTopLevel() throws {
    let cases: [(String, String)] = [
      (#"{"data": null, "errors": []}"#, ""),  // R3
      (#"{"meta": {}, "included": []}"#, "/included"),  // R5
      (#"{"data": [], "included": {}}"#, "/included"),  // R37
      (#"{"data": "x"}"#, "/data"),  // R8
      (#"{"errors": {}}"#, "/errors"),  // R88
      (#"{"data": [1]}"#, "/data/0"),
    ]
    for (json, pointer) in cases {
      guard
        case .invalidDocument(_, let found) = thrownError({
          try decoder.decode(JSONAPIValue?.self, from: json)
        })
          as? JSONAPIError
      else {
        Issue.record("\(json): expected invalidDocument")
        continue
      }
      #expect(found == pointer, "\(json)")
    }
  }

  @Test func duplicateResourcesAreRejected() throws {
    // R40
    let error = thrownError {
      try decoder.decode(
        JSONAPIValue.self,
        from: Fixture.corpus("official-schema-tests-1.0_invalid-resource-included-twice"))
    }
    #expect(
      error as? JSONAPIError == .duplicateResource(type: "people", id: "9", pointer: "/included/1"))
    let primaryRepeated = """
      {"data": {"type": "a", "id": "1"}, "included": [{"type": "a", "id": "1"}]}
      """
    #expect(
      thrownError({ try decoder.decode(JSONAPIValue.self, from: primaryRepeated) }) as? JSONAPIError
        == .duplicateResource(type: "a", id: "1", pointer: "/included/0"))
  }

  @Test func decodesFromBytesStringAndData() throws {
    let text = #"{"data": {"type": "articles", "id": "1", "attributes": {"title": "t"}}}"#
    let expected = Article(id: "1", title: "t")
    #expect(try decoder.decode(Article.self, from: text) == expected)
    #expect(try decoder.decode(Article.self, from: Array(text.utf8)) == expected)
    #expect(try decoder.decode(Article.self, from: Data(text.utf8)) == expected)
  }

  @Test func jsonapiValueAsPrimaryDataKeepsTheRawJSON() throws {
    let value = try decoder.decode(
      JSONAPIValue.self, from: #"{"data": {"type": "t", "id": "1", "attributes": {"n": 1.5}}}"#)
    #expect(value["attributes"]?["n"] == .number(1.5))
    #expect(value["type"] == "t")
  }
}
