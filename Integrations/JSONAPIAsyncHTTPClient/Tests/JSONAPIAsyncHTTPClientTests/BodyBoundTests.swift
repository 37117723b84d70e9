import AsyncHTTPClient
import Foundation
import JSONAPINetworking
import NIOCore
import NIOHTTP1
import Testing

@testable import JSONAPIAsyncHTTPClient

// The size limit: checked on the head before the body is read, then on every piece of the body,
// stopping at the first piece that passes it.
@Suite struct BodyBoundTests {
  /// Counts the pieces a sequence has handed out; read by the test after the task that pulled
  /// them has ended.
  final class Counter: @unchecked Sendable {
    // `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0

    var pulled: Int { lock.withLock { count } }

    func pull() -> Int {
      lock.withLock {
        count += 1
        return count
      }
    }
  }

  /// A body made of `pieces`, handed out one at a time; `afterPulling` runs when piece `n`
  /// (counting from 1) is pulled, or when the end is.
  struct Pieces: AsyncSequence {
    typealias Element = ByteBuffer
    var pieces: [[UInt8]]
    var counter = Counter()
    var afterPulling: (Int) -> Void = { _ in }

    struct AsyncIterator: AsyncIteratorProtocol {
      var rest: ArraySlice<[UInt8]>
      let counter: Counter
      let afterPulling: (Int) -> Void

      mutating func next() async throws -> ByteBuffer? {
        afterPulling(counter.pull())
        guard let piece = rest.popFirst() else { return nil }
        return ByteBuffer(bytes: piece)
      }
    }

    func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(rest: pieces[...], counter: counter, afterPulling: afterPulling)
    }
  }

  static func collect(_ body: Pieces, announced: Int? = nil, limit: Int) async throws -> Data {
    try await AsyncHTTPClientTransport.collect(body, announcedLength: announced, limit: limit)
  }

  @Test func aBodyWithinTheLimitIsReturnedWhole() async throws {
    let body = Pieces(pieces: [[1, 2, 3], [], [4, 5, 6]])
    #expect(try await Self.collect(body, announced: 6, limit: 6) == Data([1, 2, 3, 4, 5, 6]))
  }

  @Test func anEmptyBodyIsEmpty() async throws {
    #expect(try await Self.collect(Pieces(pieces: []), limit: 0) == Data())
  }

  @Test func theFirstPiecePastTheLimitStopsTheRead() async throws {
    let body = Pieces(pieces: [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13]])
    await #expect(throws: JSONAPIClientError.responseTooLarge(limit: 6)) {
      try await Self.collect(body, limit: 6)
    }
    // The second piece passes the limit: nothing after it is asked for.
    #expect(body.counter.pulled == 2)
  }

  @Test func aLyingContentLengthDoesNotRaiseTheLimit() async throws {
    // The head announced 2 bytes; the body goes on. What counts is what arrives.
    let body = Pieces(pieces: [[1, 2], [3, 4], [5, 6], [7, 8]])
    await #expect(throws: JSONAPIClientError.responseTooLarge(limit: 5)) {
      try await Self.collect(body, announced: 2, limit: 5)
    }
    #expect(body.counter.pulled == 3)
  }

  @Test func aBodyLongerThanAnnouncedButWithinTheLimitIsRead() async throws {
    let body = Pieces(pieces: [[1, 2], [3, 4, 5]])
    #expect(try await Self.collect(body, announced: 2, limit: 100) == Data([1, 2, 3, 4, 5]))
  }

  @Test func cancellingDuringTheBodyThrowsCancellationError() async throws {
    let counter = Counter()
    let task = Task {
      let body = Pieces(pieces: [[1], [2], [3], [4]], counter: counter) { pulled in
        if pulled == 2 { withUnsafeCurrentTask { $0?.cancel() } }
      }
      return try await Self.collect(body, limit: 100)
    }
    let result = await task.result
    #expect(throws: CancellationError.self) { try result.get() }
    #expect(counter.pulled == 2)
  }

  @Test func aBodyCutShortByCancellationIsNotReturned() async throws {
    // The sequence ends (as a cancelled stream may) right after the task is cancelled: the part
    // read so far must not pass for the whole body.
    let task = Task {
      let body = Pieces(pieces: [[1]]) { pulled in
        if pulled == 2 { withUnsafeCurrentTask { $0?.cancel() } }
      }
      return try await Self.collect(body, limit: 100)
    }
    let result = await task.result
    #expect(throws: CancellationError.self) { try result.get() }
  }

  // MARK: The head

  static func length(
    _ headers: HTTPHeaders, status: HTTPResponseStatus = .ok, method: HTTPMethod = .GET,
    limit: Int
  ) throws -> Int? {
    try AsyncHTTPClientTransport.announcedLength(
      status: status, headers: headers, method: method, limit: limit)
  }

  @Test func anAnnouncedLengthOverTheLimitIsRefusedBeforeTheBody() throws {
    #expect(throws: JSONAPIClientError.responseTooLarge(limit: 99)) {
      try Self.length(["Content-Length": "100"], limit: 99)
    }
    #expect(try Self.length(["Content-Length": "100"], limit: 100) == 100)
    #expect(
      try Self.length(["Content-Length": "100", "Content-Encoding": "identity"], limit: 100) == 100)
  }

  @Test func anAnnouncedLengthTooLargeForIntIsOverTheLimit() {
    #expect(throws: JSONAPIClientError.responseTooLarge(limit: 1 << 20)) {
      try Self.length(["Content-Length": "68719476736000000000000"], limit: 1 << 20)
    }
  }

  @Test func anUnreadableOrConflictingLengthIsLeftToTheCount() throws {
    #expect(try Self.length([:], limit: 10) == nil)
    #expect(try Self.length(["Content-Length": "12abc"], limit: 10) == nil)
    #expect(try Self.length(["Content-Length": "-5"], limit: 10) == nil)
    #expect(try Self.length(["Content-Length": "5", "content-length": "6"], limit: 10) == nil)
  }

  @Test func answersWithoutABodyAreNotRefusedForTheirLength() throws {
    // RFC 9110 section 8.6: the Content-Length of a HEAD, 204 or 304 answer is not a body here.
    #expect(try Self.length(["Content-Length": "1000"], method: .HEAD, limit: 10) == nil)
    #expect(try Self.length(["Content-Length": "1000"], status: .notModified, limit: 10) == nil)
    #expect(try Self.length(["Content-Length": "1000"], status: .noContent, limit: 10) == nil)
  }

  @Test func anEncodedAnswerIsRefusedBeforeItsBody() {
    // Its decoded size could not be counted as it arrives: a 200 KB gzip body can inflate to
    // 200 MiB. Refused on the head, whatever its announced length.
    for coding in ["gzip", "deflate", "br", "x-gzip", "GZIP", "identity, gzip", "gzip, gzip"] {
      #expect(throws: AsyncHTTPClientTransportError.unsupportedContentEncoding(coding)) {
        try Self.length(["Content-Encoding": coding, "Content-Length": "5"], limit: 10)
      }
    }
  }

  @Test func identityIsNoEncoding() throws {
    #expect(
      try Self.length(["Content-Encoding": "Identity", "Content-Length": "5"], limit: 10) == 5)
    #expect(try Self.length(["Content-Encoding": "identity, identity"], limit: 10) == nil)
  }

  // MARK: Errors

  @Test func errorsPassThroughUnlessTheTaskWasCancelled() {
    let failure = HTTPClientError.readTimeout
    let passed = AsyncHTTPClientTransport.mapped(failure, cancelled: false)
    #expect(passed as? HTTPClientError == failure)
    let cancelled = AsyncHTTPClientTransport.mapped(failure, cancelled: true)
    #expect(cancelled is CancellationError)
    // The transport's own verdicts stand even then.
    let tooLarge = AsyncHTTPClientTransport.mapped(
      JSONAPIClientError.responseTooLarge(limit: 512), cancelled: true)
    #expect(tooLarge as? JSONAPIClientError == .responseTooLarge(limit: 512))
  }
}
