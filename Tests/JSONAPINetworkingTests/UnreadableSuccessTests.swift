import Foundation
import JSONAPICodable
import JSONAPINetworking
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 36, item 2: a write answered with 2xx whose answer cannot be read says that the server
/// answered with success (and so most likely applied it), with the status, `Location`, body and
/// the reason. A real server applies the write and then sends what it sends; these answers are
/// stubbed because no server here produces an unreadable success on demand.
@Suite struct UnreadableSuccessTests {
  struct Article: Codable, Equatable, JSONAPIResource {
    static let jsonAPIType = "articles"
    var id: String?
    var title: String
  }

  /// A server that applies every request and answers `status` with `body` (and `headers`).
  static func client(_ status: Int, _ body: String, headers: [String: String] = Stub.jsonAPI)
    -> (JSONAPIClient, StubTransport)
  {
    let transport = StubTransport(status: status, body: body, headers: headers)
    return (Stub.client(transport), transport)
  }

  @Test func aCreateAnswered201WithAModelMismatchSaysItWasCreated() async throws {
    // The article came back without its required title: a DecodingError, after a 201.
    let body = #"{"data":{"type":"articles","id":"7","attributes":{"headline":"Hi"}}}"#
    let (client, transport) = Self.client(
      201, body, headers: Stub.jsonAPI.merging(["Location": "/articles/7"]) { $1 })
    let error = await #expect(throws: JSONAPIUnreadableSuccessError.self) {
      let _: Article = try await client.create(Article(title: "Hi"), at: "articles")
    }
    #expect(transport.requests.count == 1)
    #expect(error?.statusCode == 201 && error?.method == "POST")
    #expect(error?.location?.absoluteString == "https://api.example.com/articles/7")
    #expect(error?.body == Data(body.utf8))
    #expect(error?.underlyingError is DecodingError)
    #expect(
      error?.description.hasPrefix(
        "The server answered 201 to POST https://api.example.com/articles, so it most likely "
          + "applied the change, but its answer cannot be read: ") == true)
    #expect(
      error?.description.hasSuffix(
        "Do not repeat the request blindly; read the resource back from "
          + "https://api.example.com/articles/7 to see what was stored") == true)
  }

  @Test func performAnswered200WithAnHTMLPageSaysItWasApplied() async throws {
    let (client, _) = Self.client(
      200, "<html>proxy</html>", headers: ["Content-Type": "text/html"])
    let error = await #expect(throws: JSONAPIUnreadableSuccessError.self) {
      _ = try await client.perform(
        [.add(Article(title: "A")), .remove(JSONAPIResourceIdentifier(type: "articles", id: "2"))],
        at: "operations")
    }
    #expect(error?.statusCode == 200 && error?.headers["content-type"] == "text/html")
    #expect(error?.location == nil)
    #expect(
      error?.underlyingError as? JSONAPIClientError
        == .unexpectedContentType("text/html", statusCode: 200, bodyPrefix: "<html>proxy</html>"))
    #expect(error?.description.contains("read the resource back to see what was stored") == true)
  }

  @Test func performAnswered200WithABrokenResultSaysItWasApplied() async throws {
    // `atomic:results` must be an array (R110): the operations were applied all the same.
    let (client, _) = Self.client(200, #"{"atomic:results":{"data":null}}"#)
    let error = await #expect(throws: JSONAPIUnreadableSuccessError.self) {
      _ = try await client.perform([.add(Article(title: "A"))], at: "operations")
    }
    #expect(error?.statusCode == 200)
    #expect(error?.underlyingError is JSONAPIError)
    #expect(error?.description.contains("/atomic:results") == true)
  }

  @Test func updatesAnswered200WithoutADocumentSayTheChangeWasApplied() async throws {
    let (client, _) = Self.client(200, "not json", headers: Stub.jsonAPI)
    let patch = Article(id: "1", title: "New")
    let error = await #expect(throws: JSONAPIUnreadableSuccessError.self) {
      let _: Article? = try await client.update(patch, at: "articles/1")
    }
    #expect(error?.statusCode == 200 && error?.method == "PATCH")
    #expect(error?.underlyingError is JSONAPIError)
    let changes = await #expect(throws: JSONAPIUnreadableSuccessError.self) {
      let _: Article? = try await client.update(
        from: Article(id: "1", title: "Old"), to: patch, at: "articles/1")
    }
    #expect(changes?.statusCode == 200 && changes?.body == Data("not json".utf8))
  }

  @Test func anUnusedResultReadsNothingAndARefusalStaysAResponseError() async throws {
    // The discardable spellings do not read the answer: the 200 is the whole outcome.
    let (client, transport) = Self.client(200, "not json")
    try await client.update(Article(id: "1", title: "New"), at: "articles/1")
    try await client.create(Article(title: "New"), at: "articles")
    #expect(transport.requests.map(\.httpMethod) == ["PATCH", "POST"])
    // A non-2xx answer is a refusal, never "applied".
    let (refusing, _) = Self.client(422, #"{"errors":[{"status":"422"}]}"#)
    await #expect(throws: JSONAPIResponseError.self) {
      let _: Article = try await refusing.create(Article(title: "New"), at: "articles")
    }
  }
}
