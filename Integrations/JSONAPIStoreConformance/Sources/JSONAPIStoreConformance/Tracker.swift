import Foundation
import JSONAPIServer

/// The tracker of issue 46 (users, projects with an owner and members, tasks in projects), with
/// its pinned rules as policies: a user sees a project they own or are a member of, the tasks of
/// the projects they see, themselves and the users who share a project they see. The policy
/// checks serve it by `JSONAPIServer` over the store under test.
enum Tracker {
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

  /// The tracker's declarations' schemas: what a policy check's store is made for.
  static var schemas: [JSONAPIResourceSchema] {
    (try? declarations().map(\.schema)) ?? []
  }

  /// A server over `store`, seeded with `records` (the pinned seed by default); `nil` for a
  /// store that applies no row conditions, which a server refuses for these declarations (the
  /// policy checks hold only stores that say they apply them).
  static func server(_ store: any JSONAPIStore, _ records: [JSONAPIResourceRecord]? = nil)
    async throws -> JSONAPIServer?
  {
    guard store.appliesRowConditions else { return nil }
    try await store.seed(records ?? seed())
    return try JSONAPIServer(
      resources: try declarations(), store: store, baseURL: "https://tracker.example.com")
  }

  static let mediaType = "application/vnd.api+json"
  static let atomic = #"application/vnd.api+json;ext="https://jsonapi.org/ext/atomic""#

  /// `request` as user `user` (`nil`: nobody signed in).
  static func respond(
    _ server: JSONAPIServer, as user: String?, _ method: String, _ target: String,
    body: String? = nil, atomic: Bool = false
  ) async -> JSONAPIServerResponse {
    let type = atomic ? Self.atomic : mediaType
    var headers: [(name: String, value: String)] = [("Accept", type)]
    if body != nil { headers.append(("Content-Type", type)) }
    return await server.respond(
      to: JSONAPIServerRequest(
        method: method, target: target, headers: headers, body: Data((body ?? "").utf8),
        context: user.map { JSONAPIRequester(userID: $0) }))
  }

  /// The pages of a list from `first` on, following `links.next` (at most 60 pages), each with
  /// the target it answers.
  static func walk(_ server: JSONAPIServer, as user: String?, _ first: String) async throws
    -> [(String, JSONAPIServerResponse)]
  {
    var pages: [(String, JSONAPIServerResponse)] = []
    var target: String? = first
    while let next = target, pages.count < 60 {
      let response = await respond(server, as: user, "GET", next)
      pages.append((next, response))
      let document = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
      target = ((document?["links"] as? [String: Any])?["next"] as? String)?
        .replacingOccurrences(of: "https://tracker.example.com", with: "")
    }
    return pages
  }

  /// The ids of a response's primary data, in order.
  static func ids(in response: JSONAPIServerResponse) -> [String] {
    let document = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
    return (document?["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
  }

  /// Every stored record, by type and id order: to compare the store before and after a write.
  static func snapshot(_ store: any JSONAPIStore) async throws -> [JSONAPIResourceRecord] {
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

  /// Empties `store` of the tracker's records (deleting each clears what names it).
  static func clear(_ store: any JSONAPIStore) async throws {
    let records = try await snapshot(store)
    try await store.write { writer in
      for record in records { _ = try await writer.delete(record.type, id: record.id) }
    }
  }

  /// A resource as responses name it: its type and id.
  struct Identity: Hashable, Sendable, CustomStringConvertible {
    var type: String
    var id: String
    init(type: String, id: String) {
      self.type = type
      self.id = id
    }
    init(_ record: JSONAPIResourceRecord) { self.init(type: record.type, id: record.id) }
    var description: String { "\(type)/\(id)" }
  }

  /// Every resource identifier object (`type` and `id`) anywhere in a JSON body: primary data,
  /// `included`, linkage, results. Walked with a stack, not recursion.
  static func named(in body: Data) -> Set<Identity> {
    guard let root = try? JSONSerialization.jsonObject(with: body) else { return [] }
    var found: Set<Identity> = []
    var stack: [Any] = [root]
    while let value = stack.popLast() {
      if let object = value as? [String: Any] {
        if let type = object["type"] as? String, let id = object["id"] as? String {
          found.insert(Identity(type: type, id: id))
        }
        stack += Array(object.values)
      } else if let array = value as? [Any] {
        stack += array
      }
    }
    return found
  }

  /// What `user` may see in `records`, computed from the rules (the oracle).
  static func visible(to user: String?, in records: [JSONAPIResourceRecord]) -> Set<Identity> {
    guard let user else { return [] }
    var seen: Set<Identity> = [Identity(type: "users", id: user)]
    var projects: Set<String> = []
    for record in records where record.type == "projects" {
      let people = ["owner", "members"].flatMap {
        record.relationships[$0]?.identifiers.compactMap(\.id) ?? []
      }
      guard people.contains(user) else { continue }
      projects.insert(record.id)
      seen.insert(Identity(record))
      for person in people { seen.insert(Identity(type: "users", id: person)) }
    }
    for record in records where record.type == "tasks" {
      if let project = record.relationships["project"]?.identifiers.first?.id,
        projects.contains(project)
      {
        seen.insert(Identity(record))
      }
    }
    return seen
  }
}
