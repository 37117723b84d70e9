import Foundation
import JSONAPICodable
import JSONAPINetworking
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

private struct Author: Codable, Equatable, JSONAPIResource {
  static let jsonAPIType = "people"
  var id: String?
  var lid: String?
  var name: String?
}

private struct Blog: Codable, Equatable, JSONAPIResource {
  static let jsonAPIType = "blogs"
  var id: String?
  var lid: String?
  var name: String?
  var featuredEntry: JSONAPIResourceIdentifier?
}

private struct Entry: Codable, Equatable, JSONAPIResource {
  static let jsonAPIType = "entries"
  var id: String?
  var lid: String?
  var headline: String?
  var blog: Blog?
  var authors: [Author]?
}

/// `JSONAPIClient.create(graph:at:)` (issue 29, item 1) against a stub server that applies the
/// operations as drf-json-api-atomic-operations does: ids from 101 on, lids replaced by the ids
/// of earlier operations, one result per `add`; relationship operations answer `{}`, or nothing
/// at all when `dropsRelationshipResults` (as that library's 0.4.0 does).
@Suite struct GraphCreateClientTests {
  /// A stub server for the graph's operations.
  static func server(echoesLids: Bool = false, dropsRelationshipResults: Bool = false)
    -> StubTransport
  {
    StubTransport { request in
      let operations =
        try JSONDecoder().decode(JSONAPIValue.self, from: request.httpBody ?? Data())[
          "atomic:operations"]?.arrayValue ?? []
      var ids: [String: String] = [:]
      func resolved(_ identifier: JSONAPIValue) -> JSONAPIValue {
        guard var object = identifier.objectValue, let type = object["type"]?.stringValue,
          let lid = object["lid"]?.stringValue
        else { return identifier }
        object["id"] = ids["\(type)/\(lid)"].map(JSONAPIValue.string) ?? .null
        if !echoesLids { object["lid"] = nil }
        return .object(object)
      }
      var results: [JSONAPIValue] = []
      for operation in operations {
        guard operation["op"] == "add", var data = operation["data"]?.objectValue,
          let type = data["type"]?.stringValue, let lid = data["lid"]?.stringValue
        else {
          if !dropsRelationshipResults { results.append([:]) }
          continue
        }
        ids["\(type)/\(lid)"] = String(101 + ids.count)
        data = resolved(.object(data)).objectValue ?? data
        var relationships: [String: JSONAPIValue] = [:]
        for (name, relationship) in data["relationships"]?.objectValue ?? [:] {
          let linkage = relationship["data"] ?? .null
          relationships[name] = [
            "data": linkage.arrayValue.map { .array($0.map(resolved)) } ?? resolved(linkage)
          ]
        }
        if !relationships.isEmpty { data["relationships"] = .object(relationships) }
        results.append(["data": .object(data)])
      }
      let body = try JSONEncoder().encode(JSONAPIValue.object(["atomic:results": .array(results)]))
      return (body, try Stub.response(for: request, status: 200))
    }
  }

  private let draft = Entry(
    headline: "Graphs", blog: Blog(name: "Swift notes"),
    authors: [Author(name: "Dan"), Author(name: "Eve")])

  @Test func theRootComesBackWithServerIdsAndItsNewRelatedResources() async throws {
    let transport = Self.server()
    let client = Stub.client(transport)
    let created: Entry = try await client.create(graph: draft, at: "operations")
    // Operations: blog (101), Dan (102), Eve (103), the entry (104).
    #expect(created.id == "104" && created.headline == "Graphs")
    #expect(created.blog?.id == "101" && created.blog?.name == "Swift notes")
    #expect(created.authors?.map(\.id) == ["102", "103"])
    #expect(created.authors?.map(\.name) == ["Dan", "Eve"])
    // One POST with the atomic extension's media type (R98, R110) and the graph as its body.
    let request = try #require(transport.requests.first)
    #expect(transport.requests.count == 1)
    #expect(request.httpMethod == "POST" && request.target == "/operations")
    #expect(
      request.value(forHTTPHeaderField: "Content-Type")
        == #"application/vnd.api+json;ext="https://jsonapi.org/ext/atomic""#)
    #expect(request.httpBody == (try JSONAPIEncoder().encode(graph: draft)))
  }

  @Test func aCycleIsClosedByARelationshipOperationWhoseEmptyResultIsFine() async throws {
    // Blog (0) first, then the entry (1, the root), then the blog's featured entry (2): `{}`.
    let cyclic = Entry(
      lid: "e", headline: "Loop",
      blog: Blog(
        lid: "b", name: "Ring", featuredEntry: JSONAPIResourceIdentifier(type: "entries", lid: "e"))
    )
    let client = Stub.client(Self.server(echoesLids: true))
    let created: Entry = try await client.create(graph: cyclic, at: "operations")
    #expect(created.id == "102" && created.lid == "e")
    #expect(created.blog?.id == "101" && created.blog?.name == "Ring")
  }

  @Test func fewerResultsThanOperationsIsAClearErrorNotAWrongModel() async throws {
    // 3 operations (2 adds, 1 relationship update) answered with the 2 adds' results only.
    let cyclic = Entry(
      lid: "e", headline: "Loop",
      blog: Blog(
        lid: "b", name: "Ring", featuredEntry: JSONAPIResourceIdentifier(type: "entries", lid: "e"))
    )
    let client = Stub.client(Self.server(dropsRelationshipResults: true))
    let error = await #expect(throws: JSONAPIUnreadableSuccessError.self) {
      let _: Entry = try await client.create(graph: cyclic, at: "operations")
    }
    // The server answered 200: the write is said to be applied, with the mismatch as the reason.
    #expect(error?.statusCode == 200 && error?.method == "POST")
    #expect(
      error?.underlyingError as? JSONAPIClientError
        == .atomicResultsMismatch(operations: 3, results: 2))
    #expect(error?.description.contains("3 atomic operations with 2 results") == true)
    #expect(error?.description.contains("most likely applied the change") == true)
  }

  @Test func noContentIsNoResultAtAll() async throws {
    let client = Stub.client(StubTransport(status: 204))
    let error = await #expect(throws: JSONAPIUnreadableSuccessError.self) {
      let _: Entry = try await client.create(graph: draft, at: "operations")
    }
    #expect(error?.statusCode == 204 && error?.body.isEmpty == true)
    #expect(
      error?.underlyingError as? JSONAPIClientError
        == .atomicResultsMismatch(operations: 4, results: 0))
  }

  @Test func aRefusedGraphThrowsTheServersErrors() async throws {
    let refusal =
      #"{"errors":[{"status":"422","detail":"taken","source":{"pointer":"/atomic:operations/0/data/attributes/name"}}]}"#
    let client = Stub.client(
      StubTransport(status: 422, body: refusal, headers: Stub.jsonAPI))
    do {
      let _: Entry = try await client.create(graph: draft, at: "operations")
      Issue.record("no error")
    } catch let error as JSONAPIResponseError {
      #expect(error.statusCode == 422)
      #expect(error.errors.first?.source?.pointer == "/atomic:operations/0/data/attributes/name")
    }
  }
}
