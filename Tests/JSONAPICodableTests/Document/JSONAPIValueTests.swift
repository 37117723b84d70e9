import Foundation
import Testing

@testable import JSONAPICodable

@Suite struct JSONAPIValueTests {
  @Test func literalsBuildTheMatchingCases() {
    let value: JSONAPIValue = ["n": 1, "d": 1.5, "s": "x", "b": true, "z": nil, "a": [1, "two"]]
    #expect(value["n"] == .integer(1))
    #expect(value["d"] == .number(1.5))
    #expect(value["s"]?.stringValue == "x")
    #expect(value["b"]?.boolValue == true)
    #expect(value["z"]?.isNull == true)
    #expect(value["a"]?[1] == .string("two"))
    #expect(value["a"]?[5] == nil)
    #expect(value["missing"] == nil)
  }

  @Test func intValueAcceptsIntegralNumbersOnly() {
    #expect(JSONAPIValue.number(3.0).intValue == 3)
    #expect(JSONAPIValue.number(3.5).intValue == nil)
    #expect(JSONAPIValue.integer(7).doubleValue == 7)
  }

  @Test func roundTripsThroughFoundationCoders() throws {
    let value: JSONAPIValue = ["total": 42, "ratio": 0.25, "tags": ["a"], "ok": false, "none": nil]
    let data = try JSONEncoder().encode(value)
    #expect(try JSONDecoder().decode(JSONAPIValue.self, from: data) == value)
  }
}

/// Regression (fuzzer, round trip): `202.0` decodes as `.number(202.0)`, is written as `202` (as
/// `JSONEncoder` writes integral doubles) and reads back as `.integer(202)`; both are the same JSON.
@Suite struct JSONAPIValueNumberEqualityTests {
  @Test func numbersCompareByValue() {
    #expect(JSONAPIValue.integer(202) == .number(202.0))
    #expect(JSONAPIValue.number(-0.0) == .integer(0))
    #expect(JSONAPIValue.integer(2) != .number(2.5))
    #expect(JSONAPIValue.number(1e300) != .integer(Int.max))
    #expect(Set<JSONAPIValue>([.integer(3), .number(3.0)]).count == 1)
    #expect(JSONAPIValue.string("2") != .integer(2))
  }

  @Test func metaSurvivesDecodeEncodeDecode() throws {
    let json = #"{"data": {"type": "t", "id": "1", "meta": {"since": 202.0, "neg": -0.0}}}"#
    struct Resource: Codable, Equatable {
      var id: String
      var type: String
      var meta: JSONAPIValue
    }
    let first = try JSONAPIDecoder().decode(Resource.self, from: json)
    let second = try JSONAPIDecoder().decode(Resource.self, from: JSONAPIEncoder().encode(first))
    #expect(first == second)
  }
}
