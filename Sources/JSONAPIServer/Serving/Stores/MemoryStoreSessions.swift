import Foundation

/// A value behind a lock, so that a `Sendable` class can share it between tasks.
final class MemoryStoreLocked<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value  // read and written only while `lock` is held

  init(_ value: Value) { self.value = value }

  func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try lock.withLock { try body(&value) }
  }
}

/// The reader of a `JSONAPIMemoryStore.read(_:)`: the state committed when the read began.
struct MemoryStoreSnapshot: JSONAPIStoreReader {
  let state: MemoryStoreState

  func resources(_ type: String, ids: [String]) async throws -> [JSONAPIResourceRecord] {
    state.resources(type, ids: ids)
  }

  func resources(_ type: String, ids: [String], linkage: JSONAPIStoreLinkageBound)
    async throws -> [JSONAPIResourceRecord]
  {
    state.bounded(state.resources(type, ids: ids), linkage)
  }

  func page(_ query: JSONAPIStoreQuery) async throws -> JSONAPIStorePage {
    state.boundedPage(query)
  }
}

/// The writer of a `JSONAPIMemoryStore.write(_:)`: a private copy of the committed state that the
/// store takes as a whole when the body returns, or drops. Its reads see its own writes. Calls
/// from several tasks of one body are serialized by a lock.
final class MemoryStoreTransaction: JSONAPIStoreWriter {
  private let working: MemoryStoreLocked<MemoryStoreState>

  init(state: MemoryStoreState) { working = MemoryStoreLocked(state) }

  /// The state as the transaction has it now (a copy-on-write copy).
  var state: MemoryStoreState { working.withValue { $0 } }

  func resources(_ type: String, ids: [String]) async throws -> [JSONAPIResourceRecord] {
    state.resources(type, ids: ids)
  }

  func resources(_ type: String, ids: [String], linkage: JSONAPIStoreLinkageBound)
    async throws -> [JSONAPIResourceRecord]
  {
    let state = self.state
    return state.bounded(state.resources(type, ids: ids), linkage)
  }

  func page(_ query: JSONAPIStoreQuery) async throws -> JSONAPIStorePage {
    state.boundedPage(query)  // sorted outside the lock, on a copy
  }

  func create(_ record: JSONAPIResourceRecord) async throws -> JSONAPIResourceRecord {
    try working.withValue { try $0.create(record) }
  }

  func update(_ changes: JSONAPIResourceRecord) async throws -> JSONAPIResourceRecord? {
    working.withValue { $0.update(changes) }
  }

  func delete(_ type: String, id: String) async throws -> Bool {
    working.withValue { $0.delete(type, id: id) }
  }

  func delete(_ type: String, ids: [String]) async throws -> Int {
    working.withValue { $0.delete(type, ids: ids) }
  }

  func setToOne(
    _ relationship: String, of type: String, ids: [String], to target: JSONAPIResourceIdentifier?
  ) async throws -> Int {
    working.withValue { $0.setToOne(relationship, of: type, ids: ids, to: target) }
  }

  func add(
    _ identifiers: [JSONAPIResourceIdentifier], to relationship: String, of type: String,
    id: String
  ) async throws -> Bool {
    try working.withValue { try $0.add(identifiers, to: relationship, of: type, id: id) }
  }

  func remove(
    _ identifiers: [JSONAPIResourceIdentifier], from relationship: String, of type: String,
    id: String
  ) async throws -> Bool {
    try working.withValue { try $0.remove(identifiers, from: relationship, of: type, id: id) }
  }
}
