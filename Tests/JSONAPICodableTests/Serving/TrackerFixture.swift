import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// The tracker of issue 46 (users, projects with an owner and members, tasks in projects) served
/// by `JSONAPIServer` on a `JSONAPIMemoryStore`, with its pinned rules as policies: a user sees a
/// project they own or are a member of, the tasks of the projects they see, themselves and the
/// users who share a project they see.
enum TrackerFixture {
  struct User: Codable, Sendable, JSONAPIResource {
    static let jsonAPIType = "users"
    var id: String?
    var name: String
    var email: String
    var ownedProjects: [Project]?
    var assigned: [Task]?
  }

  struct Project: Codable, Sendable, JSONAPIResource {
    static let jsonAPIType = "projects"
    var id: String?
    var name: String
    var owner: User
    var members: [User]?
    var tasks: [Task]?
  }

  struct Task: Codable, Sendable, JSONAPIResource {
    static let jsonAPIType = "tasks"
    var id: String?
    var title: String
    var done: Bool
    var priority: Int?
    var due: String?
    var project: Project
    var assignee: User?
  }

  static let types = ["users", "projects", "tasks"]

  static func id(_ type: String, _ id: String) -> JSONAPIResourceIdentifier {
    JSONAPIResourceIdentifier(type: type, id: id)
  }

  /// The policies of the pinned rules.
  static func declarations(taskPaging: JSONAPIPaging = .cursor(defaultSize: 2, maxSize: 50))
    throws -> [JSONAPIResourceDeclaration]
  {
    let users = try JSONAPIResourceDeclaration(
      User.self, filters: ["name": .contains("name")], sortable: ["name"],
      inverses: ["ownedProjects": "owner", "assigned": "assignee"]
    ).secured(
      by: JSONAPIResourcePolicy(
        visible: { requester in
          guard let user = requester?.userID else { return .never }
          return .any([
            .id(in: [user]),
            .namedBy(type: "projects", relationship: "owner", .visible),
            .namedBy(type: "projects", relationship: "members", .visible),
          ])
        },
        create: { _ in throw JSONAPIWriteCheck.forbidden("Users are not created over the API") },
        update: { check in
          guard check.before?.id == check.requester?.userID else {
            throw JSONAPIWriteCheck.forbidden("A user changes only themselves")
          }
        },
        delete: { _ in throw JSONAPIWriteCheck.forbidden("Users are not deleted over the API") }))
    let projects = try JSONAPIResourceDeclaration(
      Project.self, filters: ["name": .contains("name")], sortable: ["name"],
      paging: .pageNumber(defaultSize: 2, maxSize: 50), inverses: ["tasks": "project"]
    ).secured(
      by: JSONAPIResourcePolicy(
        visible: { requester in
          guard let user = requester?.userID else { return .never }
          return .any([.linked("owner", to: [user]), .linked("members", to: [user])])
        },
        create: { check in
          guard let user = check.requester?.userID, check.id(of: "owner") == user else {
            throw JSONAPIWriteCheck.forbidden("A project is created with its requester as owner")
          }
        },
        update: { check in
          guard let user = check.requester?.userID,
            check.before?.relationships["owner"]?.identifiers.first?.id == user
          else { throw JSONAPIWriteCheck.forbidden("Only the owner changes a project") }
          guard check.before?.relationships["owner"] == check.after?.relationships["owner"] else {
            throw JSONAPIWriteCheck.forbidden(
              "`owner` is set on create only", pointer: "/data/relationships/owner")
          }
        },
        delete: { check in
          guard check.id(of: "owner") == check.requester?.userID else {
            throw JSONAPIWriteCheck.forbidden("Only the owner deletes a project")
          }
        }))
    let assigneeInProject: @Sendable (JSONAPIWriteCheck) async throws -> Void = { check in
      guard let assignee = check.after?.relationships["assignee"]?.identifiers.first?.id else {
        return
      }
      let project = try await check.reader.resources(
        "projects", ids: [check.id(of: "project") ?? ""]
      )
      .first
      let people = ["owner", "members"].flatMap { project?.relationships[$0]?.identifiers ?? [] }
      guard people.contains(where: { $0.id == assignee }) else {
        throw JSONAPIErrorObject(
          status: "422", code: "assignee-not-in-project", title: "Invalid Member",
          detail: "The assignee is the project's owner or one of its members",
          source: .init(pointer: "/data/relationships/assignee"))
      }
    }
    let tasks = try JSONAPIResourceDeclaration(
      Task.self, filters: ["project": .ids("project"), "done": .equals("done")],
      sortable: ["title", "priority", "due"], paging: taskPaging
    ).secured(
      by: JSONAPIResourcePolicy(
        visible: { _ in .related("project", .visible) },
        // The project is visible (the server found it so), hence the requester is in it.
        create: assigneeInProject,
        update: { check in
          guard check.before?.relationships["project"] == check.after?.relationships["project"]
          else {
            throw JSONAPIWriteCheck.forbidden(
              "`project` is set on create only", pointer: "/data/relationships/project")
          }
          try await assigneeInProject(check)
        },
        delete: { check in
          let project = try await check.reader.resources(
            "projects", ids: [check.id(of: "project") ?? ""]
          ).first
          guard let user = check.requester?.userID,
            project?.relationships["owner"]?.identifiers.first?.id == user
          else { throw JSONAPIWriteCheck.forbidden("Only the project's owner deletes a task") }
        }))
    return [users, projects, tasks]
  }

  /// The pinned seed.
  static func seed() -> [JSONAPIResourceRecord] {
    let users = [("1", "ann"), ("2", "bob"), ("3", "cat")].map { id, name in
      JSONAPIResourceRecord(
        type: "users", id: id,
        attributes: ["name": .string(name), "email": .string("\(name)@example.com")])
    }
    let projects = [
      ("1", "Ann's plans", "1", [String]()), ("2", "Bob's secrets", "2", []),
      ("3", "Shared", "2", ["1"]), ("4", "Cat's corner", "3", []),
    ].map { id, name, owner, members in
      project(id, name: name, owner: owner, members: members)
    }
    let tasks = [
      task("1", "Ann's task", project: "1", assignee: "1", priority: 1),
      task("2", "Bob's secret task", project: "2", assignee: "2"),
      task("3", "Shared task", project: "3", assignee: "1"),
      task("4", "Bob's shared task", project: "3", assignee: "2", due: "2020-01-01T00:00:00Z"),
      task("5", "Cat's task", project: "4", assignee: "3"),
    ]
    return users + projects + tasks
  }

  static func project(_ id: String, name: String, owner: String, members: [String])
    -> JSONAPIResourceRecord
  {
    JSONAPIResourceRecord(
      type: "projects", id: id, attributes: ["name": .string(name)],
      relationships: [
        "owner": .toOne(Self.id("users", owner)),
        "members": .toMany(members.map { Self.id("users", $0) }),
      ])
  }

  static func task(
    _ id: String, _ title: String, project: String, assignee: String?, priority: Int? = nil,
    due: String? = nil
  ) -> JSONAPIResourceRecord {
    var attributes: [String: JSONAPIValue] = ["title": .string(title), "done": .bool(false)]
    attributes["priority"] = priority.map { .integer($0) } ?? .null
    attributes["due"] = due.map { .string($0) } ?? .null
    return JSONAPIResourceRecord(
      type: "tasks", id: id, attributes: attributes,
      relationships: [
        "project": .toOne(Self.id("projects", project)),
        "assignee": .toOne(assignee.map { Self.id("users", $0) }),
      ])
  }

  /// The server and its store, seeded with `records` (the pinned seed by default).
  static func server(_ records: [JSONAPIResourceRecord]? = nil) async throws -> (
    JSONAPIServer, JSONAPIMemoryStore
  ) {
    let declarations = try declarations()
    let store = JSONAPIMemoryStore(schemas: declarations.map(\.schema))
    try await store.insert(records ?? seed())
    let server = try JSONAPIServer(
      resources: declarations, store: store, baseURL: "https://tracker.example.com")
    return (server, store)
  }

  /// `request` as user `user` (`nil`: nobody signed in).
  static func respond(
    _ server: JSONAPIServer, as user: String?, _ method: String, _ target: String,
    body: String? = nil, atomic: Bool = false
  ) async -> JSONAPIServerResponse {
    var request = ServerFixture.request(
      method, target, body: body,
      contentType: atomic ? ServerFixture.atomic : ServerFixture.mediaType,
      accept: atomic ? ServerFixture.atomic : ServerFixture.mediaType)
    request.context = user.map { JSONAPIRequester(userID: $0) }
    return await server.respond(to: request)
  }

  /// Every stored record, by type and id order: to compare the store before and after a write.
  static func snapshot(_ store: JSONAPIMemoryStore) async throws -> [JSONAPIResourceRecord] {
    try await store.read { reader in
      var all: [JSONAPIResourceRecord] = []
      for type in types {
        all += try await reader.page(
          JSONAPIStoreQuery(type: type, window: .offset(0, limit: Int.max), countsTotal: false)
        ).resources
      }
      return all
    }
  }

  /// Every resource identifier object (`type` and `id`) anywhere in a JSON body: primary data,
  /// `included`, linkage, results. Walked with a stack, not recursion.
  static func named(in body: Data) -> Set<ServedIdentity> {
    guard let root = try? JSONSerialization.jsonObject(with: body) else { return [] }
    var found: Set<ServedIdentity> = []
    var stack: [Any] = [root]
    while let value = stack.popLast() {
      if let object = value as? [String: Any] {
        if let type = object["type"] as? String, let id = object["id"] as? String {
          found.insert(ServedIdentity(type: type, id: id))
        }
        stack += Array(object.values)
      } else if let array = value as? [Any] {
        stack += array
      }
    }
    return found
  }

  /// What `user` may see in `records`, computed from the rules (the oracle).
  static func visible(to user: String?, in records: [JSONAPIResourceRecord]) -> Set<ServedIdentity>
  {
    guard let user else { return [] }
    var seen: Set<ServedIdentity> = [ServedIdentity(type: "users", id: user)]
    var projects: Set<String> = []
    for record in records where record.type == "projects" {
      let people = ["owner", "members"].flatMap {
        record.relationships[$0]?.identifiers.compactMap(\.id) ?? []
      }
      guard people.contains(user) else { continue }
      projects.insert(record.id)
      seen.insert(ServedIdentity(record))
      for person in people { seen.insert(ServedIdentity(type: "users", id: person)) }
    }
    for record in records where record.type == "tasks" {
      if let project = record.relationships["project"]?.identifiers.first?.id,
        projects.contains(project)
      {
        seen.insert(ServedIdentity(record))
      }
    }
    return seen
  }
}
