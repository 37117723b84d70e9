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
/// One encoder may be shared by any number of tasks at once; its settings are read once per call.
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
  /// Default `true`; set `false` for request bodies, which servers expect without `included`.
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

  /// Encodes a value as a JSON:API document.
  ///
  /// A resource-shaped value becomes a single-resource document, an array of them a collection,
  /// `nil` becomes `{"data":null}`, and a ``JSONAPIDocument`` keeps its `meta`, `links` and `jsonapi`.
  ///
  /// - Throws: ``JSONAPIError/missingResourceType(swiftType:codingPath:)`` when a primary resource has
  ///   no `type`; ``JSONAPIError`` for other values JSON:API cannot express; `EncodingError` for
  ///   values JSON cannot express (NaN under `.throw`).
  public func encode<T: Encodable>(_ value: T) throws -> Data {
    _ = lock.withLock { self.options }
    throw JSONAPIError.invalidValue(reason: "not implemented yet", codingPath: "")
  }

  /// Encodes an error document (`{"errors": [...]}`), as a server answers a failed request.
  ///
  /// ```swift
  /// let body = try JSONAPIEncoder().encode(errors: [JSONAPIErrorObject(status: "404", title: "Not Found")])
  /// ```
  public func encode(
    errors: [JSONAPIErrorObject], meta: JSONAPIValue? = nil, jsonapi: JSONAPIObject? = nil,
    links: JSONAPILinks? = nil
  ) throws -> Data {
    _ = lock.withLock { self.options }
    throw JSONAPIError.invalidValue(reason: "not implemented yet", codingPath: "")
  }
}
