import Foundation
import Testing

@testable import JSONAPICodable

/// ISO 8601 dates at the edges of 32-bit seconds and of the fast path's range. `Int` is 32 bits
/// on arm64_32 (Apple Watch), where seconds since 1970 leave `Int` after 2038-01-19T03:14:07Z and
/// before 1901-12-13T20:45:52Z. The expected seconds are counted by hand (days × 86 400 plus the
/// time of day), not asked of the platform's formatters, so the tests mean the same everywhere.
@Suite struct DateEdgeTests {
  static let edges: [(String, Double)] = [
    // 370 years of 365 days, 90 leap days (93 multiples of 4 less 1700, 1800, 1900).
    ("1600-01-01T00:00:00Z", -11_676_096_000),
    // Int32.min and one second before it.
    ("1901-12-13T20:45:52Z", -2_147_483_648),
    ("1901-12-13T20:45:51Z", -2_147_483_649),
    ("1970-01-01T00:00:00Z", 0),
    // Int32.max and one second after it.
    ("2038-01-19T03:14:07Z", 2_147_483_647),
    ("2038-01-19T03:14:08Z", 2_147_483_648),
    // 2100-01-01 is day 47 482 (130 × 365 + 32 leap days); 2100 is not a leap year.
    ("2100-01-01T00:00:00Z", 4_102_444_800),
    ("2100-02-28T23:59:59Z", 4_107_542_399),
    ("2100-03-01T00:00:00Z", 4_107_542_400),
    // The last second a four-digit year can write: day 2 932 896.
    ("9999-12-31T23:59:59Z", 253_402_300_799),
  ]

  struct Event: Codable {
    var id: String
    var type = "events"
    var at: Date
  }

  @Test(arguments: edges)
  func theFastPathReadsTheEdges(text: String, seconds: Double) throws {
    let fast = text.utf8.withContiguousStorageIfAvailable { DecoderImpl.utcTimestamp($0) } ?? nil
    #expect(fast == Date(timeIntervalSince1970: seconds), "\(text)")
  }

  @Test(arguments: edges)
  func decodingReadsTheEdges(text: String, seconds: Double) throws {
    let decoder = JSONAPIDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let event = try decoder.decode(
      Event.self,
      from: #"{"data": {"type": "events", "id": "1", "attributes": {"at": "\#(text)"}}}"#)
    #expect(event.at == Date(timeIntervalSince1970: seconds))
  }

  @Test(arguments: edges)
  func encodingWritesTheEdges(text: String, seconds: Double) throws {
    let encoder = JSONAPIEncoder()
    encoder.dateEncodingStrategy = .iso8601
    let data = try encoder.encode(Event(id: "1", at: Date(timeIntervalSince1970: seconds)))
    let document = try JSONDecoder().decode(JSONAPIValue.self, from: data)
    #expect(document["data"]?["attributes"]?["at"] == .string(text))
  }

  /// Seconds and milliseconds since 1970 past 32 bits are written and read exactly.
  @Test(arguments: edges)
  func numericStrategiesKeepTheEdges(text: String, seconds: Double) throws {
    let encoder = JSONAPIEncoder()
    let decoder = JSONAPIDecoder()
    let date = Date(timeIntervalSince1970: seconds)
    for (encoding, decoding) in [
      (
        JSONAPIEncoder.DateEncodingStrategy.secondsSince1970,
        JSONAPIDecoder.DateDecodingStrategy.secondsSince1970
      ),
      (.millisecondsSince1970, .millisecondsSince1970),
    ] {
      encoder.dateEncodingStrategy = encoding
      decoder.dateDecodingStrategy = decoding
      let data = try encoder.encode(Event(id: "1", at: date))
      #expect(try decoder.decode(Event.self, from: data).at == date, "\(text)")
    }
  }
}
