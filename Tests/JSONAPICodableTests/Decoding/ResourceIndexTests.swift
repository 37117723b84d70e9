import Foundation
import Testing

@testable import JSONAPICodable

/// The `(type, id)` index of a document's resources (R40): identities are placed all at once after
/// they are read, large tables range by range, and the first error in document order still wins.
@Suite struct ResourceIndexTests {
  let decoder = JSONAPIDecoder()

  struct Node: Decodable, Equatable {
    var id: String
    var name: String
    var next: Link?
  }

  struct Link: Decodable, Equatable {
    var id: String
    var name: String
  }

  /// A resource object; `next` points at a `links` resource in `included`.
  private func node(_ id: String, next: String? = nil, lid: String? = nil) -> String {
    let identity = lid.map { #""lid": "\#($0)""# } ?? #""id": "\#(id)""#
    let relationship =
      next.map { #", "relationships": {"next": {"data": {"type": "links", "id": "\#($0)"}}}"# }
      ?? ""
    return #"{"type": "nodes", \#(identity), "attributes": {"name": "n\#(id)"}\#(relationship)}"#
  }

  private func link(_ id: String) -> String {
    #"{"type": "links", "id": "\#(id)", "attributes": {"name": "l\#(id)"}}"#
  }

  private func document(data: [String], included: [String] = []) -> String {
    #"{"data": [\#(data.joined(separator: ","))], "included": [\#(included.joined(separator: ","))]}"#
  }

  /// 40 000 resources: a table of 131 072 slots, filled in 8 ranges.
  private let largeCount = 40_000

  @Test func largeDocumentsResolveEveryRelationshipOutOfOrder() throws {
    // Each node points at a link far from the one before, so lookups go through the table, not the
    // guess that the next resource follows the last one found.
    let data = (0..<largeCount).map { node(String($0), next: String(($0 * 7_919) % largeCount)) }
    let included = (0..<largeCount).map { link(String($0)) }
    let nodes = try decoder.decode([Node].self, from: document(data: data, included: included))
    #expect(nodes.count == largeCount)
    let wrong = nodes.enumerated().filter { position, node in
      let target = String((position * 7_919) % largeCount)
      return node
        != Node(
          id: String(position), name: "n\(position)", next: Link(id: target, name: "l\(target)"))
    }
    #expect(wrong.isEmpty, "first wrong: \(String(describing: wrong.first))")
  }

  @Test(arguments: [12, 40_000])
  func theFirstRepeatInDocumentOrderIsReported(count: Int) throws {
    // Later copies at 3/4, 1/2 (the first in document order) and in `included`; each repeats an
    // earlier resource, whose hash range comes at another point of the placing.
    var data = (0..<count).map { node(String($0)) }
    data[count * 3 / 4] = node("1")
    data[count / 2] = node("2")
    let included = [link("a"), node("3")]
    let error = thrownError {
      try decoder.decode([Node].self, from: document(data: data, included: included))
    }
    #expect(
      error as? JSONAPIError
        == .duplicateResource(type: "nodes", id: "2", pointer: "/data/\(count / 2)"))
    let onlyIncluded = thrownError {
      try decoder.decode(
        [Node].self, from: document(data: (0..<count).map { node(String($0)) }, included: included))
    }
    #expect(
      onlyIncluded as? JSONAPIError
        == .duplicateResource(type: "nodes", id: "3", pointer: "/included/1"))
  }

  @Test(arguments: [12, 40_000])
  func aRepeatBeforeABrokenResourceIsReportedFirstAndAfterItIsNot(count: Int) throws {
    var data = (0..<count).map { node(String($0)) }
    data[count / 2] = node("4")
    data[count - 1] = #"{"type": "nodes", "id": 5}"#
    let repeatFirst = thrownError { try decoder.decode([Node].self, from: document(data: data)) }
    #expect(
      repeatFirst as? JSONAPIError
        == .duplicateResource(type: "nodes", id: "4", pointer: "/data/\(count / 2)"))
    data[count / 2] = node(String(count / 2))
    data[count - 1] = node("4")
    data[count / 3] = "[]"
    let brokenFirst = thrownError { try decoder.decode([Node].self, from: document(data: data)) }
    guard case .invalidDocument(_, let pointer)? = brokenFirst as? JSONAPIError else {
      Issue.record("expected invalidDocument, got \(String(describing: brokenFirst))")
      return
    }
    #expect(pointer == "/data/\(count / 3)")
  }

  @Test func localIdentitiesRepeatApartFromIDs() throws {
    // R40 per kind: a lid that spells an id is another identity; a repeated lid is not.
    let distinct = #"{"data": [\#(node("x", lid: "1")), \#(node("1"))]}"#
    let values = try decoder.decode(JSONAPIValue.self, from: distinct)
    #expect(values.arrayValue?.count == 2)
    let repeated = #"{"data": [\#(node("x", lid: "7")), \#(node("1")), \#(node("y", lid: "7"))]}"#
    #expect(
      thrownError({ try decoder.decode(JSONAPIValue.self, from: repeated) }) as? JSONAPIError
        == .duplicateResource(type: "nodes", id: "7", pointer: "/data/2"))
    // One resource repeating both: its id is reported, as it is read first.
    let both = """
      {"data": [{"type": "nodes", "id": "1", "lid": "2"}, {"type": "nodes", "id": "1", "lid": "2"}]}
      """
    #expect(
      thrownError({ try decoder.decode(JSONAPIValue.self, from: both) }) as? JSONAPIError
        == .duplicateResource(type: "nodes", id: "1", pointer: "/data/1"))
  }
}
