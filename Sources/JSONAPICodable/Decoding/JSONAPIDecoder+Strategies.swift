import Foundation

extension JSONAPIDecoder {
  /// How member names in the document become the `CodingKey`s of your models.
  public enum KeyDecodingStrategy: Sendable {
    /// Use the member names as they are.
    case useDefaultKeys
    /// `first_name` → `firstName`, as `JSONDecoder` does it (leading and trailing underscores kept).
    case convertFromSnakeCase
    /// `first-name` → `firstName`, for dasherized APIs (Ember, JSON:API 1.0 era servers).
    case convertFromKebabCase
    /// Your own conversion; it receives the coding path with the document's key last and returns the key to use.
    case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
  }

  /// How `Date` values are read.
  public enum DateDecodingStrategy: Sendable {
    /// The date decodes itself (seconds since 2001-01-01 as a number).
    case deferredToDate
    /// Seconds since 1970-01-01 as a number.
    case secondsSince1970
    /// Milliseconds since 1970-01-01 as a number.
    case millisecondsSince1970
    /// An ISO 8601 string such as `2024-05-01T12:30:00Z`.
    case iso8601
    /// A string read by the given formatter.
    case formatted(DateFormatter)
    /// Your own function, reading from the decoder it receives.
    case custom(@Sendable (_ decoder: any Decoder) throws -> Date)
  }

  /// How `Data` values are read.
  public enum DataDecodingStrategy: Sendable {
    /// The data decodes itself (an array of bytes).
    case deferredToData
    /// A Base64 string.
    case base64
    /// Your own function, reading from the decoder it receives.
    case custom(@Sendable (_ decoder: any Decoder) throws -> Data)
  }

  /// How non-conforming floating-point values (infinity, NaN) are read; JSON has no literal for them.
  public enum NonConformingFloatDecodingStrategy: Sendable {
    /// Throw on anything but a JSON number.
    case `throw`
    /// Read these strings as positive infinity, negative infinity and NaN.
    case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
  }

  /// Bounds that keep a hostile or broken document from exhausting time, stack or memory.
  ///
  /// Each limit throws a ``JSONAPIError`` that names it when exceeded. The defaults suit every real
  /// API we know of; raise them only for documents you trust.
  public struct Limits: Sendable, Hashable {
    /// How deep arrays and objects may nest in the JSON text. Default 512, as in Foundation.
    /// Exceeding it throws ``JSONAPIError/nestingTooDeep(limit:location:)``.
    public var maxNestingDepth: Int
    /// How many relationships deep resolution may go (article → author → employer → …). Default 64.
    /// Cycles never count against it: a resource met again while it is being decoded is given as
    /// its identifier. Exceeding it throws ``JSONAPIError/relationshipDepthExceeded(limit:pointer:)``.
    public var maxRelationshipDepth: Int
    /// How many resources one `decode` call may materialise, counting every resource decoded from a
    /// relationship or the primary data, identifiers of cut cycles and of resources that are not
    /// included too. `nil` (the default) means automatic: 8 for every JSON value in the document,
    /// and at least 100,000.
    ///
    /// A resource decoded again as the same Swift type is reused and does not count, so ordinary
    /// documents need about one per resource object and linkage entry, far below the automatic
    /// budget; documents crafted to expand exponentially (graphs where every path meets a different
    /// chain of ancestors defeat reuse) stop early.
    /// Exceeding it throws ``JSONAPIError/resourceBudgetExceeded(limit:)``.
    public var maxResolvedResources: Int?
    /// How many operations an Atomic Operations request may hold, for
    /// ``JSONAPIDecoder/decodeOperations(from:)``. Default 1,000.
    ///
    /// Reading a request and decoding each operation costs time in proportion to the request, but
    /// a server runs every operation, in one transaction: this bounds the work one request can ask
    /// for. The count is checked before any operation is read. Exceeding it throws
    /// ``JSONAPIError/tooManyOperations(count:limit:)``, which
    /// ``JSONAPIErrorObject/init(describing:)`` answers with `413 Content Too Large`.
    /// Results (`[JSONAPIOperationResult]`) are not limited: a client reads as many as the
    /// operations it sent.
    ///
    /// ```swift
    /// let decoder = JSONAPIDecoder()
    /// decoder.limits.maxAtomicOperations = 5_000   // for a trusted bulk importer
    /// ```
    public var maxAtomicOperations: Int

    /// The budget used when ``maxResolvedResources`` is `nil`, for a document of `valueCount` JSON
    /// values (its keys included).
    public static func automaticResourceBudget(valueCount: Int) -> Int {
      max(100_000, valueCount > Int.max / 8 ? Int.max : valueCount * 8)
    }

    /// Creates limits; every argument has the documented default.
    public init(
      maxNestingDepth: Int = 512, maxRelationshipDepth: Int = 64,
      maxResolvedResources: Int? = nil, maxAtomicOperations: Int = 1_000
    ) {
      self.maxNestingDepth = maxNestingDepth
      self.maxRelationshipDepth = maxRelationshipDepth
      self.maxResolvedResources = maxResolvedResources
      self.maxAtomicOperations = maxAtomicOperations
    }
  }
}

/// A snapshot of a decoder's settings, taken once per `decode` call so that the call never locks.
struct DecodingOptions: @unchecked Sendable {
  // @unchecked: DateFormatter is not Sendable everywhere; like JSONDecoder we only read it.
  var keyDecodingStrategy: JSONAPIDecoder.KeyDecodingStrategy = .useDefaultKeys
  var dateDecodingStrategy: JSONAPIDecoder.DateDecodingStrategy = .deferredToDate
  var dataDecodingStrategy: JSONAPIDecoder.DataDecodingStrategy = .base64
  var nonConformingFloatDecodingStrategy: JSONAPIDecoder.NonConformingFloatDecodingStrategy = .throw
  var userInfo: [CodingUserInfoKey: any Sendable] = [:]
  var limits = JSONAPIDecoder.Limits()
  /// Reuse of resources decoded before (see `RelationshipResolver`); tests turn it off to compare.
  var memoisesResources = true
}
