import JSONAPIServer

/// The contract every ``JSONAPIServer/JSONAPIStore`` keeps, as checks a store's tests run on a
/// store made for each check.
///
/// A store author writes one factory and runs every check, for example with Swift Testing:
///
/// ```swift
/// let conformance = JSONAPIStoreConformance(store: "SQLite") { schemas, body in
///   try await body(try JSONAPISQLiteStore(path: newPath(), schemas: schemas))
/// }
///
/// @Test(arguments: JSONAPIStoreConformance.Check.allCases)
/// func conforms(_ check: JSONAPIStoreConformance.Check) async throws {
///   try await conformance.run(check)
/// }
/// ```
///
/// Each check makes a new store with ``schemas`` (the factory is called once per check, so the
/// store may be a new database, schema or file), seeds it through ``JSONAPIServer/JSONAPIStore/write(_:)``
/// and compares what the store answers with what the protocol promises. A check that finds a
/// difference throws ``Failure``, naming the store, the check and every difference.
public struct JSONAPIStoreConformance: Sendable {
  /// Makes a new, empty store for `schemas`, runs `body` with it, then disposes of it.
  public typealias Factory =
    @Sendable (
      _ schemas: [JSONAPIResourceSchema],
      _ body: @Sendable (any JSONAPIStore) async throws -> Void
    ) async throws -> Void

  /// The name of the store, for failures ("SQLite", "PostgreSQL"…).
  public var store: String
  private let factory: Factory

  /// A suite over the stores `factory` makes.
  ///
  /// - Parameters:
  ///   - store: The store's name, which every failure names.
  ///   - factory: Makes a new, empty store for the given schemas and runs the check with it.
  ///     Ids of every type are decimal integers, so a store may keep them in integer columns.
  public init(store: String, factory: @escaping Factory) {
    self.store = store
    self.factory = factory
  }

  /// One part of the contract.
  public enum Check: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Creates read back as given; a taken id is refused with `alreadyExists`.
    case createAndRead
    /// Updates change only what they name; deletes report whether there was a resource.
    case updateAndDelete
    /// `equals` on text (byte for byte), numbers (by value), `null`, ids.
    case filterEquals
    /// `contains`: text only, ASCII case ignored.
    case filterContains
    /// `lessThan` and `greaterThan` on numbers, text (by bytes) and ids.
    case filterOrder
    /// Relationship filters: a to-one's id, empty linkage, a to-many's members.
    case filterRelationships
    /// Several sort keys, each in its direction.
    case sortMultiKey
    /// Text sorts by its UTF-8 bytes, whatever the database's collation.
    case sortByteOrder
    /// `null` sorts first ascending and last descending.
    case sortNulls
    /// Offset windows: exact `hasMore` and `total` on every page.
    case offsetWindow
    /// Keyset windows: after a cursor, before one (the last before it), both, exact `hasMore`.
    case keysetWindow
    /// A scope: only what the owner's to-many relationship names, counted.
    case scopeToMany
    /// The reads inverses are served from: the targets whose to-one names one of many owners;
    /// deleting an owner empties those to-ones.
    case inverses
    /// A write that throws leaves nothing of what it did.
    case transactionRollback
    /// Writes to one resource run one after another: each sees what the one before committed.
    case writeGate
    /// Text with U+0000 is kept whole or refused with `unstorableValue`, never cut.
    case nulCharacter
    /// To-many linkage keeps its order; add, remove, replace and deletes of members.
    case toManyLinkage
    /// Reads with a linkage bound (`resources(_:ids:linkage:)`, `JSONAPIStoreQuery.linkage`): at
    /// most the limit of each to-many relationship's members, the first in order, counting only
    /// rows the bound's visibility admits. The protocol's default reads linkage whole and fails
    /// it: a store is held to reading at most what a document serves.
    case boundedLinkage
    /// Row conditions (`JSONAPIStoreQuery.visibility`): every kind, through to-one, to-many and
    /// inverse relationships, nested, with relationship filters at every level; `visible` admits
    /// nothing. Held only to stores whose `appliesRowConditions` is `true`.
    case visibilityConditions
    /// Row conditions with offset and keyset windows, scopes and filters: exact totals and
    /// `hasMore`, cursors of hidden rows.
    case visibilityWindows
    /// Row conditions comparing text with U+0000.
    case visibilityNul
    /// Random data, random condition trees, filters, sorts, windows and scopes, each page against
    /// an oracle computed from the records (`STORE_CONFORMANCE_SEED` replays a seed).
    case visibilityProperty
    /// The tracker's policies served by `JSONAPIServer` over the store (the checks below):
    /// lists and totals hold visible rows only.
    case policyLists
    /// A hidden row answers as an id nobody has, on every read and write endpoint.
    case policyHiddenAsNonexistent
    /// `include` at every depth and every linkage leave hidden rows out.
    case policyIncludeAndLinkage
    /// Related and relationship endpoints list visible rows only.
    case policyRelatedEndpoints
    /// Filters and cursors see visible rows only.
    case policyFiltersAndCursors
    /// A mirrored relationship's writes are held to both types' rules.
    case policyMirroredWrites
    /// Creates and updates name visible rows only and follow the rules.
    case policyWrites
    /// A replaced to-many keeps the hidden members; removing a hidden one does nothing.
    case policyHiddenMembers
    /// A refused operation of `/operations` leaves nothing of its batch.
    case policyOperations
    /// A store that applies no row conditions is refused.
    case policyStoreRefused
    /// Random trackers, random users, random requests over every endpoint: no response names a
    /// hidden row, lists and walks hold the visible rows, and no refused write changes anything.
    case policyProperty
    /// Delete rules, through a server: cascades of cascades in batches, a cycle, set-null.
    case deleteCascades
    /// Delete rules: a required to-one and a declared `refuse` refuse with counts, keeping all.
    case deleteRefusals
    /// Delete rules: optional to-ones become empty, to-many linkage loses the deleted resource.
    case deleteSetsNull

    /// The check's name, as failures and test names show it.
    public var description: String { rawValue }
  }

  /// Why a check failed: the store, the check, and what differed.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    /// The store's name.
    public var store: String
    /// The check.
    public var check: Check
    /// Each difference: what was asked, what the contract says, what the store answered.
    public var differences: [String]

    /// The store, the check, and each difference on a line of its own.
    public var description: String {
      "\(store) store fails \(check) (\(differences.count) difference(s)):\n  "
        + differences.joined(separator: "\n  ")
    }
  }

  /// Runs every check, one after another.
  ///
  /// - Throws: The first ``Failure``, or what the factory or a store throws unexpectedly.
  public func runAll() async throws {
    for check in Check.allCases { try await run(check) }
  }

  /// Runs one check on a new store.
  ///
  /// - Throws: ``Failure`` when the store differs from the contract; what the factory or the
  ///   store throws where the contract expects no error.
  public func run(_ check: Check) async throws {
    let store = self.store
    try await factory(Self.schemas(for: check)) { made in
      var report = Report()
      try await Self.body(of: check)(made, &report)
      if !report.differences.isEmpty {
        throw Failure(store: store, check: check, differences: report.differences)
      }
    }
  }

  /// The schemas every check's store is made for: `articles` (title text, rank integer, score
  /// number; an `author` to-one and a `tags` to-many), `people` (name; `articles`, the inverse
  /// of `author`, and a `friends` to-many to `people`) and `tags` (name; a `parent` to-one to
  /// `tags`). The relationships of a type to itself make the visibility checks read one table at
  /// several levels of one statement.
  public static let schemas: [JSONAPIResourceSchema] = [
    JSONAPIResourceSchema(
      type: "articles",
      attributes: [
        .init(name: "title", kind: .string, isOptional: true),
        .init(name: "rank", kind: .integer, isOptional: true),
        .init(name: "score", kind: .number, isOptional: true),
      ],
      relationships: [
        .init(name: "author", targetType: "people", isToMany: false, isOptional: true),
        .init(name: "tags", targetType: "tags", isToMany: true, isOptional: true),
      ]),
    JSONAPIResourceSchema(
      type: "people", attributes: [.init(name: "name", kind: .string, isOptional: true)],
      relationships: [
        .init(
          name: "articles", targetType: "articles", isToMany: true, isOptional: true,
          inverse: "author"),
        .init(name: "friends", targetType: "people", isToMany: true, isOptional: true),
      ]),
    JSONAPIResourceSchema(
      type: "tags", attributes: [.init(name: "name", kind: .string, isOptional: true)],
      relationships: [
        .init(name: "parent", targetType: "tags", isToMany: false, isOptional: true)
      ]),
  ]

  /// The schemas the store of `check` is made for: the tracker's for the policy checks, the
  /// delete rules' for theirs, ``schemas`` for the others.
  public static func schemas(for check: Check) -> [JSONAPIResourceSchema] {
    switch check {
    case _ where check.rawValue.hasPrefix("policy"): return Tracker.schemas
    case .deleteCascades, .deleteRefusals, .deleteSetsNull: return deleteRuleSchemas
    default: return schemas
    }
  }

  typealias Body = @Sendable (any JSONAPIStore, inout Report) async throws -> Void

  static func body(of check: Check) -> Body {
    switch check {
    case .createAndRead: return createAndRead
    case .updateAndDelete: return updateAndDelete
    case .filterEquals: return filterEquals
    case .filterContains: return filterContains
    case .filterOrder: return filterOrder
    case .filterRelationships: return filterRelationships
    case .sortMultiKey: return sortMultiKey
    case .sortByteOrder: return sortByteOrder
    case .sortNulls: return sortNulls
    case .offsetWindow: return offsetWindow
    case .keysetWindow: return keysetWindow
    case .scopeToMany: return scopeToMany
    case .inverses: return inverses
    case .transactionRollback: return transactionRollback
    case .writeGate: return writeGate
    case .nulCharacter: return nulCharacter
    case .toManyLinkage: return toManyLinkage
    case .boundedLinkage: return boundedLinkage
    case .visibilityConditions: return visibilityConditions
    case .visibilityWindows: return visibilityWindows
    case .visibilityNul: return visibilityNul
    case .visibilityProperty: return visibilityProperty
    case .policyLists: return policyLists
    case .policyHiddenAsNonexistent: return policyHiddenAsNonexistent
    case .policyIncludeAndLinkage: return policyIncludeAndLinkage
    case .policyRelatedEndpoints: return policyRelatedEndpoints
    case .policyFiltersAndCursors: return policyFiltersAndCursors
    case .policyMirroredWrites: return policyMirroredWrites
    case .policyWrites: return policyWrites
    case .policyHiddenMembers: return policyHiddenMembers
    case .policyOperations: return policyOperations
    case .policyStoreRefused: return policyStoreRefused
    case .policyProperty: return policyProperty
    case .deleteCascades: return deleteCascades
    case .deleteRefusals: return deleteRefusals
    case .deleteSetsNull: return deleteSetsNull
    }
  }
}

/// The differences one check found.
struct Report: Sendable {
  var differences: [String] = []

  /// Notes a difference when `actual` is not `expected`.
  mutating func expect<T: Equatable>(_ actual: T, _ expected: T, _ what: String) {
    if actual != expected {
      differences.append("\(what): expected \(expected), got \(actual)")
    }
  }

  /// Notes a difference when `condition` does not hold.
  mutating func expect(_ condition: Bool, _ what: String) {
    if !condition { differences.append(what) }
  }
}

// MARK: - Records and reads the checks share

/// Records of the checks' types, with decimal ids.
enum Make {
  static func article(
    _ id: String, title: JSONAPIValue = .null, rank: JSONAPIValue = .null,
    score: JSONAPIValue = .null, author: String? = nil, tags: [String]? = nil
  ) -> JSONAPIResourceRecord {
    var relationships: [String: JSONAPILinkage] = [
      "author": .toOne(author.map { JSONAPIResourceIdentifier(type: "people", id: $0) })
    ]
    if let tags { relationships["tags"] = .toMany(tags.map(tag)) }
    return JSONAPIResourceRecord(
      type: "articles", id: id, attributes: ["title": title, "rank": rank, "score": score],
      relationships: relationships)
  }

  static func person(_ id: String, _ name: String) -> JSONAPIResourceRecord {
    JSONAPIResourceRecord(type: "people", id: id, attributes: ["name": .string(name)])
  }

  static func tag(_ id: String) -> JSONAPIResourceIdentifier {
    JSONAPIResourceIdentifier(type: "tags", id: id)
  }

  static func tagRecord(_ id: String) -> JSONAPIResourceRecord {
    JSONAPIResourceRecord(type: "tags", id: id, attributes: ["name": .string("tag \(id)")])
  }
}

extension JSONAPIStore {
  /// Stores `records` in one transaction.
  func seed(_ records: [JSONAPIResourceRecord]) async throws {
    try await write { writer in
      for record in records { _ = try await writer.create(record) }
    }
  }

  /// The ids of a page of `type`.
  func ids(
    _ type: String, _ filters: [JSONAPIFilterCondition] = [],
    sort: [JSONAPIQuery.SortField] = [.ascending("id")],
    window: JSONAPIStoreQuery.Window = .offset(0, limit: 100),
    scope: JSONAPIStoreQuery.Scope? = nil
  ) async throws -> [String] {
    try await page(
      JSONAPIStoreQuery(
        type: type, filters: filters, sort: sort, window: window, countsTotal: false,
        scope: scope)
    ).resources.map(\.id)
  }
}

// Reading helpers for a store's tests, in a read of their own each.
extension JSONAPIStore {
  /// One page of `query`, read in a read of its own.
  ///
  /// - Throws: What the store throws.
  public func page(_ query: JSONAPIStoreQuery) async throws -> JSONAPIStorePage {
    try await read { try await $0.page(query) }
  }

  /// The ids of one page of `query`, in order.
  ///
  /// - Throws: What the store throws.
  public func ids(_ query: JSONAPIStoreQuery) async throws -> [String] {
    try await page(query).resources.map(\.id)
  }

  /// The resource `type`/`id`, or `nil` when there is none.
  ///
  /// - Throws: What the store throws.
  public func find(_ type: String, _ id: String) async throws -> JSONAPIResourceRecord? {
    try await read { try await $0.resources(type, ids: [id]).first }
  }
}

extension JSONAPIResourceRecord {
  /// An attribute as the contract reads it: absent is `null`.
  func value(_ name: String) -> JSONAPIValue { attributes[name] ?? .null }

  /// A relationship's linkage ids (empty for an empty or absent one).
  func linked(_ name: String) -> [String] {
    (relationships[name]?.identifiers ?? []).compactMap(\.id)
  }
}

/// A filter condition, shortly.
func filter(
  _ member: String, _ comparison: JSONAPIFilterCondition.Comparison, _ values: [JSONAPIValue],
  relationship: Bool = false
) -> JSONAPIFilterCondition {
  JSONAPIFilterCondition(
    member: member, isRelationship: relationship, comparison: comparison, values: values)
}
