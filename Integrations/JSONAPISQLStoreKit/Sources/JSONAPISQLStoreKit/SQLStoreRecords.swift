import JSONAPIServer

/// A value a column cannot keep, and why; stores throw it as
/// `JSONAPIStoreError.unstorableValue(member:reason:)` with the member's name.
public struct SQLUnstorable: Error, Sendable {
  /// Why, as a reason a client reads.
  public var reason: String
  /// Creates the error.
  public init(_ reason: String) { self.reason = reason }

  /// "a string", "a number"…: what a value is, for reasons.
  public static func describe(_ value: JSONAPIValue) -> String {
    switch value {
    case .null: return "null"
    case .bool: return "a boolean"
    case .integer, .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}

/// What a write of one record changes in its table: column values, and the new linkage of
/// to-many relationships.
public struct SQLRecordChanges<Column: SQLColumnKind, Value> {
  /// One value per attribute and to-one relationship the record names, with its (unquoted)
  /// column, in the order of the members' names.
  public var assignments: [(column: String, value: Value)]
  /// The ids of each to-many relationship the record names: each checked, each once, in order.
  public var toManys: [(toMany: SQLStoreCatalog<Column>.ToMany, ids: [String])]
}

extension SQLStoreCatalog {
  /// The table of `type`.
  ///
  /// - Throws: `JSONAPIStoreError.unstorableValue` when no table holds that type.
  public func table(_ type: String) throws -> Table {
    guard let info = tables[type] else {
      throw JSONAPIStoreError.unstorableValue(
        member: "type", reason: "no table of this store holds resources of type \(type)")
    }
    return info
  }

  /// The table of `type` and its to-many relationship `relationship`.
  ///
  /// - Throws: `JSONAPIStoreError.unstorableValue` when the relationship is not a stored to-many
  ///   one (a to-one, an inverse, or none), naming why.
  public func toMany(_ relationship: String, of type: String) throws -> (Table, ToMany) {
    let info = try table(type)
    guard let toMany = info.toMany(named: relationship) else {
      let reason =
        info.toOne(named: relationship) != nil
        ? "it is a to-one relationship; members are added to to-many ones"
        : info.inverse(named: relationship) != nil
          ? "it mirrors a to-one relationship of its targets, where it is written"
          : "\(type) has no to-many relationship of this name"
      throw JSONAPIStoreError.unstorableValue(member: relationship, reason: reason)
    }
    return (info, toMany)
  }
}

extension SQLStoreCatalog.Table {
  /// The column values and to-many linkage that `record` holds, checked against the table:
  /// `value` makes an attribute's stored value, `id` a related id's, `null` is an empty to-one
  /// relationship.
  ///
  /// - Throws: `JSONAPIStoreError.unstorableValue` for a member without a column, a value the
  ///   column cannot keep exactly, or linkage the relationship cannot hold.
  public func changes<Value>(
    _ record: JSONAPIResourceRecord, null: Value,
    value: (JSONAPIValue, Column) throws(SQLUnstorable) -> Value,
    id: (String, SQLIDKind) -> Value?
  ) throws -> SQLRecordChanges<Column, Value> {
    var changes = SQLRecordChanges<Column, Value>(assignments: [], toManys: [])
    for name in record.attributes.keys.sorted() {
      guard let attribute = attribute(named: name) else {
        throw JSONAPIStoreError.unstorableValue(
          member: name, reason: "\(type) has no column for this attribute")
      }
      do {
        changes.assignments.append(
          (attribute.column, try value(record.attributes[name] ?? .null, attribute.kind)))
      } catch {
        throw JSONAPIStoreError.unstorableValue(member: name, reason: error.reason)
      }
    }
    for name in record.relationships.keys.sorted() {
      let linkage = record.relationships[name] ?? .toOne(nil)
      if let toOne = toOne(named: name) {
        guard case .toOne(let identifier) = linkage else {
          throw JSONAPIStoreError.unstorableValue(
            member: name, reason: "it is a to-one relationship; its linkage names one resource")
        }
        var stored = null
        if let identifier {
          guard identifier.type == toOne.targetType, let related = identifier.id else {
            throw JSONAPIStoreError.unstorableValue(
              member: name, reason: "it names resources of type \(toOne.targetType) by id")
          }
          stored = try Self.checked(related, toOne.targetIDKind, member: name, id)
        }
        changes.assignments.append((toOne.column, stored))
      } else if let toMany = toMany(named: name) {
        guard case .toMany(let identifiers) = linkage else {
          throw JSONAPIStoreError.unstorableValue(
            member: name, reason: "it is a to-many relationship; its linkage is an array")
        }
        changes.toManys.append((toMany, try targets(identifiers, of: toMany, id)))
      } else if let inverse = inverse(named: name) {
        throw JSONAPIStoreError.unstorableValue(
          member: name,
          reason: "it mirrors `\(inverse.column)` of \(inverse.targetType), where it is written")
      } else {
        throw JSONAPIStoreError.unstorableValue(
          member: name, reason: "\(type) has no relationship of this name")
      }
    }
    return changes
  }

  /// The ids of `identifiers`, each checked (`id` makes its stored value), each once, in order.
  ///
  /// - Throws: `JSONAPIStoreError.unstorableValue` for an identifier of another type, without an
  ///   id, or with an id the column cannot hold.
  public func targets<Value>(
    _ identifiers: [JSONAPIResourceIdentifier], of toMany: SQLStoreCatalog.ToMany,
    _ id: (String, SQLIDKind) -> Value?
  ) throws -> [String] {
    var seen: Set<[UInt8]> = []
    var ids: [String] = []
    for identifier in identifiers {
      guard identifier.type == toMany.targetType, let related = identifier.id else {
        throw JSONAPIStoreError.unstorableValue(
          member: toMany.name, reason: "it names resources of type \(toMany.targetType) by id")
      }
      _ = try Self.checked(related, toMany.targetIDKind, member: toMany.name, id)
      if seen.insert(Array(related.utf8)).inserted { ids.append(related) }
    }
    return ids
  }

  /// The stored value of an id given in a record or linkage.
  ///
  /// - Throws: `JSONAPIStoreError.unstorableValue` when the column cannot hold it.
  public static func checked<Value>(
    _ given: String, _ kind: SQLIDKind, member: String, _ id: (String, SQLIDKind) -> Value?
  ) throws -> Value {
    guard let value = id(given, kind) else {
      let reason =
        kind == .integer
        ? "\(given.debugDescription) is not a decimal integer id (without leading zeros, in "
          + "Int64's range), which this table's integer ids must be"
        : "\(given.debugDescription) is not an id this table can hold (U+0000)"
      throw JSONAPIStoreError.unstorableValue(member: member, reason: reason)
    }
    return value
  }
}

/// Where a bound falls among the ids of an integer id column, in the memory store's order of ids
/// (decimal integers by value, before any other text).
public enum SQLIntegerIDBound: Sendable, Hashable {
  /// Every id is on the asked side of the bound.
  case everyID
  /// No id is.
  case noID
  /// The ids `symbol` (`" < "`, `" <= "`, `" > "`, `" >= "`) `value`.
  case compared(symbol: String, value: Int64)

  /// The ids strictly after (`greater`) or before the text `bound`.
  public init(_ bound: String, greater: Bool) {
    let digits = Array(bound.utf8)
    guard !digits.isEmpty, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
      // Not a decimal integer: every id of the column comes before it.
      self = greater ? .noID : .everyID
      return
    }
    let trimmed = digits.drop { $0 == 48 }
    guard let value = Int64(trimmed.isEmpty ? "0" : String(decoding: trimmed, as: UTF8.self))
    else {
      self = greater ? .noID : .everyID  // beyond every id the column can hold
      return
    }
    // With leading zeros ("007") the bound is not an id of the column: the id of the same value
    // comes after it ("7" > "007"), except 0, whose text is a prefix of the bound's ("0" < "00").
    let isCanonical = String(value) == bound
    switch (greater, isCanonical, value == 0) {
    case (true, true, _), (true, false, true): self = .compared(symbol: " > ", value: value)
    case (true, false, false): self = .compared(symbol: " >= ", value: value)
    case (false, true, _), (false, false, false): self = .compared(symbol: " < ", value: value)
    case (false, false, true): self = .compared(symbol: " <= ", value: value)
    }
  }
}
