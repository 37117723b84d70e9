import Foundation
import JSONAPIServer

// The delete-rule checks: a `JSONAPIServer` over the store, deleting through `respond(to:)` as a
// client would, and what the store holds afterwards. The rules run in the server over the store
// protocol, so these check what a store must give them: relationship filters that find the rows
// naming a batch, the bulk `delete(_:ids:)` clearing linkage, and a transaction that keeps
// nothing of a refused delete.
extension JSONAPIStoreConformance {
  /// The schemas of the delete-rule checks: `people` (a `mentor`, to make a cycle), `projects` (an
  /// optional `lead`), `tasks` (a required `project`, an optional `assignee`), `comments` (a
  /// required `task`), `pins` (a required `project`, refused by default) and `boards` (to-many
  /// `projects` that refuse deletes, to-many `watchers` that lose them).
  public static let deleteRuleSchemas: [JSONAPIResourceSchema] = [
    JSONAPIResourceSchema(
      type: "people", attributes: [.init(name: "name", kind: .string, isOptional: true)],
      relationships: [
        .init(name: "mentor", targetType: "people", isToMany: false, isOptional: true)
      ]),
    JSONAPIResourceSchema(
      type: "projects", attributes: [.init(name: "name", kind: .string, isOptional: true)],
      relationships: [
        .init(name: "lead", targetType: "people", isToMany: false, isOptional: true)
      ]),
    JSONAPIResourceSchema(
      type: "tasks", attributes: [.init(name: "title", kind: .string, isOptional: true)],
      relationships: [
        .init(name: "project", targetType: "projects", isToMany: false, isOptional: false),
        .init(name: "assignee", targetType: "people", isToMany: false, isOptional: true),
      ]),
    JSONAPIResourceSchema(
      type: "comments", attributes: [.init(name: "body", kind: .string, isOptional: true)],
      relationships: [
        .init(name: "task", targetType: "tasks", isToMany: false, isOptional: false)
      ]),
    JSONAPIResourceSchema(
      type: "pins", attributes: [.init(name: "label", kind: .string, isOptional: true)],
      relationships: [
        .init(name: "project", targetType: "projects", isToMany: false, isOptional: false)
      ]),
    JSONAPIResourceSchema(
      type: "boards", attributes: [.init(name: "name", kind: .string, isOptional: true)],
      relationships: [
        .init(name: "projects", targetType: "projects", isToMany: true, isOptional: true),
        .init(name: "watchers", targetType: "people", isToMany: true, isOptional: true),
      ]),
  ]

  /// A server over `store` with the checks' delete rules: a mentor's delete cascades to the
  /// people they mentor, a project's to its tasks, a task's to its comments; boards refuse the
  /// delete of a project they show; pins refuse by default (a required to-one).
  static func deleteRuleServer(_ store: any JSONAPIStore) throws -> JSONAPIServer {
    let declarations = try deleteRuleSchemas.map { schema in
      var declaration = try JSONAPIResourceDeclaration(schema: schema)
      switch schema.type {
      case "people": declaration = try declaration.onDelete("mentor", .cascade)
      case "tasks": declaration = try declaration.onDelete("project", .cascade)
      case "comments": declaration = try declaration.onDelete("task", .cascade)
      case "boards": declaration = try declaration.onDelete("projects", .refuse)
      default: break
      }
      return declaration
    }
    return try JSONAPIServer(resources: declarations, store: store)
  }

  /// `DELETE path` through `server`.
  static func delete(_ path: String, on server: JSONAPIServer) async -> JSONAPIServerResponse {
    await server.respond(
      to: JSONAPIServerRequest(
        method: "DELETE", target: path, headers: [("Accept", "application/vnd.api+json")]))
  }

  static func one(_ type: String, _ id: String?) -> JSONAPILinkage {
    .toOne(id.map { JSONAPIResourceIdentifier(type: type, id: $0) })
  }

  static func record(
    _ type: String, _ id: String, _ relationships: [String: JSONAPILinkage] = [:]
  ) -> JSONAPIResourceRecord {
    JSONAPIResourceRecord(type: type, id: id, relationships: relationships)
  }

  /// Two projects with tasks and comments, three people (1 and 2 mentor each other).
  static func deleteRuleSeed() -> [JSONAPIResourceRecord] {
    [
      record("people", "1"), record("people", "2"), record("people", "3"),
      record("projects", "1", ["lead": one("people", "3")]),
      record("projects", "2", ["lead": one("people", "1")]),
      record("tasks", "1", ["project": one("projects", "1"), "assignee": one("people", "3")]),
      record("tasks", "2", ["project": one("projects", "1"), "assignee": one("people", "1")]),
      record("tasks", "3", ["project": one("projects", "2"), "assignee": one("people", "3")]),
      record("comments", "1", ["task": one("tasks", "1")]),
      record("comments", "2", ["task": one("tasks", "1")]),
      record("comments", "3", ["task": one("tasks", "2")]),
      record("comments", "4", ["task": one("tasks", "3")]),
    ]
  }

  /// The ids of every stored resource of `type`.
  static func all(_ type: String, in store: any JSONAPIStore) async throws -> [String] {
    try await store.ids(
      JSONAPIStoreQuery(type: type, window: .offset(0, limit: 10_000), countsTotal: false))
  }

  static let deleteCascades: Body = { store, report in
    let server = try deleteRuleServer(store)
    var seed = deleteRuleSeed()
    // More tasks than one batch of the server's cascade reads, each with a comment.
    seed.append(record("projects", "3"))
    for number in 100..<700 {
      seed.append(record("tasks", "\(number)", ["project": one("projects", "3")]))
      seed.append(record("comments", "\(number)", ["task": one("tasks", "\(number)")]))
    }
    try await store.seed(seed)
    let project = await delete("/projects/1", on: server)
    report.expect(project.status, 204, "DELETE /projects/1 (tasks and comments cascade)")
    report.expect(try await all("projects", in: store), ["2", "3"], "projects after it")
    var tasks = try await all("tasks", in: store)
    let many = (100..<700).map { String($0) }
    report.expect(tasks, ["3"] + many, "tasks after it: its tasks 1 and 2 went")
    var comments = try await all("comments", in: store)
    report.expect(comments, ["4"] + many, "comments after it: those of tasks 1 and 2 went")
    let large = await delete("/projects/3", on: server)
    report.expect(large.status, 204, "DELETE /projects/3 (600 tasks, 600 comments cascade)")
    tasks = try await all("tasks", in: store)
    comments = try await all("comments", in: store)
    report.expect(tasks, ["3"], "tasks after deleting projects/3")
    report.expect(comments, ["4"], "comments after deleting projects/3")
    // A cycle: people 1 and 2 mentor each other; deleting one deletes both, once each.
    try await store.write { writer in
      _ = try await writer.update(record("people", "1", ["mentor": one("people", "2")]))
      _ = try await writer.update(record("people", "2", ["mentor": one("people", "1")]))
    }
    let person = await delete("/people/1", on: server)
    report.expect(person.status, 204, "DELETE /people/1 (1 and 2 mentor each other)")
    report.expect(try await all("people", in: store), ["3"], "people after the cycle's delete")
    report.expect(
      try await store.find("projects", "2")?.linked("lead"), [],
      "projects/2's lead after its lead's delete (set to null)")
    report.expect(
      try await store.find("tasks", "3")?.linked("project"), ["2"],
      "tasks/3's project after the cycle's delete")
  }

  static let deleteRefusals: Body = { store, report in
    let server = try deleteRuleServer(store)
    try await store.seed(
      deleteRuleSeed() + [
        record("pins", "1", ["project": one("projects", "2")]),
        record("pins", "2", ["project": one("projects", "2")]),
        record(
          "boards", "1",
          ["projects": .toMany([JSONAPIResourceIdentifier(type: "projects", id: "1")])]),
      ])
    let before = try await snapshot(store)
    let pinned = await delete("/projects/2", on: server)
    report.expect(pinned.status, 409, "DELETE /projects/2, which 2 pins name (required: refused)")
    let pinError = errors(pinned).first
    report.expect(pinError?["code"], "delete-refused", "its error's code")
    report.expect(pinError?["meta"]?["relationship"], "pins.project", "its error's relationship")
    report.expect(pinError?["meta"]?["count"], 2, "its error's count")
    let shown = await delete("/projects/1", on: server)
    report.expect(shown.status, 409, "DELETE /projects/1, which board 1 shows (declared refuse)")
    let boardError = errors(shown).first
    report.expect(boardError?["meta"]?["relationship"], "boards.projects", "its relationship")
    report.expect(boardError?["meta"]?["count"], 1, "its count")
    report.expect(try await snapshot(store), before, "the store after both refusals")
    // Once no pin names it, the delete goes through.
    let unpinned = await delete("/pins/1", on: server)
    report.expect(unpinned.status, 204, "DELETE /pins/1")
    _ = await delete("/pins/2", on: server)
    let free = await delete("/projects/2", on: server)
    report.expect(free.status, 204, "DELETE /projects/2 once no pin names it")
  }

  static let deleteSetsNull: Body = { store, report in
    let server = try deleteRuleServer(store)
    let watchers = ["1", "3"].map { JSONAPIResourceIdentifier(type: "people", id: $0) }
    try await store.seed(
      deleteRuleSeed() + [record("boards", "1", ["watchers": .toMany(watchers)])])
    let deleted = await delete("/people/3", on: server)
    report.expect(deleted.status, 204, "DELETE /people/3 (optional to-ones and a to-many)")
    report.expect(
      try await store.find("tasks", "1")?.linked("assignee"), [], "tasks/1's assignee (was 3)")
    report.expect(
      try await store.find("tasks", "2")?.linked("assignee"), ["1"], "tasks/2's assignee (was 1)")
    report.expect(
      try await store.find("projects", "1")?.linked("lead"), [], "projects/1's lead (was 3)")
    report.expect(
      try await store.find("boards", "1")?.linked("watchers"), ["1"],
      "boards/1's watchers (were 1 and 3)")
    report.expect(
      try await all("tasks", in: store), ["1", "2", "3"], "tasks after it (none deleted)")
  }

  /// The error objects of a response, as JSON.
  static func errors(_ response: JSONAPIServerResponse) -> [JSONAPIValue] {
    let document = try? JSONDecoder().decode(JSONAPIValue.self, from: response.body)
    guard case .array(let errors)? = document?["errors"] else { return [] }
    return errors
  }

  /// Every stored resource of the delete-rule types.
  static func snapshot(_ store: any JSONAPIStore) async throws -> [JSONAPIResourceRecord] {
    var records: [JSONAPIResourceRecord] = []
    for schema in deleteRuleSchemas {
      records += try await store.page(
        JSONAPIStoreQuery(type: schema.type, window: .offset(0, limit: 10_000), countsTotal: false)
      ).resources
    }
    return records
  }
}
