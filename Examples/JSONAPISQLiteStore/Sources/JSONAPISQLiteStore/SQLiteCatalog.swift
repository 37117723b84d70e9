import Foundation
import GRDB
import JSONAPICodable

/// How an attribute's values are kept in its column (from its schema's value kind).
enum SQLiteColumnKind: Sendable, Hashable {
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

/// One attribute's column.
struct SQLiteAttribute: Sendable {
  var name: String
  var column: String
  var kind: SQLiteColumnKind
}

/// One to-one relationship's column, holding the related id.
struct SQLiteToOne: Sendable {
  var name: String
  var column: String
  var targetType: String
  var targetIDKind: JSONAPISQLiteTable.IDKind
}

/// One non-inverse to-many relationship's join table.
struct SQLiteToMany: Sendable {
  var name: String
  var targetType: String
  var targetIDKind: JSONAPISQLiteTable.IDKind
  var join: JSONAPISQLiteJoinTable
}

/// One inverse relationship: the rows of `targetType` whose to-one `column` names the owner.
struct SQLiteInverse: Sendable {
  var name: String
  var targetType: String
  var targetTable: String
  var targetIDColumn: String
  var targetIDKind: JSONAPISQLiteTable.IDKind
  var column: String
}

/// Everything the store knows of one resource type's table.
struct SQLiteTableInfo: Sendable {
  var type: String
  var table: String
  var idColumn: String
  var idKind: JSONAPISQLiteTable.IDKind
  var attributes: [SQLiteAttribute]
  var toOnes: [SQLiteToOne]
  var toManys: [SQLiteToMany]
  var inverses: [SQLiteInverse]

  func attribute(named name: String) -> SQLiteAttribute? { attributes.first { $0.name == name } }
  func toOne(named name: String) -> SQLiteToOne? { toOnes.first { $0.name == name } }
  func toMany(named name: String) -> SQLiteToMany? { toManys.first { $0.name == name } }
  func inverse(named name: String) -> SQLiteInverse? { inverses.first { $0.name == name } }
}

/// The tables of every declared type, resolved from the schemas and the mappings and checked
/// against each other.
struct SQLiteCatalog: Sendable {
  var tables: [String: SQLiteTableInfo]

  /// Resolves the tables.
  ///
  /// - Throws: ``JSONAPISQLiteStoreError`` for a relationship without a declared target type, an
  ///   inverse that mirrors no to-one relationship, two members or types sharing a column or
  ///   table, or a name holding U+0000.
  init(schemas: [JSONAPIResourceSchema], mappings: [String: JSONAPISQLiteTable]) throws {
    let byType = Dictionary(schemas.map { ($0.type, $0) }, uniquingKeysWith: { _, last in last })
    for type in mappings.keys where byType[type] == nil {
      throw JSONAPISQLiteStoreError(reason: "a table is mapped for `\(type)`, which has no schema")
    }
    func mapping(_ type: String) -> JSONAPISQLiteTable {
      mappings[type] ?? JSONAPISQLiteTable(name: type)
    }
    var tables: [String: SQLiteTableInfo] = [:]
    for schema in byType.values {
      let table = mapping(schema.type)
      var info = SQLiteTableInfo(
        type: schema.type, table: table.name, idColumn: table.idColumn, idKind: table.idKind,
        attributes: [], toOnes: [], toManys: [], inverses: [])
      for attribute in schema.attributes {
        info.attributes.append(
          SQLiteAttribute(
            name: attribute.name, column: table.columns[attribute.name] ?? attribute.name,
            kind: SQLiteColumnKind(attribute.kind)))
      }
      for relationship in schema.relationships {
        guard let targetType = relationship.targetType, byType[targetType] != nil else {
          throw JSONAPISQLiteStoreError(
            reason: "\(schema.type): the relationship `\(relationship.name)` names no target "
              + "type with a schema (relationships to any type have no column to live in)")
        }
        let target = mapping(targetType)
        if let member = relationship.inverse {
          guard relationship.isToMany,
            let mirrored = byType[targetType]?.relationship(named: member),
            !mirrored.isToMany, mirrored.inverse == nil, mirrored.targetType == schema.type
          else {
            throw JSONAPISQLiteStoreError(
              reason: "\(schema.type): the inverse `\(relationship.name)` mirrors `\(member)`, "
                + "which is not a to-one relationship of \(targetType) to \(schema.type)")
          }
          info.inverses.append(
            SQLiteInverse(
              name: relationship.name, targetType: targetType, targetTable: target.name,
              targetIDColumn: target.idColumn, targetIDKind: target.idKind,
              column: target.columns[member] ?? member + "_id"))
        } else if relationship.isToMany {
          info.toManys.append(
            SQLiteToMany(
              name: relationship.name, targetType: targetType, targetIDKind: target.idKind,
              join: table.joinTables[relationship.name]
                ?? JSONAPISQLiteJoinTable(name: table.name + "_" + relationship.name)))
        } else {
          info.toOnes.append(
            SQLiteToOne(
              name: relationship.name,
              column: table.columns[relationship.name] ?? relationship.name + "_id",
              targetType: targetType, targetIDKind: target.idKind))
        }
      }
      try Self.check(info)
      tables[schema.type] = info
    }
    try Self.checkTableNames(tables.values)
    self.tables = tables
  }

  /// The resolved tables in a stable order (by type).
  var ordered: [SQLiteTableInfo] {
    tables.values.sorted { $0.type.utf8.lexicographicallyPrecedes($1.type.utf8) }
  }

  // MARK: - Checks

  private static func check(_ info: SQLiteTableInfo) throws {
    var names: [String] = [info.table, info.idColumn]
    names += info.attributes.map(\.column) + info.toOnes.map(\.column)
    for join in info.toManys.map(\.join) {
      names +=
        [join.name, join.ownerColumn, join.targetColumn] + (join.positionColumn.map { [$0] } ?? [])
    }
    if let bad = names.first(where: { $0.isEmpty || $0.utf8.contains(0) }) {
      throw JSONAPISQLiteStoreError(
        reason: "\(info.type): the table or column name \(bad.debugDescription) is empty or "
          + "holds U+0000")
    }
    // Columns of one table must differ (SQLite compares names without regard to ASCII case).
    var seen: [String: String] = [sqlFolded(info.idColumn): "id"]
    let members =
      info.attributes.map { ($0.column, $0.name) } + info.toOnes.map { ($0.column, $0.name) }
    for (column, member) in members {
      if let other = seen.updateValue(member, forKey: sqlFolded(column)) {
        throw JSONAPISQLiteStoreError(
          reason: "\(info.type): `\(member)` and `\(other)` would share the column \"\(column)\"")
      }
    }
    for join in info.toManys.map(\.join) {
      let columns =
        [join.ownerColumn, join.targetColumn] + (join.positionColumn.map { [$0] } ?? [])
      if Set(columns.map(sqlFolded)).count != columns.count {
        throw JSONAPISQLiteStoreError(
          reason: "\(info.type): the join table \"\(join.name)\" names one column twice")
      }
    }
  }

  private static func checkTableNames(_ tables: some Sequence<SQLiteTableInfo>) throws {
    var seen: [String: String] = [:]
    for info in tables {
      let owned =
        [(info.table, info.type)] + info.toManys.map { ($0.join.name, "\(info.type).\($0.name)") }
      for (table, owner) in owned {
        if let other = seen.updateValue(owner, forKey: sqlFolded(table)) {
          throw JSONAPISQLiteStoreError(
            reason: "\(owner) and \(other) would share the table \"\(table)\"")
        }
      }
    }
  }

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
          try db.primaryKey(info.table).rowIDColumn.map(sqlFolded) != sqlFolded(info.idColumn)
        {
          throw JSONAPISQLiteStoreError(
            reason: "\(info.type): the integer ids of \"\(info.table)\" need \"\(info.idColumn)\" "
              + "to be its INTEGER PRIMARY KEY (or map the table with idKind .text)")
        }
      } else {
        try db.execute(sql: Self.createTable(info))
        for toOne in info.toOnes {
          try db.execute(
            sql: "CREATE INDEX IF NOT EXISTS \(quoted(info.table + "_" + toOne.column)) ON "
              + "\(quoted(info.table)) (\(quoted(toOne.column)))")
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
    let present = Set(try db.columns(in: table).map { sqlFolded($0.name) })
    if let missing = columns.first(where: { !present.contains(sqlFolded($0)) }) {
      throw JSONAPISQLiteStoreError(
        reason: "\(owner): the table \"\(table)\" has no column \"\(missing)\"")
    }
  }

  private static func createTable(_ info: SQLiteTableInfo) -> String {
    var columns: [String] = []
    switch info.idKind {
    case .integer: columns.append("\(quoted(info.idColumn)) INTEGER PRIMARY KEY AUTOINCREMENT")
    case .text: columns.append("\(quoted(info.idColumn)) TEXT PRIMARY KEY NOT NULL")
    }
    for attribute in info.attributes {
      columns.append(quoted(attribute.column) + attribute.kind.declaredType)
    }
    for toOne in info.toOnes {
      columns.append(quoted(toOne.column) + idDeclaredType(toOne.targetIDKind))
    }
    return "CREATE TABLE \(quoted(info.table)) (\(columns.joined(separator: ", ")))"
  }

  private static func createJoinTable(
    _ join: JSONAPISQLiteJoinTable, owner: JSONAPISQLiteTable.IDKind,
    target: JSONAPISQLiteTable.IDKind
  ) -> String {
    var columns = [
      quoted(join.ownerColumn) + idDeclaredType(owner) + " NOT NULL",
      quoted(join.targetColumn) + idDeclaredType(target) + " NOT NULL",
    ]
    if let position = join.positionColumn { columns.append(quoted(position) + " INTEGER NOT NULL") }
    columns.append("PRIMARY KEY (\(quoted(join.ownerColumn)), \(quoted(join.targetColumn)))")
    return "CREATE TABLE \(quoted(join.name)) (\(columns.joined(separator: ", ")));"
      + " CREATE INDEX IF NOT EXISTS \(quoted(join.name + "_" + join.targetColumn)) ON \(quoted(join.name))"
      + " (\(quoted(join.targetColumn)))"
  }

  private static func idDeclaredType(_ kind: JSONAPISQLiteTable.IDKind) -> String {
    kind == .integer ? " INTEGER" : " TEXT"
  }
}

/// An SQL identifier, quoted: `"name"` with inner quotes doubled. Names come only from schemas and
/// mappings, never from requests (and hold no U+0000: the catalog checks).
func quoted(_ name: String) -> String {
  "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// A name as SQLite compares identifiers: ASCII letters without case.
func sqlFolded(_ name: String) -> String {
  String(decoding: name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }, as: UTF8.self)
}
