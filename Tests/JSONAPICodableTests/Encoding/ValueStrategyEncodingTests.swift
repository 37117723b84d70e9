import Foundation
import Testing

@testable import JSONAPICodable

@Suite("Date, data and float strategies")
struct ValueStrategyEncodingTests {
  struct Event<Value: Encodable>: Encodable {
    var id = "1"
    var type = "events"
    var value: Value
  }

  /// The `value` attribute as written by `encoder`.
  func attribute<Value: Encodable>(_ value: Value, _ configure: (JSONAPIEncoder) -> Void) throws
    -> JSONAPIValue?
  {
    let encoder = JSONAPIEncoder()
    configure(encoder)
    let document = try encodeDocument(
      Event(value: value), name: "strategy-\(Value.self)", with: encoder)
    return document["data"]?["attributes"]?["value"]
  }

  static let date = Date(timeIntervalSince1970: 1_714_566_600.5)

  @Test("date strategies match JSONEncoder's")
  func dates() throws {
    // What JSONEncoder writes, spelled out: `deferredToDate` is seconds since 2001-01-01
    // (1 714 566 600.5 − 978 307 200), milliseconds are a whole number.
    #expect(try attribute(Self.date) { _ in } == .number(736_259_400.5))
    #expect(
      try attribute(Self.date) { $0.dateEncodingStrategy = .secondsSince1970 }
        == .number(1_714_566_600.5))
    #expect(
      try attribute(Self.date) { $0.dateEncodingStrategy = .millisecondsSince1970 }
        == .number(1_714_566_600_500))
    #expect(
      try attribute(Self.date) { $0.dateEncodingStrategy = .iso8601 } == "2024-05-01T12:30:00Z")
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy/MM/dd"
    #expect(
      try attribute(Self.date) { $0.dateEncodingStrategy = .formatted(formatter) } == "2024/05/01")
    #expect(
      try attribute(Self.date) {
        $0.dateEncodingStrategy = .custom { date, encoder in
          var container = encoder.singleValueContainer()
          try container.encode(Int(date.timeIntervalSince1970))
        }
      } == 1_714_566_600)
  }

  @Test("data strategies match JSONEncoder's")
  func data() throws {
    let bytes = Data([0, 1, 2, 250])
    #expect(try attribute(bytes) { _ in } == "AAEC+g==")
    #expect(
      try attribute(bytes) { $0.dataEncodingStrategy = .deferredToData }
        == [0, 1, 2, 250])
    #expect(
      try attribute(bytes) {
        $0.dataEncodingStrategy = .custom { data, encoder in
          var container = encoder.singleValueContainer()
          try container.encode(data.count)
        }
      } == 4)
  }

  @Test("non-finite floats throw by default and become the given strings on request")
  func nonConformingFloats() throws {
    #expect(throws: EncodingError.self) { try attribute(Double.nan) { _ in } }
    #expect(throws: EncodingError.self) { try attribute(Float.infinity) { _ in } }
    let strings: (JSONAPIEncoder) -> Void = {
      $0.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    }
    #expect(try attribute(Double.nan, strings) == "nan")
    #expect(try attribute(-Double.infinity, strings) == "-inf")
    #expect(try attribute([Float.infinity], strings) == ["+inf"])
  }

  @Test("the error for a non-finite float names the key or index it was encoded at")
  func nonConformingFloatErrorPath() throws {
    let paths =
      [Double.nan, -Double.infinity].map { value in
        Result { try attribute(value) { _ in } }
      } + [Result { try attribute([1, Float.infinity]) { _ in } }]
    let expected = ["value", "value", "value.1"]
    for (result, path) in zip(paths, expected) {
      guard case .failure(EncodingError.invalidValue(_, let context)) = result else {
        Issue.record("expected EncodingError.invalidValue, got \(result)")
        continue
      }
      // The path runs from the top-level value: the attribute's key, then the array's index.
      let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
      #expect(keys.suffix(path.split(separator: ".").count).joined(separator: ".") == path)
    }
  }

  @Test("URL and Decimal are recognised by type, as JSONEncoder does")
  func urlAndDecimal() throws {
    let url = URL(string: "https://example.com/a?b=1") ?? URL(fileURLWithPath: "/")
    #expect(try attribute(url) { _ in } == "https://example.com/a?b=1")
    let decimal = Decimal(string: "12.50") ?? 0
    #expect(try attribute(decimal) { _ in } == .number(12.5))
  }

  @Test("userInfo reaches encode(to:)")
  func userInfo() throws {
    struct Reader: Encodable {
      static let key = CodingUserInfoKey(rawValue: "flavor")
      func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Self.key.flatMap { encoder.userInfo[$0] as? String } ?? "none")
      }
    }
    let value = try attribute(Reader()) { encoder in
      if let key = Reader.key { encoder.userInfo = [key: "vanilla"] }
    }
    #expect(value == "vanilla")
  }
}
