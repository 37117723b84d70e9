import Foundation

/// What a ``JSONAPIResourceDeclaration``'s field rules see of one resource: the record as the
/// store holds it (or as it is about to be stored), who is asking, and the server's decoder to
/// read stored values as Swift types.
///
/// ```swift
/// let tasks = try JSONAPIResourceDeclaration(Task.self).computed("overdue") { task in
///   guard let due = task.value(of: "due", as: Date.self) else { return false }
///   return .bool(due < Date() && task.record.attributes["done"] != true)
/// }
/// ```
public struct JSONAPIFieldContext: Sendable {
  /// The resource as stored: attributes as JSON values, every linkage. Computed attributes are
  /// not in it.
  public var record: JSONAPIResourceRecord
  /// Who is asking (``JSONAPIServerRequest/requester``); `nil` when nobody signed in.
  public var requester: JSONAPIRequester?
  /// The server's decoder (``JSONAPIServer/Options/decoder``), with its date and data strategies.
  public var decoder: JSONAPIDecoder

  /// Creates a context (the server makes them; tests of rules may too).
  public init(
    record: JSONAPIResourceRecord, requester: JSONAPIRequester?,
    decoder: JSONAPIDecoder = JSONAPIDecoder()
  ) {
    self.record = record
    self.requester = requester
    self.decoder = decoder
  }

  /// The stored attribute `name` read as `type` with the server's decoder (so a `Date` is read
  /// with its date strategy); `nil` when it is absent, `null`, or not a `type`.
  ///
  /// ```swift
  /// context.value(of: "due", as: Date.self)   // the task's due date
  /// ```
  public func value<T: Decodable>(of name: String, as type: T.Type) -> T? {
    guard let value = record.attributes[name], value != .null else { return nil }
    var document = ServedDocument()
    guard
      (try? document.value(
        .object([
          "data": .object([
            "type": .string(record.type), "id": .string(record.id.isEmpty ? "-" : record.id),
            "attributes": .object(["value": value]),
          ])
        ]))) != nil, let data = try? document.data()
    else { return nil }
    return (try? decoder.decode(ServedFieldBox<T>.self, from: data))?.value
  }
}

/// One attribute value decoded on its own, for ``JSONAPIFieldContext/value(of:as:)``.
private struct ServedFieldBox<T: Decodable>: Decodable {
  var value: T
}

/// The field rules of one declaration: which members are computed, accepted on create only, set
/// by the server, or served to some requesters only.
struct ServedFieldRules: Sendable {
  /// A computed attribute: its place in the model and how its value is made.
  struct Computed: Sendable {
    var attribute: JSONAPIResourceSchema.Attribute
    var value: @Sendable (JSONAPIFieldContext) -> JSONAPIValue
  }

  /// A value the server sets on create.
  enum ServerValue: Sendable {
    case attribute(@Sendable (JSONAPIRequester?) throws -> JSONAPIValue)
    case relationship(@Sendable (JSONAPIRequester?) throws -> JSONAPILinkage)
  }

  /// Computed attributes, by name.
  var computed: [String: Computed] = [:]
  /// The model's attributes in its order, computed ones included; `nil` until an attribute is
  /// computed (then ``JSONAPIResourceDeclaration/schema`` no longer has them all).
  var modelAttributes: [JSONAPIResourceSchema.Attribute]?
  /// Members accepted on create and refused on update.
  var createOnly: Set<String> = []
  /// Members the server sets on create, by name.
  var serverSet: [String: ServerValue] = [:]
  /// Attributes served only when the closure says so, by name.
  var restricted: [String: @Sendable (JSONAPIFieldContext) -> Bool] = [:]

  /// Whether any rule changes how resources are served (computed or restricted attributes).
  var changesServing: Bool { !computed.isEmpty || !restricted.isEmpty }
}

// MARK: - Modifiers

extension JSONAPIResourceDeclaration {
  /// This declaration with the attribute `name` computed by the server from the stored resource
  /// and the requester, in the spirit of Elide's computed attributes and JsonApiDotNetCore's
  /// attributes without `AllowChange`.
  ///
  /// The attribute stays in the model (clients decode it) but leaves ``schema``: stores built
  /// from the schema (memory, SQLite, PostgreSQL) never see a column for it. Its value is made
  /// each time a resource is served — primary data, `included` at any depth, write answers and
  /// Atomic Operations results — so it is part of the bytes an `ETag` is made from. A write that
  /// sends it is refused with `403` at its pointer (R82: the server does not support updating
  /// it), and `/openapi.json` marks it `readOnly`.
  ///
  /// A computed attribute is neither filterable nor sortable: the store cannot compare a value
  /// it does not hold, so a request naming it in `filter` or `sort` is `400` like any member
  /// not declared there.
  ///
  /// ```swift
  /// let tasks = try JSONAPIResourceDeclaration(Task.self, sortable: ["due"])
  ///   .computed("overdue") { task in
  ///     guard let due = task.value(of: "due", as: Date.self) else { return false }
  ///     return .bool(due < Date() && task.record.attributes["done"] != true)
  ///   }
  /// ```
  ///
  /// - Parameters:
  ///   - name: An attribute of the model, as documents name it.
  ///   - value: Its value for one stored resource and requester (`.null` for none; an optional
  ///     attribute may then be left out by returning `.null`).
  /// - Throws: ``JSONAPIDeclarationError`` when `name` is no attribute of the model, or is named
  ///   in `filters`, `sortable` or `defaultSort`, or has another field rule that writes it
  ///   (create-only, server-set).
  public func computed(
    _ name: String, _ value: @escaping @Sendable (JSONAPIFieldContext) -> JSONAPIValue
  ) throws -> JSONAPIResourceDeclaration {
    guard let attribute = schema.attribute(named: name) else {
      throw fieldError(
        "`\(name)` as computed", why: "it is not an attribute of the model",
        fix: "compute only attributes of the model")
    }
    try refuseQuerying(name, as: "computed", why: "the store holds no value to compare")
    try refuseWriteRules(name, as: "computed")
    var copy = self
    if copy.fieldRules.modelAttributes == nil {
      copy.fieldRules.modelAttributes = schema.attributes
    }
    copy.fieldRules.computed[name] = ServedFieldRules.Computed(attribute: attribute, value: value)
    copy.schema.attributes.removeAll { $0.name == name }
    return copy
  }

  /// This declaration with the attributes or relationships in `names` accepted on create only:
  /// an update that sends one (`PATCH` of the resource, its relationship endpoint, an Atomic
  /// Operations `update`, or a to-many relationship of another type that mirrors it) is refused
  /// with `403` at its pointer. JsonApiDotNetCore calls this `AllowCreate` without `AllowChange`.
  ///
  /// ```swift
  /// let tasks = try JSONAPIResourceDeclaration(Task.self).createOnly("project")
  /// // PATCH /tasks/1/relationships/project → 403, source.pointer "/data"
  /// ```
  ///
  /// - Throws: ``JSONAPIDeclarationError`` when a name is no member of the model, or a computed
  ///   attribute.
  public func createOnly(_ names: String...) throws -> JSONAPIResourceDeclaration {
    try createOnly(names)
  }

  /// This declaration with the members in `names` accepted on create only; see
  /// `createOnly(_:)`.
  ///
  /// - Throws: ``JSONAPIDeclarationError`` when a name is no member of the model, or a computed
  ///   attribute.
  public func createOnly(_ names: [String]) throws -> JSONAPIResourceDeclaration {
    var copy = self
    for name in names {
      try refuseUnknownMember(name, as: "create-only")
      if fieldRules.computed[name] != nil {
        throw fieldError(
          "`\(name)` as create-only", why: "it is computed, so no write sets it",
          fix: "declare it computed or create-only, not both")
      }
      copy.fieldRules.createOnly.insert(name)
    }
    return copy
  }

  /// This declaration with the attribute `name` set by the server on create, from the requester:
  /// a create may leave it out even when the model requires it (the required check runs after it
  /// is set), one that sends the same value is accepted, and one that sends another value is
  /// refused with `403` at its pointer. Clients never change it: an update that sends it is
  /// refused the same way.
  ///
  /// ```swift
  /// let notes = try JSONAPIResourceDeclaration(Note.self).setByServer(attribute: "author") {
  ///   requester in .string(requester?.userID ?? "anonymous")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - name: An attribute of the model.
  ///   - value: Its value for the requester; throw to refuse the create (a `JSONAPIErrorObject`
  ///     is answered as it is, any other error as `403`).
  /// - Throws: ``JSONAPIDeclarationError`` when `name` is no attribute of the model, or computed.
  public func setByServer(
    attribute name: String,
    _ value: @escaping @Sendable (JSONAPIRequester?) throws -> JSONAPIValue
  ) throws -> JSONAPIResourceDeclaration {
    guard schema.attribute(named: name) != nil else {
      throw fieldError(
        "`\(name)` as set by the server",
        why: "it is not an attribute of the model (or it is computed)",
        fix: "use setByServer(relationship:) for a relationship")
    }
    var copy = self
    copy.fieldRules.serverSet[name] = .attribute(value)
    return copy
  }

  /// This declaration with the relationship `name` set by the server on create, from the
  /// requester, as ``setByServer(attribute:_:)`` sets an attribute: a create may leave it out,
  /// one that names other resources is refused with `403` at its pointer, and no update changes
  /// it (nor its relationship endpoint, nor a relationship of another type that mirrors it).
  ///
  /// - Parameters:
  ///   - name: A relationship of the model.
  ///   - linkage: Its linkage for the requester; throw to refuse the create.
  /// - Throws: ``JSONAPIDeclarationError`` when `name` is no relationship of the model.
  public func setByServer(
    relationship name: String,
    _ linkage: @escaping @Sendable (JSONAPIRequester?) throws -> JSONAPILinkage
  ) throws -> JSONAPIResourceDeclaration {
    guard schema.relationship(named: name) != nil else {
      throw fieldError(
        "`\(name)` as set by the server", why: "it is not a relationship of the model",
        fix: "use setByServer(attribute:) for an attribute")
    }
    var copy = self
    copy.fieldRules.serverSet[name] = .relationship(linkage)
    return copy
  }

  /// This declaration with the to-one relationship `name` set to the requester on create: the
  /// resource of the relationship's type whose id is the requester's
  /// ``JSONAPIRequester/userID``. A create by nobody (no user id) is refused with `403`.
  ///
  /// ```swift
  /// let projects = try JSONAPIResourceDeclaration(Project.self).setToRequester("owner")
  /// // POST /projects without `owner` by user 2 → owner is users/2
  /// // POST /projects with owner users/3 by user 2 → 403 at /data/relationships/owner
  /// ```
  ///
  /// - Throws: ``JSONAPIDeclarationError`` when `name` is no to-one relationship of the model to
  ///   one `JSONAPIResource` type.
  public func setToRequester(_ name: String) throws -> JSONAPIResourceDeclaration {
    guard let relationship = schema.relationship(named: name), !relationship.isToMany,
      let target = relationship.targetType
    else {
      throw fieldError(
        "`\(name)` as set to the requester",
        why: "it is not a to-one relationship of the model to a JSONAPIResource type",
        fix: "use setByServer(relationship:) to say which resource it names")
    }
    let type = self.type
    return try setByServer(relationship: name) { requester in
      guard let user = requester?.userID else {
        throw JSONAPIWriteCheck.forbidden(
          "`\(name)` of \(type) is set to the requester, and this request has none: sign in")
      }
      return .toOne(JSONAPIResourceIdentifier(type: target, id: user))
    }
  }

  /// This declaration with the attribute `name` served only where `isServed` says so, per
  /// requester and resource, like Elide's read permissions on a field. Other requesters get the
  /// resource without the member, in every document (primary data, `included`, write answers)
  /// and whatever their `fields[TYPE]` names.
  ///
  /// Such an attribute is neither filterable nor sortable — ordering or matching on it would
  /// tell what it holds — so a request naming it in `filter` or `sort` is `400`.
  ///
  /// ```swift
  /// let users = try JSONAPIResourceDeclaration(User.self).servedOnly("email") { user in
  ///   user.requester?.userID == user.record.id
  /// }
  /// ```
  ///
  /// - Throws: ``JSONAPIDeclarationError`` when `name` is no attribute of the model, or is named
  ///   in `filters`, `sortable` or `defaultSort`.
  public func servedOnly(
    _ name: String, to isServed: @escaping @Sendable (JSONAPIFieldContext) -> Bool
  ) throws -> JSONAPIResourceDeclaration {
    guard schema.attribute(named: name) != nil || fieldRules.computed[name] != nil else {
      throw fieldError(
        "`\(name)` as served to some requesters only", why: "it is not an attribute of the model",
        fix: "restrict attributes; hide rows with a policy (secured(by:))")
    }
    try refuseQuerying(
      name, as: "served to some requesters only",
      why: "filtering or sorting on it would tell others what it holds")
    var copy = self
    copy.fieldRules.restricted[name] = isServed
    return copy
  }

  // MARK: Reading the rules

  /// The model's schema as served: ``schema`` with the computed attributes back in the model's
  /// order. What documents and `/openapi.json` describe.
  public var servedSchema: JSONAPIResourceSchema {
    guard let attributes = fieldRules.modelAttributes else { return schema }
    var served = schema
    let kept = Set(schema.attributes.map(\.name)).union(fieldRules.computed.keys)
    served.attributes = attributes.filter { kept.contains($0.name) }
    return served
  }

  /// The names of the computed attributes (``computed(_:_:)``).
  public var computedAttributes: Set<String> { Set(fieldRules.computed.keys) }

  /// Runs the `willSave` hook on `record`, then takes out any computed attribute it set: they
  /// are made when served and never stored, so a store never keeps a value the server would not
  /// serve back.
  func runWillSave(_ record: inout JSONAPIResourceRecord, _ access: JSONAPIAccess) throws {
    guard let willSave = hooks.willSave else { return }
    try willSave(&record, access)
    for name in fieldRules.computed.keys { record.attributes.removeValue(forKey: name) }
  }

  /// The members accepted on create only (`createOnly(_:)`).
  public var createOnlyMembers: Set<String> { fieldRules.createOnly }

  /// The members the server sets on create (``setByServer(attribute:_:)``,
  /// ``setByServer(relationship:_:)``, ``setToRequester(_:)``).
  public var serverSetMembers: Set<String> { Set(fieldRules.serverSet.keys) }

  /// The attributes served to some requesters only (``servedOnly(_:to:)``).
  public var restrictedAttributes: Set<String> { Set(fieldRules.restricted.keys) }

  /// The request rules the server reads this type's bodies with: the same checks of `type`,
  /// `id` and client ids a hand-written server makes.
  public var requestRules: JSONAPIRequestRules {
    JSONAPIRequestRules(acceptsClientGeneratedIDs: acceptsClientGeneratedIDs)
  }

  /// Whether a create may carry the client's own `id`.
  @available(*, deprecated, renamed: "acceptsClientGeneratedIDs")
  public var allowsClientIDs: Bool { acceptsClientGeneratedIDs }

  /// Decodes a record about to be stored as the model, its computed attributes added as the
  /// requester would be served them; `nil` for a declaration without a model.
  var checkModel:
    (@Sendable (JSONAPIResourceRecord, [JSONAPIResourceRecord], JSONAPIDecoder) throws -> Void)?
  {
    guard let decodeModel else { return nil }
    let computed = fieldRules.computed
    guard !computed.isEmpty else { return decodeModel }
    let requester = ServedRequester.current
    return { record, related, decoder in
      var full = record
      let context = JSONAPIFieldContext(record: record, requester: requester, decoder: decoder)
      for (name, rule) in computed { full.attributes[name] = rule.value(context) }
      try decodeModel(full, related, decoder)
    }
  }

  // MARK: Declaration checks

  private func fieldError(_ what: String, why: String, fix: String) -> JSONAPIDeclarationError {
    JSONAPIDeclarationError(
      reason: "The declaration of \(type) names \(what), but \(why): \(fix) (attributes: "
        + "\(servedSchema.attributes.map(\.name).joined(separator: ", ")); relationships: "
        + "\(schema.relationships.map(\.name).joined(separator: ", ")))")
  }

  /// Refuses a member that is neither an attribute nor a relationship of the model.
  private func refuseUnknownMember(_ name: String, as rule: String) throws {
    guard schema.attribute(named: name) == nil, schema.relationship(named: name) == nil,
      fieldRules.computed[name] == nil
    else { return }
    throw fieldError(
      "`\(name)` as \(rule)", why: "it is no member of the model",
      fix: "name attributes or relationships of the model")
  }

  /// Refuses a member that `filters`, `sortable` or `defaultSort` name.
  private func refuseQuerying(_ name: String, as rule: String, why: String) throws {
    let filtered = filters.filter { $0.value.member == name }.map(\.key).sorted()
    let sorted = sortable.contains(name) || defaultSort.contains { $0.field == name }
    guard filtered.isEmpty, !sorted else {
      let place =
        filtered.isEmpty ? "sortable or defaultSort" : "the filter `\(filtered[0])`"
      throw JSONAPIDeclarationError(
        reason: "The declaration of \(type) makes `\(name)` \(rule) and names it in \(place), "
          + "but a \(rule) member is neither filterable nor sortable (\(why)): take it out of "
          + "filters, sortable and defaultSort")
    }
  }

  /// Refuses a computed attribute that another rule writes.
  private func refuseWriteRules(_ name: String, as rule: String) throws {
    if fieldRules.createOnly.contains(name) || fieldRules.serverSet[name] != nil {
      throw fieldError(
        "`\(name)` as \(rule)", why: "it is also create-only or set by the server",
        fix: "a computed attribute is never written; declare one rule")
    }
  }
}

// MARK: - The former name of acceptsClientGeneratedIDs

extension JSONAPIResourceDeclaration {
  /// Declares `model` as a resource type; `allowsClientIDs` is now `acceptsClientGeneratedIDs`.
  ///
  /// - Throws: As ``init(_:keyEncodingStrategy:filters:sortable:defaultSort:paging:acceptsClientGeneratedIDs:inverses:hooks:attributeSchemas:validate:)``.
  @available(
    *, deprecated,
    renamed:
      "init(_:keyEncodingStrategy:filters:sortable:defaultSort:paging:acceptsClientGeneratedIDs:inverses:hooks:attributeSchemas:validate:)"
  )
  public init<Model: Codable & JSONAPIResource & Sendable>(
    _ model: Model.Type, keyEncodingStrategy: JSONAPIEncoder.KeyEncodingStrategy = .useDefaultKeys,
    filters: [String: JSONAPIFilter] = [:], sortable: [String] = [],
    defaultSort: [JSONAPIQuery.SortField] = [],
    paging: JSONAPIPaging = .pageNumber(defaultSize: 20, maxSize: 100),
    allowsClientIDs: Bool, inverses: [String: String] = [:],
    hooks: JSONAPIResourceHooks = JSONAPIResourceHooks(),
    attributeSchemas: [String: JSONAPIOpenAPIDocument.Schema] = [:],
    validate: (@Sendable (Model) throws -> Void)? = nil
  ) throws {
    try self.init(
      model, keyEncodingStrategy: keyEncodingStrategy, filters: filters, sortable: sortable,
      defaultSort: defaultSort, paging: paging, acceptsClientGeneratedIDs: allowsClientIDs,
      inverses: inverses, hooks: hooks, attributeSchemas: attributeSchemas, validate: validate)
  }

  /// Declares a resource type from its schema; `allowsClientIDs` is now
  /// `acceptsClientGeneratedIDs`.
  ///
  /// - Throws: As ``init(schema:filters:sortable:defaultSort:paging:acceptsClientGeneratedIDs:inverses:hooks:attributeSchemas:)``.
  @available(
    *, deprecated,
    renamed:
      "init(schema:filters:sortable:defaultSort:paging:acceptsClientGeneratedIDs:inverses:hooks:attributeSchemas:)"
  )
  public init(
    schema: JSONAPIResourceSchema, filters: [String: JSONAPIFilter] = [:],
    sortable: [String] = [], defaultSort: [JSONAPIQuery.SortField] = [],
    paging: JSONAPIPaging = .pageNumber(defaultSize: 20, maxSize: 100),
    allowsClientIDs: Bool, inverses: [String: String] = [:],
    hooks: JSONAPIResourceHooks = JSONAPIResourceHooks(),
    attributeSchemas: [String: JSONAPIOpenAPIDocument.Schema] = [:]
  ) throws {
    try self.init(
      schema: schema, filters: filters, sortable: sortable, defaultSort: defaultSort,
      paging: paging, acceptsClientGeneratedIDs: allowsClientIDs, inverses: inverses,
      hooks: hooks, attributeSchemas: attributeSchemas)
  }
}
