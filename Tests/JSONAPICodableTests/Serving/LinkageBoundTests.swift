import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// To-many linkage bounded by the request (issue 47 item 6): a project's `tasks` (the inverse of
/// `tasks.project`) is read at most its limit plus one, served with `links` only beyond it, and
/// its relationship endpoint pages; inverse writes are one store call.
@Suite struct LinkageBoundTests {
  struct Project: Codable, Sendable, JSONAPIResource {
    static let jsonAPIType = "projects"
    var id: String?
    var name: String
    var tasks: [Task]?
  }

  struct Task: Codable, Sendable, JSONAPIResource {
    static let jsonAPIType = "tasks"
    var id: String?
    var title: String
    var project: Project?
  }

  static let mediaType = "application/vnd.api+json"

  /// Project 1 with `many` tasks, project 2 with 2; `tasks` limited to `limit`.
  static func server(many: Int, limit: Int? = nil) async throws -> (
    JSONAPIServer, RowCountingStore
  ) {
    var projects = try JSONAPIResourceDeclaration(Project.self, inverses: ["tasks": "project"])
    if let limit { projects = try projects.linkageLimit("tasks", limit) }
    let tasks = try JSONAPIResourceDeclaration(
      Task.self, paging: .pageNumber(defaultSize: 10, maxSize: 50))
    let memory = JSONAPIMemoryStore(schemas: [projects.schema, tasks.schema])
    var records = [1, 2].map {
      JSONAPIResourceRecord(type: "projects", id: "\($0)", attributes: ["name": .string("P\($0)")])
    }
    for number in 0..<(many + 2) {
      records.append(
        JSONAPIResourceRecord(
          type: "tasks", id: "\(number + 1)", attributes: ["title": "T"],
          relationships: [
            "project": .toOne(
              JSONAPIResourceIdentifier(type: "projects", id: number < many ? "1" : "2"))
          ]))
    }
    try await memory.insert(records)
    let counting = RowCountingStore(base: memory)
    let server = try JSONAPIServer(
      resources: [projects, tasks], store: counting, baseURL: "https://x.example")
    _ = counting.take()
    return (server, counting)
  }

  static func get(_ server: JSONAPIServer, _ target: String) async -> JSONAPIServerResponse {
    await ServerFixture.respond(
      server, ServerFixture.request("GET", target, accept: mediaType))
  }

  @Test func withinTheLimitTheLinkageIsServed() async throws {
    let (server, _) = try await Self.server(many: 3, limit: 3)
    let response = await Self.get(server, "/projects/1")
    let tasks = response.json["data"]?["relationships"]?["tasks"]
    #expect(tasks?["data"]?.arrayValue?.count == 3)
  }

  /// R25, R32: beyond the limit the relationship object has its links and no `data`; `include`
  /// does not follow it (R38: nothing included that the document does not link).
  @Test func beyondTheLimitOnlyLinks() async throws {
    let (server, _) = try await Self.server(many: 4, limit: 3)
    let response = await Self.get(server, "/projects/1?include=tasks")
    #expect(response.status == 200)
    let tasks = response.json["data"]?["relationships"]?["tasks"]
    #expect(tasks?["data"] == nil)
    #expect(tasks?["links"]?["related"] == "https://x.example/projects/1/tasks")
    #expect(response.json["included"]?.arrayValue?.isEmpty == true)
    let other = await Self.get(server, "/projects/2?include=tasks")
    #expect(other.json["data"]?["relationships"]?["tasks"]?["data"]?.arrayValue?.count == 2)
    #expect(other.json["included"]?.arrayValue?.count == 2)
    // A collection mixes both, each by its own count.
    let list = await Self.get(server, "/projects")
    let listed = list.json["data"]?.arrayValue ?? []
    #expect(listed.map { $0["relationships"]?["tasks"]?["data"] == nil } == [true, false])
  }

  /// The measure of issue 47: one resource with 100 000 related rows reads a bounded number of
  /// rows, the limit plus one of them (and the resource itself).
  @Test func oneResourceWithAHundredThousandRelatedRowsReadsABoundedNumber() async throws {
    let (server, counting) = try await Self.server(many: 100_000)
    let response = await Self.get(server, "/projects/1")
    #expect(response.status == 200)
    #expect(response.json["data"]?["relationships"]?["tasks"]?["data"] == nil)
    let (calls, rows) = counting.take()
    #expect(rows == 1 + JSONAPIResourceDeclaration.defaultLinkageLimit + 1)
    #expect(calls == ["resources projects", "page tasks"])
  }

  struct Team: Codable, Sendable, JSONAPIResource {
    static let jsonAPIType = "teams"
    var id: String?
    var name: String
    var members: [Member]?
  }

  struct Member: Codable, Sendable, JSONAPIResource {
    static let jsonAPIType = "members"
    var id: String?
    var name: String
  }

  /// Team 1 whose `members` (a to-many the store keeps: no inverse) name `hidden` members named
  /// "hidden", then `shown` named "shown"; team 2 with members 1 and 2. With `secured`, only
  /// members named "shown" are visible.
  static func teams(hidden: Int, shown: Int, limit: Int? = nil, secured: Bool = false)
    async throws -> (JSONAPIServer, RowCountingStore)
  {
    var teams = try JSONAPIResourceDeclaration(Team.self)
    if let limit { teams = try teams.linkageLimit("members", limit) }
    var members = try JSONAPIResourceDeclaration(Member.self)
    if secured {
      members = members.secured(
        by: JSONAPIResourcePolicy(visible: { _ in
          .filter(JSONAPIFilterCondition(member: "name", comparison: .equals, values: ["shown"]))
        }))
    }
    let memory = JSONAPIMemoryStore(schemas: [teams.schema, members.schema])
    let count = hidden + shown
    var records = (0..<max(count, 2)).map { number in
      JSONAPIResourceRecord(
        type: "members", id: "\(number + 1)",
        attributes: ["name": .string(number < hidden ? "hidden" : "shown")])
    }
    let named = { (ids: [Int]) in
      JSONAPILinkage.toMany(ids.map { JSONAPIResourceIdentifier(type: "members", id: "\($0)") })
    }
    records.append(
      JSONAPIResourceRecord(
        type: "teams", id: "1", attributes: ["name": "T1"],
        relationships: ["members": named(count == 0 ? [] : Array(1...count))]))
    records.append(
      JSONAPIResourceRecord(
        type: "teams", id: "2", attributes: ["name": "T2"],
        relationships: ["members": named([1, 2])]))
    try await memory.insert(records)
    let counting = RowCountingStore(base: memory)
    let server = try JSONAPIServer(
      resources: [teams, members], store: counting, baseURL: "https://x.example")
    _ = counting.take()
    return (server, counting)
  }

  /// The measure of issue 47 for a to-many the store keeps itself (a join table in a database):
  /// one resource whose relationship names 100 000 rows reads the limit plus one of them.
  @Test func oneResourceWithAHundredThousandMembersOfAJoinReadsABoundedNumber() async throws {
    let (server, counting) = try await Self.teams(hidden: 0, shown: 100_000)
    let response = await Self.get(server, "/teams/1")
    #expect(response.status == 200)
    #expect(response.json["data"]?["relationships"]?["members"]?["data"] == nil)
    let (calls, rows) = counting.take()
    #expect(rows == 1 + JSONAPIResourceDeclaration.defaultLinkageLimit + 1)
    #expect(calls == ["resources teams"])
    // A collection reads each team's members bounded as well.
    let list = await Self.get(server, "/teams")
    #expect(list.json["data"]?.arrayValue?.count == 2)
    #expect(counting.take().rows == 2 + JSONAPIResourceDeclaration.defaultLinkageLimit + 1 + 2)
  }

  /// Members the requester cannot see take no place among those read: with a limit of 3, four
  /// hidden members before two visible ones still serve the two (read bounded without the
  /// visibility, the four hidden ones would fill the read and the team would show none).
  @Test func hiddenMembersTakeNoPlaceInTheBoundedRead() async throws {
    let (server, _) = try await Self.teams(hidden: 4, shown: 2, limit: 3, secured: true)
    let response = await Self.get(server, "/teams/1?include=members")
    #expect(response.status == 200)
    let members = response.json["data"]?["relationships"]?["members"]?["data"]?.arrayValue
    #expect(members?.compactMap { $0["id"]?.stringValue } == ["5", "6"])
    #expect(response.json["included"]?.arrayValue?.count == 2)
    // Four visible ones are over the limit of 3: links only, whatever is hidden.
    let (many, _) = try await Self.teams(hidden: 4, shown: 4, limit: 3, secured: true)
    let over = await Self.get(many, "/teams/1")
    #expect(over.json["data"]?["relationships"]?["members"]?["data"] == nil)
    #expect(over.json["data"]?["relationships"]?["members"]?["links"]?["related"] != nil)
  }

  /// R27, R62: beyond the limit the relationship endpoint answers a page of the linkage, with
  /// pagination links, paged as the target's collections are.
  @Test func theRelationshipEndpointPagesBeyondTheLimit() async throws {
    let (server, counting) = try await Self.server(many: 25, limit: 5)
    let first = await Self.get(server, "/projects/1/relationships/tasks")
    #expect(first.status == 200)
    #expect(first.ids == (1...10).map(String.init))
    #expect(first.json["links"]?["related"] == "https://x.example/projects/1/tasks")
    #expect(first.json["links"]?["next"]?.stringValue != nil)
    // The owner with its bounded linkage twice (to decide, then to answer), and one page.
    let rows = counting.take().rows
    #expect(rows <= 2 * (1 + 6) + 10)
    let last = await Self.get(server, "/projects/1/relationships/tasks?page%5Bnumber%5D=3")
    #expect(last.ids == (21...25).map(String.init))
    // Within the limit, the whole linkage as before.
    let small = await Self.get(server, "/projects/2/relationships/tasks")
    #expect(small.ids == ["26", "27"])
    #expect(small.json["links"]?["next"] == nil)
  }

  /// Replacing an inverse relationship writes its to-ones in one store call per direction.
  @Test func inverseWritesAreOneCall() async throws {
    let (server, counting) = try await Self.server(many: 30, limit: 100)
    let identifiers = (1...3).map { #"{"type": "tasks", "id": "\#($0)"}"# }
    let body = #"{"data": [\#(identifiers.joined(separator: ", "))]}"#
    let response = await ServerFixture.respond(
      server,
      ServerFixture.request("PATCH", "/projects/2/relationships/tasks", body: body))
    #expect(response.status == 204)
    let calls = counting.take().calls
    // One for the two tasks it loses, one for the three it gains.
    #expect(
      calls.filter { $0.hasPrefix("setToOne") } == [
        "setToOne tasks.project", "setToOne tasks.project",
      ])
    #expect(!calls.contains("update tasks"))
    let now = await Self.get(server, "/projects/2")
    #expect(now.json["data"]?["relationships"]?["tasks"]?["data"]?.arrayValue?.count == 3)
  }
}
