import Foundation
import Testing

@testable import JSONAPICodable

/// Error documents arrive whole (R86-R90): document members, unknown members, lenient members.
@Suite struct ErrorDocumentTests {
  static let json = """
    {"errors": [
       {"status": 422, "title": "Invalid", "traceId": "abc", "source": {"pointer": "/data/attributes/title"}},
       {"status": true, "detail": "mistyped status"}],
     "meta": {"requestId": "r-1"}, "links": {"about": "/docs/errors"}, "jsonapi": {"version": "1.1"}}
    """

  func thrownDocument() throws -> JSONAPIErrorDocument {
    let error = thrownError { try JSONAPIDecoder().decode(JSONAPIValue.self, from: Self.json) }
    guard case .errorDocument(let document)? = error as? JSONAPIError else {
      Issue.record("expected an error document, got \(String(describing: error))")
      throw CancellationError()
    }
    return document
  }

  @Test func theDocumentMembersAreReachableFromTheThrownError() throws {
    let document = try thrownDocument()
    #expect(document.meta?["requestId"]?.stringValue == "r-1")
    #expect(document.links?["about"]?.href == "/docs/errors")
    #expect(document.jsonapi?.version == "1.1")
    #expect(document.count == 2)
  }

  @Test func unknownMembersAreKeptAndMistypedOnesDoNotHideTheDocument() throws {
    let document = try thrownDocument()
    #expect(document[0].status == "422")
    #expect(document[0].additionalMembers == ["traceId": "abc"])
    #expect(document[0].source?.pointer == "/data/attributes/title")
    #expect(document[1].status == nil)
    #expect(document[1].additionalMembers == ["status": true])
    #expect(document[1].detail == "mistyped status")
  }

  @Test func errorObjectsDecodeIntoTheAppsOwnType() throws {
    struct APIError: Decodable, Equatable {
      var title: String?
      var traceId: String?
    }
    let errors = try JSONAPIDecoder().decodeErrors(APIError.self, from: Data(Self.json.utf8))
    #expect(
      errors == [APIError(title: "Invalid", traceId: "abc"), APIError(title: nil, traceId: nil)])
    #expect(
      try JSONAPIDecoder().decodeErrors(APIError.self, from: Data(#"{"data": []}"#.utf8)).isEmpty)
  }

  @Test func additionalMembersEncodeBackWithoutShadowingSetMembers() throws {
    var object = JSONAPIErrorObject(status: "400")
    object.additionalMembers = ["traceId": "t", "status": "ignored"]
    let data = try JSONEncoder().encode(object)
    let decoded = try JSONDecoder().decode([String: String].self, from: data)
    #expect(decoded == ["status": "400", "traceId": "t"])
  }

  @Test func theDocumentComparesWithAnArrayOfErrors() throws {
    let document = JSONAPIErrorDocument(errors: [JSONAPIErrorObject(status: "404")], meta: ["a": 1])
    #expect(document == [JSONAPIErrorObject(status: "404")])
    #expect(document.description.contains("404"))
  }
}
