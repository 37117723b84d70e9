import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

@Suite struct ContentNegotiationTests {
  static let atomic = "https://jsonapi.org/ext/atomic"
  static let cursor = "https://example.com/profiles/cursor"
  let negotiation = JSONAPIContentNegotiation(
    supportedExtensions: [atomic], supportedProfiles: [cursor])

  @Test func plainRequestsProceedWithThePlainMediaType() throws {
    let type = try negotiation.negotiate(
      accept: "application/vnd.api+json", contentType: "application/vnd.api+json")
    #expect(type == JSONAPIMediaType())
    #expect(try negotiation.negotiate(accept: nil, contentType: nil) == JSONAPIMediaType())
    #expect(try negotiation.negotiate(accept: "*/*", contentType: nil) == JSONAPIMediaType())
    #expect(
      try negotiation.negotiate(accept: "application/*", contentType: nil).headerValue
        == "application/vnd.api+json")
    #expect(negotiation.sendsVaryAccept)
    #expect(!JSONAPIContentNegotiation().sendsVaryAccept)
  }

  // R61: the response applies the requested supported extension and profiles; unknown profiles
  // are ignored.
  @Test func extensionsAndProfilesAreApplied() throws {
    let type = try negotiation.negotiate(
      accept: "application/vnd.api+json;ext=\"\(Self.atomic)\";profile=\"\(Self.cursor) "
        + "https://example.com/unknown\"",
      contentType: "application/vnd.api+json; ext=\"\(Self.atomic)\"")
    #expect(type == JSONAPIMediaType(extensions: [Self.atomic], profiles: [Self.cursor]))
  }

  // R61: 415 for another media type, a foreign parameter, or an unsupported extension.
  @Test(arguments: [
    "application/json", "application/vnd.api+json; charset=utf-8",
    "application/vnd.api+json;ext=\"https://example.com/ext/other\"", "",
  ])
  func unsupportedContentTypesAre415(contentType: String) {
    do {
      _ = try negotiation.negotiate(accept: nil, contentType: contentType)
      Issue.record("\(contentType) was accepted")
    } catch let error as JSONAPINegotiationError {
      #expect(error.status == 415)
      #expect(error.header == "Content-Type")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func oneDotZeroServersRefuseAnyExtension() {
    #expect(throws: JSONAPINegotiationError.self) {
      try JSONAPIContentNegotiation().negotiate(
        accept: nil, contentType: "application/vnd.api+json;ext=\"\(Self.atomic)\"")
    }
    // Unknown profiles are ignored, also in Content-Type.
    #expect(throws: Never.self) {
      try JSONAPIContentNegotiation().negotiate(
        accept: nil, contentType: "application/vnd.api+json;profile=\"\(Self.cursor)\"")
    }
  }

  // R61: 406 when every JSON:API entry has foreign parameters or unsupported extensions, and no
  // wildcard allows the plain type.
  @Test(arguments: [
    "application/vnd.api+json; charset=utf-8",
    "application/vnd.api+json;ext=\"https://example.com/ext/other\", text/html",
    "text/html", "application/vnd.api+json;q=0",
  ])
  func unacceptableAcceptIs406(accept: String) {
    do {
      _ = try negotiation.negotiate(accept: accept, contentType: nil)
      Issue.record("\(accept) was accepted")
    } catch let error as JSONAPINegotiationError {
      #expect(error.status == 406)
      #expect(error.header == "Accept")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func ignoredEntriesLeaveTheOthers() throws {
    let type = try negotiation.negotiate(
      accept: "application/vnd.api+json;foo=bar, application/vnd.api+json;q=0.5, "
        + "application/vnd.api+json;ext=\"\(Self.atomic)\";q=0.9",
      contentType: nil)
    #expect(type.extensions == [Self.atomic])
    #expect(
      try negotiation.negotiate(accept: "application/vnd.api+json;charset=x, */*", contentType: nil)
        == JSONAPIMediaType())
  }

  // R61: 415 is decided before 406.
  @Test func contentTypeIsCheckedFirst() {
    #expect(
      throws: JSONAPINegotiationError.unsupportedMediaType(
        contentType: "text/plain",
        reason: "request documents must be sent as application/vnd.api+json")
    ) {
      try negotiation.negotiate(accept: "text/html", contentType: "text/plain")
    }
  }
}

extension ContentNegotiationTests {
  // Hostile headers: random values either negotiate or throw a JSONAPINegotiationError.
  @Test func randomHeadersNegotiateOrThrow() {
    let alphabet = Array("application/vnd.api+json;,= \"\\qext*profile0.5")
    for seed in UInt64(0)..<2000 {
      var generator = Generator(seed: seed)
      var accept = ""
      for _ in 0..<generator.int(0...50) { accept.append(generator.pick(alphabet)) }
      var contentType = ""
      for _ in 0..<generator.int(0...50) { contentType.append(generator.pick(alphabet)) }
      do {
        _ = try negotiation.negotiate(accept: accept, contentType: contentType)
      } catch is JSONAPINegotiationError {
      } catch {
        Issue.record("seed \(seed): \(error)")
      }
    }
  }
}
