import Foundation

/// Types the decoder reads itself rather than through their own `init(from:)`: Foundation types with
/// decoding strategies, and the JSON:API value types that are faster and more faithful read straight
/// from the tape. Recognised by metatype, never by casting values.
extension DecoderImpl {
  /// Whether `decodeSpecialType` handles `type`: metatype comparisons only, so that the common case
  /// never builds an `Optional<T>` (whose metadata is looked up at run time for a generic `T`).
  @inline(__always) func isSpecialType(_ type: Any.Type) -> Bool {
    type == JSONAPIValue.self || type == Date.self || type == Data.self || type == URL.self
      || type == Decimal.self || type == UUID.self
  }

  /// Decodes a type for which ``isSpecialType(_:)`` is true. Kept out of line: in unspecialized
  /// generic code the `T?` values here would cost a metadata lookup on every `unwrap`.
  @inline(never)
  func decodeSpecialType<T>(_ type: T.Type) throws -> T {
    // Metatype comparisons and a reinterpretation of the matching value, not `value as? T`:
    // that cast needs the metadata of `T?`, a runtime lookup per value. The
    // types are the same when the metatypes are equal, so the reinterpretation is exact.
    let type: any Any.Type = T.self
    if type == Date.self { return Self.reinterpret(try dateWithHint(), as: T.self) }
    if type == UUID.self { return Self.reinterpret(try uuid(), as: T.self) }
    if type == URL.self { return Self.reinterpret(try url(), as: T.self) }
    if type == Decimal.self { return Self.reinterpret(try decimal(), as: T.self) }
    if type == Data.self { return Self.reinterpret(try data(), as: T.self) }
    if type == JSONAPIValue.self {
      return Self.reinterpret(try jsonValue(at: node.index), as: T.self)
    }
    throw typeMismatch(T.self, depth: path.count, found: node)
  }

  @inline(__always)
  private static func reinterpret<Value, T>(_ value: Value, as _: T.Type) -> T {
    unsafeBitCast(value, to: T.self)
  }

  /// Any JSON value, built straight from the tape (member names as written).
  func jsonValue(at index: Int) throws -> JSONAPIValue {
    try tape.jsonValue(at: index)
  }

  private func string() throws -> String {
    try scalar(String.self, at: node, depth: path.count)
  }

  func date() throws -> Date {
    switch options.dateDecodingStrategy {
    case .deferredToDate:
      return try Date(from: self)
    case .secondsSince1970:
      return Date(timeIntervalSince1970: try scalar(Double.self, at: node, depth: path.count))
    case .millisecondsSince1970:
      return Date(
        timeIntervalSince1970: try scalar(Double.self, at: node, depth: path.count) / 1000)
    case .iso8601:
      let entry = tape[node.index]
      if entry.kind == .string, !entry.hasFlag, node.role == .json,
        let date = Self.utcTimestamp(tape.rawBytes(entry))
      {
        return date
      }
      let text = try string()
      guard let date = try? Self.iso8601Style.parse(text) else {
        throw dataCorrupted(
          "Expected date string to be ISO8601-formatted", depth: path.count, at: node.index)
      }
      return date
    case .formatted(let formatter):
      let text = try string()
      guard let date = formatter.date(from: text) else {
        throw dataCorrupted(
          "Date string does not match format expected by formatter", depth: path.count,
          at: node.index)
      }
      return date
    case .custom(let decode):
      return try decode(self)
    }
  }

  /// Built once, since building the style costs more than reading a date; a Sendable value.
  private static let iso8601Style = Date.ISO8601FormatStyle()

  /// The common ISO 8601 form, `YYYY-MM-DDTHH:MM:SSZ` (20 bytes, UTC, no fraction), computed
  /// directly (days from the civil date, Gregorian); nil for anything else, which then takes
  /// `Date.ISO8601FormatStyle` as before. Years from 1600 only: Foundation's Gregorian calendar
  /// switches to Julian before 1582. Out-of-range fields (a 31 February, second 60) are left to
  /// Foundation too, so its answer for them is unchanged. Foundation's general parser does far
  /// more work per date than this one form needs.
  static func utcTimestamp(_ raw: UnsafeBufferPointer<UInt8>) -> Date? {
    guard raw.count == 20, raw[4] == UInt8(ascii: "-"), raw[7] == UInt8(ascii: "-"),
      raw[10] == UInt8(ascii: "T"), raw[13] == UInt8(ascii: ":"), raw[16] == UInt8(ascii: ":"),
      raw[19] == UInt8(ascii: "Z")
    else { return nil }
    func digits(_ start: Int, _ count: Int) -> Int? {
      var value = 0
      for index in start..<(start + count) {
        let digit = Int(raw[index]) &- 48
        guard digit >= 0, digit <= 9 else { return nil }
        value = value &* 10 &+ digit
      }
      return value
    }
    guard let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
      let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
      year >= 1600, (1...12).contains(month), day >= 1, hour <= 23, minute <= 59, second <= 59
    else { return nil }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    guard day <= monthDays[month - 1] else { return nil }
    // Days since 1970-01-01 (Howard Hinnant's days_from_civil). The day count fits any `Int`,
    // but seconds since 1970 leave 32 bits after 2038-01-19 and before 1901-12-13, and `Int` is
    // 32 bits on arm64_32 (Apple Watch): the seconds are counted in `Int64`.
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = shiftedYear / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = Int64(era * 146_097 + dayOfEra - 719_468)
    let seconds = days * 86_400 + Int64(hour * 3_600 + minute * 60 + second)
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  private func data() throws -> Data {
    switch options.dataDecodingStrategy {
    case .deferredToData:
      return try Data(from: self)
    case .base64:
      guard let data = Data(base64Encoded: try string()) else {
        throw dataCorrupted(
          "Encountered Data is not valid Base64", depth: path.count, at: node.index)
      }
      return data
    case .custom(let decode):
      return try decode(self)
    }
  }

  private func url() throws -> URL {
    guard let url = URL(string: try string()) else {
      throw dataCorrupted("Invalid URL string", depth: path.count, at: node.index)
    }
    return url
  }

  /// A canonical UUID string (36 characters, hex digits in either case, hyphens at 8, 13, 18 and
  /// 23) is read straight from the tape; anything else takes `UUID`'s own `init(from:)`, so its
  /// errors and whatever else `UUID(uuidString:)` accepts stay as they were. Foundation parses
  /// through `sscanf`, far more work than reading 32 hex digits, in documents full of UUIDs.
  private func uuid() throws -> UUID {
    let entry = tape[node.index]
    if entry.kind == .string, !entry.hasFlag, node.role == .json || node.role == .identityString,
      let value = Self.canonicalUUID(tape.rawBytes(entry))
    {
      return value
    }
    return try UUID(from: self)
  }

  static func canonicalUUID(_ raw: UnsafeBufferPointer<UInt8>) -> UUID? {
    guard raw.count == 36 else { return nil }
    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let parsed = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
      var input = 0
      var output = 0
      while input < 36 {
        if input == 8 || input == 13 || input == 18 || input == 23 {
          guard raw[input] == UInt8(ascii: "-") else { return false }
          input += 1
          continue
        }
        guard let byte = Hexadecimal.byte(raw[input], raw[input + 1]) else { return false }
        out[output] = byte
        output += 1
        input += 2
      }
      return true
    }
    return parsed ? UUID(uuid: bytes) : nil
  }

  private func decimal() throws -> Decimal {
    let entry = tape[node.index]
    let text: String
    switch (entry.kind, node.role) {
    case (.number, .json): text = String(decoding: tape.rawBytes(entry), as: UTF8.self)
    case (.string, .identityString): text = TapeStrings.string(tape, entry)
    case (.number, .identityString): text = try integerID(at: node)
    default: throw typeMismatch(Decimal.self, depth: path.count, found: node)
    }
    guard let value = Decimal(string: text) else {
      throw dataCorrupted(
        "Parsed JSON number <\(text)> does not fit in Decimal", depth: path.count, at: node.index)
    }
    return value
  }
}
