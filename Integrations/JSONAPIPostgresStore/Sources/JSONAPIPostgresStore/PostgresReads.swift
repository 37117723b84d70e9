import JSONAPISQLStoreKit
import JSONAPIServer
import Logging
import PostgresNIO

/// One connection in use by a read or a write: statements run one after another on it.
struct PGSession: Sendable {
  let connection: PostgresConnection
  let logger: Logger

  /// Runs `sql` and returns its rows, each as its cells.
  func rows(_ sql: PGSQL) async throws -> [[PostgresCell]] {
    try await connection.query(sql.query, logger: logger).collect().map { Array($0) }
  }

  func execute(_ sql: PGSQL) async throws {
    _ = try await connection.query(sql.query, logger: logger).collect()
  }
}

/// The reads of the store: the shared statements (``SQLReads``) run on one connection, and rows
/// read as records, in a bounded number of statements whatever the number of ids or resources.
struct PGReads: Sendable {
  let sql: SQLReads<PostgresDialect>
  var catalog: PGCatalog { sql.catalog }

  init(catalog: PGCatalog) {
    sql = SQLReads(catalog: catalog, dialect: PostgresDialect())
  }

  /// One `SELECT` for the rows (the ids as one array), one per non-inverse to-many relationship
  /// for the linkage.
  /// With `linkage`, each to-many relationship's linkage is read bounded
  /// (``SQLReads/boundedLinkage(_:of:owners:limit:visibility:)``).
  func resources(
    _ session: PGSession, _ type: String, ids: [String],
    linkage: JSONAPIStoreLinkageBound? = nil
  ) async throws -> [JSONAPIResourceRecord] {
    guard let (info, selects) = sql.resources(type, ids: ids) else { return [] }
    var rows: [[PostgresCell]] = []
    for select in selects { rows += try await session.rows(select) }
    return try await records(session, info, rows, linkage: linkage)
  }

  /// One `SELECT` for the page, one `count(*)` when the query counts, and one per non-inverse
  /// to-many relationship for the linkage.
  func page(_ session: PGSession, _ query: JSONAPIStoreQuery) async throws -> JSONAPIStorePage {
    guard let plan = sql.page(query) else {
      return JSONAPIStorePage(resources: [], hasMore: false, total: query.countsTotal ? 0 : nil)
    }
    let (rows, hasMore) = plan.rows(try await session.rows(plan.select))
    var total: Int?
    if let count = plan.count {
      let counted = try await session.rows(count)
      // A count past Int's range (not on 64-bit machines) is reported as the largest.
      total = Int(exactly: try counted.first?.first?.decode(Int64.self) ?? 0) ?? Int.max
    }
    return JSONAPIStorePage(
      resources: try await records(session, plan.table, rows, linkage: query.linkage),
      hasMore: hasMore, total: total)
  }

  /// Records from rows selected by the dialect's selection (the id as text, each attribute, each
  /// to-one id as text), with the linkage of every non-inverse to-many relationship.
  func records(
    _ session: PGSession, _ info: PGTable, _ rows: [[PostgresCell]],
    linkage bound: JSONAPIStoreLinkageBound? = nil
  ) async throws -> [JSONAPIResourceRecord] {
    let width = 1 + info.attributes.count + info.toOnes.count
    var records = try rows.filter { $0.count == width }.compactMap { cells in
      try sql.record(
        info, cells, id: { try $0[0].decode(String?.self) },
        attribute: { cells, index, attribute in
          PGCodec.decode(
            try Self.cell(cells[1 + index], kind: attribute.kind), kind: attribute.kind)
        },
        toOne: { cells, index in try cells[1 + info.attributes.count + index].decode(String?.self) }
      )
    }
    guard !records.isEmpty else { return records }
    for toMany in info.toManys {
      var pairs: [(owner: String, target: String)] = []
      for statement in sql.linkage(toMany, of: info, owners: records.map(\.id), bound: bound) {
        // Owner and target first (a bounded read adds the position after them).
        for cells in try await session.rows(statement) where cells.count >= 2 {
          if let owner = try cells[0].decode(String?.self),
            let target = try cells[1].decode(String?.self)
          {
            pairs.append((owner, target))
          }
        }
      }
      sql.attach(pairs, of: toMany, to: &records)
    }
    return records
  }

  private static func cell(_ cell: PostgresCell, kind: PGColumnKind) throws -> PostgresCellValue {
    switch kind {
    case .text, .json: return try cell.decode(String?.self).map { .text($0) } ?? .null
    case .integer: return try cell.decode(Int64?.self).map { .integer($0) } ?? .null
    case .real: return try cell.decode(Double?.self).map { .real($0) } ?? .null
    case .boolean: return try cell.decode(Bool?.self).map { .boolean($0) } ?? .null
    }
  }
}
