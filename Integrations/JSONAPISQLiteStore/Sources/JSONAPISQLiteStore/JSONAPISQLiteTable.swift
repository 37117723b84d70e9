// The mapping types are the SQL stores' shared ones (JSONAPISQLStoreKit), under this store's
// names; importing this module imports them.
@_exported import JSONAPISQLStoreKit

/// Where one resource type lives in SQLite: its table, its id column, and a column per attribute
/// and to-one relationship, so that a ``JSONAPISQLiteStore`` can serve a database that already
/// exists. See `SQLTable`.
public typealias JSONAPISQLiteTable = SQLTable

/// The table that holds a to-many relationship's linkage. See `SQLJoinTable`.
public typealias JSONAPISQLiteJoinTable = SQLJoinTable

/// Why a ``JSONAPISQLiteStore`` cannot open on these schemas and this database, or cannot go on
/// with a transaction.
///
/// ```swift
/// do {
///   _ = try JSONAPISQLiteStore(path: path, schemas: schemas)
/// } catch let error as JSONAPISQLiteStoreError {
///   print(error.reason)   // "articles: the relationship `author` names no target type …"
/// }
/// ```
public struct JSONAPISQLiteStoreError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong, naming the type, member, table or column.
  public var reason: String

  /// Creates an error.
  public init(reason: String) { self.reason = reason }

  /// The reason.
  public var description: String { reason }
}
