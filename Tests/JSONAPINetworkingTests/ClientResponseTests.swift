import Foundation
import JSONAPICodable
import Testing

@testable import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// Status codes, bodies and headers a real server rarely produces on demand, through a stub.
@Suite struct ClientResponseTests {
  struct Article: Codable, Sendable, Equatable {
    var id: String?
    var type = "articles"
    var title: String
  }

  static let single = #"{"data":{"type":"articles","id":"1","attributes":{"title":"One"}}}"#

  func responseError(
    status: Int, body: String, headers: [String: String], method: String = "GET"
  ) async throws -> JSONAPIResponseError {
    let client = Stub.client(StubTransport(status: status, body: body, headers: headers))
    do {
      _ = try await client.get(Article.self, from: "articles/1")
    } catch let error as JSONAPIResponseError {
      return error
    }
    throw CancellationError()
  }

  @Test func htmlBadGatewayIsAClearErrorNotInvalidJSON() async throws {
    let page = "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"
    let error = try await responseError(
      status: 502, body: page, headers: ["Content-Type": "text/html"])
    #expect(error.statusCode == 502)
    #expect(error.errors.isEmpty && !error.isErrorDocument)
    #expect(error.contentType == "text/html")
    #expect(error.body == Data(page.utf8))
    #expect(
      error.description
        == "HTTP 502 Bad Gateway for GET https://api.example.com/articles/1, with a text/html "
        + "that is not a JSON:API error document: \"\(page)\"")
  }

  @Test func errorDocumentsAreDecodedWhateverTheJSONContentType() async throws {
    let body =
      #"{"errors":[{"status":"422","detail":"Title is taken","source":{"pointer":"/data/attributes/title"}}]}"#
    for contentType in ["application/vnd.api+json", "application/json; charset=utf-8"] {
      let error = try await responseError(
        status: 422, body: body, headers: ["Content-Type": contentType])
      #expect(error.errors.map(\.detail) == ["Title is taken"])
      #expect(error.errors.first?.source?.pointer == "/data/attributes/title")
      #expect(error.description.contains("Title is taken"))
    }
  }

  @Test func theWholeErrorDocumentTravelsWithTheError() async throws {
    let body = #"{"errors":[{"status":"503","traceId":"t-1"}],"meta":{"requestId":"r-9"}}"#
    let error = try await responseError(
      status: 503, body: body, headers: ["Content-Type": "application/vnd.api+json"])
    #expect(error.errorDocument?.meta?["requestId"]?.stringValue == "r-9")
    #expect(error.errors.first?.additionalMembers == ["traceId": "t-1"])
  }

  @Test func emptyAndMalformedErrorBodies() async throws {
    let empty = try await responseError(status: 500, body: "", headers: [:])
    #expect(empty.errors.isEmpty && empty.body.isEmpty)
    #expect(empty.description.hasSuffix("with an empty body"))
    let truncated = try await responseError(
      status: 500, body: #"{"errors":[{"status":"5"#, headers: Stub.jsonAPI)
    #expect(truncated.errors.isEmpty && truncated.statusCode == 500)
  }

  @Test func tooManyRequestsExposesRetryAfterInSecondsOrAsADate() async throws {
    let seconds = try await responseError(
      status: 429, body: "", headers: ["Retry-After": "120"])
    #expect(seconds.retryAfter == .seconds(120))
    #expect(seconds.retryAfter?.delay() == .seconds(120))
    #expect(seconds.description.contains("Retry-After: 120 s"))

    let dated = try await responseError(
      status: 503, body: "", headers: ["retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"])
    let expected = Date(timeIntervalSince1970: 1_445_412_480)
    #expect(dated.retryAfter == .date(expected))
    #expect(dated.retryAfter?.delay(from: expected.addingTimeInterval(-30)) == .seconds(30))
    #expect(dated.retryAfter?.delay(from: expected.addingTimeInterval(30)) == .zero)

    let unreadable = try await responseError(
      status: 429, body: "", headers: ["Retry-After": "soon"])
    #expect(unreadable.retryAfter == nil)
  }

  @Test func retryAfterParsing() {
    #expect(RetryAfter(headerValue: " 5 ") == .seconds(5))
    #expect(RetryAfter(headerValue: "-5") == nil)
    #expect(
      RetryAfter(headerValue: "Sun, 06 Nov 1994 08:49:37 GMT")
        == .date(Date(timeIntervalSince1970: 784_111_777)))
    #expect(RetryAfter(headerValue: "Sun, 31 Feb 1994 08:49:37 GMT") == nil)
    // IMF-fixdate's year has four digits.
    #expect(RetryAfter(headerValue: "Sun, 06 Nov 19940 08:49:37 GMT") == nil)
  }

  // RFC 9110 §5.6.7: recipients read the two obsolete forms too (784 111 777 s is 1994-11-06
  // 08:49:37 UTC, counted by hand: 9 075 days × 86 400 + 31 777).
  @Test func retryAfterReadsTheObsoleteDateForms() {
    let expected = RetryAfter.date(Date(timeIntervalSince1970: 784_111_777))
    #expect(RetryAfter(headerValue: "Sunday, 06-Nov-94 08:49:37 GMT") == expected)
    #expect(RetryAfter(headerValue: "Sun Nov  6 08:49:37 1994") == expected)
    #expect(RetryAfter(headerValue: "Sun Nov 06 08:49:37 1994") == expected)
    // Malformed variants of each form.
    for text in [
      "Sun, 06-Nov-94 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT",
      "Sunday, 06-Nov-94 08:49:37 UTC", "Sunday, 31-Feb-94 08:49:37 GMT",
      "Sun Nov  6 08:49:37 94", "Sun Nov  6 8:49:37 1994", "Xyz Nov  6 08:49:37 1994",
      "Sun Nov 106 08:49:37 1994",
    ] {
      #expect(RetryAfter(headerValue: text) == nil, "\(text)")
    }
  }

  // A two-digit year is the one with those digits at most 50 years after now.
  @Test func rfc850YearsArePlacedWithin50YearsOfNow() {
    let in2026 = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28
    #expect(HTTPDate.year(twoDigits: 94, now: in2026) == 1994)
    #expect(HTTPDate.year(twoDigits: 76, now: in2026) == 2076)
    #expect(HTTPDate.year(twoDigits: 77, now: in2026) == 1977)
    #expect(HTTPDate.year(twoDigits: 26, now: in2026) == 2026)
    #expect(HTTPDate.year(twoDigits: 5, now: in2026) == 2005)
  }

  /// Delays past 32 bits of seconds or milliseconds (`Int` on arm64_32) are computed exactly;
  /// expected seconds counted by hand (days since 1970 × 86 400 plus the time of day).
  @Test func retryAfterDelaysBeyond32Bits() {
    let epoch = Date(timeIntervalSince1970: 0)
    let in2038 = RetryAfter(headerValue: "Tue, 19 Jan 2038 03:14:08 GMT")
    #expect(in2038 == .date(Date(timeIntervalSince1970: 2_147_483_648)))
    #expect(in2038?.delay(from: epoch) == .seconds(Int64(2_147_483_648)))
    let lastSecond = RetryAfter(headerValue: "Fri, 31 Dec 9999 23:59:59 GMT")
    #expect(lastSecond == .date(Date(timeIntervalSince1970: 253_402_300_799)))
    #expect(lastSecond?.delay(from: epoch) == .seconds(Int64(253_402_300_799)))
    // 25 days is 2 160 000 000 ms, past Int32.max.
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    #expect(
      RetryAfter.date(now.addingTimeInterval(25 * 86_400)).delay(from: now) == .seconds(2_160_000))
    #expect(RetryAfter.date(.distantFuture).delay(from: .distantPast) > .seconds(Int64(1) << 35))
    // More seconds than `Int` holds is a very long wait, not an unreadable header.
    #expect(RetryAfter(headerValue: "99999999999999999999") == .seconds(Int.max))
  }

  @Test func notAcceptableAndUnsupportedMediaTypeAreRecognised() async throws {
    let body = #"{"errors":[{"status":"406","title":"Not Acceptable"}]}"#
    let notAcceptable = try await responseError(status: 406, body: body, headers: Stub.jsonAPI)
    #expect(notAcceptable.isNotAcceptable && !notAcceptable.isUnsupportedMediaType)
    #expect(notAcceptable.description.contains("Accept; check ext and profile"))
    let unsupported = try await responseError(status: 415, body: "", headers: [:])
    #expect(unsupported.isUnsupportedMediaType && !unsupported.isNotAcceptable)
    #expect(unsupported.description.contains("Content-Type; check ext and profile"))
  }

  @Test func truncatedSuccessBodyThrowsTheDecodersError() async throws {
    let client = Stub.client(
      StubTransport(status: 200, body: #"{"data":{"type":"articles","#, headers: Stub.jsonAPI))
    await #expect {
      _ = try await client.get(Article.self, from: "articles/1")
    } throws: { error in
      if case .invalidJSON = error as? JSONAPIError { return true }
      return false
    }
  }

  @Test func htmlWithASuccessStatusIsNotDecoded() async throws {
    let client = Stub.client(
      StubTransport(
        status: 200, body: "<html>captive portal</html>", headers: ["Content-Type": "text/html"]))
    await #expect(
      throws: JSONAPIClientError.unexpectedContentType(
        "text/html", statusCode: 200, bodyPrefix: "<html>captive portal</html>")
    ) {
      _ = try await client.get(Article.self, from: "articles/1")
    }
  }

  @Test func getAnsweredWithoutBodyThrowsMissingDocument() async throws {
    let client = Stub.client(StubTransport(status: 204))
    await #expect(throws: JSONAPIClientError.missingDocument(statusCode: 204)) {
      _ = try await client.get(Article.self, from: "articles/1")
    }
  }

  @Test func createAnswered204DecodesTheSentResource() async throws {
    let client = Stub.client(StubTransport(status: 204))
    let sent = Article(id: "c0ffee", title: "Client id")
    let created: Article = try await client.create(sent, at: "articles")
    #expect(created == sent)
  }

  @Test func createAnswered201WithOnlyMetaDecodesTheSentResource() async throws {
    let client = Stub.client(
      StubTransport(status: 201, body: #"{"meta":{"queued":true}}"#, headers: Stub.jsonAPI))
    let created: Article = try await client.create(Article(id: "9", title: "Meta"), at: "articles")
    #expect(created == Article(id: "9", title: "Meta"))
  }

  @Test func createExposesLocationResolvedAgainstTheRequestURL() async throws {
    var headers = Stub.jsonAPI
    headers["Location"] = "/articles/1"
    let client = Stub.client(StubTransport(status: 201, body: Self.single, headers: headers))
    let response: JSONAPIResponse<Article> = try await client.create(
      Article(title: "One"), at: "articles")
    #expect(response.statusCode == 201)
    #expect(response.value == Article(id: "1", title: "One"))
    #expect(response.location?.absoluteString == "https://api.example.com/articles/1")
    #expect(response.header("content-type") == "application/vnd.api+json")
  }

  @Test func createTypeArgumentPicksTheValueOverload() async throws {
    let client = Stub.client(StubTransport(status: 201, body: Self.single, headers: Stub.jsonAPI))
    let created = try await client.create(Article(title: "One"), at: "articles", as: Article.self)
    #expect(created.id == "1")
  }

  @Test func updateIsNilOn204AndOnMetaOnly() async throws {
    let noContent = Stub.client(StubTransport(status: 204))
    let none: Article? = try await noContent.update(Article(id: "1", title: "T"), at: "articles/1")
    #expect(none == nil)
    let metaOnly = Stub.client(
      StubTransport(status: 200, body: #"{"meta":{"updated":true}}"#, headers: Stub.jsonAPI))
    let alsoNone: Article? = try await metaOnly.update(
      Article(id: "1", title: "T"), at: "articles/1")
    #expect(alsoNone == nil)
    let changed = Stub.client(StubTransport(status: 200, body: Self.single, headers: Stub.jsonAPI))
    let updated: Article? = try await changed.update(Article(id: "1", title: "T"), at: "articles/1")
    #expect(updated?.title == "One")
  }

  @Test func deleteAcceptsNoContentAndMetaAnswers() async throws {
    try await Stub.client(StubTransport(status: 204)).delete("articles/1")
    try await Stub.client(
      StubTransport(status: 200, body: #"{"meta":{"deleted":1}}"#, headers: Stub.jsonAPI)
    ).delete("articles/1")
    try await Stub.client(StubTransport(status: 202)).delete("articles/1")
  }

  @Test func bodiesOverTheLimitAreRefused() async throws {
    let configuration = JSONAPIClient.Configuration(maxResponseBytes: 32)
    let client = Stub.client(
      StubTransport(status: 200, body: Self.single, headers: Stub.jsonAPI),
      configuration: configuration)
    await #expect(throws: JSONAPIClientError.responseTooLarge(limit: 32)) {
      _ = try await client.get(Article.self, from: "articles/1")
    }
    #expect(JSONAPIClient.Configuration().maxResponseBytes == 16 * 1024 * 1024)
  }

  @Test func theTransportIsToldTheLimit() async throws {
    let limits = Recorder<Int>()
    let transport = LimitRecorder(limits: limits)
    let client = JSONAPIClient(
      baseURL: Stub.baseURL, configuration: .init(maxResponseBytes: 1234), transport: transport)
    _ = try await client.get(Article.self, from: "articles/1")
    #expect(limits.values == [1234])
  }

  struct LimitRecorder: JSONAPITransport {
    let limits: Recorder<Int>
    func send(_ request: URLRequest, maxResponseBytes: Int) async throws -> (Data, HTTPURLResponse)
    {
      limits.append(maxResponseBytes)
      return try Stub.answer(request, 200, ClientResponseTests.single)
    }
  }
}
