import Foundation

/// Decodes plain `Decodable` models from JSON:API documents: the `JSONDecoder` of JSON:API.
///
/// Write your models as if the API returned plain JSON, then swap the decoder:
///
/// ```swift
/// struct Person: Decodable { var id: String; var name: String }
/// struct Article: Decodable {
///   var id: String
///   var title: String          // from "attributes"
///   var author: Person?        // from "relationships", resolved against "included"
/// }
/// let articles = try JSONAPIDecoder().decode([Article].self, from: data)
/// ```
///
/// In a resource, `id`, `type`, `lid`, `meta` and `links` read the resource's own members; every other
/// key is looked up in `relationships` (resolved by `type` and `id` against `included` and the primary
/// data), then in `attributes`. Decode ``JSONAPIDocument`` to read top-level `meta` and `links`.
///
/// One decoder may be shared by any number of tasks at once; its settings are read once per call.
/// Reuse it for repeated calls: what a call learns about your types is kept for the next.
public final class JSONAPIDecoder: @unchecked Sendable {
  // Settings live behind a lock so that the class can be shared across tasks, as JSONDecoder can.
  private let lock = NSLock()
  private var options = DecodingOptions()
  /// What earlier calls learnt about the types they met (see ``DecodingTypeMemos``).
  private var memos = DecodingTypeMemos()

  /// Creates a decoder with default settings.
  public init() {}

  /// How member names become coding keys. Default: `.useDefaultKeys`.
  public var keyDecodingStrategy: KeyDecodingStrategy {
    get { lock.withLock { options.keyDecodingStrategy } }
    set { lock.withLock { options.keyDecodingStrategy = newValue } }
  }
  /// How dates are read. Default: `.deferredToDate`.
  public var dateDecodingStrategy: DateDecodingStrategy {
    get { lock.withLock { options.dateDecodingStrategy } }
    set { lock.withLock { options.dateDecodingStrategy = newValue } }
  }
  /// How binary data is read. Default: `.base64`.
  public var dataDecodingStrategy: DataDecodingStrategy {
    get { lock.withLock { options.dataDecodingStrategy } }
    set { lock.withLock { options.dataDecodingStrategy = newValue } }
  }
  /// How infinity and NaN are read. Default: `.throw`.
  public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy {
    get { lock.withLock { options.nonConformingFloatDecodingStrategy } }
    set { lock.withLock { options.nonConformingFloatDecodingStrategy = newValue } }
  }
  /// Values your `init(from:)` implementations can read from `decoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable] {
    get { lock.withLock { options.userInfo } }
    set { lock.withLock { options.userInfo = newValue } }
  }
  /// Bounds on nesting, relationship depth and resources per call. See ``Limits``.
  public var limits: Limits {
    get { lock.withLock { options.limits } }
    set { lock.withLock { options.limits = newValue } }
  }

  /// Decodes a value from a JSON:API document.
  ///
  /// `T` is the primary data (`Article`, `[Article]`, `Article?`) or a whole ``JSONAPIDocument``.
  ///
  /// - Throws: ``JSONAPIError/errorDocument(_:)`` when the document has `errors`; another
  ///   ``JSONAPIError`` when the input is not JSON or not a JSON:API document, or a limit is reached;
  ///   `DecodingError` when the document does not fit `T`.
  public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    try decode(type) { body in try data.withUnsafeBytes(body) }
  }

  /// Decodes a value from the UTF-8 bytes of a JSON:API document. See ``decode(_:from:)-(_,Data)``.
  public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
    try decode(type) { body in try bytes.withUnsafeBytes(body) }
  }

  /// Decodes a value from the text of a JSON:API document. See ``decode(_:from:)-(_,Data)``.
  public func decode<T: Decodable>(_ type: T.Type, from string: String) throws -> T {
    var string = string
    return try decode(type) { body in try string.withUTF8 { try body(UnsafeRawBufferPointer($0)) } }
  }

  /// Decodes every resource of `resourceType` in the document's `included` member as `T`, in
  /// document order, whether or not the primary data reaches it: for apps that keep a local store.
  /// Relationships inside them resolve as everywhere else.
  ///
  /// ```swift
  /// let people = try decoder.decodeIncluded(Person.self, ofType: "people", from: data)
  /// ```
  ///
  /// - Throws: as ``decode(_:from:)-(_,Data)``.
  public func decodeIncluded<T: Decodable>(
    _ type: T.Type, ofType resourceType: String, from data: Data
  ) throws -> [T] {
    try withCallState { options, memos in
      try data.withUnsafeBytes {
        try DocumentDecoding.decodeIncluded(
          type, ofType: resourceType, from: $0, options: options, memos: &memos)
      }
    }
  }

  /// Decodes every included resource of `T`'s ``JSONAPIResource/jsonAPIType`` as `T`. See
  /// ``decodeIncluded(_:ofType:from:)``.
  public func decodeIncluded<T: Decodable & JSONAPIResource>(_ type: T.Type, from data: Data) throws
    -> [T]
  {
    try decodeIncluded(type, ofType: T.jsonAPIType, from: data)
  }

  /// Decodes the error objects of an error document as your own type, for servers whose error
  /// objects carry members of their own; `[]` when the document has no `errors`.
  ///
  /// ```swift
  /// struct APIError: Decodable { var status: String; var traceId: String? }
  /// let errors = try JSONAPIDecoder().decodeErrors(APIError.self, from: data)
  /// ```
  ///
  /// - Throws: ``JSONAPIError`` when the input is not a JSON:API document; `DecodingError` when an
  ///   error object does not fit `T`.
  public func decodeErrors<T: Decodable>(_ type: T.Type, from data: Data) throws -> [T] {
    try withCallState { options, memos in
      try data.withUnsafeBytes {
        try DocumentDecoding.decodeErrors(type, from: $0, options: options, memos: &memos)
      }
    }
  }

  /// The one body of every overload: `withBytes` lends the input's bytes for the length of the call.
  private func decode<T: Decodable>(
    _ type: T.Type,
    withBytes: ((UnsafeRawBufferPointer) throws -> T) throws -> T
  ) throws -> T {
    try withCallState { options, memos in
      try withBytes { bytes in
        try DocumentDecoding.decode(type, from: bytes, options: options, memos: &memos)
      }
    }
  }

  /// How many types the decoder remembers from earlier calls (for tests).
  var rememberedTypeCount: Int { lock.withLock { memos.count } }

  /// Runs one call on copies of the settings and type memos (read under the lock once; no lock
  /// while decoding), and keeps the memos afterwards if the call learnt something, also when it
  /// threw. Of two calls that learnt at once, the one that knows more types is kept.
  private func withCallState<R>(
    _ body: (DecodingOptions, inout DecodingTypeMemos) throws -> R
  ) rethrows -> R {
    let options: DecodingOptions
    var memos: DecodingTypeMemos
    (options, memos) = lock.withLock { (self.options, self.memos) }
    let known = memos.count
    defer {
      if memos.count > known {
        let learnt = memos
        lock.withLock { if learnt.count > self.memos.count { self.memos = learnt } }
      }
    }
    return try body(options, &memos)
  }
}
