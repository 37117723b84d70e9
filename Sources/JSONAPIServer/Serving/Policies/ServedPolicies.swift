import Foundation

/// The requester of the request being answered. Set once in `JSONAPIServer.respond(to:)` and read
/// where the server opens a store read or write, so that every path through the store is held to
/// the policies without each endpoint having to pass them along (none can forget to).
enum ServedRequester {
  @TaskLocal static var current: JSONAPIRequester?
}

/// The declarations' visibility conditions for one requester, resolved: ``JSONAPIRowCondition/visible``
/// replaced by the other type's condition and relationships that mirror a to-one of their target
/// rewritten to that to-one, so a store meets stored relationships only.
struct ServedPolicies: Sendable {
  /// The deepest a resolved condition may nest: policies referring to each other are followed at
  /// most this far (a condition nested deeper is a declaration error, answered `500`).
  static let maxDepth = 32

  let server: JSONAPIServer
  let requester: JSONAPIRequester?
  /// The resolved condition of each type whose declaration has a visibility policy.
  let conditions: [String: JSONAPIRowCondition]

  /// The policies of the request being answered, or `nil` when no declaration has any (the fast
  /// path: the store is read as it is).
  ///
  /// - Throws: `500` when a policy names a relationship or type that is not declared.
  static func current(_ server: JSONAPIServer) throws -> ServedPolicies? {
    guard server.resources.values.contains(where: { !$0.policy.isEmpty }) else { return nil }
    return try ServedPolicies(server: server, requester: ServedRequester.current)
  }

  init(server: JSONAPIServer, requester: JSONAPIRequester?) throws {
    self.server = server
    self.requester = requester
    var conditions: [String: JSONAPIRowCondition] = [:]
    for (type, declaration) in server.resources where declaration.policy.visible != nil {
      conditions[type] = try Self.resolve(
        .visible, in: type, server: server, requester: requester, stack: [], depth: 0)
    }
    self.conditions = conditions
  }

  /// `condition` of a row of `type`, resolved for the requester.
  func resolve(_ condition: JSONAPIRowCondition, in type: String) throws -> JSONAPIRowCondition {
    try Self.resolve(condition, in: type, server: server, requester: requester, stack: [], depth: 0)
  }

  /// Resolves `condition` for rows of `type`. `stack` holds the types whose policy is being
  /// substituted: a policy reached again through itself admits nothing there (fail closed), so
  /// the substitution ends; `depth` bounds the recursion.
  private static func resolve(
    _ condition: JSONAPIRowCondition, in type: String, server: JSONAPIServer,
    requester: JSONAPIRequester?, stack: [String], depth: Int
  ) throws -> JSONAPIRowCondition {
    guard depth < maxDepth else {
      throw misdeclared("the visibility policies nest deeper than \(maxDepth) conditions")
    }
    guard let schema = server.resources[type]?.schema else {
      throw misdeclared("a visibility policy names the type `\(type)`, which is not declared")
    }
    func inner(_ condition: JSONAPIRowCondition, _ type: String, _ stack: [String]) throws
      -> JSONAPIRowCondition
    {
      try resolve(
        condition, in: type, server: server, requester: requester, stack: stack, depth: depth + 1)
    }
    switch condition {
    case .always, .never:
      return condition
    case .visible:
      guard let visible = server.resources[type]?.policy.visible else { return .always }
      if stack.contains(type) { return .never }
      return try inner(visible(requester), type, stack + [type])
    case .filter(let filter):
      // The store compares what it keeps: a member it has no column for (a computed attribute,
      // a misspelt name) would be `null` on every row, and a condition such as "equals null"
      // would admit them all.
      guard filter.isRelationship else {
        if filter.member != "id", schema.attribute(named: filter.member) == nil {
          let computed = server.resources[type]?.computedAttributes.contains(filter.member) == true
          throw misdeclared(
            "a visibility policy of `\(type)` filters on `\(filter.member)`, which is not a "
              + "stored attribute of it"
              + (computed
                ? " (computed attributes are made when served: no store can compare them)" : ""))
        }
        return condition
      }
      guard let relationship = schema.relationship(named: filter.member) else {
        throw misdeclared(
          "a visibility policy of `\(type)` filters on `\(filter.member)`, which is not one "
            + "of its relationships")
      }
      // A filter on a mirrored relationship is a condition on the target's stored to-one.
      guard let target = relationship.targetType, let member = relationship.inverse else {
        return condition
      }
      var ids = filter
      ids.member = "id"
      ids.isRelationship = false
      return .namedBy(type: target, relationship: member, .filter(ids))
    case .all(let parts):
      return .all(try parts.map { try inner($0, type, stack) })
    case .any(let parts):
      return .any(try parts.map { try inner($0, type, stack) })
    case .related(let name, let condition):
      guard let relationship = schema.relationship(named: name),
        let target = relationship.targetType
      else {
        throw misdeclared(
          "a visibility policy of `\(type)` names `\(name)`, which is not one of its "
            + "relationships to a declared type")
      }
      let resolved = try inner(condition, target, stack)
      if let member = relationship.inverse {
        return .namedBy(type: target, relationship: member, resolved)
      }
      return .related(name, resolved)
    case .namedBy(let other, let name, let condition):
      guard let relationship = server.resources[other]?.schema.relationship(named: name),
        relationship.targetType == type
      else {
        throw misdeclared(
          "a visibility policy of `\(type)` names `\(other).\(name)`, which is not a "
            + "relationship of `\(other)` to `\(type)`")
      }
      let resolved = try inner(condition, other, stack)
      if let member = relationship.inverse { return .related(member, resolved) }
      return .namedBy(type: other, relationship: name, resolved)
    }
  }

  private static func misdeclared(_ reason: String) -> JSONAPIErrorObject {
    JSONAPIErrorObject(
      status: "500", code: "misdeclared-policy", title: "Internal Server Error",
      detail: "The server's policies are misdeclared: \(reason)")
  }
}

extension JSONAPIServer {
  /// Refuses a store that cannot apply visibility conditions when a declaration has one: serving
  /// it would show every row. Refuses client-generated ids on a type with a visibility policy: a
  /// create under an id that a hidden row holds could only fail (`409`), where an id nobody has
  /// succeeds, so the answer would tell that the hidden row exists.
  static func checkPolicies(
    _ resources: [JSONAPIResourceDeclaration], store: any JSONAPIStore
  ) throws {
    if let open = resources.first(where: {
      $0.policy.visible != nil && $0.acceptsClientGeneratedIDs
    }) {
      throw JSONAPIDeclarationError(
        reason: "Cannot serve `\(open.type)`: it has a visibility policy and takes "
          + "client-generated ids, and a create under an id that a row hidden from the requester "
          + "holds would answer 409 and so tell that the row exists; declare it with "
          + "acceptsClientGeneratedIDs: false (creates then get ids from the store)")
    }
    guard !store.appliesRowConditions,
      let secured = resources.first(where: { $0.policy.visible != nil })
    else { return }
    throw JSONAPIDeclarationError(
      reason: "Cannot serve these resources: `\(secured.type)` has a visibility policy, and the "
        + "store does not apply row conditions (JSONAPIStore.appliesRowConditions is false)")
  }

  /// A reader held to the request's policies, or `served` itself when there are none.
  func guarded(_ served: ServedReader, raw: any JSONAPIStoreReader) throws -> any JSONAPIStoreReader
  {
    guard let policies = try ServedPolicies.current(self) else { return served }
    return GuardedReader(served: served, raw: raw, policies: policies)
  }

  /// A writer held to the request's policies, or `served` itself when there are none.
  func guarded(_ served: ServedWriter, raw: any JSONAPIStoreWriter) throws -> any JSONAPIStoreWriter
  {
    guard let policies = try ServedPolicies.current(self) else { return served }
    return GuardedWriter(
      reader: GuardedReader(served: served, raw: raw, policies: policies),
      served: served)
  }
}
