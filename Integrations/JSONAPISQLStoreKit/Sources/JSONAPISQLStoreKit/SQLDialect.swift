import JSONAPIServer

/// What differs between two SQL databases in the statements a store runs: how values are bound
/// and compared, how text is compared by its bytes, how nulls sort, how lists of ids are
/// matched (`= ANY($1)` or chunked `IN` lists), how rows are locked, how inserts report.
///
/// ``SQLReads`` and ``SQLWrites`` build every statement once over a dialect; a store keeps only
/// its dialect and its driver (binding values, running statements, transactions). Every method
/// returns SQL text or a fragment with bound values: a dialect never writes a value into text.
public protocol SQLDialect: Sendable {
  /// How the store keeps an attribute's values.
  associatedtype Column: SQLColumnKind
  /// A value the driver binds.
  associatedtype Value: Sendable

  /// A condition that always holds (`1`, `TRUE`).
  var alwaysTrue: SQLFragment<Value> { get }
  /// A condition that never holds (`0`, `FALSE`).
  var alwaysFalse: SQLFragment<Value> { get }
  /// The most ids one statement names (reads by id, linkage, removed members); more are read in
  /// several statements. `Int.max` when one bound array holds any number.
  var idsPerStatement: Int { get }
  /// The aggregate a page's total counts with (`COUNT(*)`).
  var countAll: String { get }

  /// An integer, bound.
  func integer(_ value: Int64) -> Value
  /// The bound value of `id` in an id column of `kind`; `nil` when such a column cannot hold it.
  func idValue(_ id: String, kind: SQLIDKind) -> Value?
  /// `expression` is one of `ids` (an id column of `kind`); ids the column cannot hold match
  /// nothing; no ids, no match.
  func idMatch(_ expression: String, _ ids: [String], kind: SQLIDKind) -> SQLFragment<Value>
  /// An id (`expression`), as text, contains `needle` without regard to ASCII case.
  func idContains(_ expression: String, _ needle: String) -> SQLFragment<Value>
  /// A text id strictly after (`greater`) or before `bound` by its bytes.
  func textIDOrder(_ expression: String, _ bound: String, greater: Bool) -> SQLFragment<Value>
  /// What a read selects of `expression`, an id column, so that the driver reads it as text
  /// whole.
  func idText(_ expression: String) -> String
  /// The columns every read of `table` selects (aliased `alias`), in the order the driver's row
  /// reader expects: the id, the attributes, the to-one relationships' ids.
  func selection(_ table: SQLStoreCatalog<Column>.Table, alias: String) -> String
  /// `expression` compared and sorted by its bytes, whatever the database's collation.
  func bytewise(_ expression: String) -> String
  /// Whether a column of `kind` sorts through ``bytewise(_:)``.
  func sortsBytewise(_ kind: Column) -> Bool
  /// One `ORDER BY` term, `null` first ascending and last descending.
  func ordering(_ expression: String, descending: Bool) -> String

  /// An attribute's column (`column`, qualified) against filter values, with the memory store's
  /// meaning: `equals` is the same JSON value, `contains` needs text and ignores ASCII case only,
  /// `lessThan` and `greaterThan` compare two numbers or two texts.
  func attributeCondition(
    _ comparison: JSONAPIFilterCondition.Comparison, _ values: [JSONAPIValue],
    column: String, kind: Column
  ) -> SQLFragment<Value>
  /// The rows whose attribute is strictly after (`greater`) or before a cursor value, in the
  /// order `ORDER BY` sorts it (``ordering(_:descending:)``).
  func attributeBeyond(_ value: JSONAPIValue, column: String, kind: Column, greater: Bool)
    -> SQLFragment<Value>
  /// The rows whose attribute equals a cursor value in the order `ORDER BY` sorts it.
  func attributeEqual(_ value: JSONAPIValue, column: String, kind: Column) -> SQLFragment<Value>

  /// What follows `SELECT 1 FROM table WHERE id = …` to check that a row exists before a write:
  /// a row lock where the database has them (`FOR UPDATE` for a delete, when `forDelete`), a
  /// `LIMIT` otherwise.
  func rowCheckSuffix(forDelete: Bool) -> String
  /// What follows an `INSERT` of a resource's row: a conflict clause when an id is given, and
  /// what the driver needs to read back the stored id (`RETURNING`), or nothing.
  func insertSuffix(idColumn: String, givenID: Bool) -> String
  /// What follows the `DELETE` of a resource's row so that the driver learns whether it deleted
  /// one (`RETURNING 1`), or nothing when the driver asks its connection.
  var deleteSuffix: String { get }
  /// The statements that insert `members` (target ids of `kind`, each once) as the linkage of
  /// `owner`, in order, at places 0, 1, 2….
  func insertMembers(
    _ join: SQLJoinTable, owner: Value, _ members: [String], kind: SQLIDKind
  ) -> [SQLFragment<Value>]
}

extension SQLDialect {
  /// Every condition (``alwaysTrue`` for none).
  @inlinable
  public func all(_ conditions: [SQLFragment<Value>]) -> SQLFragment<Value> {
    conditions.isEmpty ? alwaysTrue : "(" + .joined(conditions, separator: " AND ") + ")"
  }

  /// Any condition (``alwaysFalse`` for none).
  @inlinable
  public func any(_ conditions: [SQLFragment<Value>]) -> SQLFragment<Value> {
    conditions.isEmpty ? alwaysFalse : "(" + .joined(conditions, separator: " OR ") + ")"
  }

  /// `ids`, each once (by bytes), in the order given, in chunks of at most ``idsPerStatement``.
  @inlinable
  public func chunks(_ ids: [String]) -> [[String]] {
    var seen: Set<[UInt8]> = []
    let unique = ids.filter { seen.insert(Array($0.utf8)).inserted }
    let size = max(idsPerStatement, 1)
    var chunks: [[String]] = []
    var start = 0
    while start < unique.count {
      let end = unique.count - start > size ? start + size : unique.count
      chunks.append(Array(unique[start..<end]))
      start = end
    }
    return chunks
  }
}

/// The text a filter or cursor value stands for when compared with ids: a string as it is, an
/// integer as its decimal text; `nil` for other values.
@inlinable
public func sqlIDText(of value: JSONAPIValue) -> String? {
  switch value {
  case .string(let text): return text
  case .integer(let number): return String(number)
  default: return nil
  }
}
