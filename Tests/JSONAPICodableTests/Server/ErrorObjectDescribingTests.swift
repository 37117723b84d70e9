import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

@Suite struct ErrorObjectDescribingTests {
  struct Author: Decodable {
    var id: String
    var name: String
  }

  struct Post: Decodable, JSONAPIResource {
    static let jsonAPIType = "posts"
    var id: String?
    var title: String
    var views: Int?
    var author: Author?
  }

  func describe(_ json: String) -> JSONAPIErrorObject? {
    do {
      _ = try JSONAPIDecoder().decode(Post.self, from: Data(json.utf8))
      return nil
    } catch {
      return JSONAPIErrorObject(describing: error)
    }
  }

  // R95: the pointer names the exact member of the request document.
  @Test(arguments: [
    (
      #"{"data":{"type":"posts","attributes":{"title":7}}}"#, "422", "type-mismatch",
      "/data/attributes/title"
    ),
    (
      #"{"data":{"type":"posts","attributes":{"title":null}}}"#, "422", "null-value",
      "/data/attributes/title"
    ),
    (
      #"{"data":{"type":"posts","attributes":{"title":"t","views":"many"}}}"#, "422",
      "type-mismatch", "/data/attributes/views"
    ),
    // A missing member: the pointer names the resource lacking it (pointers must resolve).
    (#"{"data":{"type":"posts","attributes":{}}}"#, "422", "missing-member", "/data"),
    (
      #"{"data":{"type":"posts","attributes":{"title":"t"},"relationships":{"author":{"data":{"type":"people","id":"9"}}}},"included":[{"type":"people","id":"9","attributes":{"name":false}}]}"#,
      "422", "type-mismatch", "/included/0/attributes/name"
    ),
    // R26, R29: relationship data of the wrong shape is a broken document.
    (
      #"{"data":{"type":"posts","attributes":{"title":"t"},"relationships":{"author":{"data":5}}}}"#,
      "400", "invalid-document", "/data/relationships/author/data"
    ),
    // R3: a document with neither data nor errors.
    (#"{"links":{}}"#, "400", "not-a-document", ""),
    // Identification: a resource of another type is a conflict.
    (
      #"{"data":{"type":"people","attributes":{"title":"t"}}}"#, "409", "type-mismatch",
      "/data/type"
    ),
  ])
  func decodingFailuresBecomeErrorObjects(
    json: String, status: String, code: String, pointer: String
  ) throws {
    let object = try #require(describe(json))
    #expect(object.status == status)
    #expect(object.code == code)
    #expect(object.source?.pointer == pointer)
    #expect(object.detail?.isEmpty == false)
  }

  // RFC 8259: malformed JSON is a 400 without a pointer (there is no document to point into).
  @Test func malformedJSONIs400() throws {
    let object = try #require(describe(#"{"data":"#))
    #expect(object.status == "400")
    #expect(object.code == "invalid-json")
    #expect(object.source == nil)
  }

  @Test func keyNotFoundInfersTheMemberPath() throws {
    do {
      _ = try JSONAPIDecoder().decode(Post.self, from: Data(#"{"data":{"type":"posts"}}"#.utf8))
      Issue.record("decoded")
    } catch DecodingError.keyNotFound(_, let context) {
      let location = try #require(context.underlyingError as? DecodingFailureLocation)
      #expect(location.pointer == "/data")
      #expect(location.missingMember == "/data/attributes/title")
      #expect(
        context.debugDescription
          == #"No attribute or relationship "title" in the resource of type posts (at /data)"#)
    }
  }

  @Test func aRelationshipWithoutDataPointsAtItsObject() throws {
    struct Note: Decodable {
      var id: String
      var author: Author
    }
    let json = #"{"data":{"type":"notes","id":"1","relationships":{"author":{"meta":{}}}}}"#
    do {
      _ = try JSONAPIDecoder().decode(Note.self, from: Data(json.utf8))
      Issue.record("decoded")
    } catch {
      let object = JSONAPIErrorObject(describing: error)
      #expect(object.source?.pointer == "/data/relationships/author")
      #expect(object.detail?.contains("/data/relationships/author/data") == true)
    }
  }

  @Test func messagesKeepTheirLocation() {
    do {
      _ = try JSONAPIDecoder().decode(
        Post.self, from: Data(#"{"data":{"type":"posts","attributes":{"title":7}}}"#.utf8))
    } catch DecodingError.typeMismatch(_, let context) {
      #expect(context.debugDescription.hasSuffix("(at /data/attributes/title)"))
      #expect(
        (context.underlyingError as? DecodingFailureLocation)?.pointer == "/data/attributes/title")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func queryAndNegotiationErrorsNameTheirSource() {
    let query = JSONAPIErrorObject(describing: JSONAPIQueryError.sortNotAllowed(field: "x"))
    #expect(query.status == "400")
    #expect(query.source?.parameter == "sort")
    let negotiation = JSONAPIErrorObject(
      describing: JSONAPINegotiationError.notAcceptable(accept: "text/html", reason: "r"))
    #expect(negotiation.status == "406")
    #expect(negotiation.source?.header == "Accept")
  }

  @Test func otherErrorsAre500WithoutInternals() {
    struct Secret: Error {}
    let object = JSONAPIErrorObject(describing: Secret())
    #expect(object.status == "500")
    #expect(object.detail?.contains("Secret") == false)
    let encoding = JSONAPIErrorObject(
      describing: JSONAPIError.invalidValue(reason: "x", codingPath: "y"))
    #expect(encoding.status == "500")
  }

  // R97: several errors answer with the most general status.
  @Test func severalErrorsShareTheMostGeneralStatus() {
    let conflict = JSONAPIRequestError.idMismatch(expected: "1", found: "2")
    let query = JSONAPIQueryError.sortNotAllowed(field: "x")
    struct Failure: Error {}
    #expect(JSONAPIErrorObject.describing([conflict, conflict]).status == 409)
    #expect(JSONAPIErrorObject.describing([conflict, query]).status == 400)
    #expect(JSONAPIErrorObject.describing([Failure(), query]).status == 500)
    #expect(JSONAPIErrorObject.describing([conflict, query]).errors.count == 2)
  }
}
