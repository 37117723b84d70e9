import Foundation

/// Where a ``JSONAPIServer`` keeps its resources: reads by ids, collections by filter, sort and
/// page, and writes, each inside a transaction the store runs.
///
/// A server calls ``read(_:)`` for everything a `GET` answers, and ``write(_:)`` for every write
/// request and for each Atomic Operations request as a whole: every operation of it goes through
/// the one ``JSONAPIStoreWriter`` it is given, and a thrown error leaves nothing of them stored.
/// Stores see records (``JSONAPIResourceRecord``) and typed queries (``JSONAPIStoreQuery``), never
/// a request or a document, and need not check JSON:API's rules: the server has checked the
/// request, the types and the related resources before it calls them.
///
/// `JSONAPIMemoryStore` is the store of tests, prototypes and small apps; a database store
/// implements the same two protocols.
public protocol JSONAPIStore: Sendable {
  /// Runs `body` with a reader. What it reads is what writes committed before the call began
  /// (where the store can, one snapshot for the whole call).
  ///
  /// - Throws: What `body` throws, and the store's own errors.
  func read<T: Sendable>(_ body: @Sendable (any JSONAPIStoreReader) async throws -> T) async throws
    -> T

  /// Runs `body` in one transaction: everything it writes is stored when it returns, and nothing
  /// when it throws.
  ///
  /// - Throws: What `body` throws (after rolling back), and the store's own errors.
  func write<T: Sendable>(_ body: @Sendable (any JSONAPIStoreWriter) async throws -> T) async throws
    -> T

  /// Whether ``JSONAPIStoreReader/page(_:)`` applies ``JSONAPIStoreQuery/visibility``. A server
  /// refuses to serve a type with a visibility policy from a store that does not. Default: `false`.
  var appliesRowConditions: Bool { get }
}

extension JSONAPIStore {
  /// `false`: a store applies row conditions only when it says so.
  public var appliesRowConditions: Bool { false }
}

/// The reads a ``JSONAPIStore`` answers.
public protocol JSONAPIStoreReader: Sendable {
  /// The resources of `type` whose ids are among `ids`, in any order, each with the linkage of
  /// every relationship its schema declares; ids that name nothing are left out.
  ///
  /// The server calls it once per type and include level with every id it needs (never once per
  /// resource), so a database store answers it in a bounded number of statements.
  func resources(_ type: String, ids: [String]) async throws -> [JSONAPIResourceRecord]

  /// One page of a collection: the resources of `query.type` that match every filter, sorted,
  /// and the window the query asks for.
  func page(_ query: JSONAPIStoreQuery) async throws -> JSONAPIStorePage

  /// The resources of `type` whose ids are among `ids`, as ``resources(_:ids:)`` reads them,
  /// except that each to-many relationship the store keeps itself (every one but an inverse)
  /// holds at most `linkage.limit` identifiers, the first in the linkage's order, of rows
  /// `linkage.visibility` admits.
  ///
  /// The server reads documents this way (``JSONAPIStoreQuery/linkage`` for pages), so that a
  /// resource whose relationship names any number of rows costs a bounded read: it asks for one
  /// identifier more than a relationship's linkage limit, and serves a relationship that reaches
  /// it with links and no `data`. The default implementation reads the whole linkage
  /// (``resources(_:ids:)``), which is correct and unbounded; a database store answers it with a
  /// bounded read per relationship and batch of owners.
  func resources(_ type: String, ids: [String], linkage: JSONAPIStoreLinkageBound)
    async throws -> [JSONAPIResourceRecord]
}

extension JSONAPIStoreReader {
  /// The whole linkage, as ``resources(_:ids:)`` reads it: correct for any store, bounded by
  /// nothing.
  public func resources(_ type: String, ids: [String], linkage: JSONAPIStoreLinkageBound)
    async throws -> [JSONAPIResourceRecord]
  {
    try await resources(type, ids: ids)
  }
}

/// How much of the to-many linkage a store keeps itself (a join of two types, not an inverse) a
/// read returns: at most ``limit`` identifiers per relationship and resource, the first in the
/// linkage's order, counting only rows that ``visibility`` admits for their type, so that what a
/// requester cannot see takes no place among them.
///
/// ```swift
/// let bound = JSONAPIStoreLinkageBound(limit: 101, visibility: ["tasks": .filter(mine)])
/// let projects = try await reader.resources("projects", ids: ["1"], linkage: bound)
/// ```
public struct JSONAPIStoreLinkageBound: Sendable, Hashable {
  /// The most identifiers each to-many relationship of each resource holds.
  public var limit: Int
  /// The rows each target type admits, by type; a type without one admits every row.
  public var visibility: [String: JSONAPIRowCondition]

  /// A bound of `limit` identifiers per relationship, among rows `visibility` admits.
  public init(limit: Int, visibility: [String: JSONAPIRowCondition] = [:]) {
    self.limit = limit
    self.visibility = visibility
  }
}

/// The writes a ``JSONAPIStore`` applies inside ``JSONAPIStore/write(_:)``.
public protocol JSONAPIStoreWriter: JSONAPIStoreReader {
  /// Stores a new resource and returns it as stored, with its `id` (given, or made by the store
  /// when `record.id` is empty) and the linkage of every relationship.
  ///
  /// - Throws: ``JSONAPIStoreError/alreadyExists(type:id:)`` when a resource of that type has
  ///   that id.
  func create(_ record: JSONAPIResourceRecord) async throws -> JSONAPIResourceRecord

  /// Changes only the attributes and relationships in `changes` (the others keep their values)
  /// and returns the resource as stored, or `nil` when there is no such resource.
  func update(_ changes: JSONAPIResourceRecord) async throws -> JSONAPIResourceRecord?

  /// Deletes a resource; `false` when there was none. Linkage that named it is cleared (to-one
  /// relationships become empty, to-many ones lose it).
  func delete(_ type: String, id: String) async throws -> Bool

  /// Adds `identifiers` to the to-many relationship `relationship` of a resource, skipping those
  /// it already has (R84); `false` when there is no such resource.
  func add(
    _ identifiers: [JSONAPIResourceIdentifier], to relationship: String, of type: String,
    id: String
  ) async throws -> Bool

  /// Removes `identifiers` from the to-many relationship `relationship` of a resource (R85);
  /// `false` when there is no such resource.
  func remove(
    _ identifiers: [JSONAPIResourceIdentifier], from relationship: String, of type: String,
    id: String
  ) async throws -> Bool

  /// Locks a resource until the transaction ends and returns it as stored, or `nil` when there is
  /// none: the server calls it before it compares a write's `If-Match` with the resource, so that
  /// no other transaction can change the resource between the comparison and the write (two
  /// servers on one database cannot both pass one `If-Match`).
  ///
  /// The default calls ``update(_:)`` with no changes, which locks the row in a store that locks
  /// the rows it writes (the PostgreSQL store takes `FOR NO KEY UPDATE`); a store whose write
  /// transactions run one at a time (memory, SQLite) needs nothing more. A store that can lock
  /// without writing implements it.
  ///
  /// ```swift
  /// let current = try await writer.lockForWriting("articles", id: "1")
  /// ```
  ///
  /// - Throws: The store's own errors.
  func lockForWriting(_ type: String, id: String) async throws -> JSONAPIResourceRecord?

  /// Deletes the resources of `type` among `ids` as ``delete(_:id:)`` deletes each (the linkage
  /// that named them cleared), and returns how many there were. The server calls it for the
  /// resources a delete cascades to, a batch at a time.
  ///
  /// The default calls ``delete(_:id:)`` once per id; a store that can delete many rows in one
  /// statement implements it.
  ///
  /// ```swift
  /// let deleted = try await writer.delete("tasks", ids: ["3", "4"])   // 2
  /// ```
  ///
  /// - Throws: The store's own errors.
  func delete(_ type: String, ids: [String]) async throws -> Int

  /// Sets the to-one relationship `relationship` of every resource of `type` among `ids` to
  /// `target` (`nil` empties it), and returns how many resources there were: the server writes
  /// the to-many relationships that mirror a to-one (``JSONAPIResourceSchema/Relationship/inverse``)
  /// with it, one call for all the members a write adds or removes.
  ///
  /// The default calls ``update(_:)`` once per id; a store that can change many rows in one
  /// statement implements it.
  ///
  /// ```swift
  /// // Comments 4 and 7 now belong to article 1.
  /// try await writer.setToOne(
  ///   "article", of: "comments", ids: ["4", "7"],
  ///   to: JSONAPIResourceIdentifier(type: "articles", id: "1"))
  /// ```
  ///
  /// - Throws: The store's own errors.
  func setToOne(
    _ relationship: String, of type: String, ids: [String], to target: JSONAPIResourceIdentifier?
  ) async throws -> Int
}

extension JSONAPIStoreWriter {
  /// Locks a resource by an update that changes nothing (see the requirement).
  ///
  /// - Throws: What ``update(_:)`` throws.
  public func lockForWriting(_ type: String, id: String) async throws -> JSONAPIResourceRecord? {
    try await update(JSONAPIResourceRecord(type: type, id: id))
  }

  /// Deletes each resource with ``delete(_:id:)`` (see the requirement).
  ///
  /// - Throws: What ``delete(_:id:)`` throws.
  public func delete(_ type: String, ids: [String]) async throws -> Int {
    var count = 0
    for id in ids {
      if try await delete(type, id: id) { count += 1 }
    }
    return count
  }

  /// Changes each resource with ``update(_:)`` (see the requirement).
  ///
  /// - Throws: What ``update(_:)`` throws.
  public func setToOne(
    _ relationship: String, of type: String, ids: [String], to target: JSONAPIResourceIdentifier?
  ) async throws -> Int {
    var count = 0
    for id in ids {
      var change = JSONAPIResourceRecord(type: type, id: id)
      change.relationships[relationship] = .toOne(target)
      if try await update(change) != nil { count += 1 }
    }
    return count
  }
}

/// A collection read: filters, sort and window, checked against the declarations.
public struct JSONAPIStoreQuery: Sendable, Hashable {
  /// The resource type.
  public var type: String
  /// Conditions every resource must meet.
  public var filters: [JSONAPIFilterCondition]
  /// The order: declared members, then `id` last as a tiebreak (the server always adds it), so
  /// that the order is total and keyset pages are exact.
  public var sort: [JSONAPIQuery.SortField]
  /// The part of the sorted collection to return.
  public var window: Window
  /// Whether the page should carry the collection's total (when the store can count cheaply).
  public var countsTotal: Bool
  /// For a related collection (`GET /articles/1/comments`): only the resources the to-many
  /// relationship `relationship` of `owner` names.
  public var scope: Scope?
  /// The rows the requester may see, from the declarations' ``JSONAPIResourcePolicy``: a store
  /// applies it with the filters (a resource must meet both), before it sorts, pages and counts.
  /// `nil` for every row. Only stores whose ``JSONAPIStore/appliesRowConditions`` is `true` get
  /// one.
  public var visibility: JSONAPIRowCondition? = nil
  /// How much of the to-many linkage the store keeps itself each resource of the page holds (see
  /// ``JSONAPIStoreReader/resources(_:ids:linkage:)``); `nil` for the whole linkage. A store that
  /// does not bound linkage may return it whole.
  public var linkage: JSONAPIStoreLinkageBound? = nil

  /// Creates a query.
  public init(
    type: String, filters: [JSONAPIFilterCondition] = [],
    sort: [JSONAPIQuery.SortField] = [.ascending("id")], window: Window = .offset(0, limit: 20),
    countsTotal: Bool = true, scope: Scope? = nil
  ) {
    self.type = type
    self.filters = filters
    self.sort = sort
    self.window = window
    self.countsTotal = countsTotal
    self.scope = scope
  }

  /// Which resources of the sorted collection a page holds.
  public enum Window: Sendable, Hashable {
    /// `limit` resources from index `offset` (0 is the first).
    case offset(Int, limit: Int)
    /// `limit` resources after the one whose sort values (one per ``JSONAPIStoreQuery/sort``
    /// field, `id` last) are `after`, and before the one whose values are `before`. With only
    /// `before`, the *last* `limit` resources before it, in sorted order. `nil` is no bound.
    case keyset(after: [JSONAPIValue]?, before: [JSONAPIValue]?, limit: Int)

    /// The most resources the window holds.
    public var limit: Int {
      switch self {
      case .offset(_, let limit), .keyset(_, _, let limit): return limit
      }
    }
  }

  /// The owner of a related collection.
  public struct Scope: Sendable, Hashable {
    /// The resource whose relationship is read.
    public var owner: JSONAPIResourceIdentifier
    /// The to-many relationship of `owner`.
    public var relationship: String

    /// Creates a scope.
    public init(owner: JSONAPIResourceIdentifier, relationship: String) {
      self.owner = owner
      self.relationship = relationship
    }
  }
}

/// One page a store read: its resources in order, whether more follow, and the total.
public struct JSONAPIStorePage: Sendable, Hashable {
  /// The resources, in the query's order, at most the window's limit.
  public var resources: [JSONAPIResourceRecord]
  /// Whether more resources follow in the direction read (for a keyset window with only
  /// `before`: whether more lie before the first one).
  public var hasMore: Bool
  /// How many resources match the filters and scope, when the query asked and the store counted.
  public var total: Int?

  /// Creates a page.
  public init(resources: [JSONAPIResourceRecord], hasMore: Bool, total: Int? = nil) {
    self.resources = resources
    self.hasMore = hasMore
    self.total = total
  }
}

/// One condition of a ``JSONAPIStoreQuery``: a member compared with values read from a
/// `filter[…]` parameter by its ``JSONAPIFilter``.
public struct JSONAPIFilterCondition: Sendable, Hashable {
  /// How the member is compared.
  public enum Comparison: Sendable, Hashable {
    /// The member equals one of the values (for a relationship: its linkage names one of the ids).
    case equals
    /// The member, as text, contains the value, without regard to ASCII case.
    case contains
    /// The member is less than the value.
    case lessThan
    /// The member is greater than the value.
    case greaterThan
  }

  /// The attribute or relationship compared (`id` for the resource's own id).
  public var member: String
  /// Whether ``member`` is a relationship, whose linkage ids are compared.
  public var isRelationship: Bool
  /// The comparison.
  public var comparison: Comparison
  /// The values: several for ``Comparison/equals`` (any of them matches), one otherwise. Text is
  /// kept whole, U+0000 included.
  public var values: [JSONAPIValue]

  /// Creates a condition.
  public init(
    member: String, isRelationship: Bool = false, comparison: Comparison, values: [JSONAPIValue]
  ) {
    self.member = member
    self.isRelationship = isRelationship
    self.comparison = comparison
    self.values = values
  }
}

/// The failures a store reports that a server answers as JSON:API errors.
public enum JSONAPIStoreError: Error, Sendable, Hashable {
  /// A create named an id that a resource of that type already has: `409 Conflict`.
  case alreadyExists(type: String, id: String)
  /// A value the store cannot keep exactly, such as text it would cut: `422`.
  case unstorableValue(member: String, reason: String)
}
