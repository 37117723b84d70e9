import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension JSONAPIClient {
  /// When a ``JSONAPIClient`` sends a request again by itself: set in
  /// ``Configuration/retryPolicy``. The default, ``none``, never does.
  ///
  /// ```swift
  /// var configuration = JSONAPIClient.Configuration()
  /// configuration.retryPolicy = .standard   // GET: 3 tries, 30 s at most
  /// configuration.retryPolicy.retriesPutAndDelete = true   // DELETE too
  /// ```
  ///
  /// A request is tried again only when all of these hold:
  /// - its method is idempotent: `GET` or `HEAD`, or `PUT` or `DELETE` when
  ///   ``retriesPutAndDelete`` says so. `POST` and `PATCH` are never sent twice, nor are Atomic
  ///   Operations (a `POST`);
  /// - the answer was `429 Too Many Requests` or `503 Service Unavailable`, or (with
  ///   ``retriesConnectionFailures``) the connection could not be made at all: `URLError`
  ///   `.cannotFindHost`, `.cannotConnectToHost`, `.dnsLookupFailed` or
  ///   `.notConnectedToInternet`, where no byte of the request reached a server and none of the
  ///   answer came back. A connection lost or timed out midway is not retried: the transports
  ///   cannot tell whether part of the answer had arrived;
  /// - fewer than ``maxAttempts`` tries were made, and the wait ends within ``maxTotalTime`` of
  ///   the first try.
  ///
  /// The wait is the answer's `Retry-After` (seconds or an HTTP date) when it has one; a
  /// `Retry-After` longer than ``maxDelay`` ends the retries (the error is thrown at once, with
  /// ``JSONAPIResponseError/retryAfter`` for the app to plan with), since trying sooner than the
  /// server asked would only be refused again. Without one, the wait grows exponentially from
  /// ``initialDelay``, capped at ``maxDelay``, with random jitter (between half and all of it) so
  /// that clients refused together do not return together. Cancelling the task ends the wait at
  /// once with `CancellationError`. ``Configuration/prepareRequest`` runs again before each try,
  /// so a refreshed token is used.
  public struct RetryPolicy: Sendable, Hashable {
    /// The most tries of one request, the first included; `1` or less never retries.
    public var maxAttempts: Int
    /// The first wait without `Retry-After`; each further one doubles it, up to ``maxDelay``.
    public var initialDelay: Duration
    /// The longest single wait. A `Retry-After` beyond it ends the retries.
    public var maxDelay: Duration
    /// The longest time from the first try to the start of the last: a retry whose wait would
    /// end later is not made.
    public var maxTotalTime: Duration
    /// Whether `PUT` and `DELETE` are retried too. They are idempotent in HTTP, but only the app
    /// knows whether its server honours that. Default: `false`.
    public var retriesPutAndDelete: Bool
    /// Whether a connection that could not be made at all is retried. Default: `true`.
    public var retriesConnectionFailures: Bool

    /// Never retries: the default of ``Configuration/retryPolicy``.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// Three tries of `GET` and `HEAD`, waits from 0.5 s to at most 30 s, 60 s in all.
    public static let standard = RetryPolicy()

    /// Creates a policy; every argument has the default of ``standard``.
    ///
    /// ```swift
    /// let patient = JSONAPIClient.RetryPolicy(maxAttempts: 5, maxDelay: .seconds(60))
    /// ```
    public init(
      maxAttempts: Int = 3, initialDelay: Duration = .milliseconds(500),
      maxDelay: Duration = .seconds(30), maxTotalTime: Duration = .seconds(60),
      retriesPutAndDelete: Bool = false, retriesConnectionFailures: Bool = true
    ) {
      self.maxAttempts = maxAttempts
      self.initialDelay = initialDelay
      self.maxDelay = maxDelay
      self.maxTotalTime = maxTotalTime
      self.retriesPutAndDelete = retriesPutAndDelete
      self.retriesConnectionFailures = retriesConnectionFailures
    }

    /// Whether requests with `method` may be retried at all.
    func retries(_ method: String) -> Bool {
      guard maxAttempts > 1 else { return false }
      switch method.uppercased() {
      case "GET", "HEAD": return true
      case "PUT", "DELETE": return retriesPutAndDelete
      default: return false
      }
    }

    /// How long to wait before try `attempt + 1` after try `attempt` failed with `error`,
    /// `elapsed` after the first began; `nil` when it is not to be retried.
    func delay(
      after error: any Error, attempt: Int, elapsed: Duration, now: Date = Date(),
      jitter: (ClosedRange<Int64>) -> Int64 = { Int64.random(in: $0) }
    ) -> Duration? {
      guard attempt < maxAttempts else { return nil }
      let wait: Duration
      if let response = error as? JSONAPIResponseError, [429, 503].contains(response.statusCode) {
        if let retryAfter = response.retryAfter {
          wait = retryAfter.delay(from: now)
          guard wait <= maxDelay else { return nil }
        } else {
          wait = backoff(attempt: attempt, jitter: jitter)
        }
      } else if retriesConnectionFailures, let failure = error as? URLError,
        Self.connectionFailures.contains(failure.code)
      {
        wait = backoff(attempt: attempt, jitter: jitter)
      } else {
        return nil
      }
      guard elapsed + wait <= maxTotalTime else { return nil }
      return wait
    }

    static let connectionFailures: [URLError.Code] = [
      .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed, .notConnectedToInternet,
    ]

    /// ``initialDelay`` doubled `attempt - 1` times, capped at ``maxDelay``, then jittered to
    /// between half and all of it; counted in whole milliseconds with overflow-checked arithmetic.
    func backoff(attempt: Int, jitter: (ClosedRange<Int64>) -> Int64) -> Duration {
      let cap = Self.milliseconds(maxDelay)
      let base = min(Self.milliseconds(initialDelay), cap)
      let doublings = Int64(min(max(attempt - 1, 0), 40))
      let (grown, overflows) = base.multipliedReportingOverflow(by: Int64(1) << doublings)
      let full = overflows ? cap : min(grown, cap)
      let half = full / 2
      return .milliseconds(half + jitter(0...(full - half)))
    }

    /// `duration` in whole milliseconds, at least 0, at most `Int64.max`.
    static func milliseconds(_ duration: Duration) -> Int64 {
      let (seconds, attoseconds) = duration.components
      guard seconds >= 0 else { return 0 }
      let (whole, overflows) = seconds.multipliedReportingOverflow(by: 1000)
      if overflows { return Int64.max }
      let (sum, sumOverflows) = whole.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
      return sumOverflows ? Int64.max : max(sum, 0)
    }
  }
}
