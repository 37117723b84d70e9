import Foundation

extension JSONAPIEncoder {
  /// How the JSON text is laid out.
  public struct OutputFormatting: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt
    /// Creates formatting from raw bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Indented, one member per line.
    public static let prettyPrinted = OutputFormatting(rawValue: 1 << 0)
    /// Members of every object in lexicographic order of their names.
    public static let sortedKeys = OutputFormatting(rawValue: 1 << 1)
    /// `/` written as is rather than as `\/`.
    public static let withoutEscapingSlashes = OutputFormatting(rawValue: 1 << 2)
  }

  /// How your models' coding keys become member names.
  public enum KeyEncodingStrategy: Sendable {
    /// Use the keys as they are.
    case useDefaultKeys
    /// `firstName` → `first_name`, as `JSONEncoder` does it.
    case convertToSnakeCase
    /// `firstName` → `first-name`, for dasherized APIs.
    case convertToKebabCase
    /// Your own conversion; it receives the coding path with the key to convert last.
    case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
  }

  /// How `Date` values are written.
  public enum DateEncodingStrategy: Sendable {
    /// The date encodes itself (seconds since 2001-01-01 as a number).
    case deferredToDate
    /// Seconds since 1970-01-01 as a number.
    case secondsSince1970
    /// Milliseconds since 1970-01-01 as a number.
    case millisecondsSince1970
    /// An ISO 8601 string such as `2024-05-01T12:30:00Z`.
    case iso8601
    /// A string made by the given formatter.
    case formatted(DateFormatter)
    /// Your own function, writing into the encoder it receives.
    case custom(@Sendable (_ date: Date, _ encoder: any Encoder) throws -> Void)
  }

  /// How `Data` values are written.
  public enum DataEncodingStrategy: Sendable {
    /// The data encodes itself (an array of bytes).
    case deferredToData
    /// A Base64 string.
    case base64
    /// Your own function, writing into the encoder it receives.
    case custom(@Sendable (_ data: Data, _ encoder: any Encoder) throws -> Void)
  }

  /// How infinity and NaN are written; JSON has no literal for them.
  public enum NonConformingFloatEncodingStrategy: Sendable {
    /// Throw `EncodingError.invalidValue`.
    case `throw`
    /// Write these strings for positive infinity, negative infinity and NaN.
    case convertToString(positiveInfinity: String, negativeInfinity: String, nan: String)
  }

  /// Bounds that keep encoding from overflowing the stack.
  public struct Limits: Sendable, Hashable {
    /// How deep values may nest. Default 512. Exceeding it throws
    /// ``JSONAPIError/encodingNestingTooDeep(limit:codingPath:)``.
    public var maxNestingDepth: Int

    /// Creates limits; every argument has the documented default.
    public init(maxNestingDepth: Int = 512) {
      self.maxNestingDepth = maxNestingDepth
    }
  }
}
