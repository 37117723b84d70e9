import Foundation
import Testing

@testable import JSONAPICodable

/// `JSONAPIEncoder.encode(results:)` writes `atomic:results` as a server answers (R109, R111).
@Suite struct AtomicResultEncodingTests {
  let encoder = JSONAPIEncoder()

  @Test func resultsAreWrittenInOrderWithEmptyObjectsForNoData() throws {
    // R109: `{}` for an operation that returns nothing; data encoded as the encoder encodes it.
    let data = try encoder.encode(
      results: [
        JSONAPIOperationResult(data: AtomicPerson(id: "9", name: "Dan")),
        JSONAPIOperationResult(),
        JSONAPIOperationResult(meta: ["deleted": 1]),
        JSONAPIOperationResult(data: AtomicArticle?.none),
      ],
      meta: ["took": 3])
    #expect(
      text(data)
        == #"{"atomic:results":[{"data":{"type":"people","id":"9","attributes":{"name":"#
        + #""Dan"}}},{},{"meta":{"deleted":1}},{"data":null}],"meta":{"took":3}}"#)
    _ = try checkedAtomic(data, name: "atomic-results")
  }

  @Test func resultResourcesNeverBringIncluded() throws {
    // R99: the author is linkage only, even though the encoder would include it in a document.
    let article = AtomicArticle(
      id: "1", title: "Hello", author: AtomicPerson(id: "9", name: "Dan"))
    let document = try checkedAtomic(
      encoder.encode(results: [JSONAPIOperationResult(data: article)]),
      name: "atomic-results-no-included")
    #expect(document["included"] == nil)
    #expect(
      document["atomic:results"]?[0]?["data"]?["relationships"]
        == ["author": ["data": ["type": "people", "id": "9"]]])
  }

  @Test func aResultsArrayOfResourcesIsWrittenAsADocumentsDataIs() throws {
    // A value placed inside an operation is planned whole; its array elements are taken apart by
    // the rule a document's streamed primary data uses, so the two write the same resources.
    let people = [AtomicPerson(id: "9", name: "Dan"), AtomicPerson(id: "10", name: "Eve")]
    let results = try checkedAtomic(
      encoder.encode(results: [JSONAPIOperationResult(data: people)]),
      name: "atomic-results-array")
    let document = try JSONDecoder().decode(JSONAPIValue.self, from: encoder.encode(people))
    #expect(results["atomic:results"]?[0]?["data"] == document["data"])
    #expect(results["atomic:results"]?[0]?["data"]?[1]?["id"] == "10")

    // R40: a resource given twice is the error at its second element, under the result's path.
    let repeated = people + [AtomicPerson(id: "9", name: "Dan")]
    #expect {
      try encoder.encode(results: [JSONAPIOperationResult(data: repeated)])
    } throws: { error in
      guard case .invalidValue(let reason, let path)? = error as? JSONAPIError else { return false }
      return reason.contains("people/9 appears twice") && path == "atomic:results[0].data[2]"
    }
  }

  @Test func noResultsIsAnError() throws {
    // R100: at least one result; a server answers 204 instead.
    #expect(throws: JSONAPIError.self) { try encoder.encode(results: []) }
    #expect(throws: JSONAPIError.self) {
      try encoder.encode(results: [JSONAPIOperationResult(meta: [1])])
    }
  }

  @Test func aResultBuiltHereDecodesAsAClientWouldReadIt() throws {
    let result = JSONAPIOperationResult(data: AtomicPerson(id: "9", name: "Dan"))
    #expect(try result.decode(AtomicPerson.self) == AtomicPerson(id: "9", name: "Dan"))
    #expect(try JSONAPIOperationResult().decode(AtomicPerson?.self) == nil)
    #expect(
      try JSONAPIOperation.add(AtomicPerson(lid: "p1", name: "Dan")).decode(AtomicPerson.self).name
        == "Dan")
  }

  @Test func receivedResultsCanBePassedOn() throws {
    // A proxy re-encodes what it read: the same JSON, member for member.
    let data = try Fixture.corpus("atomic_multiple-results")
    let results = try JSONAPIDecoder().decode([JSONAPIOperationResult].self, from: data)
    let again = try encoder.encode(results: results)
    #expect(
      try JSONDecoder().decode(JSONAPIValue.self, from: again)
        == JSONDecoder().decode(JSONAPIValue.self, from: data))
  }
}
