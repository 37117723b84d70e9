import Foundation
import GRDB
import JSONAPISQLStoreKit
import JSONAPIServer

/// How an attribute's values are kept in its column (from its schema's value kind).
enum SQLiteColumnKind: SQLColumnKind {
  /// Strings and enumerations: `TEXT`.
  case text
  /// Whole numbers: `INTEGER`.
  case integer
  /// Numbers with a fraction: `REAL`.
  case real
  /// `true` and `false` as `INTEGER` 1 and 0.
  case boolean
  /// Dates: a column without declared type, so that SQLite keeps each value as bound — text for
  /// string dates, numbers for numeric ones.
  case date
  /// Arrays and objects: their JSON text, as `TEXT`.
  case structured
  /// Any JSON value, in a column without declared type: `null`, numbers and strings as SQL
  /// values; booleans, arrays and objects as their JSON text in a `BLOB`.
  case any

  init(_ kind: JSONAPIResourceSchema.ValueKind) {
    switch kind {
    case .string, .enumeration: self = .text
    case .integer: self = .integer
    case .number: self = .real
    case .boolean: self = .boolean
    case .date: self = .date
    case .array, .object: self = .structured
    case .any: self = .any
    }
  }

  /// The declared type of a column the store creates.
  var declaredType: String {
    switch self {
    case .text, .structured: return " TEXT"
    case .integer, .boolean: return " INTEGER"
    case .real: return " REAL"
    case .date, .any: return ""
    }
  }
}

/// The tables of every declared type (the SQL stores' shared catalog).
typealias SQLiteCatalog = SQLStoreCatalog<SQLiteColumnKind>
typealias SQLiteTableInfo = SQLiteCatalog.Table
typealias SQLiteAttribute = SQLiteCatalog.Attribute
typealias SQLiteToOne = SQLiteCatalog.ToOne
typealias SQLiteToMany = SQLiteCatalog.ToMany
typealias SQLiteInverse = SQLiteCatalog.Inverse

extension SQLStoreCatalog where Column == SQLiteColumnKind {
  // MARK: - Tables in the database

  /// Creates each missing table (and join table), and checks that existing ones have every
  /// column the store needs.
  ///
  /// - Throws: ``JSONAPISQLiteStoreError`` naming a missing column; GRDB's errors.
  func prepare(_ db: Database) throws {
    for info in ordered {
      if try db.tableExists(info.table) {
        try Self.require(
          [info.idColumn] + info.attributes.map(\.column) + info.toOnes.map(\.column),
          in: info.table, of: info.type, db)
        // Integer ids are made by SQLite: the id column must be the rowid's alias.
        if info.idKind == .integer,
          try db.primaryKey(info.table).rowIDColumn.map(SQLiteCatalog.asciiFolded)
            != SQLiteCatalog.asciiFolded(info.idColumn)
        {
          throw JSONAPISQLiteStoreError(
            reason: "\(info.type): the integer ids of \"\(info.table)\" need \"\(info.idColumn)\" "
              + "to be its INTEGER PRIMARY KEY (or map the table with idKind .text)")
        }
      } else {
        try db.execute(sql: Self.createTable(info))
        for toOne in info.toOnes {
          try db.execute(
            sql: "CREATE INDEX IF NOT EXISTS \(sqlQuoted(info.table + "_" + toOne.column)) ON "
              + "\(sqlQuoted(info.table)) (\(sqlQuoted(toOne.column)))")
        }
      }
      for toMany in info.toManys {
        let join = toMany.join
        if try db.tableExists(join.name) {
          try Self.require(
            [join.ownerColumn, join.targetColumn] + (join.positionColumn.map { [$0] } ?? []),
            in: join.name, of: "\(info.type).\(toMany.name)", db)
        } else {
          try db.execute(
            sql: Self.createJoinTable(join, owner: info.idKind, target: toMany.targetIDKind))
        }
      }
    }
  }

  private static func require(
    _ columns: [String], in table: String, of owner: String, _ db: Database
  ) throws {
    let present = Set(try db.columns(in: table).map { SQLiteCatalog.asciiFolded($0.name) })
    if let missing = columns.first(where: { !present.contains(SQLiteCatalog.asciiFolded($0)) }) {
      throw JSONAPISQLiteStoreError(
        reason: "\(owner): the table \"\(table)\" has no column \"\(missing)\"")
    }
  }

  private static func createTable(_ info: SQLiteTableInfo) -> String {
    var columns: [String] = []
    switch info.idKind {
    case .integer: columns.append("\(sqlQuoted(info.idColumn)) INTEGER PRIMARY KEY AUTOINCREMENT")
    case .text: columns.append("\(sqlQuoted(info.idColumn)) TEXT PRIMARY KEY NOT NULL")
    }
    for attribute in info.attributes {
      columns.append(sqlQuoted(attribute.column) + attribute.kind.declaredType)
    }
    for toOne in info.toOnes {
      columns.append(sqlQuoted(toOne.column) + idDeclaredType(toOne.targetIDKind))
    }
    return "CREATE TABLE \(sqlQuoted(info.table)) (\(columns.joined(separator: ", ")))"
  }

  private static func createJoinTable(
    _ join: JSONAPISQLiteJoinTable, owner: JSONAPISQLiteTable.IDKind,
    target: JSONAPISQLiteTable.IDKind
  ) -> String {
    var columns = [
      sqlQuoted(join.ownerColumn) + idDeclaredType(owner) + " NOT NULL",
      sqlQuoted(join.targetColumn) + idDeclaredType(target) + " NOT NULL",
    ]
    if let position = join.positionColumn {
      columns.append(sqlQuoted(position) + " INTEGER NOT NULL")
    }
    columns.append("PRIMARY KEY (\(sqlQuoted(join.ownerColumn)), \(sqlQuoted(join.targetColumn)))")
    // With positions, an index on the owner and its positions: a document's bounded read of an
    // owner's first members (`SQLReads.boundedLinkage`) then reads only those.
    let positions = join.positionColumn.map { position in
      " CREATE INDEX IF NOT EXISTS \(sqlQuoted(join.name + "_" + join.ownerColumn + "_" + position))"
        + " ON \(sqlQuoted(join.name)) (\(sqlQuoted(join.ownerColumn)), \(sqlQuoted(position)));"
    }
    return "CREATE TABLE \(sqlQuoted(join.name)) (\(columns.joined(separator: ", ")));"
      + (positions ?? "")
      + " CREATE INDEX IF NOT EXISTS \(sqlQuoted(join.name + "_" + join.targetColumn)) ON \(sqlQuoted(join.name))"
      + " (\(sqlQuoted(join.targetColumn)))"
  }

  private static func idDeclaredType(_ kind: JSONAPISQLiteTable.IDKind) -> String {
    kind == .integer ? " INTEGER" : " TEXT"
  }
}
