import Foundation
import JSONAPICodable
import Testing

@testable import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 48, item 3: the retry policy. Idempotent requests are tried again on `429`/`503`
/// (honouring `Retry-After`) and on connections never made; `POST` and `PATCH` never; `PUT` and
/// `DELETE` only when the app says so; bounded by tries and time; cancellation ends the wait.
@Suite struct RetryPolicyTests {
  struct Article: Codable, Sendable, Equatable {
    var id: String
    var type = "articles"
    var title: String
  }

  static let article = #"{"data":{"type":"articles","id":"1","attributes":{"title":"Hi"}}}"#

  /// Answers `failures` times with `status` (and `Retry-After` when given), then `200`.
  static func flaky(
    failures: Int, status: Int = 503, retryAfter: String? = "0", calls: Recorder<String>
  ) -> StubTransport {
    StubTransport { request in
      calls.append(request.httpMethod ?? "")
      if calls.values.count <= failures {
        var headers = Stub.jsonAPI
        if let retryAfter { headers["Retry-After"] = retryAfter }
        let body = Data(#"{"errors":[{"status":"\#(status)"}]}"#.utf8)
        return (body, try Stub.response(for: request, status: status, headers: headers))
      }
      let method = request.httpMethod ?? "GET"
      return try Stub.answer(request, method == "GET" ? 200 : 204, method == "GET" ? article : "")
    }
  }

  static func client(_ transport: StubTransport, _ policy: JSONAPIClient.RetryPolicy)
    -> JSONAPIClient
  {
    var configuration = JSONAPIClient.Configuration()
    configuration.retryPolicy = policy
    return Stub.client(transport, configuration: configuration)
  }

  /// Short waits, and a total time no loaded machine reaches: the suite runs beside hundreds of
  /// other tests, and a test of tries must not become a test of the scheduler.
  static let quick = JSONAPIClient.RetryPolicy(
    maxAttempts: 3, initialDelay: .milliseconds(1), maxDelay: .seconds(5),
    maxTotalTime: .seconds(3600))

  @Test(arguments: [503, 429])
  func aGETIsRetriedAfterRetryAfter(_ status: Int) async throws {
    let calls = Recorder<String>()
    let client = Self.client(Self.flaky(failures: 1, status: status, calls: calls), Self.quick)
    let article = try await client.get(Article.self, from: "articles/1")
    #expect(article == Article(id: "1", title: "Hi"))
    #expect(calls.values == ["GET", "GET"])
  }

  @Test func withoutRetryAfterTheBackoffRetriesToo() async throws {
    let calls = Recorder<String>()
    let client = Self.client(Self.flaky(failures: 2, retryAfter: nil, calls: calls), Self.quick)
    _ = try await client.get(Article.self, from: "articles/1")
    #expect(calls.values.count == 3)
  }

  @Test func theDefaultPolicyNeverRetries() async throws {
    let calls = Recorder<String>()
    let client = Stub.client(Self.flaky(failures: 1, calls: calls))
    let error = await #expect(throws: JSONAPIResponseError.self) {
      _ = try await client.get(Article.self, from: "articles/1")
    }
    #expect(error?.statusCode == 503)
    #expect(calls.values.count == 1)
    #expect(JSONAPIClient.Configuration().retryPolicy == .none)
  }

  @Test func aPOSTOrAPATCHIsNeverRetried() async throws {
    var everything = Self.quick
    everything.retriesPutAndDelete = true
    let posts = Recorder<String>()
    let client = Self.client(Self.flaky(failures: 1, calls: posts), everything)
    await #expect(throws: JSONAPIResponseError.self) {
      try await client.create(Article(id: "1", title: "Hi"), at: "articles")
    }
    #expect(posts.values == ["POST"])
    let patches = Recorder<String>()
    let patching = Self.client(Self.flaky(failures: 1, calls: patches), everything)
    await #expect(throws: JSONAPIResponseError.self) {
      try await patching.update(Article(id: "1", title: "Hi"), at: "articles/1")
    }
    #expect(patches.values == ["PATCH"])
    #expect(!everything.retries("POST") && !everything.retries("PATCH"))
  }

  @Test func putAndDeleteAreRetriedOnlyWhenTheAppSaysSo() async throws {
    let refused = Recorder<String>()
    await #expect(throws: JSONAPIResponseError.self) {
      try await Self.client(Self.flaky(failures: 1, calls: refused), Self.quick).delete(
        "articles/1")
    }
    #expect(refused.values == ["DELETE"])
    #expect(!Self.quick.retries("PUT"))

    var optedIn = Self.quick
    optedIn.retriesPutAndDelete = true
    let retried = Recorder<String>()
    try await Self.client(Self.flaky(failures: 1, calls: retried), optedIn).delete("articles/1")
    #expect(retried.values == ["DELETE", "DELETE"])
    #expect(optedIn.retries("PUT") && optedIn.retries("delete"))
  }

  @Test func triesAreBoundedByMaxAttempts() async throws {
    let calls = Recorder<String>()
    let client = Self.client(Self.flaky(failures: 100, calls: calls), Self.quick)
    let error = await #expect(throws: JSONAPIResponseError.self) {
      _ = try await client.get(Article.self, from: "articles/1")
    }
    #expect(error?.statusCode == 503)
    #expect(calls.values.count == 3)
  }

  @Test func triesAreBoundedByMaxTotalTime() async throws {
    var policy = Self.quick
    policy.maxTotalTime = .zero  // any wait would end after it
    let calls = Recorder<String>()
    await #expect(throws: JSONAPIResponseError.self) {
      _ = try await Self.client(Self.flaky(failures: 1, calls: calls), policy).get(
        Article.self, from: "articles/1")
    }
    #expect(calls.values.count == 1)
  }

  @Test func aRetryAfterBeyondMaxDelayEndsTheRetries() async throws {
    let calls = Recorder<String>()
    let client = Self.client(Self.flaky(failures: 1, retryAfter: "3600", calls: calls), Self.quick)
    let error = await #expect(throws: JSONAPIResponseError.self) {
      _ = try await client.get(Article.self, from: "articles/1")
    }
    #expect(error?.retryAfter == .seconds(3600))
    #expect(calls.values.count == 1)
  }

  @Test func otherStatusesAreNotRetried() async throws {
    let calls = Recorder<String>()
    let client = Self.client(Self.flaky(failures: 1, status: 500, calls: calls), Self.quick)
    await #expect(throws: JSONAPIResponseError.self) {
      _ = try await client.get(Article.self, from: "articles/1")
    }
    #expect(calls.values.count == 1)
  }

  @Test func retryAfterAsAnHTTPDateIsWaitedFor() throws {
    let now = Date(timeIntervalSince1970: 1_445_412_470)  // Wed, 21 Oct 2015 07:27:50 GMT
    func refusal(_ retryAfter: String) -> JSONAPIResponseError {
      JSONAPIResponseError(
        statusCode: 503, headers: ["Retry-After": retryAfter], url: Stub.baseURL)
    }
    let policy = JSONAPIClient.RetryPolicy(initialDelay: .milliseconds(1), maxDelay: .seconds(60))
    for form in [
      "Wed, 21 Oct 2015 07:28:00 GMT", "Wednesday, 21-Oct-15 07:28:00 GMT",
      "Wed Oct 21 07:28:00 2015",
    ] {
      let wait = policy.delay(
        after: refusal(form), attempt: 1, elapsed: .zero, now: now, jitter: { $0.lowerBound })
      #expect(wait == .seconds(10), "\(form)")
    }
    // A date already past: try again at once.
    let past = policy.delay(
      after: refusal("Wed, 21 Oct 2015 07:00:00 GMT"), attempt: 1, elapsed: .zero, now: now)
    #expect(past == .zero)
    // Further than maxDelay (60 s here), as a date or as seconds, even past any integer: no retry.
    #expect(
      policy.delay(after: refusal("Wed, 21 Oct 2099 07:28:00 GMT"), attempt: 1, elapsed: .zero)
        == nil)
    let huge = refusal("99999999999999999999999999")
    #expect(huge.retryAfter == .seconds(Int.max))
    #expect(policy.delay(after: huge, attempt: 1, elapsed: .zero) == nil)
    #expect(
      policy.delay(after: refusal("soon"), attempt: 1, elapsed: .zero, jitter: { $0.upperBound })
        == .milliseconds(1))
  }

  @Test func theBackoffIsJitteredCappedAndCannotOverflow() {
    let policy = JSONAPIClient.RetryPolicy(
      maxAttempts: 100, initialDelay: .milliseconds(400), maxDelay: .seconds(3))
    let low = { (range: ClosedRange<Int64>) in range.lowerBound }
    let high = { (range: ClosedRange<Int64>) in range.upperBound }
    #expect(policy.backoff(attempt: 1, jitter: low) == .milliseconds(200))
    #expect(policy.backoff(attempt: 1, jitter: high) == .milliseconds(400))
    #expect(policy.backoff(attempt: 3, jitter: high) == .milliseconds(1600))
    #expect(policy.backoff(attempt: 4, jitter: high) == .seconds(3))  // 3.2 s capped
    #expect(policy.backoff(attempt: 99, jitter: low) == .milliseconds(1500))
    let extreme = JSONAPIClient.RetryPolicy(
      initialDelay: .seconds(Int64.max), maxDelay: .seconds(Int64.max))
    #expect(extreme.backoff(attempt: 60, jitter: high) == .milliseconds(Int64.max))
    #expect(JSONAPIClient.RetryPolicy.milliseconds(.seconds(-5)) == 0)
    // Random jitter stays within half and all of the wait.
    for _ in 0..<50 {
      let wait = policy.backoff(attempt: 2, jitter: { Int64.random(in: $0) })
      #expect(wait >= .milliseconds(400) && wait <= .milliseconds(800))
    }
  }

  @Test func aConnectionNeverMadeIsRetriedAndOneLostMidwayIsNot() async throws {
    func transport(_ code: URLError.Code, calls: Recorder<String>) -> StubTransport {
      StubTransport { request in
        calls.append(request.httpMethod ?? "")
        if calls.values.count == 1 { throw URLError(code) }
        return try Stub.answer(request, 200, Self.article)
      }
    }
    let refused = Recorder<String>()
    _ = try await Self.client(transport(.cannotConnectToHost, calls: refused), Self.quick).get(
      Article.self, from: "articles/1")
    #expect(refused.values.count == 2)

    let lost = Recorder<String>()
    await #expect(throws: URLError.self) {
      _ = try await Self.client(transport(.networkConnectionLost, calls: lost), Self.quick).get(
        Article.self, from: "articles/1")
    }
    #expect(lost.values.count == 1)

    var strict = Self.quick
    strict.retriesConnectionFailures = false
    let notRetried = Recorder<String>()
    await #expect(throws: URLError.self) {
      _ = try await Self.client(transport(.cannotFindHost, calls: notRetried), strict).get(
        Article.self, from: "articles/1")
    }
    #expect(notRetried.values.count == 1)
  }

  /// Without cancellation the wait would last an hour, so the time limit fails the test.
  @Test(.timeLimit(.minutes(1)))
  func cancellingDuringTheWaitEndsItAtOnce() async throws {
    let calls = Recorder<String>()
    let patient = JSONAPIClient.RetryPolicy(
      maxAttempts: 3, maxDelay: .seconds(7200), maxTotalTime: .seconds(7200))
    let client = Self.client(Self.flaky(failures: 1, retryAfter: "3600", calls: calls), patient)
    let task = Task { try await client.get(Article.self, from: "articles/1") }
    while calls.values.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
    task.cancel()
    let result = await task.result
    #expect(throws: CancellationError.self) { try result.get() }
    #expect(calls.values.count == 1)
  }

  @Test func eachTryRunsTheRequestHookAgain() async throws {
    let calls = Recorder<String>()
    let tokens = Recorder<Int>()
    var configuration = JSONAPIClient.Configuration(prepareRequest: { request in
      tokens.append(1)
      request.setValue("Bearer \(tokens.values.count)", forHTTPHeaderField: "Authorization")
    })
    configuration.retryPolicy = Self.quick
    let transport = Self.flaky(failures: 1, calls: calls)
    _ = try await Stub.client(transport, configuration: configuration).get(
      Article.self, from: "articles/1")
    #expect(
      transport.requests.map { $0.value(forHTTPHeaderField: "Authorization") } == [
        "Bearer 1", "Bearer 2",
      ])
  }
}
