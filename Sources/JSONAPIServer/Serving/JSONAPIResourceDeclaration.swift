import Foundation

/// One resource type a ``JSONAPIServer`` serves: its `Codable` model, and only what the model
/// cannot say — which members may be filtered and sorted, how collections are paged, whether
/// clients may choose ids, hooks that refuse or change operations, and what each member allows
/// (computed, set on create only, set by the server, served to some requesters only: see
/// ``computed(_:_:)``).
///
/// Attribute and relationship names come from the model, as `JSONAPIEncoder` writes them
/// (``JSONAPIResourceSchema/init(reading:keyEncodingStrategy:)``); a filter or sort member the
/// model lacks is refused here, naming it.
///
/// ```swift
/// let articles = try JSONAPIResourceDeclaration(
///   Article.self,
///   filters: ["title": .contains("title"), "author": .ids("author")],
///   sortable: ["title", "wordCount"],
///   paging: .cursor(defaultSize: 10, maxSize: 100))
/// ```
public struct JSONAPIResourceDeclaration: Sendable {
  /// The model's attributes and relationships as the store keeps them: a computed attribute
  /// (``computed(_:_:)``) is served, never stored, so it is not here (see ``servedSchema``).
  /// Build stores from this schema.
  public internal(set) var schema: JSONAPIResourceSchema
  /// The `filter[…]` parameters collections accept, by the name after `filter`.
  public let filters: [String: JSONAPIFilter]
  /// The members `sort` accepts, besides `id` (always accepted).
  public let sortable: [String]
  /// The order of a collection whose request names no `sort`. Default: by `id`.
  public let defaultSort: [JSONAPIQuery.SortField]
  /// How collections of this type are paged.
  public let paging: JSONAPIPaging
  /// Whether a create may carry the client's own `id` (R77): otherwise it is refused with `403`.
  /// The same setting as ``JSONAPIRequestRules/acceptsClientGeneratedIDs``, which the server
  /// reads bodies with (``requestRules``).
  public let acceptsClientGeneratedIDs: Bool
  /// Hooks that authorize, refuse or change operations.
  public let hooks: JSONAPIResourceHooks
  /// What the model cannot say about an attribute's values, for the OpenAPI description
  /// (``JSONAPIServer/openAPIDocument(title:version:)``): a string's format, an enumeration's
  /// cases. Each replaces the schema read from the model.
  public let attributeSchemas: [String: JSONAPIOpenAPIDocument.Schema]
  /// Who may see and change rows of the type; set with ``secured(by:)``. Default: everyone.
  public internal(set) var policy = JSONAPIResourcePolicy()
  /// What each member allows beyond the model: computed, create-only, server-set, served to
  /// some requesters only. Set with the modifiers of `JSONAPIResourceDeclaration+Fields.swift`.
  var fieldRules = ServedFieldRules()
  /// What deleting a related resource does, and how much linkage a to-many relationship serves;
  /// set with ``onDelete(_:_:)`` and ``linkageLimit(_:_:)``.
  public internal(set) var relationshipRules = JSONAPIRelationshipRules()
  /// Decodes a record (with its related resources) as the model and runs the model's checks;
  /// `nil` for a declaration without a model. Called through `checkModel`, which first adds
  /// the computed attributes.
  let decodeModel:
    (@Sendable (JSONAPIResourceRecord, [JSONAPIResourceRecord], JSONAPIDecoder) throws -> Void)?

  /// The resource type, such as `articles`.
  public var type: String { schema.type }

  /// Declares `model` as a resource type.
  ///
  /// - Parameters:
  ///   - model: The resource's model; its `jsonAPIType` is the type served.
  ///   - keyEncodingStrategy: How Swift property names become member names; use the server's
  ///     encoder's strategy. Default: the names as they are.
  ///   - filters: The `filter[…]` parameters collections accept.
  ///   - sortable: Members `sort` accepts besides `id`.
  ///   - defaultSort: The order when a request names none. Default: by `id`.
  ///   - paging: How collections are paged. Default: page numbers, 20 per page, 100 at most.
  ///   - acceptsClientGeneratedIDs: Whether creates may carry the client's own `id`. Default:
  ///     `false`.
  ///   - inverses: To-many relationships that mirror a to-one relationship of their target, by
  ///     name: `["comments": "article"]` reads an article's comments as the comments whose
  ///     `article` is that article, and writes them there (see
  ///     ``JSONAPIResourceSchema/Relationship/inverse``).
  ///   - hooks: Hooks that authorize, refuse or change operations.
  ///   - attributeSchemas: Schemas for the OpenAPI description of attributes the model cannot
  ///     describe, by attribute name (such as `["email": .init(type: ["string"], format:
  ///     "email")]`).
  ///   - validate: Checks a resource about to be stored, decoded as `Model` from what will be
  ///     stored, its related resources whole (theirs in turn as identifiers only); throw a
  ///     `JSONAPIErrorObject` (or any error, answered as `422`) to refuse it. Without it, the
  ///     resource is still decoded as `Model` once per create and update with the server's
  ///     decoder, so that a value the model cannot read (`"due": "tomorrow"` for a `Date`) is
  ///     `422` at its pointer and never stored.
  /// - Throws: ``JSONAPIDeclarationError`` when a filter or sort member is
  ///   not a member of the model, or when the model cannot be read
  ///   (``JSONAPIResourceSchema/init(reading:keyEncodingStrategy:)``).
  public init<Model: Codable & JSONAPIResource & Sendable>(
    _ model: Model.Type, keyEncodingStrategy: JSONAPIEncoder.KeyEncodingStrategy = .useDefaultKeys,
    filters: [String: JSONAPIFilter] = [:], sortable: [String] = [],
    defaultSort: [JSONAPIQuery.SortField] = [],
    paging: JSONAPIPaging = .pageNumber(
      defaultSize: 20, maxSize: 100),
    acceptsClientGeneratedIDs: Bool = false, inverses: [String: String] = [:],
    hooks: JSONAPIResourceHooks = JSONAPIResourceHooks(),
    attributeSchemas: [String: JSONAPIOpenAPIDocument.Schema] = [:],
    validate: (@Sendable (Model) throws -> Void)? = nil
  ) throws {
    let (read, types) = try JSONAPIResourceSchema.read(
      model, keyEncodingStrategy: keyEncodingStrategy)
    var schema = read
    try Self.apply(inverses, to: &schema)
    // Every write is decoded as the model, validation or not: a value of the right JSON type
    // that the model's type cannot read (a date in another format) is refused, never stored.
    let decodeModel:
      @Sendable (JSONAPIResourceRecord, [JSONAPIResourceRecord], JSONAPIDecoder) throws -> Void
    if let validate {
      decodeModel = { record, related, decoder in
        try validate(
          decoder.decode(Model.self, from: ServedDocument.data(of: record, included: related)))
      }
    } else {
      // Without a validation only the resource's own values are at stake: each attribute is
      // decoded as the Swift type the model reads it as, in one decode, so that a related model
      // that cannot decode from an identifier alone is no error of this write.
      decodeModel = { record, _, decoder in
        try ServedAttributeCheck.check(record, types: types, decoder: decoder)
      }
    }
    try self.init(
      schema: schema, filters: filters, sortable: sortable, defaultSort: defaultSort,
      paging: paging, acceptsClientGeneratedIDs: acceptsClientGeneratedIDs, hooks: hooks,
      attributeSchemas: attributeSchemas, decodeModel: decodeModel)
  }

  /// Declares a resource type from its schema, for types without a Swift model.
  ///
  /// - Throws: ``JSONAPIDeclarationError`` when a filter or sort member is
  ///   not in `schema`.
  public init(
    schema: JSONAPIResourceSchema, filters: [String: JSONAPIFilter] = [:],
    sortable: [String] = [], defaultSort: [JSONAPIQuery.SortField] = [],
    paging: JSONAPIPaging = .pageNumber(defaultSize: 20, maxSize: 100),
    acceptsClientGeneratedIDs: Bool = false, inverses: [String: String] = [:],
    hooks: JSONAPIResourceHooks = JSONAPIResourceHooks(),
    attributeSchemas: [String: JSONAPIOpenAPIDocument.Schema] = [:]
  ) throws {
    var schema = schema
    try Self.apply(inverses, to: &schema)
    try self.init(
      schema: schema, filters: filters, sortable: sortable, defaultSort: defaultSort,
      paging: paging, acceptsClientGeneratedIDs: acceptsClientGeneratedIDs, hooks: hooks,
      attributeSchemas: attributeSchemas, decodeModel: nil)
  }

  /// Marks each relationship named in `inverses` as the mirror of its target's to-one member.
  static func apply(_ inverses: [String: String], to schema: inout JSONAPIResourceSchema)
    throws
  {
    for (name, member) in inverses.sorted(by: { $0.key < $1.key }) {
      guard let index = schema.relationships.firstIndex(where: { $0.name == name }),
        schema.relationships[index].isToMany, schema.relationships[index].targetType != nil
      else {
        throw JSONAPIDeclarationError(
          reason: "The declaration of \(schema.type) names `\(name)` as an inverse, which is not "
            + "a to-many relationship of the model to a JSONAPIResource type")
      }
      schema.relationships[index].inverse = member
    }
  }

  init(
    schema: JSONAPIResourceSchema, filters: [String: JSONAPIFilter], sortable: [String],
    defaultSort: [JSONAPIQuery.SortField], paging: JSONAPIPaging, acceptsClientGeneratedIDs: Bool,
    hooks: JSONAPIResourceHooks, attributeSchemas: [String: JSONAPIOpenAPIDocument.Schema],
    decodeModel:
      (@Sendable (JSONAPIResourceRecord, [JSONAPIResourceRecord], JSONAPIDecoder) throws -> Void)?
  ) throws {
    func refuse(_ what: String) -> JSONAPIDeclarationError {
      JSONAPIDeclarationError(
        reason: "The declaration of \(schema.type) names \(what), which the model has not: "
          + "declare only members of the model (attributes: "
          + "\(schema.attributes.map(\.name).joined(separator: ", ")); relationships: "
          + "\(schema.relationships.map(\.name).joined(separator: ", ")))")
    }
    for (name, filter) in filters.sorted(by: { $0.key < $1.key }) {
      if filter.member == "id" { continue }
      if filter.comparison == .equals, filter.acceptsList,
        schema.relationship(named: filter.member) != nil
      {
        continue
      }
      guard let attribute = schema.attribute(named: filter.member) else {
        throw refuse("the filter `\(name)` on the member `\(filter.member)`")
      }
      _ = attribute
    }
    for member in sortable + defaultSort.map(\.field)
    where member != "id" && schema.attribute(named: member) == nil {
      throw refuse("the sort field `\(member)`")
    }
    self.schema = schema
    self.filters = filters
    self.sortable = sortable
    self.defaultSort = defaultSort
    self.paging = paging
    self.acceptsClientGeneratedIDs = acceptsClientGeneratedIDs
    for name in attributeSchemas.keys.sorted() where schema.attribute(named: name) == nil {
      throw refuse("a schema for the attribute `\(name)`")
    }
    self.hooks = hooks
    self.attributeSchemas = attributeSchemas
    self.decodeModel = decodeModel
  }
}

/// Hooks of a declared resource: each runs before the store is asked, and refuses the operation
/// by throwing (a `JSONAPIErrorObject` is answered as it is; any other error as `403`).
///
/// ```swift
/// var hooks = JSONAPIResourceHooks()
/// hooks.authorize = { access in
///   guard access.action.isRead || access.request.context as? User != nil else {
///     throw JSONAPIErrorObject(status: "401", title: "Sign in to write")
///   }
/// }
/// hooks.willSave = { record, _ in
///   if record.attributes["body"]?.stringValue?.isEmpty == true {
///     throw JSONAPIErrorObject(
///       status: "422", title: "Invalid Attribute", detail: "body must not be blank",
///       source: .init(pointer: "/data/attributes/body"))
///   }
/// }
/// ```
public struct JSONAPIResourceHooks: Sendable {
  /// Called before every operation on the type, reads included.
  public var authorize: (@Sendable (JSONAPIAccess) async throws -> Void)?
  /// Called inside the write transaction with the whole resource about to be stored by a create
  /// or an update (for an update: as stored, with the request's changes applied); may change it.
  /// A computed attribute it sets (``JSONAPIResourceDeclaration/computed(_:_:)``) is not stored:
  /// computed attributes are made each time they are served.
  public var willSave: (@Sendable (inout JSONAPIResourceRecord, JSONAPIAccess) throws -> Void)?
  /// Called inside the write transaction before a resource is deleted.
  public var willDelete: (@Sendable (JSONAPIResourceRecord, JSONAPIAccess) throws -> Void)?

  /// Creates hooks; each is optional.
  public init(
    authorize: (@Sendable (JSONAPIAccess) async throws -> Void)? = nil,
    willSave: (@Sendable (inout JSONAPIResourceRecord, JSONAPIAccess) throws -> Void)? = nil,
    willDelete: (@Sendable (JSONAPIResourceRecord, JSONAPIAccess) throws -> Void)? = nil
  ) {
    self.authorize = authorize
    self.willSave = willSave
    self.willDelete = willDelete
  }
}

/// What a request does to a resource type, as hooks see it.
public struct JSONAPIAccess: Sendable {
  /// The operation.
  public enum Action: Sendable, Hashable {
    /// `GET` of a collection (or of a related collection).
    case list
    /// `GET` of one resource, its related resources or its linkage.
    case read
    /// A create.
    case create
    /// An update of attributes or relationships, by `PATCH` or a relationship endpoint.
    case update
    /// A delete.
    case delete

    /// Whether the action only reads.
    public var isRead: Bool { self == .list || self == .read }
  }

  /// The operation.
  public var action: Action
  /// The resource type.
  public var type: String
  /// The resource's id, for operations on one resource (`nil` for a list or before a create).
  public var id: String?
  /// The relationship, for relationship endpoints.
  public var relationship: String?
  /// The request, with the ``JSONAPIServerRequest/context`` the framework glue set.
  public var request: JSONAPIServerRequest

  /// Creates an access.
  public init(
    action: Action, type: String, id: String? = nil, relationship: String? = nil,
    request: JSONAPIServerRequest
  ) {
    self.action = action
    self.type = type
    self.id = id
    self.relationship = relationship
    self.request = request
  }
}
