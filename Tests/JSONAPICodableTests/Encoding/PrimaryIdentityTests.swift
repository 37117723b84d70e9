import Foundation
import Testing

@testable import JSONAPICodable

/// The encoder records the primary data's identities as they stream and places them in its table
/// all at once, once the primary data is taken apart (``IncludedCollector/placePrimaries()``).
/// These pin down that a resource given twice in the primary data (R40) is still the error it was
/// when each identity was looked up as it came: at the first element that repeats an earlier one,
/// and ahead of any later element's error, whether the elements stream as they are encoded or are
/// written once the whole tree is.
@Suite("Repeated primary resources")
struct PrimaryIdentityTests {
  struct Item: Encodable {
    var id: String?
    var lid: String?
    var type: String? = "items"

    init(_ id: String) { self.id = id }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encodeIfPresent(id, forKey: .id)
      try container.encodeIfPresent(lid, forKey: .lid)
      try container.encodeIfPresent(type, forKey: .type)
    }
    enum CodingKeys: CodingKey { case id, lid, type }
  }

  static func items(_ count: Int) -> [Item] { (0..<count).map { Item("\($0)") } }

  /// Encodes `items` as primary data that streams, and as primary data written once encoded.
  static func encodeBothRoutes(_ items: [Item]) -> [Result<Data, any Error>] {
    [
      Result { try JSONAPIEncoder().encode(items) },
      Result { try JSONAPIEncoder().encode(PrimaryDataStreamTests.Unstreamed(elements: items)) },
    ]
  }

  /// The path and reason of a repeated primary resource, or `nil` for any other outcome.
  static func repeatError(_ result: Result<Data, any Error>) -> (path: String, reason: String)? {
    guard case .failure(JSONAPIError.invalidValue(let reason, let path)) = result else {
      return nil
    }
    return (path, reason)
  }

  @Test("a repeat before an element that is no resource is the error; one after it is not")
  func repeatAgainstBrokenElement() {
    var repeatFirst = Self.items(150)
    repeatFirst[40] = Item("3")
    repeatFirst[90].type = nil
    for result in Self.encodeBothRoutes(repeatFirst) {
      let error = Self.repeatError(result)
      #expect(error?.path == "[40]")
      #expect(error?.reason.contains("items/3 appears twice in the primary data") == true)
    }
    var brokenFirst = Self.items(150)
    brokenFirst[40].type = nil
    brokenFirst[90] = Item("3")
    for result in Self.encodeBothRoutes(brokenFirst) {
      guard case .failure(JSONAPIError.missingResourceType(_, let path)) = result else {
        Issue.record("expected the element without a type, got \(result)")
        continue
      }
      #expect(path == "[40]")
    }
  }

  @Test(
    "of several repeats the first by element is reported, placed one by one or all at once",
    arguments: [400, 40_000])
  func firstRepeatByElement(count: Int) {
    // 40 000 identities are placed all at once and fill many of the table's ranges; the repeats'
    // earlier copies lie in other ranges than their own elements, and the later repeats come
    // first in slot order. 400 are placed one by one, in element order.
    let first = count * 5 / 8
    var items = Self.items(count)
    items[count - 1] = Item("0")
    items[count * 3 / 4] = Item("7")
    items[first] = Item("\(first - 1)")
    for result in Self.encodeBothRoutes(items) {
      let error = Self.repeatError(result)
      #expect(error?.path == "[\(first)]")
      #expect(error?.reason.contains("items/\(first - 1) ") == true)
    }
  }

  @Test("a lid is no repeat of the same id, and distinct identities encode (R40)")
  func lidIsNotId() throws {
    var items = Self.items(5_000)
    items[4_000].id = nil
    items[4_000].lid = "12"
    items[4_001].type = "other-items"
    items[4_001].id = "12"
    for result in Self.encodeBothRoutes(items) {
      let data = try result.get()
      let document = try JSONDecoder().decode(JSONAPIValue.self, from: data)
      #expect(document["data"]?.arrayValue?.count == 5_000)
      #expect(document["data"]?[4_000] == ["type": "items", "lid": "12"])
    }
  }

  @Test("copies of earlier and later primary resources stay out of included (R40, R42)")
  func relatedCopiesOfPrimaries() throws {
    // Relatives are queued while the primary data streams, before any primary identity can be
    // looked up; copies of primary resources, before and after theirs, are passed over all the
    // same, across batches of the stream, and the other relatives are included in first-met order.
    let nodes = (0..<300).map { index in
      let next = index % 50 == 0 ? "x\(index)" : "\((index + 150) % 300)"
      return LinkedNode(
        id: "\(index)", label: "node \(index)", next: .init(id: next, label: "copy of \(next)"))
    }
    let streamed = try JSONDecoder().decode(
      JSONAPIValue.self, from: try JSONAPIEncoder().encode(nodes))
    let included = streamed["included"]?.arrayValue ?? []
    #expect(included.map { $0["id"]?.stringValue ?? "" } == (0..<6).map { "x\($0 * 50)" })
    #expect(streamed["data"]?[151]?["attributes"] == ["label": "node 151"])
    let whole = try JSONAPIEncoder().encode(PrimaryDataStreamTests.Unstreamed(elements: nodes))
    #expect(try JSONDecoder().decode(JSONAPIValue.self, from: whole) == streamed)
  }
}
