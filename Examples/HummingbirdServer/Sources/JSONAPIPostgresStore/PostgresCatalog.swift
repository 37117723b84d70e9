import JSONAPICodable
import PostgresNIO

/// One attribute's column.
struct PGAttribute: Sendable {
  var name: String
  var column: String
  var kind: PGColumnKind
}

/// One to-one relationship's column, holding the related id.
struct PGToOne: Sendable {
  var name: String
  var column: String
  var targetType: String
  var targetIDKind: JSONAPIPostgresStore.IDKind
}

/// One non-inverse to-many relationship's join table: `(owner_id, target_id, position)`.
struct PGToMany: Sendable {
  var name: String
  var table: String
  var targetType: String
  var targetIDKind: JSONAPIPostgresStore.IDKind
}

/// One inverse relationship: the rows of `targetType` whose to-one `column` names the owner.
struct PGInverse: Sendable {
  var name: String
  var targetType: String
  var targetTable: String
  var targetIDKind: JSONAPIPostgresStore.IDKind
  var column: String
}

/// Everything the store knows of one resource type's table.
struct PGTable: Sendable {
  var type: String
  var table: String
  var idKind: JSONAPIPostgresStore.IDKind
  var attributes: [PGAttribute]
  var toOnes: [PGToOne]
  var toManys: [PGToMany]
  var inverses: [PGInverse]

  func attribute(named name: String) -> PGAttribute? { attributes.first { $0.name == name } }
  func toOne(named name: String) -> PGToOne? { toOnes.first { $0.name == name } }
  func toMany(named name: String) -> PGToMany? { toManys.first { $0.name == name } }
  func inverse(named name: String) -> PGInverse? { inverses.first { $0.name == name } }
}

/// The tables of every declared type, resolved from the schemas and checked against each other.
struct PGCatalog: Sendable {
  var tables: [String: PGTable]

  /// - Throws: ``JSONAPIPostgresStoreError`` for a relationship without a declared target type,
  ///   an inverse that mirrors no to-one relationship, two members or types sharing a column or
  ///   a table, or a name holding U+0000.
  init(schemas: [JSONAPIResourceSchema], textIDTypes: Set<String>) throws {
    let byType = Dictionary(schemas.map { ($0.type, $0) }, uniquingKeysWith: { _, last in last })
    func idKind(_ type: String) -> JSONAPIPostgresStore.IDKind {
      textIDTypes.contains(type) ? .text : .integer
    }
    var tables: [String: PGTable] = [:]
    var owners: [String: String] = [:]
    for schema in byType.values {
      var info = PGTable(
        type: schema.type, table: schema.type, idKind: idKind(schema.type), attributes: [],
        toOnes: [], toManys: [], inverses: [])
      info.attributes = schema.attributes.map {
        PGAttribute(name: $0.name, column: $0.name, kind: PGColumnKind($0.kind))
      }
      for relationship in schema.relationships {
        guard let target = relationship.targetType, byType[target] != nil else {
          throw JSONAPIPostgresStoreError(
            reason: "\(schema.type): the relationship `\(relationship.name)` names no target "
              + "type with a schema (relationships to any type have no column to live in)")
        }
        if let member = relationship.inverse {
          guard relationship.isToMany, let mirrored = byType[target]?.relationship(named: member),
            !mirrored.isToMany, mirrored.inverse == nil, mirrored.targetType == schema.type
          else {
            throw JSONAPIPostgresStoreError(
              reason: "\(schema.type): the inverse `\(relationship.name)` mirrors `\(member)`, "
                + "which is not a to-one relationship of \(target) to \(schema.type)")
          }
          info.inverses.append(
            PGInverse(
              name: relationship.name, targetType: target, targetTable: target,
              targetIDKind: idKind(target), column: member + "_id"))
        } else if relationship.isToMany {
          info.toManys.append(
            PGToMany(
              name: relationship.name, table: schema.type + "_" + relationship.name,
              targetType: target, targetIDKind: idKind(target)))
        } else {
          info.toOnes.append(
            PGToOne(
              name: relationship.name, column: relationship.name + "_id", targetType: target,
              targetIDKind: idKind(target)))
        }
      }
      let columns = ["id"] + info.attributes.map(\.column) + info.toOnes.map(\.column)
      var seen: [String: String] = [:]
      for (column, member) in zip(
        columns, ["id"] + info.attributes.map(\.name) + info.toOnes.map(\.name))
      {
        if let other = seen.updateValue(member, forKey: column) {
          throw JSONAPIPostgresStoreError(
            reason: "\(info.type): `\(member)` and `\(other)` would share the column \"\(column)\"")
        }
      }
      for name in [info.table] + info.toManys.map(\.table) {
        if let other = owners.updateValue(info.type, forKey: name) {
          throw JSONAPIPostgresStoreError(
            reason: "\(info.type) and \(other) would share the table \"\(name)\"")
        }
      }
      if let bad = (columns + [info.table] + info.toManys.map(\.table)).first(where: {
        $0.utf8.contains(0)
      }) {
        throw JSONAPIPostgresStoreError(
          reason: "\(info.type): the name \(bad.debugDescription) holds U+0000")
      }
      tables[schema.type] = info
    }
    self.tables = tables
  }

  /// The resolved tables in a stable order (by type).
  var ordered: [PGTable] {
    tables.values.sorted { $0.type.utf8.lexicographicallyPrecedes($1.type.utf8) }
  }

  // MARK: - Tables in the database

  /// The statements that create each missing table and join table (`IF NOT EXISTS`).
  var creations: [PGSQL] {
    var statements: [PGSQL] = []
    for info in ordered {
      var columns = [
        info.idKind == .integer
          ? "\"id\" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"
          : "\"id\" text COLLATE \"C\" PRIMARY KEY"
      ]
      columns += info.attributes.map { pgQuoted($0.column) + " " + $0.kind.declaredType }
      columns += info.toOnes.map { pgQuoted($0.column) + " " + Self.idType($0.targetIDKind) }
      statements.append(
        "CREATE TABLE IF NOT EXISTS \(raw: pgQuoted(info.table)) (\(raw: columns.joined(separator: ", ")))"
      )
      for toOne in info.toOnes {
        statements.append(
          """
          CREATE INDEX IF NOT EXISTS \(raw: pgQuoted(info.table + "_" + toOne.column)) \
          ON \(raw: pgQuoted(info.table)) (\(raw: pgQuoted(toOne.column)))
          """)
      }
      for toMany in info.toManys {
        statements.append(
          """
          CREATE TABLE IF NOT EXISTS \(raw: pgQuoted(toMany.table)) (\
          "owner_id" \(raw: Self.idType(info.idKind)) NOT NULL, \
          "target_id" \(raw: Self.idType(toMany.targetIDKind)) NOT NULL, \
          "position" bigint NOT NULL, PRIMARY KEY ("owner_id", "target_id"))
          """)
        statements.append(
          """
          CREATE INDEX IF NOT EXISTS \(raw: pgQuoted(toMany.table + "_target_id")) \
          ON \(raw: pgQuoted(toMany.table)) ("target_id")
          """)
      }
    }
    return statements
  }

  /// Every column the store needs, by table, to check tables that existed before.
  var requiredColumns: [String: [String]] {
    var required: [String: [String]] = [:]
    for info in ordered {
      required[info.table] = ["id"] + info.attributes.map(\.column) + info.toOnes.map(\.column)
      for toMany in info.toManys {
        required[toMany.table] = ["owner_id", "target_id", "position"]
      }
    }
    return required
  }

  private static func idType(_ kind: JSONAPIPostgresStore.IDKind) -> String {
    kind == .integer ? "bigint" : "text COLLATE \"C\""
  }
}
