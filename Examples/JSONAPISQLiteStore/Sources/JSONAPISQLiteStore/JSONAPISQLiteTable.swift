/// Where one resource type lives in SQLite: its table, its id column, and a column per attribute
/// and to-one relationship, so that a ``JSONAPISQLiteStore`` can serve a database that already
/// exists.
///
/// Members the mapping does not name keep the default column names: an attribute's own name, and
/// `<relationship>_id` for a to-one relationship. A non-inverse to-many relationship lives in a join
/// table (``JSONAPISQLiteJoinTable``), by default `"<table>_<relationship>"`.
///
/// ```swift
/// // CREATE TABLE legacy_people (person_id INTEGER PRIMARY KEY, full_name TEXT NOT NULL)
/// let people = JSONAPISQLiteTable(
///   name: "legacy_people", idColumn: "person_id", columns: ["name": "full_name"])
/// let store = try JSONAPISQLiteStore(
///   path: path, schemas: [peopleSchema], tables: ["people": people])
/// ```
///
/// When the table is missing the store creates it (see ``JSONAPISQLiteStore``); when it exists,
/// every column the mapping needs must exist, or the store refuses to open
/// (``JSONAPISQLiteStoreError``). The store never alters an existing table.
public struct JSONAPISQLiteTable: Sendable, Hashable {
  /// How a table's ids are kept.
  public enum IDKind: Sendable, Hashable {
    /// `INTEGER PRIMARY KEY AUTOINCREMENT`: records carry the ids as decimal text, ids that are not
    /// decimal integers in `Int64`'s range are refused, and a create without an id gets the next
    /// one (never one given out before, in a table the store created). Ids sort by value.
    case integer
    /// `TEXT PRIMARY KEY`: any text, kept byte for byte; a create without an id gets a new UUID
    /// (lowercase). Ids sort by their UTF-8 bytes (so `"10"` before `"9"`).
    case text
  }

  /// The table's name.
  public var name: String
  /// The column holding the resource's id.
  public var idColumn: String
  /// How the ids are kept.
  public var idKind: IDKind
  /// The column of each attribute and to-one relationship whose column is not the default, by
  /// member name.
  public var columns: [String: String]
  /// The join table of each non-inverse to-many relationship whose join table is not the
  /// default, by relationship name.
  public var joinTables: [String: JSONAPISQLiteJoinTable]

  /// Describes a table.
  ///
  /// - Parameters:
  ///   - name: The table's name.
  ///   - idColumn: The column holding the id. Default: `id`.
  ///   - idKind: How ids are kept. Default: ``IDKind/integer``.
  ///   - columns: Columns by member name, for members whose column is not the default (the
  ///     attribute's name, `<relationship>_id` for a to-one relationship).
  ///   - joinTables: Join tables by relationship name, for to-many relationships whose join table
  ///     is not the default (`"<table>_<relationship>"`).
  public init(
    name: String, idColumn: String = "id", idKind: IDKind = .integer,
    columns: [String: String] = [:], joinTables: [String: JSONAPISQLiteJoinTable] = [:]
  ) {
    self.name = name
    self.idColumn = idColumn
    self.idKind = idKind
    self.columns = columns
    self.joinTables = joinTables
  }
}

/// The table that holds a to-many relationship's linkage: one row per member, naming the owner
/// and the target, and the member's place in the linkage.
///
/// A missing join table is created with `PRIMARY KEY (owner, target)`, so a to-many relationship
/// names each resource at most once (a repeated identifier keeps its first place).
///
/// ```swift
/// // CREATE TABLE post_tags (post INTEGER, tag INTEGER, PRIMARY KEY (post, tag))
/// let tags = JSONAPISQLiteJoinTable(
///   name: "post_tags", ownerColumn: "post", targetColumn: "tag", positionColumn: nil)
/// ```
public struct JSONAPISQLiteJoinTable: Sendable, Hashable {
  /// The table's name.
  public var name: String
  /// The column holding the owner's id.
  public var ownerColumn: String
  /// The column holding the related resource's id.
  public var targetColumn: String
  /// The column holding the member's place in the linkage (0 first); `nil` when the table has
  /// none, and then linkage is read in the order of the related ids.
  public var positionColumn: String?

  /// Describes a join table.
  ///
  /// - Parameters:
  ///   - name: The table's name.
  ///   - ownerColumn: The owner's id column. Default: `owner_id`.
  ///   - targetColumn: The related resource's id column. Default: `target_id`.
  ///   - positionColumn: The place of each member, or `nil`. Default: `position`.
  public init(
    name: String, ownerColumn: String = "owner_id", targetColumn: String = "target_id",
    positionColumn: String? = "position"
  ) {
    self.name = name
    self.ownerColumn = ownerColumn
    self.targetColumn = targetColumn
    self.positionColumn = positionColumn
  }
}

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
