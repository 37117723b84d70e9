import Foundation
import GRDB
import JSONAPIServer

/// A `JSONAPIStore` on SQLite (GRDB) that serves any declared resource: hand it the schemas of a
/// `JSONAPIServer`'s declarations, and it keeps their resources in tables — its own, or those of a
/// database that already exists (``JSONAPISQLiteTable``).
///
/// ```swift
/// let articles = try JSONAPIResourceDeclaration(Article.self, inverses: ["comments": "article"])
/// let comments = try JSONAPIResourceDeclaration(Comment.self)
/// let people = try JSONAPIResourceDeclaration(Person.self)
/// let store = try JSONAPISQLiteStore(
///   path: "blog.sqlite", schemas: [articles.schema, comments.schema, people.schema])
/// let server = try JSONAPIServer(
///   resources: [articles, comments, people], store: store, baseURL: "https://api.example.com")
/// ```
///
/// **Tables.** Each type without a mapping lives in the table named after it, created when
/// missing: `id INTEGER PRIMARY KEY AUTOINCREMENT`; one column per attribute — `TEXT` for strings
/// and enumerations, `INTEGER` for integers, `REAL` for numbers, `INTEGER` 0 or 1 for booleans,
/// `TEXT` holding the JSON text for arrays and objects, and a column without declared type for
/// dates (string dates are kept as text, numeric ones as numbers) and for any-value attributes;
/// one `<relationship>_id` column per to-one relationship (indexed); and a join table
/// `"<type>_<relationship>"(owner_id, target_id, position)` per to-many relationship. Inverse
/// relationships have nothing: the server reads and writes them through their to-one side. Names
/// come only from schemas and mappings, always quoted; request values are always bound as
/// arguments, never written into SQL.
///
/// **Values.** The store keeps each value exactly or refuses it with
/// `JSONAPIStoreError.unstorableValue(member:reason:)` (a server answers `422`): a value of
/// another kind than its column's (a string for an integer attribute), an integer a `REAL` column
/// cannot hold exactly, a number that is not finite, an id an integer id column cannot hold
/// (`"abc"`, `"007"`), a member without a column. Text is kept byte for byte, U+0000 included
/// (bound as its UTF-8 bytes and cast to text), and compared by its UTF-8 bytes, so it sorts,
/// filters and pages as in `JSONAPIMemoryStore`. A to-many relationship names each resource once.
///
/// **Order.** Pages sort as SQLite sorts: `null` first, then numbers by value, then text by its
/// bytes, then blobs; ids of integer tables by value, of text tables by bytes. For attributes of
/// one kind that is `JSONAPIMemoryStore`'s order; an any-value attribute sorts booleans, arrays
/// and objects (kept as JSON text) after text.
///
/// **Transactions.** Writes run one at a time, first come first served (an async FIFO gate).
/// ``write(_:)`` begins `BEGIN IMMEDIATE` on the pool's writer connection, runs every call of the
/// writer there, and ends with `COMMIT` when the body returns, or `ROLLBACK` when it throws or its
/// task is cancelled — a transaction is never left open. ``read(_:)`` never waits for writes
/// (WAL): **each call of its reader is one read transaction of its own**, so two calls of one
/// body may see two states when a write commits between them. A read runs on the calling thread,
/// on one of the pool's reader connections (as many as the machine has cores, at least 5): no
/// hop to another thread, which costs more than these reads.
///
/// **Cost.** `resources(_:ids:)` takes one `SELECT` for the rows and one per non-inverse to-many
/// relationship for the linkage, whatever the number of ids up to 500 per statement; `page(_:)`
/// one `SELECT` (LIMITed), one `COUNT(*)` when it counts, and one per to-many relationship.
///
/// **Visibility.** A page applies the server's row conditions (`JSONAPIStoreQuery.visibility`)
/// in its `WHERE`, each step through a relationship as a `WITH` part holding the ids it admits, so
/// pages, cursors, totals and `hasMore` count visible rows only and no hidden row is read: the
/// statements per page stay the same.
public final class JSONAPISQLiteStore: JSONAPIStore {
  private let pool: DatabasePool
  private let reads: SQLiteReads
  private let gate = JSONAPIWriteGate()
  private let statements: SQLStoreLocked<Int>

  /// `true`: a page applies `JSONAPIStoreQuery.visibility` in its SQL (`WHERE`, with the
  /// filters, in the page's `SELECT` and its count), so a type with a visibility policy can be
  /// served from this store, and no hidden row is read.
  public var appliesRowConditions: Bool { true }

  /// Opens (or creates) the database at `path` for resources of the types `schemas` declare.
  ///
  /// The database is opened as a `DatabasePool` in WAL mode. Each type lives in the table its
  /// mapping in `tables` names, or by default in the table named after the type; missing tables
  /// (and join tables) are created, existing ones must have every column the store needs.
  ///
  /// ```swift
  /// let store = try JSONAPISQLiteStore(
  ///   path: "blog.sqlite", schemas: [people.schema, articles.schema],
  ///   tables: ["people": JSONAPISQLiteTable(name: "authors", columns: ["name": "full_name"])])
  /// ```
  ///
  /// - Parameters:
  ///   - path: The database file.
  ///   - schemas: The resource types; when two have the same `type`, the later one counts.
  ///   - tables: The tables of types that do not live in the default table, by type.
  /// - Throws: ``JSONAPISQLiteStoreError`` when a relationship's target type has no schema (or
  ///   none is declared), an inverse mirrors no to-one relationship, two members would share a
  ///   column or two types a table, an existing table lacks a column, or an existing table with
  ///   integer ids has another id column than its `INTEGER PRIMARY KEY`; GRDB's errors when the
  ///   database cannot be opened.
  public init(
    path: String, schemas: [JSONAPIResourceSchema], tables: [String: JSONAPISQLiteTable] = [:]
  ) throws {
    // SQLite compares names without regard to ASCII case.
    let catalog = try SQLiteCatalog(
      schemas: schemas, mappings: tables, foldsCase: true,
      failure: JSONAPISQLiteStoreError.init(reason:))
    let statements = SQLStoreLocked(0)
    var configuration = Configuration()
    // Transactions span several writer accesses (one per store call): the store ends each one.
    configuration.allowsUnsafeTransactions = true
    // Another connection to the file (another store, another process) may hold the write lock:
    // wait for it a while rather than fail at once.
    configuration.busyMode = .timeout(5)
    // Reads run on the calling thread (see `SQLiteReader`): one connection for each thread that
    // may read at once, so that a read waits for a connection only past that.
    configuration.maximumReaderCount = max(5, ProcessInfo.processInfo.activeProcessorCount)
    configuration.prepareDatabase { db in
      db.trace(options: .statement) { _ in statements.withValue { $0 += 1 } }
    }
    let pool = try DatabasePool(path: path, configuration: configuration)
    try pool.write { db in try catalog.prepare(db) }
    self.pool = pool
    self.reads = SQLiteReads(catalog: catalog)
    self.statements = statements
  }

  /// How many SQL statements the store's connections have run since it opened — the store's own
  /// and GRDB's (`BEGIN`, `COMMIT`…) — for tests and monitoring.
  ///
  /// ```swift
  /// let before = store.statementCount
  /// _ = try await store.read { try await $0.resources("people", ids: ids) }
  /// store.statementCount - before   // the same for 1, 10 or 100 ids
  /// ```
  public var statementCount: Int { statements.withValue { $0 } }

  /// Stores `records` in one transaction, as `JSONAPIStoreWriter.create(_:)` stores each, and
  /// returns them as stored. Use it to seed a store.
  ///
  /// ```swift
  /// let people = try await store.insert([
  ///   JSONAPIResourceRecord(type: "people", id: "", attributes: ["name": "Dan"])
  /// ])
  /// people.map(\.id)   // ["1"]
  /// ```
  ///
  /// - Throws: `JSONAPIStoreError.alreadyExists(type:id:)` when a record's id is taken,
  ///   `JSONAPIStoreError.unstorableValue(member:reason:)` for a value the store cannot keep; then
  ///   none of `records` is stored.
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

  /// Runs `body` with a reader of the committed resources. It does not wait for a write that is
  /// running, and sees nothing that write does.
  ///
  /// Each call of the reader is one read transaction of its own: it sees what was committed when
  /// that call began, so two calls of one body may see two states.
  ///
  /// ```swift
  /// let found = try await store.read { reader in
  ///   try await reader.resources("people", ids: ["1", "2"])
  /// }
  /// ```
  ///
  /// - Throws: What `body` throws, and GRDB's errors.
  public func read<T: Sendable>(
    _ body: @Sendable (any JSONAPIStoreReader) async throws -> T
  ) async throws -> T {
    try await body(SQLiteReader(pool: pool, reads: reads))
  }

  /// Runs `body` in one transaction, after the writes that asked before it: `BEGIN IMMEDIATE`,
  /// then every call of the writer on the writer connection, then `COMMIT` when `body` returns.
  /// When `body` throws, or the task is cancelled (while waiting for its turn, during `body`, or
  /// when `body` returns), the store rolls back and nothing of it is stored. The writer's reads see
  /// its own writes.
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
  /// Use the writer only inside `body`: afterwards its calls throw. Don't call ``write(_:)`` or
  /// ``insert(_:)`` from inside `body`: the inner call waits for the outer one, which waits for
  /// the inner one. (``read(_:)`` inside `body` is fine; it sees the committed resources.)
  ///
  /// - Throws: What `body` throws (after rolling back), `CancellationError` when the task is
  ///   cancelled, and GRDB's errors (a failed `COMMIT` is rolled back).
  public func write<T: Sendable>(
    _ body: @Sendable (any JSONAPIStoreWriter) async throws -> T
  ) async throws -> T {
    try await gate.acquire()
    defer { gate.release() }
    try Task.checkCancellation()
    let transaction = SQLiteTransaction(pool: pool, writes: SQLiteWrites(reads: reads))
    try await transaction.begin()
    do {
      let result = try await body(transaction)
      // A body that returns although its task was cancelled may have stopped half-way: drop it.
      try Task.checkCancellation()
      try await transaction.commit()
      return result
    } catch {
      await transaction.rollback()
      throw error
    }
  }
}
