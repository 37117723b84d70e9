import Foundation
import JSONAPICodable
import Testing

@testable import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// Cancelling the calling task ends a request in flight.
@Suite struct CancellationTests {
  struct Article: Codable, Sendable {
    var id: String
    var type = "articles"
  }

  /// A transport that answers only after a long time, unless its task is cancelled.
  static func slowTransport(started: Recorder<Bool>) -> StubTransport {
    StubTransport { request in
      started.append(true)
      try await Task.sleep(for: .seconds(30))
      return try Stub.answer(request, 200, #"{"data":[]}"#)
    }
  }

  @Test func cancellingTheTaskCancelsTheRequest() async throws {
    let started = Recorder<Bool>()
    let client = Stub.client(Self.slowTransport(started: started))
    let task = Task { try await client.get([Article].self, from: "articles") }
    while started.values.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
    task.cancel()
    // Uncancelled, the transport would answer successfully after 30 s: the error proves the
    // cancellation reached it (no wall-clock bound, which a loaded machine would break).
    let result = await task.result
    #expect(throws: CancellationError.self) { try result.get() }
  }

  @Test func cancellingStopsPagination() async throws {
    let started = Recorder<Bool>()
    let client = Stub.client(Self.slowTransport(started: started))
    let task = Task {
      var count = 0
      for try await _ in client.pages(of: [Article].self, from: "articles") { count += 1 }
      return count
    }
    while started.values.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
    task.cancel()
    let result = await task.result
    #expect(throws: CancellationError.self) { try result.get() }
  }

  @Test func aCancelledTaskSendsNothing() async throws {
    let transport = StubTransport(status: 200, body: #"{"data":[]}"#, headers: Stub.jsonAPI)
    let client = Stub.client(transport)
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await client.get([Article].self, from: "articles")
    }
    let result = await task.result
    #expect(throws: CancellationError.self) { try result.get() }
    #expect(transport.requests.isEmpty)
  }

  @Test func urlSessionTransportCancelsBeforeStartingWhenAlreadyCancelled() async throws {
    // No server needed: a cancelled task never reaches the network.
    let transport = URLSessionTransport()
    let request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:9/never")))
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await transport.send(request, maxResponseBytes: 1024)
    }
    let result = await task.result
    #expect(throws: CancellationError.self) { _ = try result.get() }
  }
}
