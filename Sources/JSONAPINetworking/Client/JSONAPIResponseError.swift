import Foundation
import JSONAPICodable

/// A server's answer with a status outside 200–299: the status, the JSON:API error objects when the
/// body is an error document, and the raw body and content type otherwise.
///
/// Every ``JSONAPIClient`` call throws it for a non-2xx answer, so one `catch` handles them all:
///
/// ```swift
/// do {
///   _ = try await client.get(Article.self, from: "articles/404")
/// } catch let error as JSONAPIResponseError {
///   switch error.statusCode {
///   case 404: print("gone:", error.errors.first?.detail ?? "")
///   case 429, 503: try await Task.sleep(for: error.retryAfter?.delay() ?? .seconds(1))
///   default: print(error)   // an HTML 502 says so, with the start of the page
///   }
/// }
/// ```
public struct JSONAPIResponseError: Error, Sendable, Hashable {
  /// The HTTP status code, such as `404`.
  public var statusCode: Int
  /// The error objects of the body when it is a JSON:API error document; empty otherwise.
  public var errors: [JSONAPIErrorObject]
  /// The whole error document, with its `meta`, `links` and `jsonapi`, when the body is one.
  public var errorDocument: JSONAPIErrorDocument?
  /// The response body as received (at most ``JSONAPIClient/Configuration/maxResponseBytes``).
  public var body: Data
  /// The `Content-Type` of the body, such as `text/html; charset=utf-8`; `nil` when not sent.
  public var contentType: String?
  /// The response headers, names lowercased. Prefer ``header(_:)``.
  public var headers: [String: String]
  /// The request method, such as `GET`.
  public var method: String
  /// The URL that answered.
  public var url: URL

  /// Creates an error from the parts of a response. ``JSONAPIClient`` makes them for you; this
  /// initializer is for transports and tests.
  public init(
    statusCode: Int, errors: [JSONAPIErrorObject] = [], body: Data = Data(),
    contentType: String? = nil, headers: [String: String] = [:], method: String = "GET", url: URL
  ) {
    self.statusCode = statusCode
    self.errors = errors
    errorDocument = errors.isEmpty ? nil : JSONAPIErrorDocument(errors: errors)
    self.body = body
    self.contentType = contentType
    self.headers = Dictionary(
      headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    self.method = method
    self.url = url
  }

  /// The value of the header `name`, matched case-insensitively.
  public func header(_ name: String) -> String? { headers[name.lowercased()] }

  /// When to try again, from the `Retry-After` header (sent with `429`, `503` and redirects);
  /// `nil` when it is absent or unreadable.
  public var retryAfter: RetryAfter? {
    header("retry-after").flatMap(RetryAfter.init(headerValue:))
  }

  /// Whether the server refused every media type in `Accept` (`406 Not Acceptable`): with
  /// JSON:API, usually an `ext` or `profile` it does not support.
  public var isNotAcceptable: Bool { statusCode == 406 }

  /// Whether the server refused the request's `Content-Type` (`415 Unsupported Media Type`): with
  /// JSON:API, a media type parameter or extension it does not support.
  public var isUnsupportedMediaType: Bool { statusCode == 415 }

  /// Whether the server refused a conditional write because the resource is no longer the
  /// version its `If-Match` named (`412 Precondition Failed`, RFC 9110 §15.5.13): someone else
  /// changed (or deleted) it since it was read. Read it again with
  /// ``JSONAPIClient/getResponse(_:from:query:)-(_,String,_)``, apply the edit to what it is now,
  /// and send that with the new ``JSONAPIResponse/etag``. Nothing was changed.
  ///
  /// ```swift
  /// do {
  ///   let _: Article? = try await client.update(from: read, to: edited, at: "articles/1")
  /// } catch let error as JSONAPIResponseError where error.isPreconditionFailed {
  ///   let current = try await client.getResponse(Article.self, from: "articles/1")
  ///   // Show the user `current.value`, merge, and update(from: current, …) again.
  /// }
  /// ```
  public var isPreconditionFailed: Bool { statusCode == 412 }

  /// Whether the server requires a conditional write (`428 Precondition Required`, RFC 6585):
  /// send the update or delete with `ifMatch:` and the ``JSONAPIResponse/etag`` of a read.
  public var isPreconditionRequired: Bool { statusCode == 428 }

  /// Whether the body is a JSON:API error document (``errors`` is not empty).
  public var isErrorDocument: Bool { !errors.isEmpty }

  /// The body as UTF-8 text, cut to `limit` characters: for logs and messages.
  public func bodyText(limit: Int = 200) -> String {
    let text = String(decoding: body.prefix(limit * 4), as: UTF8.self)
    return text.count > limit ? String(text.prefix(limit)) + "…" : text
  }
}

extension JSONAPIResponseError: CustomStringConvertible, LocalizedError {
  /// A sentence with the status, the request and what the body says.
  public var description: String {
    var text = "HTTP \(statusCode)"
    let reason = HTTPStatus.reason(statusCode)
    if !reason.isEmpty { text += " \(reason)" }
    text += " for \(method) \(url.absoluteString)"
    if isNotAcceptable {
      text += " (the server cannot answer in the media type of Accept; check ext and profile)"
    } else if isUnsupportedMediaType {
      text += " (the server does not accept the request's Content-Type; check ext and profile)"
    } else if isPreconditionFailed {
      text +=
        " (someone else changed the resource since the version named in If-Match was read, and"
        + " nothing was changed: read it again for its current state and ETag, apply the edit to"
        + " that, and send it again with the new ETag; RFC 9110 §13.1.1, §15.5.13)"
    } else if isPreconditionRequired {
      text +=
        " (the server accepts this write only with If-Match: read the resource first and send"
        + " its ETag with ifMatch:)"
    }
    if let retryAfter { text += " (Retry-After: \(retryAfter))" }
    if !errors.isEmpty {
      let listed = errors.prefix(3).map(\.description).joined(separator: "; ")
      let more = errors.count > 3 ? " (and \(errors.count - 3) more)" : ""
      return text + ": \(listed)\(more)"
    }
    if body.isEmpty { return text + ", with an empty body" }
    return text + ", with a \(contentType ?? "body without Content-Type") that is not a JSON:API "
      + "error document: \"\(bodyText())\""
  }

  /// The same text as ``description``.
  public var errorDescription: String? { description }
}

/// The `Retry-After` header (RFC 9110 §10.2.3): a number of seconds or an HTTP date.
///
/// ```swift
/// if let retryAfter = error.retryAfter { try await Task.sleep(for: retryAfter.delay()) }
/// ```
public enum RetryAfter: Sendable, Hashable, CustomStringConvertible {
  /// Wait this many seconds.
  case seconds(Int)
  /// Wait until this moment.
  case date(Date)

  /// Reads `120` or an HTTP date: `Wed, 21 Oct 2015 07:28:00 GMT`, or one of the obsolete forms
  /// RFC 9110 still asks recipients to read, `Wednesday, 21-Oct-15 07:28:00 GMT` and
  /// `Wed Oct 21 07:28:00 2015`; `nil` for anything else. A number of
  /// seconds too large for `Int` reads as `Int.max`, so a long wait is never read as none at all
  /// on a platform whose `Int` is 32 bits (watchOS on arm64_32).
  public init?(headerValue: String) {
    let trimmed = headerValue.trimmingCharacters(in: .whitespaces)
    if !trimmed.isEmpty, trimmed.allSatisfy(\.isASCIIDigit) {
      self = .seconds(Int(trimmed) ?? Int.max)
    } else if let date = HTTPDate.parse(trimmed) {
      self = .date(date)
    } else {
      return nil
    }
  }

  /// How long to wait from `now`; never negative.
  public func delay(from now: Date = Date()) -> Duration {
    switch self {
    case .seconds(let seconds): return .seconds(seconds)
    case .date(let date):
      // Whole milliseconds, counted in Int64: a date 25 days away is already past a 32-bit `Int`
      // (arm64_32). The date is the server's, so the count is bounded before it becomes an
      // integer (2^53 ms, about 285 000 years, is exact in a Double).
      let milliseconds = (date.timeIntervalSince(now) * 1000).rounded(.down)
      guard milliseconds > 0 else { return .zero }
      return .milliseconds(Int64(min(milliseconds, Self.longestDelayMilliseconds)))
    }
  }

  private static let longestDelayMilliseconds = Double(Int64(1) << 53)

  /// `120 s` or the date.
  public var description: String {
    switch self {
    case .seconds(let seconds): return "\(seconds) s"
    case .date(let date): return "\(date)"
    }
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

/// HTTP dates (RFC 9110 §5.6.7): the preferred IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`, and
/// the two obsolete forms recipients must still read, which servers still send: RFC 850's
/// `Sunday, 06-Nov-94 08:49:37 GMT` and C's asctime, `Sun Nov  6 08:49:37 1994`.
enum HTTPDate {
  private static let months = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
  ]
  private static let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
  private static let longDays = [
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
  ]

  /// The date `text` names, or nil. `now` places RFC 850's two-digit year (see ``year(twoDigits:now:)``).
  static func parse(_ text: String, now: Date = Date()) -> Date? {
    // Splitting at runs of spaces also reads asctime's padded day (`Nov  6`).
    let parts = text.split(separator: " ")
    switch parts.count {
    case 6:
      // "Sun," "06" "Nov" "1994" "08:49:37" "GMT"
      guard parts[0].hasSuffix(","), days.contains(parts[0].dropLast().lowercased()),
        parts[5] == "GMT", parts[1].count == 2, parts[3].count == 4,
        let year = Int(parts[3])
      else { return nil }
      return date(year: year, month: parts[2], day: parts[1], time: parts[4])
    case 4:
      // "Sunday," "06-Nov-94" "08:49:37" "GMT"
      let dayMonthYear = parts[1].split(separator: "-", omittingEmptySubsequences: false)
      guard parts[0].hasSuffix(","), longDays.contains(parts[0].dropLast().lowercased()),
        parts[3] == "GMT", dayMonthYear.count == 3, dayMonthYear[0].count == 2,
        dayMonthYear[2].count == 2, let twoDigits = Int(dayMonthYear[2])
      else { return nil }
      return date(
        year: year(twoDigits: twoDigits, now: now), month: dayMonthYear[1], day: dayMonthYear[0],
        time: parts[2])
    case 5:
      // "Sun" "Nov" "6" "08:49:37" "1994"
      guard days.contains(parts[0].lowercased()), (1...2).contains(parts[2].count),
        parts[4].count == 4, let year = Int(parts[4])
      else { return nil }
      return date(year: year, month: parts[1], day: parts[2], time: parts[3])
    default:
      return nil
    }
  }

  /// RFC 850's two-digit year: the year with those last digits that is at most 50 years after
  /// `now`, as RFC 9110 §5.6.7 asks.
  static func year(twoDigits: Int, now: Date) -> Int {
    var calendar = Calendar(identifier: .gregorian)
    if let utc = TimeZone(identifier: "UTC") { calendar.timeZone = utc }
    let current = calendar.component(.year, from: now)
    let candidate = current - current % 100 + twoDigits
    return candidate > current + 50 ? candidate - 100 : candidate
  }

  /// The UTC moment of `day` `month` `year` at `time` (`hh:mm:ss`), or nil when any part does not
  /// read or the date does not exist.
  private static func date(year: Int, month: Substring, day: Substring, time: Substring) -> Date? {
    let clock = time.split(separator: ":", omittingEmptySubsequences: false)
    guard let month = months.firstIndex(of: month.lowercased()), let day = Int(day),
      clock.count == 3, clock.allSatisfy({ $0.count == 2 })
    else { return nil }
    let numbers = clock.compactMap { Int($0) }
    guard numbers.count == 3 else { return nil }
    var components = DateComponents()
    components.year = year
    components.month = month + 1
    components.day = day
    components.hour = numbers[0]
    components.minute = numbers[1]
    components.second = numbers[2]
    var calendar = Calendar(identifier: .gregorian)
    guard let utc = TimeZone(identifier: "UTC") else { return nil }
    calendar.timeZone = utc
    guard components.isValidDate(in: calendar) else { return nil }
    return calendar.date(from: components)
  }
}

/// Reason phrases for the statuses a JSON:API client meets most.
enum HTTPStatus {
  static func reason(_ code: Int) -> String {
    switch code {
    case 300: return "Multiple Choices"
    case 301: return "Moved Permanently"
    case 302: return "Found"
    case 303: return "See Other"
    case 304: return "Not Modified"
    case 307: return "Temporary Redirect"
    case 308: return "Permanent Redirect"
    case 400: return "Bad Request"
    case 401: return "Unauthorized"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 405: return "Method Not Allowed"
    case 406: return "Not Acceptable"
    case 409: return "Conflict"
    case 410: return "Gone"
    case 412: return "Precondition Failed"
    case 413: return "Content Too Large"
    case 415: return "Unsupported Media Type"
    case 422: return "Unprocessable Content"
    case 428: return "Precondition Required"
    case 429: return "Too Many Requests"
    case 500: return "Internal Server Error"
    case 501: return "Not Implemented"
    case 502: return "Bad Gateway"
    case 503: return "Service Unavailable"
    case 504: return "Gateway Timeout"
    default: return ""
    }
  }
}
