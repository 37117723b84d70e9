import Foundation

@testable import JSONAPIServer

/// A store that counts what the server asks of it: the calls by kind and type (`page tasks`,
/// `delete[] tasks`, `setToOne comments.article`…) and the rows its reads returned. Unlike
/// `CountingStore`, it forwards the bulk writes, so the base store's own implementations run.
final class RowCountingStore: JSONAPIStore, @unchecked Sendable {
  let base: any JSONAPIStore
  private let lock = NSLock()
  private var counted: [String] = []
  private var rowsRead = 0

  init(base: any JSONAPIStore) { self.base = base }

  var appliesRowConditions: Bool { base.appliesRowConditions }

  /// The calls so far and the rows read, and reset.
  func take() -> (calls: [String], rows: Int) {
    lock.withLock {
      defer { (counted, rowsRead) = ([], 0) }
      return (counted, rowsRead)
    }
  }

  func record(_ call: String, rows: Int = 0) {
    lock.withLock {
      counted.append(call)
      rowsRead += rows
    }
  }

  func read<T: Sendable>(_ body: @Sendable (any JSONAPIStoreReader) async throws -> T)
    async throws -> T
  {
    try await base.read { reader in
      try await body(RowCountingWriter.Reader(base: reader, store: self))
    }
  }

  func write<T: Sendable>(_ body: @Sendable (any JSONAPIStoreWriter) async throws -> T)
    async throws -> T
  {
    try await base.write { writer in try await body(RowCountingWriter(base: writer, store: self)) }
  }
}

struct RowCountingWriter: JSONAPIStoreWriter {
  struct Reader: JSONAPIStoreReader {
    let base: any JSONAPIStoreReader
    let store: RowCountingStore

    func resources(_ type: String, ids: [String]) async throws -> [JSONAPIResourceRecord] {
      let found = try await base.resources(type, ids: ids)
      store.record("resources \(type)", rows: Self.rows(found))
      return found
    }

    func resources(_ type: String, ids: [String], linkage: JSONAPIStoreLinkageBound)
      async throws -> [JSONAPIResourceRecord]
    {
      let found = try await base.resources(type, ids: ids, linkage: linkage)
      store.record("resources \(type)", rows: Self.rows(found))
      return found
    }

    func page(_ query: JSONAPIStoreQuery) async throws -> JSONAPIStorePage {
      let page = try await base.page(query)
      store.record("page \(query.type)", rows: Self.rows(page.resources))
      return page
    }

    /// The rows `records` took: each record, and each member of its to-many linkage (a row of
    /// a join table).
    static func rows(_ records: [JSONAPIResourceRecord]) -> Int {
      records.reduce(0) { total, record in
        total + 1
          + record.relationships.values.reduce(0) { count, linkage in
            if case .toMany(let identifiers) = linkage { return count + identifiers.count }
            return count
          }
      }
    }
  }

  let base: any JSONAPIStoreWriter
  let store: RowCountingStore

  private var reader: Reader { Reader(base: base, store: store) }

  func resources(_ type: String, ids: [String]) async throws -> [JSONAPIResourceRecord] {
    try await reader.resources(type, ids: ids)
  }

  func page(_ query: JSONAPIStoreQuery) async throws -> JSONAPIStorePage {
    try await reader.page(query)
  }

  func create(_ record: JSONAPIResourceRecord) async throws -> JSONAPIResourceRecord {
    store.record("create \(record.type)")
    return try await base.create(record)
  }

  func update(_ changes: JSONAPIResourceRecord) async throws -> JSONAPIResourceRecord? {
    store.record("update \(changes.type)")
    return try await base.update(changes)
  }

  func delete(_ type: String, id: String) async throws -> Bool {
    store.record("delete \(type)")
    return try await base.delete(type, id: id)
  }

  func delete(_ type: String, ids: [String]) async throws -> Int {
    store.record("delete[] \(type)")
    return try await base.delete(type, ids: ids)
  }

  func setToOne(
    _ relationship: String, of type: String, ids: [String], to target: JSONAPIResourceIdentifier?
  ) async throws -> Int {
    store.record("setToOne \(type).\(relationship)")
    return try await base.setToOne(relationship, of: type, ids: ids, to: target)
  }

  func lockForWriting(_ type: String, id: String) async throws -> JSONAPIResourceRecord? {
    store.record("lock \(type)")
    return try await base.lockForWriting(type, id: id)
  }

  func add(
    _ identifiers: [JSONAPIResourceIdentifier], to relationship: String, of type: String,
    id: String
  ) async throws -> Bool {
    store.record("add \(type).\(relationship)")
    return try await base.add(identifiers, to: relationship, of: type, id: id)
  }

  func remove(
    _ identifiers: [JSONAPIResourceIdentifier], from relationship: String, of type: String,
    id: String
  ) async throws -> Bool {
    store.record("remove \(type).\(relationship)")
    return try await base.remove(identifiers, from: relationship, of: type, id: id)
  }
}
