#if os(Linux)
  import CJSONAPICurl
  import Foundation
  import FoundationNetworking

  /// The default ``JSONAPITransport`` on Linux: the system's libcurl, driven directly, so that the
  /// size limit and the one-answer-per-request rule hold however a server misbehaves.
  ///
  /// `URLSessionTransport` cannot hold them on Linux: swift-corelibs-foundation reads and inflates
  /// a body on its own queue and hands it to the delegate later, without pausing, so memory grows
  /// by what the server sends before the transport can stop it; and its connection pool can give a
  /// request the answer a server sent unasked on a kept-alive connection. This transport:
  /// - counts the body after decoding (`gzip`, `deflate` and whatever else libcurl decodes), as
  ///   libcurl hands it over, at most 16 KiB at a time, and stops the transfer the moment it
  ///   passes `maxResponseBytes`: memory grows by at most the limit and one piece;
  /// - refuses a body whose announced length is over the limit before reading it;
  /// - keeps connections, and uses one again only when its last answer was complete within the
  ///   limit and nothing has arrived on it since: a connection whose answer was cut short,
  ///   refused or cancelled is closed, and one with bytes waiting (an answer sent unasked, the
  ///   rest of a body longer than its `Content-Length`) is closed and the request sent on a new
  ///   connection, so no answer can reach a request it does not belong to. HTTP/2 connections
  ///   are used again under the same rule. libcurl older than 7.80 has no place for the check:
  ///   there each request has a connection of its own, closed afterwards;
  /// - follows redirects only within the origin of the request (up to 10), as
  ///   ``URLSessionTransport`` does;
  /// - stops the transfer at once when the calling task is cancelled (the cancellation wakes
  ///   libcurl's thread), even while the server sends nothing;
  /// - honours `URLRequest.timeoutInterval` as URLSession does: the longest the connection may
  ///   stay silent (no byte sent or received, connecting included) before the request fails with
  ///   `URLError(.timedOut)`, checked about once a second; 60 s unless the request says otherwise.
  ///
  /// Every request of the process runs on one thread, which drives them all through one libcurl
  /// multi handle: threads do not grow with requests, and no request blocks a thread of Swift's
  /// concurrency pool. libcurl (`libcurl.so.4`, 7.68 or later) is loaded when first needed; a
  /// system where FoundationNetworking links it dynamically has it. Where it
  /// cannot be loaded (a build with the static Linux SDK, an image without libcurl), every
  /// request fails with ``UnavailableError``, which says why and what to do: the transport does
  /// not quietly become `URLSessionTransport`, which holds neither bound on Linux. Pass
  /// `transport: URLSessionTransport.shared` to accept that, or install libcurl 4.
  ///
  /// **TLS.** libcurl verifies the server's certificate chain and host name (there is no switch
  /// to turn that off) against the CA bundle the system's libcurl was built with (Debian and
  /// Ubuntu: `/etc/ssl/certs/ca-certificates.crt`, kept by `update-ca-certificates`): to trust a
  /// private CA, add it to the system's store. Another CA bundle per client, and client
  /// certificates, are not supported yet. **Proxies:** libcurl honours `http_proxy`,
  /// `https_proxy`, `all_proxy` and `no_proxy` from the environment (the upper-case forms too,
  /// except `HTTP_PROXY`).
  ///
  /// ```swift
  /// let client = JSONAPIClient(
  ///   baseURL: URL(string: "https://api.example.com/")!,
  ///   transport: LibcurlTransport(timeout: .seconds(30)))
  /// ```
  public struct LibcurlTransport: JSONAPITransport {
    /// A transport with the default timeouts, used by clients on Linux that are given none.
    public static let shared = LibcurlTransport()

    /// Whether libcurl could be loaded on this system.
    public static var isAvailable: Bool { cjsonapi_curl_available() != 0 }

    /// Why libcurl could not be loaded on this system; `nil` when it is loaded.
    public static var unavailableReason: String? {
      isAvailable ? nil : String(cString: cjsonapi_curl_load_error())
    }

    /// The error of every request when libcurl cannot be loaded: what failed, and what to do.
    public struct UnavailableError: Error, CustomStringConvertible, Sendable {
      /// Why libcurl could not be loaded (the dynamic loader's words).
      public var reason: String

      /// The reason, and the two ways out.
      public var description: String {
        "LibcurlTransport cannot send requests: \(reason). JSONAPIClient's bounds on Linux "
          + "(maxResponseBytes while reading, one answer per request) need libcurl 4: install it "
          + "(Debian and Ubuntu: libcurl4), or pass `transport: URLSessionTransport.shared` to "
          + "accept URLSession's behaviour on Linux, which holds neither."
      }
    }

    /// The most a whole request may take, redirects included in each hop; `nil` for no limit.
    /// However long the whole may take, a request fails when nothing moves for its
    /// `timeoutInterval`.
    public var timeout: Duration?
    /// The most connecting may take; `nil` for the request's `timeoutInterval`.
    public var connectTimeout: Duration?

    /// Creates a transport. Default: no overall timeout; connecting may take as long as the
    /// request's `timeoutInterval`.
    public init(timeout: Duration? = nil, connectTimeout: Duration? = nil) {
      self.timeout = timeout
      self.connectTimeout = connectTimeout
    }

    /// Sends `request`, reading at most `maxResponseBytes` of decoded body.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled;
    ///   ``JSONAPIClientError/responseTooLarge(limit:)`` past the limit; a `URLError` for a failed
    ///   connection, a timeout, TLS, or an answer that is not HTTP.
    public func send(_ request: URLRequest, maxResponseBytes: Int) async throws -> (
      Data, HTTPURLResponse
    ) {
      var current = request
      for _ in 0...Self.maxRedirects {
        let (body, response) = try await sendOnce(current, limit: maxResponseBytes)
        guard let next = Self.redirect(from: current, answer: response) else {
          return (body, response)
        }
        current = next
      }
      throw URLError(.httpTooManyRedirects)
    }

    static let maxRedirects = 10

    /// The request a same-origin redirect asks for, or `nil`: not a redirect, no `Location`, or a
    /// `Location` on another origin (the 3xx answer is then returned, and the credentials the
    /// request carries stay where the client sent them).
    static func redirect(from request: URLRequest, answer: HTTPURLResponse) -> URLRequest? {
      guard [301, 302, 303, 307, 308].contains(answer.statusCode), let url = request.url,
        let location = answer.value(forHTTPHeaderField: "Location"),
        let target = URL(jsonAPIReference: location, relativeTo: url)?.absoluteURL,
        let from = Origin(url), from == Origin(target)
      else { return nil }
      var next = request
      next.url = target
      // As browsers and URLSession do: 303 always, and 301/302 after a POST, become a GET.
      let method = request.httpMethod ?? "GET"
      if answer.statusCode == 303 || (method == "POST" && answer.statusCode <= 302) {
        next.httpMethod = method == "HEAD" ? "HEAD" : "GET"
        next.httpBody = nil
        next.setValue(nil, forHTTPHeaderField: "Content-Type")
      }
      return next
    }

    private func sendOnce(_ request: URLRequest, limit: Int) async throws -> (
      Data, HTTPURLResponse
    ) {
      guard let url = request.url, let scheme = url.scheme?.lowercased(),
        scheme == "http" || scheme == "https"
      else { throw URLError(.unsupportedURL) }
      if let reason = Self.unavailableReason { throw UnavailableError(reason: reason) }
      try Task.checkCancellation()
      let idle = Self.idleTimeout(request)
      let transfer = CurlTransfer(limit: limit, idleTimeout: idle)
      let plan = CurlTransfer.Plan(
        url: url.absoluteString, method: request.httpMethod ?? "GET",
        headers: Self.headerLines(request), body: request.httpBody,
        timeoutMilliseconds: timeout.map(Self.milliseconds) ?? 0,
        connectTimeoutMilliseconds: Self.milliseconds(connectTimeout ?? idle))
      let outcome: CurlTransfer.Outcome = await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          transfer.start(plan) { continuation.resume(returning: $0) }
        }
      } onCancel: {
        transfer.cancel()
      }
      return try outcome.result(url: url)
    }

    /// The longest silence a request allows, as URLSession reads it: `timeoutInterval` (60 s
    /// unless the request says otherwise), or 60 s when that is not a positive number.
    static func idleTimeout(_ request: URLRequest) -> Duration {
      let interval = request.timeoutInterval
      guard interval.isFinite, interval > 0 else { return .seconds(60) }
      return .milliseconds(Int64(min(interval, Double(Int32.max) / 1_000) * 1_000))
    }

    /// The request's header lines, plus an empty `Expect` so that a body is sent at once rather
    /// than after waiting for a `100 Continue` some servers never send.
    static func headerLines(_ request: URLRequest) -> [String] {
      var lines: [String] = []
      for (name, value) in request.allHTTPHeaderFields ?? [:] {
        // A line break would start another header line: such a value is not sent.
        guard !name.contains(where: \.isNewline), !value.contains(where: \.isNewline) else {
          continue
        }
        lines.append("\(name): \(value)")
      }
      if request.httpBody != nil { lines.append("Expect:") }
      return lines
    }

    /// `duration` in whole milliseconds, at least 1, at most what a C `long` holds on any platform
    /// libcurl runs on here.
    static func milliseconds(_ duration: Duration) -> Int {
      let (seconds, attoseconds) = duration.components
      let total = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
      return Int(min(max(total.rounded(.up), 1), Double(Int32.max)))
    }
  }

  /// One transfer's state, shared between the calling task and libcurl's callbacks on libcurl's
  /// thread.
  final class CurlTransfer: @unchecked Sendable {
    struct Plan {
      var url: String
      var method: String
      var headers: [String]
      var body: Data?
      var timeoutMilliseconds: Int
      var connectTimeoutMilliseconds: Int
    }

    /// What a transfer ended with.
    struct Outcome: Sendable {
      var code: Int32
      var message: String
      var status: Int
      var httpVersion: String
      var headers: [String: String]
      var body: Data
      var tooLarge: Bool
      var headTooLarge: Bool
      var cancelled: Bool
      var timedOut: Bool
      var idleTimeout: Duration
      var limit: Int

      func result(url: URL) throws -> (Data, HTTPURLResponse) {
        if tooLarge { throw JSONAPIClientError.responseTooLarge(limit: limit) }
        if cancelled { throw CancellationError() }
        if timedOut {
          throw URLError(
            .timedOut,
            userInfo: [
              NSLocalizedDescriptionKey:
                "No byte was sent or received for \(idleTimeout) (the request's timeoutInterval)"
            ])
        }
        if headTooLarge {
          throw URLError(
            .badServerResponse,
            userInfo: [NSLocalizedDescriptionKey: "The response head is over 1 MiB"])
        }
        guard code == 0 else { throw Self.error(code: code, message: message) }
        guard
          let response = HTTPURLResponse(
            url: url, statusCode: status, httpVersion: httpVersion, headerFields: headers)
        else { throw URLError(.badServerResponse) }
        return (body, response)
      }

      /// The `URLError` closest to a libcurl failure, with libcurl's own words.
      static func error(code: Int32, message: String) -> URLError {
        let kind: URLError.Code
        switch code {
        case 1, 3: kind = .unsupportedURL
        case 5, 6: kind = .cannotFindHost
        case 7: kind = .cannotConnectToHost
        case 28: kind = .timedOut
        case 35, 53, 54, 58, 59, 66, 80: kind = .secureConnectionFailed
        case 60, 77, 83, 90, 91: kind = .serverCertificateUntrusted
        case 52, 55, 56: kind = .networkConnectionLost
        // libcurl could not be set up for the request (an option refused: the message names it).
        case 2, 4, 43, 48: kind = .unknown
        default: kind = .badServerResponse
        }
        return URLError(
          kind, userInfo: [NSLocalizedDescriptionKey: "\(message) (libcurl error \(code))"])
      }
    }

    /// The most the response head (status line and header lines) may take.
    static let maxHeadBytes = 1 << 20

    // Guarded by `lock`: libcurl calls back on its thread while the calling task may
    // cancel at any time.
    private let lock = NSLock()
    private let limit: Int
    private var body = Data()
    private var headers: [String: String] = [:]
    private var headBytes = 0
    private var status = 0
    private var httpVersion = "HTTP/1.1"
    private var bodyStarted = false
    private var tooLarge = false
    private var headTooLarge = false
    private var cancelled = false
    private var timedOut = false
    private var done: (@Sendable (Outcome) -> Void)?
    /// The longest silence allowed, and when bytes last moved (uptime, nanoseconds).
    private let idleNanoseconds: UInt64
    private var lastProgress = DispatchTime.now().uptimeNanoseconds
    private var moved: Int64 = 0

    init(limit: Int, idleTimeout: Duration) {
      self.limit = max(0, limit)
      idleNanoseconds = UInt64(LibcurlTransport.milliseconds(idleTimeout)) * 1_000_000
    }

    /// Stops the transfer within a moment: libcurl's thread is woken to ask it.
    func cancel() {
      lock.withLock { cancelled = true }
      cjsonapi_curl_wake()
    }

    /// Hands the transfer to libcurl's thread; `done` is called once, with how it ended (on that
    /// thread, or on the calling one when the transfer cannot start).
    func start(_ plan: Plan, done: @escaping @Sendable (Outcome) -> Void) {
      lock.withLock { self.done = done }
      let lines = plan.headers.map { strdup($0) }
      defer { for line in lines { free(line) } }
      // Kept alive by libcurl's thread until `curlDone` lets it go.
      let context = Unmanaged.passRetained(self).toOpaque()
      plan.url.withCString { url in
        plan.method.withCString { method in
          lines.map { UnsafePointer($0) }.withUnsafeBufferPointer { headerPointers in
            let start = { (body: UnsafeRawBufferPointer?) in
              var request = cjsonapi_curl_request(
                url: url, method: method, headers: headerPointers.baseAddress,
                header_count: headerPointers.count, body: body?.baseAddress,
                body_length: body?.count ?? 0, timeout_ms: plan.timeoutMilliseconds,
                connect_timeout_ms: plan.connectTimeoutMilliseconds)
              // An empty body still goes as a body (`Content-Length: 0`), not as none.
              if body != nil && request.body == nil { request.body = UnsafeRawPointer(url) }
              // The request's memory is copied before this returns.
              cjsonapi_curl_start(
                &request, context, curlReceiveData, curlReceiveHeader, curlPoll, curlDone)
            }
            if let body = plan.body {
              body.withUnsafeBytes { start($0) }
            } else {
              start(nil)
            }
          }
        }
      }
    }

    /// Reports how the transfer ended to the caller of ``start(_:done:)``.
    func finish(_ result: cjsonapi_curl_result) {
      let message = withUnsafeBytes(of: result.message) { bytes in
        String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      let (outcome, done) = lock.withLock {
        let outcome = Outcome(
          code: result.code, message: message, status: status, httpVersion: httpVersion,
          headers: headers, body: body, tooLarge: tooLarge, headTooLarge: headTooLarge,
          cancelled: cancelled, timedOut: timedOut,
          idleTimeout: .milliseconds(idleNanoseconds / 1_000_000), limit: limit)
        let done = self.done
        self.done = nil
        return (outcome, done)
      }
      done?(outcome)
    }

    /// Appends a piece of decoded body; `false` stops the transfer.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
      lock.withLock {
        guard !cancelled, !tooLarge else { return false }
        lastProgress = DispatchTime.now().uptimeNanoseconds
        if !bodyStarted {
          bodyStarted = true
          // The head is complete: refuse an announced length over the limit unread, and make
          // room for one within it. A compressed body's length says nothing of its decoded size.
          if headers["Content-Encoding"] == nil, let text = headers["Content-Length"],
            let announced = Int64(text.trimmingCharacters(in: .whitespaces))
          {
            if announced > Int64(limit) {
              tooLarge = true
              return false
            }
            body.reserveCapacity(Int(announced))
          }
        }
        // `body.count <= limit` holds here, so the subtraction cannot overflow where a sum could.
        guard bytes.count <= limit - body.count else {
          tooLarge = true
          body = Data()
          return false
        }
        body.append(contentsOf: bytes)
        return true
      }
    }

    /// Records one raw header line; `false` stops the transfer.
    func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
      lock.withLock {
        guard !cancelled else { return false }
        lastProgress = DispatchTime.now().uptimeNanoseconds
        headBytes += bytes.count
        guard headBytes <= Self.maxHeadBytes else {
          headTooLarge = true
          return false
        }
        // Trailers of a chunked body come after it: the head is already complete.
        guard !bodyStarted else { return true }
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .newlines)
        if line.hasPrefix("HTTP/") {
          // A new head (after `100 Continue`, for instance): only the last one counts.
          let parts = line.split(separator: " ", maxSplits: 2)
          headers = [:]
          httpVersion = parts.first.map(String.init) ?? "HTTP/1.1"
          status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        } else if let colon = line.firstIndex(of: ":") {
          let name = Self.canonical(line[..<colon].trimmingCharacters(in: .whitespaces))
          let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
          headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        return true
      }
    }

    /// Whether the transfer may go on: not cancelled, and not silent (no byte sent or received)
    /// for longer than the request's timeout interval.
    func poll(moved: Int64) -> Bool {
      lock.withLock {
        guard !cancelled else { return false }
        let now = DispatchTime.now().uptimeNanoseconds
        if moved != self.moved {
          self.moved = moved
          lastProgress = now
        }
        // `lastProgress` is never later than `now`: the subtraction cannot wrap.
        guard now - min(lastProgress, now) <= idleNanoseconds else {
          timedOut = true
          return false
        }
        return true
      }
    }

    /// `content-length` → `Content-Length`, so that the head reads the same over HTTP/1.1 and
    /// HTTP/2 (which sends names in lower case) and `HTTPURLResponse` finds its headers.
    static func canonical(_ name: String) -> String {
      name.split(separator: "-", omittingEmptySubsequences: false)
        .map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
        .joined(separator: "-")
    }
  }

  // libcurl's callbacks: plain C functions that find their transfer through the context pointer.
  private func transfer(_ context: UnsafeMutableRawPointer?) -> CurlTransfer? {
    context.map { Unmanaged<CurlTransfer>.fromOpaque($0).takeUnretainedValue() }
  }

  private let curlReceiveData: cjsonapi_curl_data_callback = { context, bytes, count in
    let going = transfer(context)?.receive(UnsafeRawBufferPointer(start: bytes, count: count))
    return going == true ? 0 : 1
  }

  private let curlReceiveHeader: cjsonapi_curl_line_callback = { context, bytes, count in
    let going = transfer(context)?.receiveHeader(
      UnsafeRawBufferPointer(start: bytes, count: count))
    return going == true ? 0 : 1
  }

  private let curlPoll: cjsonapi_curl_poll_callback = { context, moved in
    transfer(context)?.poll(moved: moved) == true ? 0 : 1
  }

  private let curlDone: cjsonapi_curl_done_callback = { context, result in
    guard let context else { return }
    Unmanaged<CurlTransfer>.fromOpaque(context).takeRetainedValue().finish(result.pointee)
  }
#endif
