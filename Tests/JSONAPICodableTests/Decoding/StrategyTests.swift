import Foundation
import Testing

@testable import JSONAPICodable

/// Decoding options with Foundation's case names: keys, dates, data, non-conforming floats, userInfo.
@Suite struct StrategyTests {
  struct Person: Decodable, Equatable {
    var id: String
    var firstName: String
    var homeAddress: Address?
  }
  struct Address: Decodable, Equatable { var streetName: String }
  struct Article: Decodable, Equatable {
    var id: String
    var leadAuthor: Person
  }

  static func document(separator: String) -> String {
    """
    {"data": {"type": "articles", "id": "1", "relationships": {
      "lead\(separator)author": {"data": {"type": "people", "id": "9"}}}},
     "included": [{"type": "people", "id": "9", "attributes": {
      "first\(separator)name": "Dan", "home\(separator)address": {"street\(separator)name": "Main"}}}]}
    """
  }

  @Test func convertFromSnakeCaseAppliesToAttributesRelationshipsAndNestedValues() throws {
    let decoder = JSONAPIDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let article = try decoder.decode(Article.self, from: Self.document(separator: "_"))
    #expect(article.leadAuthor.firstName == "Dan")
    #expect(article.leadAuthor.homeAddress == Address(streetName: "Main"))
  }

  @Test func convertFromKebabCaseReadsDasherizedAPIs() throws {
    let decoder = JSONAPIDecoder()
    decoder.keyDecodingStrategy = .convertFromKebabCase
    let article = try decoder.decode(Article.self, from: Self.document(separator: "-"))
    #expect(article.leadAuthor.firstName == "Dan")
    // The 1.0 specification's own example is dasherized (R49).
    struct Author: Decodable {
      var firstName: String
      var lastName: String
    }
    struct Post: Decodable { var author: Author }
    let posts = try decoder.decode(
      [Post].self, from: Fixture.corpus("spec-1.0_compound-document-dasherized"))
    #expect(posts.first?.author.lastName == "Gebhardt")
  }

  @Test func customKeyStrategySeesThePath() throws {
    let decoder = JSONAPIDecoder()
    decoder.keyDecodingStrategy = .custom { path in
      let last = path.last?.stringValue ?? ""
      return AnyCodingKey(last.replacingOccurrences(of: "X", with: ""))
    }
    let json = #"{"data": {"type": "t", "id": "1", "attributes": {"firstXName": "A"}}}"#
    struct Model: Decodable {
      var id: String
      var firstName: String
    }
    #expect(try decoder.decode(Model.self, from: json).firstName == "A")
  }

  /// The names a keyed container reports, to see what a key strategy made of the document's names.
  struct KeyNames: Decodable {
    var names: [String]
    init(from decoder: any Decoder) throws {
      names = try decoder.container(keyedBy: AnyCodingKey.self).allKeys.map(\.stringValue)
    }
  }

  /// What JSONDecoder's `convertFromSnakeCase` makes of each name: underscores inside a name
  /// join capitalised words, leading and trailing ones stay, the rest is lowercased. Written out
  /// rather than asked of the system's JSONDecoder, so that the test means the same everywhere.
  @Test func snakeCaseConversionMatchesFoundation() throws {
    let conversions = [
      ("first_name", "firstName"), ("_leading", "_leading"), ("trailing_", "trailing_"),
      ("__both__", "__both__"), ("already", "already"), ("URL_value", "urlValue"),
      ("a_b_c", "aBC"), ("x__y", "xY"),
    ]
    for (name, converted) in conversions {
      let expected = [converted]
      let decoder = JSONAPIDecoder()
      decoder.keyDecodingStrategy = .convertFromSnakeCase
      let json = #"{"data": {"type": "t", "id": "1", "attributes": {"nested": {"\#(name)": 1}}}}"#
      struct Holder: Decodable { var nested: KeyNames }
      #expect(try decoder.decode(Holder.self, from: json).nested.names == expected, "\(name)")
    }
  }

  @Test func dictionaryKeysAreNotConvertedAsInFoundation() throws {
    let decoder = JSONAPIDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    struct DecodeOnly: Decodable, Equatable { var n: Int }
    struct Holder: Decodable {
      var counts: [String: Int]
      var others: [String: DecodeOnly]?
    }
    let json =
      #"{"data": {"type": "t", "id": "1", "attributes": {"counts": {"first_key": 1}, "others": {"a_b": {"n": 2}}}}}"#
    let holder = try decoder.decode(Holder.self, from: json)
    #expect(holder.counts == ["first_key": 1])
    #expect(holder.others == ["a_b": DecodeOnly(n: 2)])
  }

  struct Event: Decodable, Equatable {
    var id: String
    var at: Date
  }

  @Test(arguments: [
    (JSONAPIDecoder.DateDecodingStrategy.secondsSince1970, "1700000000", 1_700_000_000.0),
    (.millisecondsSince1970, "1700000000000", 1_700_000_000.0),
    (.iso8601, #""2023-11-14T22:13:20Z""#, 1_700_000_000.0),
    (.deferredToDate, "721692800", 1_700_000_000.0),
  ])
  func dateStrategies(
    strategy: JSONAPIDecoder.DateDecodingStrategy, literal: String, expected: Double
  )
    throws
  {
    let decoder = JSONAPIDecoder()
    decoder.dateDecodingStrategy = strategy
    let json = #"{"data": {"type": "events", "id": "1", "attributes": {"at": \#(literal)}}}"#
    #expect(try decoder.decode(Event.self, from: json).at.timeIntervalSince1970 == expected)
  }

  @Test func formattedAndCustomDates() throws {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    let decoder = JSONAPIDecoder()
    decoder.dateDecodingStrategy = .formatted(formatter)
    let json = #"{"data": {"type": "events", "id": "1", "attributes": {"at": "2024-01-02"}}}"#
    #expect(try decoder.decode(Event.self, from: json).at == formatter.date(from: "2024-01-02"))
    decoder.dateDecodingStrategy = .custom { decoder in
      let text = try decoder.singleValueContainer().decode(String.self)
      return Date(timeIntervalSince1970: Double(text.count))
    }
    #expect(try decoder.decode(Event.self, from: json).at.timeIntervalSince1970 == 10)
  }

  @Test func invalidISODateIsDataCorruptedAtItsPath() throws {
    let decoder = JSONAPIDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let json = #"{"data": {"type": "events", "id": "1", "attributes": {"at": "yesterday"}}}"#
    guard
      case .dataCorrupted(let context) = thrownError({ try decoder.decode(Event.self, from: json) })
        as? DecodingError
    else {
      Issue.record("expected dataCorrupted")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["at"])
  }

  struct Blob: Decodable { var payload: Data }

  @Test func dataStrategies() throws {
    let decoder = JSONAPIDecoder()
    let base64 = #"{"data": {"type": "b", "id": "1", "attributes": {"payload": "AQID"}}}"#
    #expect(try decoder.decode(Blob.self, from: base64).payload == Data([1, 2, 3]))
    decoder.dataDecodingStrategy = .deferredToData
    let bytes = #"{"data": {"type": "b", "id": "1", "attributes": {"payload": [1, 2, 3]}}}"#
    #expect(try decoder.decode(Blob.self, from: bytes).payload == Data([1, 2, 3]))
    decoder.dataDecodingStrategy = .custom { _ in Data([9]) }
    #expect(try decoder.decode(Blob.self, from: bytes).payload == Data([9]))
  }

  @Test func nonConformingFloats() throws {
    struct Reading: Decodable {
      var value: Double
      var low: Float
    }
    let json = #"{"data": {"type": "r", "id": "1", "attributes": {"value": "NaN", "low": "-inf"}}}"#
    let decoder = JSONAPIDecoder()
    guard
      case .typeMismatch = thrownError({ try decoder.decode(Reading.self, from: json) })
        as? DecodingError
    else {
      Issue.record("expected typeMismatch under .throw")
      return
    }
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "NaN")
    let reading = try decoder.decode(Reading.self, from: json)
    #expect(reading.value.isNaN)
    #expect(reading.low == -.infinity)
  }

  @Test func urlDecimalAndUserInfo() throws {
    struct Link: Decodable {
      var site: URL
      var price: Decimal
      var note: String
      enum CodingKeys: String, CodingKey { case site, price }
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        site = try container.decode(URL.self, forKey: .site)
        price = try container.decode(Decimal.self, forKey: .price)
        note = decoder.userInfo[CodingUserInfoKey(rawValue: "note")!] as? String ?? "missing"
      }
    }
    let decoder = JSONAPIDecoder()
    decoder.userInfo = [CodingUserInfoKey(rawValue: "note")!: "hello"]
    let json =
      #"{"data": {"type": "l", "id": "1", "attributes": {"site": "https://x.org/a", "price": 19.99}}}"#
    let link = try decoder.decode(Link.self, from: json)
    #expect(link.site == URL(string: "https://x.org/a"))
    #expect(link.price == Decimal(string: "19.99"))
    #expect(link.note == "hello")
  }

  /// UUIDs in canonical form take a fast path; the answers (values and errors) must be those of
  /// `UUID(uuidString:)` through `UUID.init(from:)`, as JSONDecoder gives them.
  @Test(arguments: [
    "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f",
    "e621E1F8-c36c-495A-93fc-0C247a3e6e5f", "00000000-0000-0000-0000-000000000000",
    "E621E1F8C36C495A93FC0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "not a uuid",
    "E621E1F8-C36C-495A-93FC-0C247A3E6E5G", "E621E1F8_C36C-495A-93FC-0C247A3E6E5F",
    #"E621E1F8-C36C-495A-93FC-0C247A3E6E5\u0046"#,
  ])
  func uuidsMatchFoundation(text: String) throws {
    struct Event: Decodable {
      var id: UUID
      var ref: UUID?
      var refs: [UUID]
    }
    struct Plain: Decodable {
      var id: UUID
      var ref: UUID?
      var refs: [UUID]
    }
    let ours = try? JSONAPIDecoder().decode(
      Event.self,
      from:
        #"{"data": {"type": "e", "id": "\#(text)", "attributes": {"ref": "\#(text)", "refs": ["\#(text)"]}}}"#
    )
    let theirs = try? JSONDecoder().decode(
      Plain.self, from: Data(#"{"id": "\#(text)", "ref": "\#(text)", "refs": ["\#(text)"]}"#.utf8))
    #expect(ours?.id == theirs?.id)
    #expect(ours?.ref == theirs?.ref)
    #expect(ours?.refs == theirs?.refs)
    #expect((ours == nil) == (theirs == nil))
  }

  /// The `YYYY-MM-DDTHH:MM:SSZ` fast path must give what `Date.ISO8601FormatStyle` gives,
  /// including where it declines (Foundation then answers).
  @Test func iso8601FastPathMatchesFoundation() throws {
    var texts = [
      "2000-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2100-02-28T23:59:59Z",
      "1970-01-01T00:00:00Z",
      "1969-12-31T23:59:59Z", "1600-01-01T00:00:00Z", "1599-12-31T23:59:59Z",
      "1582-10-04T12:00:00Z",
      "9999-12-31T23:59:59Z", "2024-04-31T00:00:00Z", "2024-13-01T00:00:00Z",
      "2024-00-10T00:00:00Z",
      "2024-01-00T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T23:60:00Z",
      "2024-06-30T23:59:60Z",
      "2024-01-01t00:00:00Z", "2024-01-01T00:00:00z", "2024-01-01T00:00:00+01:00",
      "2024-01-01T00:00:00.5Z", "2024-1-01T00:00:00Z", "20240101T000000Z", "+024-01-01T00:00:00Z",
    ]
    var random = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let seconds = Int.random(in: -11_000_000_000...250_000_000_000, using: &random)
      texts.append(
        Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(Date.ISO8601FormatStyle()))
    }
    struct Event: Decodable {
      var id: String
      var at: Date
    }
    let decoder = JSONAPIDecoder()
    decoder.dateDecodingStrategy = .iso8601
    for text in texts {
      let expected = try? Date.ISO8601FormatStyle().parse(text)
      let fast = text.utf8.withContiguousStorageIfAvailable { DecoderImpl.utcTimestamp($0) } ?? nil
      if let fast { #expect(fast == expected, "\(text)") }
      let decoded = try? decoder.decode(
        Event.self,
        from: #"{"data": {"type": "e", "id": "1", "attributes": {"at": "\#(text)"}}}"#)
      #expect(decoded?.at == expected, "\(text)")
    }
  }

  @Test func invalidUUIDIsDataCorruptedAtItsPath() throws {
    struct Event: Decodable {
      var id: String
      var ref: UUID
    }
    let json = #"{"data": {"type": "e", "id": "1", "attributes": {"ref": "nope"}}}"#
    #expect {
      try JSONAPIDecoder().decode(Event.self, from: json)
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.codingPath.last?.stringValue == "ref"
    }
  }

  @Test func numbersOutOfRangeAreDataCorrupted() throws {
    struct Small: Decodable { var value: Int8 }
    struct Huge: Decodable { var value: Double }
    struct Big: Decodable { var value: Int }
    for (json, decode) in [
      (
        #"{"data": {"type": "n", "id": "1", "attributes": {"value": 300}}}"#,
        { (d: Data) in _ = try JSONAPIDecoder().decode(Small.self, from: d) }
      ),
      (
        #"{"data": {"type": "n", "id": "1", "attributes": {"value": 1e400}}}"#,
        { (d: Data) in _ = try JSONAPIDecoder().decode(Huge.self, from: d) }
      ),
      (
        #"{"data": {"type": "n", "id": "1", "attributes": {"value": 99999999999999999999}}}"#,
        { (d: Data) in _ = try JSONAPIDecoder().decode(Big.self, from: d) }
      ),
    ] as [(String, (Data) throws -> Void)] {
      guard
        case .dataCorrupted(let context) = thrownError({ try decode(Data(json.utf8)) })
          as? DecodingError
      else {
        Issue.record("\(json): expected dataCorrupted")
        continue
      }
      #expect(context.codingPath.map(\.stringValue) == ["value"])
    }
  }

  @Test func integersAndFloatsMatchFoundation() throws {
    struct Numbers: Codable, Equatable {
      var a: Int64, b: UInt64, c: Double, d: Float, e: Int, f: Double, g: Double
    }
    let literals =
      #"{"a": -9223372036854775808, "b": 18446744073709551615, "c": 0.1, "d": 3.4028235e38, "e": 1e2, "f": 2.2250738585072014e-308, "g": 123456789012345678901234567890}"#
    // The values JSONDecoder reads, written out: the nearest Double or Float to each literal.
    let expected = Numbers(
      a: .min, b: .max, c: 0.1, d: .greatestFiniteMagnitude, e: 100,
      f: .leastNormalMagnitude, g: 1.2345678901234568e29)
    let ours = try JSONAPIDecoder().decode(
      Numbers.self, from: #"{"data": {"type": "n", "id": "1", "attributes": \#(literals)}}"#)
    #expect(ours == expected)
  }
}
