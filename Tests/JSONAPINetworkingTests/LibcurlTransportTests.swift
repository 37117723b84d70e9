#if os(Linux)
  import Foundation
  import FoundationNetworking
  import JSONAPICodable
  import Testing

  @testable import JSONAPINetworking

  // The parts of LibcurlTransport that need no server; Scripts/bounds.sh drives it against a
  // hostile one and Scripts/integration.sh against a real JSON:API server.
  @Suite struct LibcurlTransportTests {
    static func answer(_ status: Int, location: String?, for url: String) throws
      -> HTTPURLResponse
    {
      let url = try #require(URL(string: url))
      let response = HTTPURLResponse(
        url: url, statusCode: status, httpVersion: "HTTP/1.1",
        headerFields: location.map { ["Location": $0] } ?? [:])
      return try #require(response)
    }

    static func post(_ url: String) throws -> URLRequest {
      var request = URLRequest(url: try #require(URL(string: url)))
      request.httpMethod = "POST"
      request.httpBody = Data("{}".utf8)
      request.setValue("application/vnd.api+json", forHTTPHeaderField: "Content-Type")
      request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
      return request
    }

    @Test func libcurlLoadsAndIsTheDefaultOnLinux() {
      #expect(LibcurlTransport.isAvailable)
      #expect(LibcurlTransport.unavailableReason == nil)
      #expect(JSONAPIClient.defaultTransport is LibcurlTransport)
    }

    /// Where libcurl cannot be loaded, requests fail saying why and what to choose.
    @Test func theUnavailableErrorSaysWhyAndWhatToDo() {
      let error = LibcurlTransport.UnavailableError(
        reason: #"dlopen("libcurl.so.4") failed: libcurl.so.4: cannot open shared object file"#)
      #expect(error.description.contains("cannot open shared object file"))
      #expect(error.description.contains("libcurl4"))
      #expect(error.description.contains("URLSessionTransport.shared"))
    }

    // A redirect keeps the request's credentials, so it is followed within the origin only.
    @Test func redirectsAreFollowedWithinTheOriginOnly() throws {
      let request = try Self.post("https://api.example.com/articles")
      let same = try Self.answer(
        307, location: "/v2/articles", for: "https://api.example.com/articles")
      let next = try #require(LibcurlTransport.redirect(from: request, answer: same))
      #expect(next.url?.absoluteString == "https://api.example.com/v2/articles")
      #expect(next.httpMethod == "POST")
      #expect(next.httpBody == Data("{}".utf8))
      #expect(next.value(forHTTPHeaderField: "Authorization") == "Bearer secret")
      for location in [
        "https://evil.example.net/articles", "http://api.example.com/articles",
        "https://api.example.com:8443/articles",
      ] {
        let away = try Self.answer(302, location: location, for: "https://api.example.com/articles")
        #expect(LibcurlTransport.redirect(from: request, answer: away) == nil, "\(location)")
      }
      let notARedirect = try Self.answer(200, location: "/x", for: "https://api.example.com/a")
      #expect(LibcurlTransport.redirect(from: request, answer: notARedirect) == nil)
    }

    @Test func seeOtherAndPostRedirectsBecomeGETsWithoutBody() throws {
      let request = try Self.post("https://api.example.com/articles")
      for status in [301, 302, 303] {
        let answer = try Self.answer(
          status, location: "/articles/1", for: "https://api.example.com/articles")
        let next = try #require(LibcurlTransport.redirect(from: request, answer: answer))
        #expect(next.httpMethod == "GET")
        #expect(next.httpBody == nil)
        #expect(next.value(forHTTPHeaderField: "Content-Type") == nil)
      }
    }

    @Test func headerLinesDropValuesThatWouldStartAnotherLine() throws {
      var request = try Self.post("https://api.example.com/articles")
      request.setValue("a\r\nX-Injected: 1", forHTTPHeaderField: "X-Note")
      let lines = LibcurlTransport.headerLines(request)
      #expect(lines.contains("Authorization: Bearer secret"))
      #expect(lines.contains("Expect:"))
      #expect(!lines.contains(where: { $0.contains("X-Injected") }))
    }

    @Test func headerNamesAreCanonicalSoHTTP2HeadsReadLikeHTTP1() {
      #expect(CurlTransfer.canonical("content-type") == "Content-Type")
      #expect(CurlTransfer.canonical("RETRY-AFTER") == "Retry-After")
      #expect(CurlTransfer.canonical("x-request-id") == "X-Request-Id")
    }

    @Test func durationsBecomeWholeMillisecondsWithinALong() {
      #expect(LibcurlTransport.milliseconds(.seconds(30)) == 30_000)
      #expect(LibcurlTransport.milliseconds(.microseconds(1)) == 1)
      #expect(LibcurlTransport.milliseconds(.seconds(Int64.max)) == Int(Int32.max))
    }

    @Test func libcurlFailuresBecomeURLErrorsWithLibcurlsWords() {
      let error = CurlTransfer.Outcome.error(code: 7, message: "Failed to connect")
      #expect(error.code == .cannotConnectToHost)
      #expect(error.localizedDescription.contains("Failed to connect (libcurl error 7)"))
      #expect(CurlTransfer.Outcome.error(code: 28, message: "").code == .timedOut)
    }

    // A closed port answers at once: the transport reports it as a URLError, not a crash or hang.
    @Test func aRefusedConnectionIsAURLError() async throws {
      let request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:9/x")))
      await #expect(throws: URLError.self) {
        _ = try await LibcurlTransport().send(request, maxResponseBytes: 1024)
      }
    }
  }
#endif
