import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// `JSONAPIWriteGate`: one holder at a time, waiters served in order, cancellation while waiting.
@Suite struct WriteGateTests {
  /// A list that tasks append to.
  final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [Int] = []
    func append(_ entry: Int) { lock.withLock { entries.append(entry) } }
    var all: [Int] { lock.withLock { entries } }
  }

  /// Waits (with a bound) until `condition` holds.
  static func eventually(_ condition: () -> Bool) async throws {
    for _ in 0..<2_000 where !condition() { try await Task.sleep(nanoseconds: 1_000_000) }
  }

  @Test func waitersGetTheGateInTheOrderTheyAskedOneAtATime() async throws {
    let gate = JSONAPIWriteGate()
    let log = Log()
    try await gate.acquire()
    var tasks: [Task<Void, any Error>] = []
    for number in 1...5 {
      tasks.append(
        Task {
          try await gate.acquire()
          log.append(number)  // in the gate
          try await Task.sleep(nanoseconds: 2_000_000)
          log.append(-number)  // leaving it
          gate.release()
        })
      // The next one asks only once this one waits.
      try await Self.eventually { gate.waiting == number }
    }
    #expect(log.all.isEmpty)
    gate.release()
    for task in tasks { try await task.value }
    #expect(log.all == [1, -1, 2, -2, 3, -3, 4, -4, 5, -5])
  }

  @Test func aWaiterCancelledStopsWaitingWithoutTheGate() async throws {
    let gate = JSONAPIWriteGate()
    try await gate.acquire()
    let cancelled = Task { try await gate.acquire() }
    try await Self.eventually { gate.waiting == 1 }
    cancelled.cancel()
    await #expect(throws: CancellationError.self) { try await cancelled.value }
    #expect(gate.waiting == 0)
    // Still held by the first holder: the next one waits for its release, then gets it.
    let next = Task { try await gate.acquire() }
    try await Self.eventually { gate.waiting == 1 }
    gate.release()
    try await next.value
    gate.release()
    // A task cancelled before asking does not get it either.
    let early = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await gate.acquire()
    }
    await #expect(throws: CancellationError.self) { try await early.value }
  }
}
