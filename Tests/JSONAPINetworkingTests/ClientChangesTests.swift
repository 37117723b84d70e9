import Foundation
import JSONAPICodable
import Testing

@testable import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `JSONAPIClient.update(from:to:at:)`: a `PATCH` of the changed fields only (R79, R80), or no
/// request at all when nothing changed.
@Suite struct ClientChangesTests {
  struct Author: Codable, Sendable, Equatable {
    var id: String
    var type = "people"
  }

  struct Article: Codable, Sendable, Equatable {
    var id: String
    var type = "articles"
    var title: String
    var subtitle: String?
    var body: String
    var author: Author?
  }

  static let stored = Article(
    id: "1", title: "Draft", subtitle: "Sub", body: "Text", author: Author(id: "9"))

  static let answer =
    #"{"data":{"type":"articles","id":"1","attributes":{"title":"Final","subtitle":null,"#
    + #""body":"Edited elsewhere"},"relationships":{"author":{"data":null}}}}"#

  @Test func nothingChangedSendsNoRequestAndReturnsNil() async throws {
    let transport = StubTransport(status: 200, body: Self.answer, headers: Stub.jsonAPI)
    let client = Stub.client(transport)
    var same = Self.stored
    same.author = Author(id: "9")
    let updated: Article? = try await client.update(from: Self.stored, to: same, at: "articles/1")
    #expect(updated == nil)
    #expect(transport.requests.isEmpty)
  }

  @Test func sendsOnlyTheChangesAndDecodesTheAnswer() async throws {
    let transport = StubTransport(status: 200, body: Self.answer, headers: Stub.jsonAPI)
    let client = Stub.client(transport)
    var edited = Self.stored
    edited.title = "Final"
    edited.subtitle = nil
    edited.author = nil
    let updated: Article? = try await client.update(
      from: Self.stored, to: edited, at: "articles/1")
    let request = try #require(transport.requests.first)
    #expect(transport.requests.count == 1)
    #expect(request.httpMethod == "PATCH")
    #expect(request.target == "/articles/1")
    #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/vnd.api+json")
    let sent = try JSONDecoder().decode(JSONAPIValue.self, from: try #require(request.httpBody))
    // `body` was not touched and is not sent: the server keeps what another user wrote there.
    #expect(
      sent
        == [
          "data": [
            "type": "articles", "id": "1",
            "attributes": ["title": "Final", "subtitle": .null],
            "relationships": ["author": ["data": .null]],
          ]
        ])
    #expect(
      updated
        == Article(id: "1", title: "Final", subtitle: nil, body: "Edited elsewhere", author: nil))
  }

  /// As `update(_:at:)`: an answer without a resource means the server applied the changes as
  /// sent (R82).
  @Test func answerWithoutAResourceIsNil() async throws {
    let transport = StubTransport(status: 204)
    let client = Stub.client(transport)
    var edited = Self.stored
    edited.title = "Final"
    let updated: Article? = try await client.update(
      from: Self.stored, to: edited, at: "articles/1")
    #expect(updated == nil)
    #expect(transport.requests.count == 1)
  }

  @Test func theClientsEncoderSettingsApply() async throws {
    struct Post: Codable, Sendable {
      var id: String
      var type = "posts"
      var wordCount: Int
    }
    let transport = StubTransport(status: 204)
    let client = Stub.client(transport)
    client.encoder.keyEncodingStrategy = .convertToKebabCase
    let _: Post? = try await client.update(
      from: Post(id: "3", wordCount: 1), to: Post(id: "3", wordCount: 2), at: "posts/3")
    #expect(
      transport.requests.first?.bodyText
        == #"{"data":{"type":"posts","id":"3","attributes":{"word-count":2}}}"#)
  }

  @Test func anotherResourceThrowsBeforeAnyRequest() async throws {
    let transport = StubTransport(status: 204)
    let client = Stub.client(transport)
    var other = Self.stored
    other.id = "2"
    await #expect(throws: JSONAPIError.self) {
      let _: Article? = try await client.update(from: Self.stored, to: other, at: "articles/1")
    }
    #expect(transport.requests.isEmpty)
  }

  @Test func aRefusedUpdateThrowsTheResponseError() async throws {
    let transport = StubTransport(
      status: 409, body: #"{"errors":[{"status":"409","title":"Conflict"}]}"#,
      headers: Stub.jsonAPI)
    let client = Stub.client(transport)
    var edited = Self.stored
    edited.title = "Final"
    await #expect(throws: JSONAPIResponseError.self) {
      let _: Article? = try await client.update(from: Self.stored, to: edited, at: "articles/1")
    }
    #expect(transport.requests.count == 1)
  }
}
