import Foundation
import GRDB
import JSONAPISQLStoreKit
import JSONAPIServer

/// The reader of a `JSONAPISQLiteStore.read(_:)`: each call is one read transaction of the pool.
struct SQLiteReader: JSONAPIStoreReader {
  let pool: DatabasePool
  let reads: SQLiteReads

  /// GRDB's synchronous read, on the calling thread: a read holds a connection only while it
  /// runs SQL and never suspends, so it cannot wait on work that waits for it.
  private func readNow<T>(_ body: (Database) throws -> T) throws -> T { try pool.read(body) }

  func resources(_ type: String, ids: [String]) async throws -> [JSONAPIResourceRecord] {
    try readNow { db in try reads.resources(db, type, ids: ids) }
  }

  func resources(_ type: String, ids: [String], linkage: JSONAPIStoreLinkageBound)
    async throws -> [JSONAPIResourceRecord]
  {
    try readNow { db in try reads.resources(db, type, ids: ids, linkage: linkage) }
  }

  func page(_ query: JSONAPIStoreQuery) async throws -> JSONAPIStorePage {
    try readNow { db in try reads.page(db, query) }
  }
}

/// The writer of a `JSONAPISQLiteStore.write(_:)`: every call runs on the pool's writer connection,
/// inside the transaction the store began, and checks that this transaction is still the one
/// open (a writer kept past its body fails rather than write into another transaction).
final class SQLiteTransaction: JSONAPIStoreWriter {
  private let pool: DatabasePool
  let writes: SQLiteWrites
  /// Whether the transaction is open; changed only on the writer connection's queue.
  private let isOpen = SQLStoreLocked(false)

  init(pool: DatabasePool, writes: SQLiteWrites) {
    self.pool = pool
    self.writes = writes
  }

  /// Begins the transaction (`BEGIN IMMEDIATE`: the write lock is taken now, not at the first
  /// write).
  func begin() async throws {
    let isOpen = self.isOpen
    try await onWriter(pool) { db in
      // A transaction left open by a failure no one could roll back never reaches the next one.
      if db.isInsideTransaction { try db.execute(sql: "ROLLBACK TRANSACTION") }
      try db.execute(sql: "BEGIN IMMEDIATE TRANSACTION")
      isOpen.withValue { $0 = true }
    }
  }

  /// Commits; on failure rolls back and throws.
  func commit() async throws {
    let isOpen = self.isOpen
    try await onWriter(pool) { db in
      guard isOpen.withValue({ $0 }), db.isInsideTransaction else {
        throw JSONAPISQLiteStoreError(reason: "the transaction ended before it could commit")
      }
      isOpen.withValue { $0 = false }
      do {
        try db.execute(sql: "COMMIT TRANSACTION")
      } catch {
        if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK TRANSACTION") }
        throw error
      }
    }
  }

  /// Rolls back, whatever happened; never throws and is never cancelled.
  func rollback() async {
    let isOpen = self.isOpen
    _ = try? await onWriter(pool) { db in
      isOpen.withValue { $0 = false }
      if db.isInsideTransaction { try db.execute(sql: "ROLLBACK TRANSACTION") }
    }
  }

  /// Runs `block` on the writer connection inside the open transaction.
  func run<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws
    -> T
  {
    try Task.checkCancellation()
    let isOpen = self.isOpen
    return try await onWriter(pool) { db in
      guard isOpen.withValue({ $0 }), db.isInsideTransaction else {
        throw JSONAPISQLiteStoreError(
          reason: "the writer was used outside the transaction of its write(_:) body")
      }
      return try block(db)
    }
  }

  func resources(_ type: String, ids: [String]) async throws -> [JSONAPIResourceRecord] {
    let reads = writes.reads
    return try await run { db in try reads.resources(db, type, ids: ids) }
  }

  func resources(_ type: String, ids: [String], linkage: JSONAPIStoreLinkageBound)
    async throws -> [JSONAPIResourceRecord]
  {
    let reads = writes.reads
    return try await run { db in try reads.resources(db, type, ids: ids, linkage: linkage) }
  }

  func page(_ query: JSONAPIStoreQuery) async throws -> JSONAPIStorePage {
    let reads = writes.reads
    return try await run { db in try reads.page(db, query) }
  }

  func create(_ record: JSONAPIResourceRecord) async throws -> JSONAPIResourceRecord {
    let writes = self.writes
    return try await run { db in try writes.create(db, record) }
  }

  func update(_ changes: JSONAPIResourceRecord) async throws -> JSONAPIResourceRecord? {
    let writes = self.writes
    return try await run { db in try writes.update(db, changes) }
  }

  func delete(_ type: String, id: String) async throws -> Bool {
    let writes = self.writes
    return try await run { db in try writes.delete(db, type, id: id) }
  }

  func add(
    _ identifiers: [JSONAPIResourceIdentifier], to relationship: String, of type: String,
    id: String
  ) async throws -> Bool {
    let writes = self.writes
    return try await run { db in
      try writes.add(db, identifiers, to: relationship, of: type, id: id)
    }
  }

  func remove(
    _ identifiers: [JSONAPIResourceIdentifier], from relationship: String, of type: String,
    id: String
  ) async throws -> Bool {
    let writes = self.writes
    return try await run { db in
      try writes.remove(db, identifiers, from: relationship, of: type, id: id)
    }
  }
}

/// Runs `block` on the pool's writer connection and waits for it. Not cancellable on purpose: a
/// `COMMIT` or `ROLLBACK` asked for always runs, and a statement is never interrupted half-way
/// (GRDB's cancellable `write` could throw before running the block, leaving a transaction open).
func onWriter<T: Sendable>(
  _ pool: DatabasePool, _ block: @escaping @Sendable (Database) throws -> T
) async throws -> T {
  try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
    pool.asyncWriteWithoutTransaction { db in
      continuation.resume(with: Result { try block(db) })
    }
  }
}
