import JSONAPIServer

/// How a store keeps an attribute's values: each SQL store has its own column kinds, made from
/// the schema's value kind.
public protocol SQLColumnKind: Sendable, Hashable {
  /// The column kind that keeps values of `kind`.
  init(_ kind: JSONAPIResourceSchema.ValueKind)
}

/// Why a catalog cannot be made, or a record does not fit its table.
public struct SQLStoreCatalogError: Error, Sendable, Hashable {
  /// What is wrong, naming the type, member, table or column.
  public var reason: String

  /// Creates an error.
  public init(reason: String) { self.reason = reason }
}

/// Where every declared type lives: its table, and a column or join table for each member,
/// resolved from the schemas and the mappings and checked against each other.
///
/// ```swift
/// let catalog = try SQLStoreCatalog<MyColumnKind>(
///   schemas: schemas, mappings: [:], foldsCase: true)
/// catalog.tables["people"]?.attribute(named: "name")?.column   // "name"
/// ```
public struct SQLStoreCatalog<Column: SQLColumnKind>: Sendable {
  /// One attribute's column.
  public struct Attribute: Sendable {
    /// The member's name.
    public var name: String
    /// The column.
    public var column: String
    /// How the column keeps values.
    public var kind: Column
  }

  /// One to-one relationship's column, holding the related id.
  public struct ToOne: Sendable {
    /// The member's name.
    public var name: String
    /// The column.
    public var column: String
    /// The related type.
    public var targetType: String
    /// How the related type's ids are kept.
    public var targetIDKind: SQLIDKind
  }

  /// One non-inverse to-many relationship's join table.
  public struct ToMany: Sendable {
    /// The member's name.
    public var name: String
    /// The related type.
    public var targetType: String
    /// How the related type's ids are kept.
    public var targetIDKind: SQLIDKind
    /// The join table.
    public var join: SQLJoinTable
  }

  /// One inverse relationship: the rows of `targetType` whose to-one `column` names the owner.
  public struct Inverse: Sendable {
    /// The member's name.
    public var name: String
    /// The related type.
    public var targetType: String
    /// The related type's table.
    public var targetTable: String
    /// The related type's id column.
    public var targetIDColumn: String
    /// How the related type's ids are kept.
    public var targetIDKind: SQLIDKind
    /// The related type's to-one column that names the owner.
    public var column: String
  }

  /// Everything a store knows of one resource type's table.
  public struct Table: Sendable {
    /// The resource type.
    public var type: String
    /// The table.
    public var table: String
    /// The id column.
    public var idColumn: String
    /// How ids are kept.
    public var idKind: SQLIDKind
    /// The attributes' columns.
    public var attributes: [Attribute]
    /// The to-one relationships' columns.
    public var toOnes: [ToOne]
    /// The non-inverse to-many relationships' join tables.
    public var toManys: [ToMany]
    /// The inverse relationships.
    public var inverses: [Inverse]

    /// The member `name`, when it is of this kind.
    @inlinable public func attribute(named name: String) -> Attribute? { attributes.first { $0.name == name } }
    /// The member `name`, when it is of this kind.
    @inlinable public func toOne(named name: String) -> ToOne? { toOnes.first { $0.name == name } }
    /// The member `name`, when it is of this kind.
    @inlinable public func toMany(named name: String) -> ToMany? { toManys.first { $0.name == name } }
    /// The member `name`, when it is of this kind.
    @inlinable public func inverse(named name: String) -> Inverse? { inverses.first { $0.name == name } }
  }

  /// The tables, by type.
  public var tables: [String: Table]

  /// Resolves the tables.
  ///
  /// - Parameters:
  ///   - schemas: The resource types; when two have the same `type`, the later one counts.
  ///   - mappings: The tables of types that do not live in the default table, by type.
  ///   - foldsCase: Whether the database compares names without regard to ASCII case (SQLite
  ///     does; PostgreSQL's quoted names do not), for the checks that two names differ.
  /// - Throws: ``SQLStoreCatalogError`` for a mapping of a type without a schema, a relationship
  ///   without a declared target type, an inverse that mirrors no to-one relationship, two
  ///   members or types sharing a column or table, or a name that is empty or holds U+0000.
  public init(
    schemas: [JSONAPIResourceSchema], mappings: [String: SQLTable], foldsCase: Bool
  ) throws(SQLStoreCatalogError) {
    let byType = Dictionary(schemas.map { ($0.type, $0) }, uniquingKeysWith: { _, last in last })
    for type in mappings.keys where byType[type] == nil {
      throw SQLStoreCatalogError(reason: "a table is mapped for `\(type)`, which has no schema")
    }
    func mapping(_ type: String) -> SQLTable { mappings[type] ?? SQLTable(name: type) }
    func fold(_ name: String) -> String { foldsCase ? Self.asciiFolded(name) : name }
    var tables: [String: Table] = [:]
    for schema in byType.values {
      let table = mapping(schema.type)
      var info = Table(
        type: schema.type, table: table.name, idColumn: table.idColumn, idKind: table.idKind,
        attributes: [], toOnes: [], toManys: [], inverses: [])
      for attribute in schema.attributes {
        info.attributes.append(
          Attribute(
            name: attribute.name, column: table.columns[attribute.name] ?? attribute.name,
            kind: Column(attribute.kind)))
      }
      for relationship in schema.relationships {
        guard let targetType = relationship.targetType, byType[targetType] != nil else {
          throw SQLStoreCatalogError(
            reason: "\(schema.type): the relationship `\(relationship.name)` names no target "
              + "type with a schema (relationships to any type have no column to live in)")
        }
        let target = mapping(targetType)
        if let member = relationship.inverse {
          guard relationship.isToMany,
            let mirrored = byType[targetType]?.relationship(named: member),
            !mirrored.isToMany, mirrored.inverse == nil, mirrored.targetType == schema.type
          else {
            throw SQLStoreCatalogError(
              reason: "\(schema.type): the inverse `\(relationship.name)` mirrors `\(member)`, "
                + "which is not a to-one relationship of \(targetType) to \(schema.type)")
          }
          info.inverses.append(
            Inverse(
              name: relationship.name, targetType: targetType, targetTable: target.name,
              targetIDColumn: target.idColumn, targetIDKind: target.idKind,
              column: target.columns[member] ?? member + "_id"))
        } else if relationship.isToMany {
          info.toManys.append(
            ToMany(
              name: relationship.name, targetType: targetType, targetIDKind: target.idKind,
              join: table.joinTables[relationship.name]
                ?? SQLJoinTable(name: table.name + "_" + relationship.name)))
        } else {
          info.toOnes.append(
            ToOne(
              name: relationship.name,
              column: table.columns[relationship.name] ?? relationship.name + "_id",
              targetType: targetType, targetIDKind: target.idKind))
        }
      }
      try Self.check(info, fold)
      tables[schema.type] = info
    }
    try Self.checkTableNames(tables.values, fold)
    self.tables = tables
  }

  /// Resolves the tables, as ``init(schemas:mappings:foldsCase:)`` does, throwing the store's
  /// own error.
  ///
  /// - Throws: What `failure` makes of the catalog's reason.
  public init<Failure: Error>(
    schemas: [JSONAPIResourceSchema], mappings: [String: SQLTable], foldsCase: Bool,
    failure: (String) -> Failure
  ) throws(Failure) {
    do {
      self = try SQLStoreCatalog(schemas: schemas, mappings: mappings, foldsCase: foldsCase)
    } catch {
      throw failure(error.reason)
    }
  }

  /// The resolved tables in a stable order (by type).
  public var ordered: [Table] {
    tables.values.sorted { $0.type.utf8.lexicographicallyPrecedes($1.type.utf8) }
  }

  /// A name with ASCII letters in lower case, as SQLite compares identifiers.
  public static func asciiFolded(_ name: String) -> String {
    String(decoding: name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }, as: UTF8.self)
  }

  private static func check(_ info: Table, _ fold: (String) -> String)
    throws(SQLStoreCatalogError)
  {
    var names: [String] = [info.table, info.idColumn]
    names += info.attributes.map(\.column) + info.toOnes.map(\.column)
    for join in info.toManys.map(\.join) {
      names +=
        [join.name, join.ownerColumn, join.targetColumn] + (join.positionColumn.map { [$0] } ?? [])
    }
    if let bad = names.first(where: { $0.isEmpty || $0.utf8.contains(0) }) {
      throw SQLStoreCatalogError(
        reason: "\(info.type): the table or column name \(bad.debugDescription) is empty or "
          + "holds U+0000")
    }
    var seen: [String: String] = [fold(info.idColumn): "id"]
    let members =
      info.attributes.map { ($0.column, $0.name) } + info.toOnes.map { ($0.column, $0.name) }
    for (column, member) in members {
      if let other = seen.updateValue(member, forKey: fold(column)) {
        throw SQLStoreCatalogError(
          reason: "\(info.type): `\(member)` and `\(other)` would share the column \"\(column)\"")
      }
    }
    for join in info.toManys.map(\.join) {
      let columns =
        [join.ownerColumn, join.targetColumn] + (join.positionColumn.map { [$0] } ?? [])
      if Set(columns.map(fold)).count != columns.count {
        throw SQLStoreCatalogError(
          reason: "\(info.type): the join table \"\(join.name)\" names one column twice")
      }
    }
  }

  private static func checkTableNames(_ tables: some Sequence<Table>, _ fold: (String) -> String)
    throws(SQLStoreCatalogError)
  {
    var seen: [String: String] = [:]
    for info in tables {
      let owned =
        [(info.table, info.type)] + info.toManys.map { ($0.join.name, "\(info.type).\($0.name)") }
      for (table, owner) in owned {
        if let other = seen.updateValue(owner, forKey: fold(table)) {
          throw SQLStoreCatalogError(
            reason: "\(owner) and \(other) would share the table \"\(table)\"")
        }
      }
    }
  }
}
