import Foundation
import GRDB
import JSONAPISQLStoreKit
import JSONAPIServer

/// The reads of the store on one connection: the shared statements (``SQLReads``) run through
/// GRDB, and rows read as records.
struct SQLiteReads: Sendable {
  let sql: SQLReads<SQLiteDialect>
  var catalog: SQLiteCatalog { sql.catalog }
  private let statements = SQLiteStatements()

  init(catalog: SQLiteCatalog) {
    sql = SQLReads(catalog: catalog, dialect: SQLiteDialect())
  }

  /// One `SELECT` per ``sqliteChunkSize`` ids, and one per non-inverse to-many relationship and
  /// chunk for the linkage.
  /// With `linkage`, each to-many relationship's linkage is read bounded
  /// (``SQLReads/boundedLinkage(_:of:owners:limit:visibility:)``).
  func resources(
    _ db: Database, _ type: String, ids: [String], linkage: JSONAPIStoreLinkageBound? = nil
  ) throws -> [JSONAPIResourceRecord] {
    guard let (info, selects) = sql.resources(type, ids: ids) else { return [] }
    return try records(db, info, selects.flatMap { try rows($0, db) }, linkage: linkage)
  }

  /// One `SELECT` for the page, one `COUNT(*)` when the query counts, and one per non-inverse
  /// to-many relationship for the linkage.
  func page(_ db: Database, _ query: JSONAPIStoreQuery) throws -> JSONAPIStorePage {
    guard let plan = sql.page(query) else {
      return JSONAPIStorePage(resources: [], hasMore: false, total: query.countsTotal ? 0 : nil)
    }
    let (fetched, hasMore) = plan.rows(try rows(plan.select, db))
    let total = try plan.count.map { count in
      let statement = SQL(count)
      return try Int.fetchOne(
        statements.prepared(statement, db), arguments: statement.statementArguments) ?? 0
    }
    return JSONAPIStorePage(
      resources: try records(db, plan.table, fetched, linkage: query.linkage), hasMore: hasMore,
      total: total)
  }

  /// Records from rows selected by the dialect's selection: the id, `typeof` and value of each
  /// attribute, each to-one id; then the linkage of every non-inverse to-many relationship.
  func records(
    _ db: Database, _ info: SQLiteTableInfo, _ rows: [Row],
    linkage bound: JSONAPIStoreLinkageBound? = nil
  ) throws -> [JSONAPIResourceRecord] {
    let toOnesAt = 1 + 2 * info.attributes.count
    var records = rows.compactMap { fetched in
      sql.record(
        info, fetched, id: { SQLiteIDs.decode($0[0]) },
        attribute: { fetched, index, attribute in
          SQLiteCodec.decode(
            typeName: (fetched[1 + 2 * index] as String?) ?? "null", value: fetched[2 + 2 * index],
            kind: attribute.kind)
        },
        toOne: { fetched, index in SQLiteIDs.decode(fetched[toOnesAt + index]) })
    }
    guard !records.isEmpty else { return records }
    for toMany in info.toManys {
      let statements = sql.linkage(toMany, of: info, owners: records.map(\.id), bound: bound)
      let pairs = try statements.flatMap {
        try self.rows($0, db).compactMap { fetched -> (owner: String, target: String)? in
          guard let owner = SQLiteIDs.decode(fetched[0]), let target = SQLiteIDs.decode(fetched[1])
          else { return nil }
          return (owner, target)
        }
      }
      sql.attach(pairs, of: toMany, to: &records)
    }
    return records
  }

  /// The rows of a statement, prepared once per connection when it is kept.
  private func rows(_ fragment: SQLiteSQL, _ db: Database) throws -> [Row] {
    let statement = SQL(fragment)
    return try Row.fetchAll(
      statements.prepared(statement, db), arguments: statement.statementArguments)
  }
}

/// The prepared statements of the store's reads, kept by GRDB on each connection
/// (`cachedStatement(sql:)`) for at most ``limit`` texts per store: the texts a request can make
/// are many (filters, sorts and list widths combine), so the first ``limit`` are kept and later
/// ones are prepared for each use. Preparing a statement costs more than running these reads.
final class SQLiteStatements: Sendable {
  static let limit = 256
  private let kept = SQLStoreLocked<Set<String>>([])

  /// A statement for `query`'s text on `db`, prepared once per connection when it is kept.
  func prepared(_ query: SQL, _ db: Database) throws -> Statement {
    let isKept = kept.withValue { texts in
      if texts.contains(query.text) { return true }
      guard texts.count < Self.limit else { return false }
      texts.insert(query.text)
      return true
    }
    return isKept ? try db.cachedStatement(sql: query.text) : try db.makeStatement(sql: query.text)
  }
}
