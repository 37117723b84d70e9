import Foundation

/// Lets one write transaction run at a time, first come first served: for a ``JSONAPIStore``
/// whose storage takes one writer at a time (one connection, a file, memory), so that its
/// `write(_:)` waits its turn instead of failing or interleaving. A task cancelled while it waits
/// stops waiting with `CancellationError`; the gate never blocks a thread.
///
/// ```swift
/// private let gate = JSONAPIWriteGate()
///
/// func write<T: Sendable>(_ body: @Sendable (any JSONAPIStoreWriter) async throws -> T)
///   async throws -> T
/// {
///   try await gate.acquire()
///   defer { gate.release() }
///   return try await body(MyWriter(storage))
/// }
/// ```
///
/// `JSONAPIMemoryStore` and the SQLite store of `Integrations/JSONAPISQLiteStore` write through one.
public final class JSONAPIWriteGate: @unchecked Sendable {
  /// One waiting task; its members are read and written only while the gate's lock is held.
  private final class Waiter: @unchecked Sendable {
    var continuation: CheckedContinuation<Void, any Error>?
    var isCancelled = false
  }

  private let lock = NSLock()
  private var isHeld = false  // guarded by `lock`
  private var waiters: [Waiter] = []  // guarded by `lock`, oldest first

  /// A free gate.
  public init() {}

  /// Waits until the gate is free and takes it; every successful call needs one ``release()``.
  /// Tasks get the gate in the order they asked for it.
  ///
  /// - Throws: `CancellationError` when the task is cancelled before it gets the gate (then it
  ///   does not hold it).
  public func acquire() async throws {
    let waiter = Waiter()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let outcome: Result<Void, any Error>? = lock.withLock {
          if waiter.isCancelled { return .failure(CancellationError()) }
          if !isHeld {
            isHeld = true
            return .success(())
          }
          waiter.continuation = continuation
          waiters.append(waiter)
          return nil
        }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let continuation: CheckedContinuation<Void, any Error>? = lock.withLock {
        waiter.isCancelled = true
        guard let index = waiters.firstIndex(where: { $0 === waiter }) else { return nil }
        waiters.remove(at: index)
        return waiter.continuation
      }
      continuation?.resume(throwing: CancellationError())
    }
  }

  /// How many tasks wait for the gate (for tests).
  var waiting: Int { lock.withLock { waiters.count } }

  /// Hands the gate to the oldest waiter, or frees it. Call it once for each successful
  /// ``acquire()``.
  public func release() {
    let next: Waiter? = lock.withLock {
      if waiters.isEmpty {
        isHeld = false
        return nil
      }
      return waiters.removeFirst()
    }
    next?.continuation?.resume()
  }
}
