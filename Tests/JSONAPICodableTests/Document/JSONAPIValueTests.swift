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
