import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

// Negotiation from a request's header fields as frameworks hand them over: names in any case
// (HTTP/2 sends them lower-cased), repeated fields, and a body with no Content-Type (R61).
@Suite struct HeaderNegotiationTests {
  static let atomic = "https://jsonapi.org/ext/atomic"
  let negotiation = JSONAPIContentNegotiation(supportedExtensions: [atomic])

  @Test(arguments: ["Content-Type", "content-type", "CONTENT-TYPE", "cOnTeNt-TyPe"])
  func contentTypeIsFoundWhateverItsCase(name: String) throws {
    let extended = "application/vnd.api+json; ext=\"\(Self.atomic)\""
    let type = try negotiation.negotiate(
      headers: [name: extended, "accept": extended], hasBody: true)
    #expect(type == JSONAPIMediaType(extensions: [Self.atomic]))
    // The same header, refused, must be refused whatever the case of its name.
    #expect(throws: JSONAPINegotiationError.self) {
      try negotiation.negotiate(headers: [name: "application/json"], hasBody: true)
    }
  }

  @Test func acceptIsFoundWhateverItsCaseAndRepeatedFieldsAreJoined() throws {
    // Two Accept fields: the first alone is not acceptable, together they are (R61).
    let fields: [(String, String)] = [
      ("ACCEPT", "text/html"),
      ("accept", "application/vnd.api+json; ext=\"\(Self.atomic)\""),
    ]
    let type = try negotiation.negotiate(headers: fields, hasBody: false)
    #expect(type.extensions == [Self.atomic])
    #expect(throws: JSONAPINegotiationError.self) {
      try negotiation.negotiate(headers: [("Accept", "text/html")], hasBody: false)
    }
  }

  @Test func aBodyWithoutContentTypeSaysItIsMissing() throws {
    var caught: JSONAPINegotiationError?
    do {
      _ = try negotiation.negotiate(headers: ["Accept": "application/vnd.api+json"], hasBody: true)
    } catch let error as JSONAPINegotiationError {
      caught = error
    }
    let error = try #require(caught)
    #expect(error.status == 415)
    let message = String(describing: error)
    #expect(message.contains("no `Content-Type` header"))
    #expect(message.contains("send `Content-Type: application/vnd.api+json`"))
    #expect(!message.contains("``"))
    #expect(message.contains("https://jsonapi.org/format/#content-negotiation"))
  }

  @Test func aRequestWithoutBodyNeedsNoContentTypeButOneSentIsChecked() throws {
    #expect(
      try negotiation.negotiate(headers: [String: String](), hasBody: false) == JSONAPIMediaType())
    #expect(throws: JSONAPINegotiationError.self) {
      try negotiation.negotiate(
        headers: ["content-type": "application/vnd.api+json; charset=utf-8"], hasBody: false)
    }
  }

  @Test func twoContentTypeFieldsAreRefused() {
    let fields: [(String, String)] = [
      ("Content-Type", "application/vnd.api+json"), ("content-type", "application/vnd.api+json"),
    ]
    #expect(throws: JSONAPINegotiationError.self) {
      try negotiation.negotiate(headers: fields, hasBody: true)
    }
  }

  // Names that only look alike (a prefix, a non-ASCII letter folding to ASCII) are other fields.
  @Test func onlyTheExactNameMatches() throws {
    let fields: [(String, String)] = [
      ("Content-Types", "text/plain"), ("Accept-Language", "text/plain"),
      ("Content-Type", "application/vnd.api+json"),
    ]
    #expect(try negotiation.negotiate(headers: fields, hasBody: true) == JSONAPIMediaType())
  }
}
