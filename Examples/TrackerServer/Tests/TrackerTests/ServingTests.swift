import Foundation
import Hummingbird
import JSONAPIServer
import Testing

@testable import TrackerApp
@testable import TrackerKit

@Suite struct ServingTests {
  /// A new file is seeded; an existing one keeps what clients changed and is never seeded again.
  @Test func theDatabaseIsSeededOnceAndKeepsItsData() async throws {
    let path = try newDatabasePath()
    let first = try Tracker.server(store: try await Tracker.openStore(path: path), baseURL: base)
    try await Tracker.application(server: first, configuration: ApplicationConfiguration())
      .test(.router) { (client) async throws in
        let client = TrackerClient(client: client)
        #expect(try await client.send("ann", .delete, "/tasks/1").status == 204)
        let renamed = #"{"data":{"type":"projects","id":"1","attributes":{"name":"Kept"}}}"#
        #expect(try await client.send("ann", .patch, "/projects/1", renamed).status == 200)
      }
    let again = try Tracker.server(store: try await Tracker.openStore(path: path), baseURL: base)
    try await Tracker.application(server: again, configuration: ApplicationConfiguration())
      .test(.router) { client in
        let client = TrackerClient(client: client)
        #expect(try await client.get("ann", "/tasks/1").status == 404)
        #expect(try await client.get("ann", "/tasks").ids.sorted() == ["3", "4"])
        let project = try await client.get("ann", "/projects/1")
        #expect(project.json["data"]?["attributes"]?["name"] == "Kept")
        #expect(try await client.get("cat", "/users").ids == ["3"])
      }
  }

  @Test func theDescriptionNamesTheSchemeAndTheAnswersOfEveryOperation() async throws {
    try await withTracker(.memory) { client, _ in
      let reply = try await client.get(nil, "/openapi.json")
      #expect(reply.status == 200)
      let description = reply.json
      let scheme = description["components"]?["securitySchemes"]?["bearerAuth"]
      #expect(scheme?["type"] == "http")
      #expect(scheme?["scheme"] == "bearer")
      var operations = 0
      for (path, item) in description["paths"]?.objectValue ?? [:] {
        for (method, operation) in item.objectValue ?? [:] where method != "parameters" {
          operations += 1
          #expect(operation["security"] == [["bearerAuth": []]], "\(method) \(path)")
          for status in ["401", "403", "404"] {
            #expect(operation["responses"]?[status] != nil, "\(method) \(path) lacks \(status)")
          }
        }
      }
      #expect(operations > 20)
      let task = description["components"]?["schemas"]?["TasksAttributes"]?["properties"]
      #expect(task?["due"]?["format"] == "date-time")
      #expect(task?["title"] != nil)
    }
  }

  /// Waits for field capabilities (`computed`): fails until then.
  @Test func theDescriptionMarksOverdueReadOnly() async throws {
    try await withTracker(.memory) { client, _ in
      let description = try await client.get(nil, "/openapi.json").json
      let overdue = description["components"]?["schemas"]?["TasksAttributes"]?["properties"]?[
        "overdue"]
      #expect(overdue?["readOnly"] == true)
    }
  }
}
