import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The default ``JSONAPITransport``: a `URLSession` of its own that streams each response body,
/// stops reading past the size limit, cancels the request when the calling task is cancelled, and
/// follows redirects only within the origin of the request.
///
/// ```swift
/// let configuration = URLSessionConfiguration.default
/// configuration.timeoutIntervalForRequest = 15
/// let client = JSONAPIClient(
///   baseURL: URL(string: "https://api.example.com/")!,
///   transport: URLSessionTransport(configuration: configuration))
/// ```
///
/// It does not use `URLSession.shared`, because the size limit and the redirect rule need a
/// session delegate, which the shared session cannot have. ``shared`` plays its role.
///
/// It is the default on Apple platforms. On Linux it cannot hold the size limit: swift-corelibs-
/// foundation reads and decompresses a body on its own queue and hands it over later without
/// pausing, so memory grows by about what the server sends before the refusal, and its connection
/// pool can give a request an answer the server sent unasked. ``LibcurlTransport`` is the default
/// there; see "What a response may cost" in <doc:TalkingToAServer>.
public final class URLSessionTransport: JSONAPITransport {
  /// One transport with the default `URLSessionConfiguration`, used by clients that are given none.
  public static let shared = URLSessionTransport()

  private let session: URLSession
  private let delegate: SessionDelegate

  /// Creates a transport with a session made from `configuration`.
  ///
  /// The configuration is copied by `URLSession`; later changes to it have no effect.
  public init(configuration: URLSessionConfiguration = .default) {
    let delegate = SessionDelegate()
    self.delegate = delegate
    self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
  }

  deinit {
    session.finishTasksAndInvalidate()
  }

  /// Sends `request`, reading at most `maxResponseBytes` of body.
  ///
  /// - Throws: `CancellationError` when the calling task is cancelled (the request is cancelled
  ///   too); ``JSONAPIClientError/responseTooLarge(limit:)`` past the limit; the `URLError` of a
  ///   failed connection; `URLError(.badServerResponse)` for an answer that is not HTTP.
  public func send(_ request: URLRequest, maxResponseBytes: Int) async throws -> (
    Data, HTTPURLResponse
  ) {
    let exchange = Exchange(limit: maxResponseBytes)
    let task = session.dataTask(with: request)
    delegate.register(exchange, for: task.taskIdentifier)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        if exchange.start(continuation) {
          task.resume()
        } else {
          delegate.remove(task.taskIdentifier)
          task.cancel()
        }
      }
    } onCancel: {
      exchange.cancel()
      task.cancel()
    }
  }
}

/// The state of one request: the body read so far and the continuation to resume when it ends.
private final class Exchange: @unchecked Sendable {
  // Every member is guarded by `lock`: URLSession calls the delegate on its own queue while the
  // calling task may cancel at any time.
  private let lock = NSLock()
  private let limit: Int
  private var body = Data()
  private var response: HTTPURLResponse?
  private var continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>?
  private var cancelled = false
  private var tooLarge = false
  private var finished = false

  init(limit: Int) { self.limit = limit }

  /// Stores the continuation; `false` when the task was cancelled before it started (the
  /// continuation has then been resumed with `CancellationError`).
  func start(_ continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>) -> Bool {
    let alreadyCancelled = lock.withLock {
      if cancelled {
        finished = true
        return true
      }
      self.continuation = continuation
      return false
    }
    if alreadyCancelled { continuation.resume(throwing: CancellationError()) }
    return !alreadyCancelled
  }

  func cancel() { lock.withLock { cancelled = true } }

  /// Records the response head; `false` when its announced length is already over the limit.
  func receive(_ response: URLResponse) -> Bool {
    lock.withLock {
      self.response = response as? HTTPURLResponse
      if response.expectedContentLength > Int64(limit) { tooLarge = true }
      return !tooLarge
    }
  }

  /// Appends a chunk of body; `false` once the body is over the limit.
  func receive(_ chunk: Data) -> Bool {
    lock.withLock {
      guard !tooLarge else { return false }
      // `body.count <= limit` holds here, so the subtraction cannot overflow where a sum could.
      if chunk.count > limit - body.count {
        tooLarge = true
        body = Data()
        return false
      }
      body.append(chunk)
      return true
    }
  }

  func complete(error: (any Error)?, taskResponse: URLResponse?) {
    let outcome: Result<(Data, HTTPURLResponse), any Error>
    let continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>? = lock.withLock {
      guard !finished else { return nil }
      finished = true
      defer { self.continuation = nil }
      return self.continuation
    }
    guard let continuation else { return }
    let (body, response, cancelled, tooLarge) = lock.withLock {
      (self.body, self.response ?? taskResponse as? HTTPURLResponse, self.cancelled, self.tooLarge)
    }
    if tooLarge {
      outcome = .failure(JSONAPIClientError.responseTooLarge(limit: limit))
    } else if cancelled {
      outcome = .failure(CancellationError())
    } else if let error {
      outcome = .failure(error)
    } else if let response {
      outcome = .success((body, response))
    } else {
      outcome = .failure(URLError(.badServerResponse))
    }
    continuation.resume(with: outcome)
  }
}

/// Routes the session's callbacks to the ``Exchange`` of each task.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // `exchanges` is guarded by `lock`.
  private let lock = NSLock()
  private var exchanges: [Int: Exchange] = [:]

  func register(_ exchange: Exchange, for identifier: Int) {
    lock.withLock { exchanges[identifier] = exchange }
  }

  @discardableResult
  func remove(_ identifier: Int) -> Exchange? {
    lock.withLock { exchanges.removeValue(forKey: identifier) }
  }

  private func exchange(_ identifier: Int) -> Exchange? {
    lock.withLock { exchanges[identifier] }
  }

  /// Whether to go on reading after the response head: not when the task is unknown or the
  /// announced length is over the limit.
  private func accepts(_ response: URLResponse, of task: URLSessionTask) -> Bool {
    guard let exchange = exchange(task.taskIdentifier) else { return false }
    return exchange.receive(response)
  }

  /// The redirected request when it stays within the origin of the original request, else `nil`
  /// (the 3xx answer itself is returned). A redirect keeps the request's headers, credentials
  /// included, so it must not leave the origin the client approved.
  private func redirect(_ task: URLSessionTask, to request: URLRequest) -> URLRequest? {
    let from = (task.originalRequest?.url).flatMap(Origin.init)
    let to = request.url.flatMap(Origin.init)
    return from != nil && from == to ? request : nil
  }

  #if canImport(FoundationNetworking)
    // swift-corelibs-foundation: the completion-handler forms are the only ones.
    func urlSession(
      _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
      completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
      completionHandler(accepts(response, of: dataTask) ? .allow : .cancel)
    }

    func urlSession(
      _ session: URLSession, task: URLSessionTask,
      willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
      completionHandler: @escaping (URLRequest?) -> Void
    ) {
      completionHandler(redirect(task, to: request))
    }
  #else
    // Apple platforms: the async forms, whose signatures do not depend on how the SDK annotates
    // the completion handlers' sendability.
    func urlSession(
      _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse
    ) async -> URLSession.ResponseDisposition {
      accepts(response, of: dataTask) ? .allow : .cancel
    }

    func urlSession(
      _ session: URLSession, task: URLSessionTask,
      willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest
    ) async -> URLRequest? {
      redirect(task, to: request)
    }
  #endif

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    guard let exchange = exchange(dataTask.taskIdentifier) else { return }
    if !exchange.receive(data) { dataTask.cancel() }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    remove(task.taskIdentifier)?.complete(error: error, taskResponse: task.response)
  }
}
