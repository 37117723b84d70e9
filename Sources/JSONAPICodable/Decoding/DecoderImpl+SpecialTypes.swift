import Foundation

/// Types the decoder reads itself rather than through their own `init(from:)`: Foundation types with
/// decoding strategies, and the JSON:API value types that are faster and more faithful read straight
/// from the tape. Recognised by metatype, never by casting values.
extension DecoderImpl {
  func decodeSpecialType<T>(_ type: T.Type) throws -> T? {
    if T.self == JSONAPIValue.self { return try jsonValue(at: node.index) as? T }
    if T.self == JSONAPILinks.self { return try links() as? T }
    if T.self == Date.self { return try date() as? T }
    if T.self == Data.self { return try data() as? T }
    if T.self == URL.self { return try url() as? T }
    if T.self == Decimal.self { return try decimal() as? T }
    return nil
  }

  /// Any JSON value, built straight from the tape (member names as written).
  func jsonValue(at index: Int) throws -> JSONAPIValue {
    let entry = tape[index]
    switch entry.kind {
    case .null: return .null
    case .true: return .bool(true)
    case .false: return .bool(false)
    case .string: return .string(TapeStrings.string(tape, entry))
    case .number:
      let raw = tape.rawBytes(entry)
      if !entry.hasFlag, let wide = NumberParsing.int64(raw), let value = Int(exactly: wide) {
        return .integer(value)
      }
      return .number(NumberParsing.double(raw))
    case .array:
      var elements: [JSONAPIValue] = []
      elements.reserveCapacity(Int(entry.length))
      var element = index + 1
      while element < Int(entry.end) {
        elements.append(try jsonValue(at: element))
        element = tape.next(after: element)
      }
      return .array(elements)
    case .object:
      var members: [String: JSONAPIValue] = [:]
      members.reserveCapacity(Int(entry.length))
      try tape.forEachMember(ofObjectAt: index) { name in
        members[TapeStrings.string(tape, tape[name])] = try jsonValue(at: name + 1)
      }
      return .object(members)
    }
  }

  /// A links object: names kept as written (no key strategy), `null` links and @-members skipped.
  private func links() throws -> JSONAPILinks {
    guard tape[node.index].kind == .object else {
      throw typeMismatch(JSONAPILinks.self, depth: path.count, found: node)
    }
    var links = JSONAPILinks()
    try tape.forEachMember(ofObjectAt: node.index) { name in
      // null means "no such link" (R53); @-members carry no spec meaning (R50).
      guard tape[name + 1].kind != .null else { return }
      let key = TapeStrings.string(tape, tape[name])
      guard !key.hasPrefix("@") else { return }
      links[key] = try decode(
        JSONAPILink.self, at: DecodingNode(index: name + 1, role: .json),
        component: .key(AnyCodingKey(key)))
    }
    return links
  }

  private func string() throws -> String {
    try scalar(String.self, at: node, depth: path.count)
  }

  private func date() throws -> Date {
    switch options.dateDecodingStrategy {
    case .deferredToDate:
      return try Date(from: self)
    case .secondsSince1970:
      return Date(timeIntervalSince1970: try scalar(Double.self, at: node, depth: path.count))
    case .millisecondsSince1970:
      return Date(
        timeIntervalSince1970: try scalar(Double.self, at: node, depth: path.count) / 1000)
    case .iso8601:
      let text = try string()
      guard let date = try? Date.ISO8601FormatStyle().parse(text) else {
        throw dataCorrupted(
          "Expected date string to be ISO8601-formatted.", depth: path.count, at: node.index)
      }
      return date
    case .formatted(let formatter):
      let text = try string()
      guard let date = formatter.date(from: text) else {
        throw dataCorrupted(
          "Date string does not match format expected by formatter.", depth: path.count,
          at: node.index)
      }
      return date
    case .custom(let decode):
      return try decode(self)
    }
  }

  private func data() throws -> Data {
    switch options.dataDecodingStrategy {
    case .deferredToData:
      return try Data(from: self)
    case .base64:
      guard let data = Data(base64Encoded: try string()) else {
        throw dataCorrupted(
          "Encountered Data is not valid Base64.", depth: path.count, at: node.index)
      }
      return data
    case .custom(let decode):
      return try decode(self)
    }
  }

  private func url() throws -> URL {
    guard let url = URL(string: try string()) else {
      throw dataCorrupted("Invalid URL string.", depth: path.count, at: node.index)
    }
    return url
  }

  private func decimal() throws -> Decimal {
    let entry = tape[node.index]
    let text: String
    switch (entry.kind, node.role) {
    case (.number, .json): text = String(decoding: tape.rawBytes(entry), as: UTF8.self)
    case (.string, .identityString): text = TapeStrings.string(tape, entry)
    default: throw typeMismatch(Decimal.self, depth: path.count, found: node)
    }
    guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
      throw dataCorrupted(
        "Parsed JSON number <\(text)> does not fit in Decimal.", depth: path.count, at: node.index)
    }
    return value
  }
}
