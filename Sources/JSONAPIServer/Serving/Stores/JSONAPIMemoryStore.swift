import Foundation

/// A ``JSONAPIStore`` that keeps every resource in memory: the store of tests, prototypes and
/// small apps.
///
/// Create it with the schemas of the resources it holds, seed it with ``insert(_:)``, and hand it
/// to a server; nothing is written to disk, and the resources go when the store goes.
///
/// ```swift
/// let store = JSONAPIMemoryStore(schemas: [
///   JSONAPIResourceSchema(
///     type: "articles", attributes: [.init(name: "title", kind: .string, isOptional: false)],
///     relationships: [.init(name: "tags", targetType: "tags", isToMany: true, isOptional: true)]),
///   JSONAPIResourceSchema(type: "tags", attributes: [], relationships: []),
/// ])
/// try await store.insert([
///   JSONAPIResourceRecord(type: "tags", id: "", attributes: ["name": "swift"])  // id "1"
/// ])
/// let page = try await store.read { reader in
///   try await reader.page(JSONAPIStoreQuery(type: "tags", sort: [.ascending("name"), .ascending("id")]))
/// }
/// ```
///
/// **Records.** A stored record has linkage for every relationship its schema declares:
/// `.toOne(nil)` or `.toMany([])` when a create leaves it out. Attributes and relationships the
/// schema does not declare are kept as given (the server checks requests, the store does not), and
/// types without a schema are stored too, without linkage filled in.
///
/// **Ids.** A create with an empty `id` gets the next integer of its type: "1", "2", … counted per
/// type and never given out twice, even after a delete. A create that brings its own id keeps it,
/// and when that id is a decimal integer the counter moves past it. Ids, and text everywhere, are
/// compared by their UTF-8 bytes.
///
/// **Transactions.** Writes run one at a time, first come first served. ``write(_:)`` hands its
/// body a private copy of the resources; the store takes the copy as a whole when the body
/// returns and drops it when the body throws or its task is cancelled (R74: a request succeeds or
/// fails completely). ``read(_:)`` never waits for writes: it reads the resources as committed
/// when it began, however long it runs.
///
/// **Queries.** ``JSONAPIStoreReader/page(_:)`` answers filters, sort, offset and keyset windows,
/// totals and scopes (R69, R64) in O(n log n) for the n resources of the type (or of the scope);
/// ``JSONAPIStoreReader/resources(_:ids:)`` costs one look-up per id. Values sort `null` (or
/// absent) first, then booleans, numbers (by value), strings (by UTF-8 bytes), then arrays and
/// objects (by their JSON text); ids sort decimal integers first, by value ("2" before "10"), then
/// the others by UTF-8 bytes.
public final class JSONAPIMemoryStore: JSONAPIStore {
  /// The resources as the last committed write left them.
  private let committed: MemoryStoreLocked<MemoryStoreState>
  /// Lets one write transaction run at a time.
  private let gate = JSONAPIWriteGate()

  /// `true`: pages apply ``JSONAPIStoreQuery/visibility`` with the filters, before sorting,
  /// paging and counting.
  public var appliesRowConditions: Bool { true }

  /// Creates an empty store for resources of the types `schemas` declare.
  ///
  /// The schemas tell the store each type's relationships, so that every stored record carries
  /// linkage for all of them. When two schemas have the same `type`, the later one counts.
  ///
  /// ```swift
  /// let store = JSONAPIMemoryStore(schemas: [
  ///   JSONAPIResourceSchema(type: "people", attributes: [], relationships: [])
  /// ])
  /// ```
  public init(schemas: [JSONAPIResourceSchema]) {
    committed = MemoryStoreLocked(MemoryStoreState(schemas: schemas))
  }

  /// Stores `records` in one transaction, as ``JSONAPIStoreWriter/create(_:)`` stores each, and
  /// returns them as stored: with their ids (made for those with an empty `id`) and the linkage of
  /// every declared relationship. Use it to seed a store.
  ///
  /// ```swift
  /// let people = try await store.insert([
  ///   JSONAPIResourceRecord(type: "people", id: "", attributes: ["name": "Dan"]),
  ///   JSONAPIResourceRecord(type: "people", id: "", attributes: ["name": "Ann"]),
  /// ])
  /// people.map(\.id)   // ["1", "2"]
  /// ```
  ///
  /// - Throws: ``JSONAPIStoreError/alreadyExists(type:id:)`` when a record's id is taken (by a
  ///   stored resource or an earlier record of the same call); then none of `records` is stored.
  @discardableResult
  public func insert(_ records: [JSONAPIResourceRecord]) async throws -> [JSONAPIResourceRecord] {
    try await write { writer in
      var stored: [JSONAPIResourceRecord] = []
      stored.reserveCapacity(records.count)
      for record in records {
        stored.append(try await writer.create(record))
      }
      return stored
    }
  }

  /// Runs `body` with a reader of the resources as committed when the call began. It does not
  /// wait for a write that is running, and sees nothing that write does.
  ///
  /// ```swift
  /// let found = try await store.read { reader in
  ///   try await reader.resources("people", ids: ["1", "2"])
  /// }
  /// ```
  ///
  /// - Throws: What `body` throws.
  public func read<T: Sendable>(
    _ body: @Sendable (any JSONAPIStoreReader) async throws -> T
  ) async throws -> T {
    try await body(MemoryStoreSnapshot(state: committed.withValue { $0 }))
  }

  /// Runs `body` in a transaction, after the writes that asked before it: the writer works on a
  /// private copy of the resources, which the store takes as a whole when `body` returns. When
  /// `body` throws, or the task is cancelled (while waiting for its turn, during `body`, or when
  /// `body` returns), nothing of it is stored. The writer's reads see its own writes.
  ///
  /// ```swift
  /// let created = try await store.write { writer in
  ///   let author = try await writer.create(
  ///     JSONAPIResourceRecord(type: "people", id: "", attributes: ["name": "Dan"]))
  ///   return try await writer.create(
  ///     JSONAPIResourceRecord(
  ///       type: "articles", id: "", attributes: ["title": "Hello"],
  ///       relationships: ["author": .toOne(author.identifier)]))
  /// }
  /// ```
  ///
  /// Use the writer only inside `body`: what it writes afterwards reaches only its own copy. Don't
  /// call ``write(_:)`` or ``insert(_:)`` from inside `body`: the inner call waits for the outer
  /// one to finish, which waits for the inner one. (``read(_:)`` inside `body` is fine; it sees the
  /// committed resources, not the transaction's writes.)
  ///
  /// - Throws: What `body` throws (after dropping its writes), and `CancellationError` when the
  ///   task is cancelled.
  public func write<T: Sendable>(
    _ body: @Sendable (any JSONAPIStoreWriter) async throws -> T
  ) async throws -> T {
    try await gate.acquire()
    defer { gate.release() }
    try Task.checkCancellation()
    let transaction = MemoryStoreTransaction(state: committed.withValue { $0 })
    let result = try await body(transaction)
    // A body that returns although its task was cancelled may have stopped half-way: drop it.
    try Task.checkCancellation()
    let changed = transaction.state
    committed.withValue { $0 = changed }
    return result
  }
}
