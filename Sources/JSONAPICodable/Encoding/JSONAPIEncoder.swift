import Foundation

/// Encodes plain `Encodable` models as JSON:API documents: the `JSONEncoder` of JSON:API.
///
/// ```swift
/// struct Article: Encodable {
///   var id: String?            // left out when nil (create requests)
///   var type = "articles"
///   var title: String          // → attributes
///   var author: Person         // has id and type → relationships, and the person → included
/// }
/// let body = try JSONAPIEncoder().encode(article)
/// ```
///
/// ## How values are classified
/// - `type` is required on every primary resource; `id` of any type (`Int`, `UUID`, …) is written as a
///   string and left out when `nil`; `lid`, `meta` and `links` (objects) are the resource's own members.
/// - A property whose value has `type` and `id` (or `type` and `lid`) is a to-one relationship; an
///   array whose elements all do is to-many. Anything else, and any ``JSONAPIAttributeExpressible``
///   value or `[String: …]` dictionary, is an attribute.
/// - A `nil` optional is left out (in a PATCH: unchanged). ``JSONAPIRelationship`` says
///   `"data": null` or `"data": []` explicitly and carries relationship `meta`/`links`. An empty
///   array is `"data": []` when its element type is ``JSONAPIRelationshipExpressible`` or
///   ``JSONAPIResource``, or when the same member of the same model type is a to-many
///   relationship in another resource of the document; else the attribute `[]`. An explicitly
///   encoded `nil` of such a type is `"data": null`.
/// - A nested value of a ``JSONAPIResource`` or ``JSONAPIRelationshipExpressible`` type is a
///   relationship: without `id` or `lid` it throws `EncodingError.invalidValue` rather than
///   become an attribute (``encode(graph:)`` creates such values as new resources).
/// - Empty `attributes`/`relationships` objects and an empty `included` are never written.
///
/// ## Included resources
/// A related resource that carries more than its identifier goes once into `included`, found
/// breadth first and kept in first-seen order; one that carries only its identifier (and `meta`)
/// is linkage alone, its `meta` riding on the identifier. When the same `type`+`id` is encoded
/// twice with different fields, the copies are merged field by field and the first-encoded value
/// wins each conflict; a copy of a primary resource is dropped (the primary wins). Two primary
/// resources with one identity throw. ``includesRelatedResources`` `= false` leaves `included` out;
/// ``sparseFieldsets`` removes fields from primary and included resources alike, and the related
/// resources behind a removed relationship are not collected. A server answering a request's
/// `include` uses ``encode(_:including:)`` or ``encode(_:for:)``: then `included` holds exactly the
/// resources on the requested paths.
///
/// ## Keys
/// Key strategies convert attribute and relationship names and the keys of nested structs; they
/// never touch `id`, `type`, `lid`, `meta`, `links`, the library's own JSON:API types
/// (links, error objects, ``JSONAPIValue``) or dictionary keys. Dictionaries are written with their
/// keys sorted, so output is deterministic; other objects keep the order in which they were encoded.
///
/// One encoder may be shared by any number of tasks at once; its settings are read once per call.
/// What a call learns about your types is kept for later calls of any encoder, so an encoder made
/// for each call costs little more than one kept.
public final class JSONAPIEncoder: @unchecked Sendable {
  // Settings live behind a lock so that the class can be shared across tasks, as JSONEncoder can.
  private let lock = NSLock()
  private var options = EncodingOptions()

  /// Creates an encoder with default settings.
  public init() {}

  /// Layout of the output. Default: compact, members in the order the model encodes them.
  public var outputFormatting: OutputFormatting {
    get { lock.withLock { options.outputFormatting } }
    set { lock.withLock { options.outputFormatting = newValue } }
  }
  /// How coding keys become member names. Default: `.useDefaultKeys`.
  public var keyEncodingStrategy: KeyEncodingStrategy {
    get { lock.withLock { options.keyEncodingStrategy } }
    set { lock.withLock { options.keyEncodingStrategy = newValue } }
  }
  /// How dates are written. Default: `.deferredToDate`.
  public var dateEncodingStrategy: DateEncodingStrategy {
    get { lock.withLock { options.dateEncodingStrategy } }
    set { lock.withLock { options.dateEncodingStrategy = newValue } }
  }
  /// How binary data is written. Default: `.base64`.
  public var dataEncodingStrategy: DataEncodingStrategy {
    get { lock.withLock { options.dataEncodingStrategy } }
    set { lock.withLock { options.dataEncodingStrategy = newValue } }
  }
  /// How infinity and NaN are written. Default: `.throw`.
  public var nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy {
    get { lock.withLock { options.nonConformingFloatEncodingStrategy } }
    set { lock.withLock { options.nonConformingFloatEncodingStrategy = newValue } }
  }
  /// Values your `encode(to:)` implementations can read from `encoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable] {
    get { lock.withLock { options.userInfo } }
    set { lock.withLock { options.userInfo = newValue } }
  }
  /// Whether related resources that carry more than their identifier are written to `included`.
  /// Default `true`; set `false` for request bodies, which servers expect without `included`, and
  /// for servers that include nothing unless asked. ``encode(_:including:)`` and a query with
  /// `include` in ``encode(_:for:)`` include their paths whatever this says.
  public var includesRelatedResources: Bool {
    get { lock.withLock { options.includesRelatedResources } }
    set { lock.withLock { options.includesRelatedResources = newValue } }
  }
  /// Sparse fieldsets: for a resource type, the only fields (attributes and relationships) to write.
  /// Types not named keep all their fields. Mirrors the `fields[TYPE]` query parameter.
  public var sparseFieldsets: [String: Set<String>] {
    get { lock.withLock { options.sparseFieldsets } }
    set { lock.withLock { options.sparseFieldsets = newValue } }
  }
  /// Bounds on nesting. See ``Limits``.
  public var limits: Limits {
    get { lock.withLock { options.limits } }
    set { lock.withLock { options.limits = newValue } }
  }

  /// Runs one call: the settings, read under the lock once, and what earlier calls of any encoder
  /// learnt of types; what this call learnt is kept for later calls (also when it throws: traits
  /// are facts about types).
  func withCall<Result>(_ body: (EncodingCall) throws -> Result) throws -> Result {
    let learnt = EncodingTypeTraitsCache.learnt
    let call = EncodingCall(options: lock.withLock { options }, traits: learnt.cacheForCall())
    defer { learnt.keep(call.traits) }
    return try body(call)
  }

  /// Encodes a value as a JSON:API document.
  ///
  /// A resource-shaped value becomes a single-resource document, an array of them a collection,
  /// `nil` becomes `{"data":null}`, and a ``JSONAPIDocument`` keeps its `meta`, `links` and `jsonapi`.
  ///
  /// Every value's `encode(to:)` runs exactly once per call, in the order `Codable` reaches it,
  /// whatever the copies of a shared resource hold: `included` is collected from what was encoded,
  /// so a model with side effects or a cost in `encode(to:)` never runs it twice. Copies of one
  /// resource that differ are merged from their encoded form (first met breadth first wins, as
  /// ``JSONAPIEncoder`` describes under Included resources), never encoded again.
  ///
  /// ```swift
  /// // 100 articles by one author: 100 article and 100 author encode(to:) calls, one person in
  /// // `included`.
  /// let body = try JSONAPIEncoder().encode(articles)
  /// ```
  ///
  /// - Throws: ``JSONAPIError/missingResourceType(swiftType:codingPath:)`` when a primary resource has
  ///   no `type`; ``JSONAPIError/encodingNestingTooDeep(limit:codingPath:)`` past
  ///   ``Limits/maxNestingDepth``; ``JSONAPIError/invalidValue(reason:codingPath:)`` for other
  ///   values JSON:API cannot express (an `id` that is an object, a primary resource given twice,
  ///   a `meta` that is not an object); `EncodingError` for values JSON cannot express (NaN under
  ///   `.throw`) and for a nested ``JSONAPIResource`` or ``JSONAPIRelationshipExpressible`` value
  ///   without `id` or `lid`; and whatever your `encode(to:)` implementations throw. When several elements of
  ///   a collection fail, the first in document order is reported, and nothing after it is
  ///   encoded.
  public func encode<T: Encodable>(_ value: T) throws -> Data {
    try withCall { try encode(value, call: $0) }
  }

  /// Encodes `value` as a request body (a create, an update, a relationship endpoint's linkage):
  /// related resources go as their identifiers and nothing goes to `included`, whatever
  /// ``includesRelatedResources`` says, so a request never carries the fields of related models.
  /// Every other setting applies as in ``encode(_:)``. `JSONAPIClient` sends its bodies this way.
  ///
  /// ```swift
  /// // {"data":{"type":"articles","attributes":{"title":"Hi"},
  /// //  "relationships":{"author":{"data":{"type":"people","id":"9"}}}}}
  /// let body = try JSONAPIEncoder().encodeRequestBody(NewArticle(title: "Hi", author: dan))
  /// ```
  ///
  /// - Throws: As ``encode(_:)``.
  public func encodeRequestBody<T: Encodable>(_ value: T) throws -> Data {
    try withCall { call in
      try encode(value, call: call.adjusted { $0.includesRelatedResources = false })
    }
  }

  /// Encodes `value` with this call's `options`: the one pipeline of every document.
  /// `value` is encoded once: its tree is built (the primary resources of a collection taken apart
  /// and written as they stream) and `included` is then collected from it, breadth first.
  func encode<T: Encodable>(_ value: T, call: EncodingCall) throws -> Data {
    let stream = PrimaryDataStream(options: call.options, swiftType: T.self)
    let tree = try call.root(for: T.self, stream: stream).wrap(value, key: nil)
    return try stream.finish(tree)
  }

  /// Encodes an error document (`{"errors": [...]}`), as a server answers a failed request.
  ///
  /// - Throws: ``JSONAPIError/invalidValue(reason:codingPath:)`` for an error object without any
  ///   member (JSON:API 1.1 requires one) or a `meta` that is not an object.
  ///
  /// ```swift
  /// let body = try JSONAPIEncoder().encode(errors: [JSONAPIErrorObject(status: "404", title: "Not Found")])
  /// ```
  public func encode(
    errors: [JSONAPIErrorObject], meta: JSONAPIValue? = nil, jsonapi: JSONAPIObject? = nil,
    links: JSONAPILinks? = nil
  ) throws -> Data {
    // The same pipeline as any document, so the top-level members come in the same order.
    try encode(EncodableErrorDocument(errors: errors, meta: meta, jsonapi: jsonapi, links: links))
  }
}
