import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// Delete rules (issue 46 item 5) on the tracker: `tasks.project` is required, so deleting a
/// project is refused while tasks name it, unless the declaration cascades.
@Suite struct DeleteRuleTests {
  typealias T = TrackerFixture

  /// The tracker's declarations, with `tasks.project` cascading when `cascade`, and the tasks'
  /// policy replaced by `taskPolicy` when given.
  static func server(
    cascade: Bool, taskPolicy: JSONAPIResourcePolicy? = nil,
    records: [JSONAPIResourceRecord]? = nil
  ) async throws -> (JSONAPIServer, JSONAPIMemoryStore, RowCountingStore) {
    var declarations = try T.declarations()
    if let index = declarations.firstIndex(where: { $0.type == "tasks" }) {
      if let taskPolicy { declarations[index] = declarations[index].secured(by: taskPolicy) }
      if cascade { declarations[index] = try declarations[index].onDelete("project", .cascade) }
    }
    let memory = JSONAPIMemoryStore(schemas: declarations.map(\.schema))
    try await memory.insert(records ?? T.seed())
    let counting = RowCountingStore(base: memory)
    let server = try JSONAPIServer(
      resources: declarations, store: counting, baseURL: "https://tracker.example.com")
    return (server, memory, counting)
  }

  static func errors(_ response: JSONAPIServerResponse) -> [JSONAPIValue] {
    response.json["errors"]?.arrayValue ?? []
  }

  @Test func defaultsFollowTheModel() throws {
    let declarations = try T.declarations()
    let tasks = try #require(declarations.first { $0.type == "tasks" })
    let projects = try #require(declarations.first { $0.type == "projects" })
    #expect(tasks.deleteRule(of: "project") == .refuse)  // required to-one
    #expect(tasks.deleteRule(of: "assignee") == .setNull)  // optional to-one
    #expect(projects.deleteRule(of: "members") == .setNull)  // to-many
    #expect(projects.deleteRule(of: "tasks") == nil)  // an inverse: tasks.project decides
    #expect(projects.deleteRule(of: "nothing") == nil)
    #expect(try tasks.onDelete("project", .cascade).deleteRule(of: "project") == .cascade)
  }

  @Test func misdeclaredRulesAreRefused() throws {
    let declarations = try T.declarations()
    let tasks = try #require(declarations.first { $0.type == "tasks" })
    let projects = try #require(declarations.first { $0.type == "projects" })
    let null = #expect(throws: JSONAPIDeclarationError.self) {
      try tasks.onDelete("project", .setNull)
    }
    #expect(null?.reason.contains("requires it") == true)
    let inverse = #expect(throws: JSONAPIDeclarationError.self) {
      try projects.onDelete("tasks", .cascade)
    }
    #expect(inverse?.reason.contains("tasks.project") == true)
    #expect(throws: JSONAPIDeclarationError.self) { try tasks.onDelete("title", .refuse) }
    #expect(throws: JSONAPIDeclarationError.self) { try tasks.onDelete("nothing", .refuse) }
  }

  /// The default for a required to-one: refused with the relationship, nothing deleted (before
  /// this rule the tasks were left without a project). Tasks have a visibility policy, so the
  /// refusal tells no count (the conformance suite's `deleteRefusals` checks counts of types
  /// without one).
  @Test func requiredToOneRefusesByDefault() async throws {
    let (server, store, _) = try await Self.server(cascade: false)
    let before = try await T.snapshot(store)
    let response = await T.respond(server, as: "2", "DELETE", "/projects/3")
    #expect(response.status == 409)
    let error = try #require(Self.errors(response).first)
    #expect(error["code"] == "delete-refused")
    #expect(error["meta"]?["relationship"] == "tasks.project")
    #expect(error["meta"]?["count"] == nil)
    #expect(error["detail"]?.stringValue?.contains("tasks name it") == true)
    #expect(try await T.snapshot(store) == before)
  }

  /// A requester the project's own rule refuses gets that refusal, not the count of the rows
  /// that name the project.
  @Test func theResourcesOwnRuleComesBeforeTheCount() async throws {
    let (server, store, _) = try await Self.server(cascade: false)
    let before = try await T.snapshot(store)
    // Ann is a member of project 3, not its owner.
    let response = await T.respond(server, as: "1", "DELETE", "/projects/3")
    #expect(response.status == 403)
    #expect(Self.errors(response).first?["meta"] == nil)
    #expect(Self.errors(response).first?["code"] == "forbidden")
    #expect(try await T.snapshot(store) == before)
  }

  /// The tracker's rule: deleting a project deletes its tasks, and only those.
  @Test func cascadeDeletesTheTasks() async throws {
    let (server, store, _) = try await Self.server(cascade: true)
    let response = await T.respond(server, as: "2", "DELETE", "/projects/3")
    #expect(response.status == 204)
    let left = try await T.snapshot(store)
    #expect(!left.contains { $0.type == "projects" && $0.id == "3" })
    #expect(left.filter { $0.type == "tasks" }.map(\.id) == ["1", "2", "5"])
  }

  /// A cascaded delete runs the cascaded type's delete rule: a task that refuses its delete
  /// refuses the project's, and nothing is deleted.
  @Test func cascadeRunsTheCascadedTypesPolicy() async throws {
    let base = try #require(try T.declarations().first { $0.type == "tasks" }?.policy)
    var policy = base
    policy.delete = { check in
      if check.before?.attributes["done"] == .bool(true) {
        throw JSONAPIWriteCheck.forbidden("A done task is kept")
      }
      try await base.delete?(check)
    }
    var records = T.seed()
    if let index = records.firstIndex(where: { $0.type == "tasks" && $0.id == "4" }) {
      records[index].attributes["done"] = .bool(true)
    }
    let (server, store, _) = try await Self.server(
      cascade: true, taskPolicy: policy, records: records)
    let before = try await T.snapshot(store)
    let response = await T.respond(server, as: "2", "DELETE", "/projects/3")
    #expect(response.status == 403)
    #expect(Self.errors(response).first?["detail"] == "A done task is kept")
    #expect(try await T.snapshot(store) == before)
    // The tasks' own rule (only the project's owner deletes a task) holds too: Ann is a member
    // of project 3, not its owner, and the project's rule stops her first.
    let member = await T.respond(server, as: "1", "DELETE", "/projects/3")
    #expect(member.status == 403)
    #expect(try await T.snapshot(store) == before)
  }

  /// Rows the requester cannot see still name the project: they refuse its delete but are
  /// neither named nor counted (a count would tell how many hidden rows there are); and a
  /// cascade deletes them too, once their type's delete rule allows it.
  @Test func hiddenRowsAreCountedNotNamed() async throws {
    let base = try #require(try T.declarations().first { $0.type == "tasks" }?.policy)
    var policy = base
    // Only the tasks assigned to the requester are visible.
    policy.visible = { requester in
      guard let user = requester?.userID else { return .never }
      return .linked("assignee", to: [user])
    }
    for cascade in [false, true] {
      let (server, store, _) = try await Self.server(cascade: cascade, taskPolicy: policy)
      let visible = await T.respond(server, as: "2", "GET", "/tasks?filter[project]=3")
      #expect(visible.ids == ["4"])
      let response = await T.respond(server, as: "2", "DELETE", "/projects/3")
      if cascade {
        #expect(response.status == 204)
        let tasks = try await T.snapshot(store).filter { $0.type == "tasks" }
        #expect(tasks.map(\.id) == ["1", "2", "5"])
      } else {
        #expect(response.status == 409)
        let error = try #require(Self.errors(response).first)
        #expect(error["code"] == "delete-refused")
        #expect(error["meta"]?["relationship"] == "tasks.project")
        #expect(error["meta"]?["count"] == nil)
        #expect(error["detail"]?.stringValue?.contains("2") == false)
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(!text.contains("tasks/3") && !text.contains(#""3""#))
        #expect(!T.named(in: response.body).contains(ServedIdentity(type: "tasks", id: "3")))
      }
    }
  }

  /// Under /operations, a refused remove leaves nothing of its batch, and its error points at it.
  @Test func refusedRemoveUndoesTheBatch() async throws {
    let (server, store, _) = try await Self.server(cascade: false)
    let before = try await T.snapshot(store)
    let body = """
      {"atomic:operations": [
        {"op": "update", "data": {"type": "projects", "id": "3", "attributes": {"name": "New"}}},
        {"op": "add", "data": {"type": "tasks", "attributes": {"title": "x", "done": false},
          "relationships": {"project": {"data": {"type": "projects", "id": "2"}}}}},
        {"op": "remove", "ref": {"type": "projects", "id": "3"}}
      ]}
      """
    let response = await T.respond(server, as: "2", "POST", "/operations", body: body, atomic: true)
    #expect(response.status == 409)
    let error = try #require(Self.errors(response).first)
    #expect(error["code"] == "delete-refused")
    #expect(error["source"]?["pointer"] == "/atomic:operations/2")
    #expect(try await T.snapshot(store) == before)
  }

  @Test func cascadedRemoveUnderOperations() async throws {
    let (server, store, _) = try await Self.server(cascade: true)
    let body = #"{"atomic:operations": [{"op": "remove", "ref": {"type": "projects", "id": "3"}}]}"#
    let response = await T.respond(server, as: "2", "POST", "/operations", body: body, atomic: true)
    #expect(response.status == 200)
    let tasks = try await T.snapshot(store).filter { $0.type == "tasks" }
    #expect(tasks.map(\.id) == ["1", "2", "5"])
  }

  /// The rows that name a batch are read in one page per relationship and batch, and deleted in
  /// one bulk call per batch: not once per row. (Without the tasks' delete rule, whose reads of
  /// each task's project are the app's own.)
  @Test func cascadeReadsAndDeletesInBatches() async throws {
    var records = T.seed()
    for number in 100..<1_300 {
      records.append(T.task("\(number)", "many", project: "4", assignee: "3"))
    }
    let visible = try #require(try T.declarations().first { $0.type == "tasks" }?.policy.visible)
    let (server, store, counting) = try await Self.server(
      cascade: true, taskPolicy: JSONAPIResourcePolicy(visible: visible), records: records)
    _ = counting.take()
    let response = await T.respond(server, as: "3", "DELETE", "/projects/4")
    #expect(response.status == 204)
    let calls = counting.take().calls
    // One page finds the 1 201 tasks (no relationship but inverses names tasks); the others
    // read the project's own `tasks` and their visibility: three in all, whatever the count.
    #expect(calls.filter { $0 == "page tasks" }.count <= 3)
    #expect(calls.filter { $0 == "delete[] tasks" }.count == 3)  // 500 + 500 + 201
    #expect(!calls.contains("delete tasks"))
    #expect(calls.filter { $0 == "delete projects" }.count == 1)
    let left = try await T.snapshot(store)
    #expect(left.filter { $0.type == "tasks" }.map(\.id) == ["1", "2", "3", "4"])
  }

  /// A cascade larger than the bound is refused before anything is deleted.
  @Test func cascadeIsBounded() async throws {
    var records = T.seed()
    for number in 0...JSONAPIServer.maxDeletedResources {
      records.append(T.task("\(100 + number)", "many", project: "4", assignee: "3"))
    }
    let (server, store, _) = try await Self.server(cascade: true, records: records)
    let response = await T.respond(server, as: "3", "DELETE", "/projects/4")
    #expect(response.status == 409)
    #expect(Self.errors(response).first?["code"] == "delete-too-large")
    let tasks = try await T.snapshot(store).filter { $0.type == "tasks" }
    #expect(tasks.count == 5 + JSONAPIServer.maxDeletedResources + 1)
  }
}
