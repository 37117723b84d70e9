import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// A tracker with field rules (issue 46 items 3 and 4): users whose `email` only they are served,
/// projects whose `owner` the server sets to the requester, tasks whose `overdue` is computed and
/// whose `project` is set on create only. 3 users; project 1 owned by user 1 with tasks 1–3,
/// project 2 owned by user 2 with task 4.
enum FieldFixture {
  struct User: Codable, Sendable, JSONAPIResource {
    static let jsonAPIType = "users"
    var id: String?
    var name: String
    var email: String
  }

  struct Project: Codable, Sendable, JSONAPIResource {
    static let jsonAPIType = "projects"
    var id: String?
    var name: String
    var owner: User
    var tasks: [Task]?
  }

  struct Task: Codable, Sendable, JSONAPIResource {
    static let jsonAPIType = "tasks"
    var id: String?
    var title: String
    var due: Date
    var done: Bool
    var overdue: Bool
    var level: Int8?
    var token: UUID?
    var project: Project
  }

  /// The fixed "now" of the fixture's clock.
  static let now = Date(timeIntervalSince1970: 1_800_000_000)
  static let mediaType = ServerFixture.mediaType

  static func declarations(now: Date = now) throws -> [JSONAPIResourceDeclaration] {
    let users = try JSONAPIResourceDeclaration(
      User.self, filters: ["name": .contains("name")], sortable: ["name"]
    ).servedOnly("email") { user in user.requester?.userID == user.record.id }
    let projects = try JSONAPIResourceDeclaration(Project.self, inverses: ["tasks": "project"])
      .setToRequester("owner")
    let tasks = try JSONAPIResourceDeclaration(
      Task.self, filters: ["done": .equals("done")], sortable: ["due", "title"]
    )
    .computed("overdue") { task in
      guard let due = task.value(of: "due", as: Date.self) else { return .bool(false) }
      return .bool(due < now && task.record.attributes["done"] != .bool(true))
    }
    .createOnly("project")
    return [users, projects, tasks]
  }

  /// A date as the default decoder reads it (seconds since 2001-01-01).
  static func stored(_ date: Date) -> JSONAPIValue { .number(date.timeIntervalSinceReferenceDate) }

  static func seed() -> [JSONAPIResourceRecord] {
    var records = (1...3).map { number in
      JSONAPIResourceRecord(
        type: "users", id: "\(number)",
        attributes: ["name": .string("User \(number)"), "email": .string("u\(number)@x.test")])
    }
    for number in 1...2 {
      records.append(
        JSONAPIResourceRecord(
          type: "projects", id: "\(number)", attributes: ["name": .string("Project \(number)")],
          relationships: ["owner": .toOne(.init(type: "users", id: "\(number)"))]))
    }
    let tasks: [(due: TimeInterval, done: Bool, project: String)] = [
      (-86_400, false, "1"), (-86_400, true, "1"), (86_400, false, "1"), (-3_600, false, "2"),
    ]
    for (index, task) in tasks.enumerated() {
      records.append(
        JSONAPIResourceRecord(
          type: "tasks", id: "\(index + 1)",
          attributes: [
            "title": .string("Task \(index + 1)"),
            "due": stored(now.addingTimeInterval(task.due)), "done": .bool(task.done),
          ],
          relationships: ["project": .toOne(.init(type: "projects", id: task.project))]))
    }
    return records
  }

  /// The fixture's server over a seeded memory store, from `declarations` when given.
  static func server(
    now: Date = now, options: JSONAPIServer.Options = .init(),
    declarations given: [JSONAPIResourceDeclaration]? = nil
  ) async throws -> (JSONAPIServer, JSONAPIMemoryStore) {
    let declarations = try given ?? declarations(now: now)
    let store = JSONAPIMemoryStore(schemas: declarations.map(\.schema))
    _ = try await store.insert(seed())
    let server = try JSONAPIServer(
      resources: declarations, store: store, baseURL: "https://api.example.com", options: options)
    return (server, store)
  }

  /// A request by `user` (nobody when `nil`).
  static func request(
    _ method: String, _ target: String, body: String? = nil, contentType: String = mediaType,
    as user: String? = "1"
  ) -> JSONAPIServerRequest {
    // An Atomic Operations request asks for its answer in the extension's media type too.
    var request = ServerFixture.request(
      method, target, body: body, contentType: contentType, accept: contentType)
    request.context = user.map { JSONAPIRequester(userID: $0) }
    return request
  }

  static func respond(_ server: JSONAPIServer, _ request: JSONAPIServerRequest) async
    -> JSONAPIServerResponse
  {
    await ServerFixture.respond(server, request)
  }

  /// `POST /tasks`: a task "New" in project 1, due 2001-01-01 (long past), not done.
  static func createTask(_ server: JSONAPIServer) async -> JSONAPIServerResponse {
    await respond(
      server,
      request(
        "POST", "/tasks",
        body: #"{"data":{"type":"tasks","attributes":{"title":"New","due":0,"done":false},"#
          + #""relationships":{"project":{"data":{"type":"projects","id":"1"}}}}}"#))
  }

  /// The stored record, read from the store itself.
  static func stored(_ store: JSONAPIMemoryStore, _ type: String, _ id: String) async throws
    -> JSONAPIResourceRecord?
  {
    try await store.read { reader in try await reader.resources(type, ids: [id]).first }
  }

  static func operations(_ operations: String) -> String {
    #"{"atomic:operations":["# + operations + "]}"
  }
}

@Suite struct FieldCapabilityTests {
  typealias Fixture = FieldFixture

  // MARK: Computed attributes

  @Test func aComputedAttributeIsServedFromTheRecordAndNeverStored() async throws {
    let (server, store) = try await Fixture.server()
    let declarations = try Fixture.declarations()
    let tasks = try #require(declarations.first { $0.type == "tasks" })
    // Stores are built from `schema`: it has no column for the computed attribute.
    #expect(tasks.schema.attribute(named: "overdue") == nil)
    #expect(
      tasks.servedSchema.attributes.map(\.name) == [
        "title", "due", "done", "overdue", "level", "token",
      ])
    #expect(tasks.computedAttributes == ["overdue"])
    var overdue: [String: JSONAPIValue] = [:]
    for id in ["1", "2", "3", "4"] {
      let response = await Fixture.respond(server, Fixture.request("GET", "/tasks/\(id)"))
      #expect(response.status == 200)
      overdue[id] = response.json["data"]?["attributes"]?["overdue"]
    }
    // Past and not done; past but done; future; past and not done.
    #expect(overdue == ["1": true, "2": false, "3": false, "4": true])
    // In collections too.
    let answer = await Fixture.respond(server, Fixture.request("GET", "/tasks"))
    let listed = answer.json["data"]?.arrayValue?.map { $0["attributes"]?["overdue"] }
    #expect(listed == [true, false, false, true])
    let created = await Fixture.createTask(server)
    #expect(created.status == 201)
    // 2001-01-01 is long past: overdue, in the write's answer too.
    #expect(created.json["data"]?["attributes"]?["overdue"] == true)
    let id = try #require(created.json["data"]?["id"]?.stringValue)
    let record = try #require(try await Fixture.stored(store, "tasks", id))
    #expect(record.attributes["overdue"] == nil)
    #expect(record.attributes["title"] == "New")
  }

  /// A `willSave` hook that sets a computed attribute sets nothing stored: the store never keeps
  /// a value the server would not serve back, on a create, an update and a relationship write.
  @Test func aComputedAttributeSetByWillSaveIsNotStored() async throws {
    var declarations = try Fixture.declarations()
    let index = try #require(declarations.firstIndex { $0.type == "tasks" })
    let tasks = declarations[index]
    var hooks = JSONAPIResourceHooks()
    hooks.willSave = { record, _ in
      record.attributes["overdue"] = .string("set by the hook")
      record.attributes["title"] = .string("Hooked")
    }
    declarations[index] = try JSONAPIResourceDeclaration(
      Fixture.Task.self, filters: ["done": .equals("done")], sortable: ["due", "title"],
      hooks: hooks
    ).computed("overdue") { _ in .bool(true) }.createOnly("project")
    #expect(declarations[index].computedAttributes == tasks.computedAttributes)
    let (server, store) = try await Fixture.server(declarations: declarations)
    let created = await Fixture.createTask(server)
    #expect(created.status == 201)
    #expect(created.json["data"]?["attributes"]?["overdue"] == true)
    let id = try #require(created.json["data"]?["id"]?.stringValue)
    var record = try #require(try await Fixture.stored(store, "tasks", id))
    // The hook's other change is kept; the computed attribute is not.
    #expect(record.attributes["title"] == "Hooked")
    #expect(record.attributes["overdue"] == nil)
    let updated = await Fixture.respond(
      server,
      Fixture.request(
        "PATCH", "/tasks/1", body: #"{"data":{"type":"tasks","id":"1","attributes":{"done":true}}}"#
      ))
    #expect(updated.status == 200)
    record = try #require(try await Fixture.stored(store, "tasks", "1"))
    #expect(record.attributes["overdue"] == nil)
    #expect(record.attributes["done"] == true)
  }

  /// A visibility policy filtering on a computed attribute (or on a member the type does not
  /// store) is misdeclared: the store would compare `null` on every row, and "equals null" would
  /// show them all. Every read of the type answers `500 misdeclared-policy` and names no row.
  @Test func aVisibilityPolicyOnAComputedAttributeIsMisdeclared() async throws {
    for member in ["overdue", "colour"] {
      var declarations = try Fixture.declarations()
      let index = try #require(declarations.firstIndex { $0.type == "tasks" })
      declarations[index] = declarations[index].secured(
        by: JSONAPIResourcePolicy(visible: { _ in
          .filter(JSONAPIFilterCondition(member: member, comparison: .equals, values: [.null]))
        }))
      let (server, _) = try await Fixture.server(declarations: declarations)
      for target in ["/tasks", "/tasks/1", "/projects/1?include=tasks"] {
        let response = await Fixture.respond(server, Fixture.request("GET", target))
        #expect(response.status == 500, "\(member): \(target)")
        #expect(response.json["errors"]?[0]?["code"] == "misdeclared-policy")
        #expect(response.json["data"] == nil)
      }
    }
  }

  @Test func computedValuesAreInIncludedFieldsetsAndTheETag() async throws {
    let (server, _) = try await Fixture.server()
    let included = await Fixture.respond(
      server, Fixture.request("GET", "/projects/1?include=tasks"))
    #expect(included.status == 200)
    let values = included.json["included"]?.arrayValue?.map { $0["attributes"]?["overdue"] }
    #expect(values == [true, false, false])
    let sparse = await Fixture.respond(
      server, Fixture.request("GET", "/tasks/1?fields%5Btasks%5D=overdue"))
    #expect(sparse.status == 200)
    #expect(sparse.json["data"]?["attributes"] == ["overdue": true])
    // The same stored task read a week later is no longer due: another answer, another tag.
    let (later, _) = try await Fixture.server(now: Fixture.now.addingTimeInterval(7 * 86_400))
    let before = await Fixture.respond(server, Fixture.request("GET", "/tasks/3"))
    let after = await Fixture.respond(later, Fixture.request("GET", "/tasks/3"))
    #expect(before.json["data"]?["attributes"]?["overdue"] == false)
    #expect(after.json["data"]?["attributes"]?["overdue"] == true)
    let tag = try #require(before.header("ETag"))
    #expect(after.header("ETag") != tag)
    var conditional = Fixture.request("GET", "/tasks/3")
    conditional.headers.append(("If-None-Match", tag))
    #expect(await Fixture.respond(server, conditional).status == 304)
    #expect(await Fixture.respond(later, conditional).status == 200)
  }

  @Test(arguments: [
    (
      "POST", "/tasks",
      #"{"data":{"type":"tasks","attributes":{"title":"x","due":0,"done":false,"overdue":false},"#
        + #""relationships":{"project":{"data":{"type":"projects","id":"1"}}}}}"#,
      "/data/attributes/overdue"
    ),
    (
      "PATCH", "/tasks/1", #"{"data":{"type":"tasks","id":"1","attributes":{"overdue":false}}}"#,
      "/data/attributes/overdue"
    ),
    // Sent as a relationship, it is refused for what it is, not as an unknown member.
    (
      "PATCH", "/tasks/1",
      #"{"data":{"type":"tasks","id":"1","relationships":{"overdue":{"data":null}}}}"#,
      "/data/relationships/overdue"
    ),
  ])
  func writingAComputedAttributeIs403AtItsPointer(
    method: String, target: String, body: String, pointer: String
  ) async throws {
    let (server, store) = try await Fixture.server()
    let response = await Fixture.respond(server, Fixture.request(method, target, body: body))
    #expect(response.status == 403)
    #expect(response.errorSource == pointer)
    #expect(response.json["errors"]?[0]?["code"] == "read-only-member")
    // Nothing was written.
    #expect(try await Fixture.stored(store, "tasks", "5") == nil)
    #expect(try await Fixture.stored(store, "tasks", "1")?.attributes["done"] == false)
  }

  @Test func anOperationWritingAComputedAttributeIsRefusedWithinTheOperation() async throws {
    let (server, store) = try await Fixture.server()
    let response = await Fixture.respond(
      server,
      Fixture.request(
        "POST", "/operations",
        body: Fixture.operations(
          #"{"op":"update","data":{"type":"tasks","id":"1","attributes":{"title":"A"}}},"#
            + #"{"op":"update","data":{"type":"tasks","id":"2","attributes":{"overdue":true}}}"#),
        contentType: ServerFixture.atomic))
    #expect(response.status == 403)
    #expect(response.errorSource == "/atomic:operations/1/data/attributes/overdue")
    // R74: the first operation is undone with the second.
    #expect(try await Fixture.stored(store, "tasks", "1")?.attributes["title"] == "Task 1")
  }

  @Test func computedAndRestrictedMembersAreNeitherSortableNorFilterable() async throws {
    let (server, _) = try await Fixture.server()
    for target in [
      "/tasks?sort=overdue", "/tasks?sort=-overdue", "/tasks?filter%5Boverdue%5D=true",
      "/users?sort=email", "/users?filter%5Bemail%5D=u1@x.test",
    ] {
      let response = await Fixture.respond(server, Fixture.request("GET", target))
      #expect(response.status == 400, "\(target)")
    }
    // What is declared works.
    let sorted = await Fixture.respond(server, Fixture.request("GET", "/tasks?sort=-due"))
    #expect(sorted.ids == ["3", "4", "1", "2"])
    let filtered = await Fixture.respond(
      server, Fixture.request("GET", "/tasks?filter%5Bdone%5D=true"))
    #expect(filtered.ids == ["2"])
    // A declaration naming such a member in filters or sort is refused, naming it.
    let value: @Sendable (JSONAPIFieldContext) -> JSONAPIValue = { _ in .bool(true) }
    let declarations: [() throws -> JSONAPIResourceDeclaration] = [
      {
        try JSONAPIResourceDeclaration(Fixture.Task.self, sortable: ["overdue"]).computed(
          "overdue", value)
      },
      {
        try JSONAPIResourceDeclaration(Fixture.Task.self, filters: ["late": .equals("overdue")])
          .computed("overdue", value)
      },
      {
        try JSONAPIResourceDeclaration(Fixture.Task.self, defaultSort: [.descending("overdue")])
          .computed("overdue", value)
      },
      {
        try JSONAPIResourceDeclaration(Fixture.User.self, sortable: ["email"])
          .servedOnly("email") { _ in true }
      },
      {
        try JSONAPIResourceDeclaration(Fixture.User.self, filters: ["email": .equals("email")])
          .servedOnly("email") { _ in true }
      },
    ]
    for declare in declarations {
      let error = #expect(throws: JSONAPIDeclarationError.self) { _ = try declare() }
      #expect(error?.reason.contains("neither filterable nor sortable") == true)
    }
  }

  @Test func fieldRulesNamingNoMemberOrClashingAreRefused() throws {
    let value: @Sendable (JSONAPIFieldContext) -> JSONAPIValue = { _ in .null }
    let base = try JSONAPIResourceDeclaration(Fixture.Task.self)
    #expect(throws: JSONAPIDeclarationError.self) { _ = try base.computed("color", value) }
    #expect(throws: JSONAPIDeclarationError.self) { _ = try base.computed("project", value) }
    #expect(throws: JSONAPIDeclarationError.self) { _ = try base.createOnly("color") }
    #expect(throws: JSONAPIDeclarationError.self) {
      _ = try base.computed("overdue", value).createOnly("overdue")
    }
    #expect(throws: JSONAPIDeclarationError.self) {
      _ = try base.createOnly("overdue").computed("overdue", value)
    }
    #expect(throws: JSONAPIDeclarationError.self) {
      _ = try base.setByServer(attribute: "project") { _ in .null }
    }
    #expect(throws: JSONAPIDeclarationError.self) {
      _ = try base.setByServer(relationship: "title") { _ in .toOne(nil) }
    }
    #expect(throws: JSONAPIDeclarationError.self) { _ = try base.setToRequester("title") }
    #expect(throws: JSONAPIDeclarationError.self) {
      _ = try base.servedOnly("project") { _ in true }
    }
  }

  // MARK: Create-only members

  @Test func aCreateOnlyRelationshipIsSetOnCreateAndNeverChanged() async throws {
    let (server, store) = try await Fixture.server()
    let created = await Fixture.respond(
      server,
      Fixture.request(
        "POST", "/tasks",
        body: #"{"data":{"type":"tasks","attributes":{"title":"New","due":0,"done":false},"#
          + #""relationships":{"project":{"data":{"type":"projects","id":"2"}}}}}"#))
    #expect(created.status == 201)
    #expect(created.json["data"]?["relationships"]?["project"]?["data"]?["id"] == "2")
    let refusals: [(JSONAPIServerRequest, String)] = [
      (
        Fixture.request(
          "PATCH", "/tasks/1",
          body: #"{"data":{"type":"tasks","id":"1","relationships":{"project":{"data":"#
            + #"{"type":"projects","id":"2"}}}}}"#), "/data/relationships/project"
      ),
      (
        Fixture.request(
          "PATCH", "/tasks/1/relationships/project",
          body: #"{"data":{"type":"projects","id":"2"}}"#), "/data"
      ),
      // Through the to-many of projects that mirrors it: moving tasks between projects.
      (
        Fixture.request(
          "PATCH", "/projects/2/relationships/tasks",
          body: #"{"data":[{"type":"tasks","id":"1"}]}"#), "/data"
      ),
      (
        Fixture.request(
          "POST", "/projects/2/relationships/tasks",
          body: #"{"data":[{"type":"tasks","id":"1"}]}"#), "/data"
      ),
      (
        Fixture.request(
          "DELETE", "/projects/1/relationships/tasks",
          body: #"{"data":[{"type":"tasks","id":"1"}]}"#), "/data"
      ),
      (
        Fixture.request(
          "PATCH", "/projects/2",
          body: #"{"data":{"type":"projects","id":"2","relationships":{"tasks":{"data":"#
            + #"[{"type":"tasks","id":"1"}]}}}}"#, as: "2"), "/data/relationships/tasks"
      ),
      (
        Fixture.request(
          "POST", "/projects",
          body: #"{"data":{"type":"projects","attributes":{"name":"P"},"relationships":"#
            + #"{"tasks":{"data":[{"type":"tasks","id":"1"}]}}}}"#), "/data/relationships/tasks"
      ),
      (
        Fixture.request(
          "POST", "/operations",
          body: Fixture.operations(
            #"{"op":"update","ref":{"type":"tasks","id":"1","relationship":"project"},"#
              + #""data":{"type":"projects","id":"2"}}"#), contentType: ServerFixture.atomic),
        "/atomic:operations/0/data"
      ),
      (
        Fixture.request(
          "POST", "/operations",
          body: Fixture.operations(
            #"{"op":"update","data":{"type":"tasks","id":"1","relationships":{"project":"#
              + #"{"data":{"type":"projects","id":"2"}}}}}"#), contentType: ServerFixture.atomic),
        "/atomic:operations/0/data/relationships/project"
      ),
      (
        Fixture.request(
          "POST", "/operations",
          body: Fixture.operations(
            #"{"op":"add","ref":{"type":"projects","id":"2","relationship":"tasks"},"#
              + #""data":[{"type":"tasks","id":"1"}]}"#), contentType: ServerFixture.atomic),
        "/atomic:operations/0/data"
      ),
    ]
    for (request, pointer) in refusals {
      let response = await Fixture.respond(server, request)
      #expect(response.status == 403, "\(request.method) \(request.target)")
      #expect(response.errorSource == pointer, "\(request.method) \(request.target)")
    }
    // Task 1 never moved.
    let task = try #require(try await Fixture.stored(store, "tasks", "1"))
    #expect(task.relationships["project"] == .toOne(.init(type: "projects", id: "1")))
    // Other members of the same task still change.
    let renamed = await Fixture.respond(
      server,
      Fixture.request(
        "PATCH", "/tasks/1", body: #"{"data":{"type":"tasks","id":"1","attributes":{"done":true}}}"#
      )
    )
    #expect(renamed.status == 200)
    #expect(renamed.json["data"]?["attributes"]?["overdue"] == false)
  }

  @Test func aCreateOnlyAttributeIsAcceptedOnCreateOnly() async throws {
    let users = try JSONAPIResourceDeclaration(Fixture.User.self).createOnly("email")
    let store = JSONAPIMemoryStore(schemas: [users.schema])
    let server = try JSONAPIServer(resources: [users], store: store)
    #expect(users.createOnlyMembers == ["email"])
    let created = await Fixture.respond(
      server,
      Fixture.request(
        "POST", "/users",
        body: #"{"data":{"type":"users","attributes":{"name":"A","email":"a@x.test"}}}"#))
    #expect(created.status == 201)
    let changed = await Fixture.respond(
      server,
      Fixture.request(
        "PATCH", "/users/1",
        body: #"{"data":{"type":"users","id":"1","attributes":{"email":"b@x.test"}}}"#))
    #expect(changed.status == 403)
    #expect(changed.errorSource == "/data/attributes/email")
    #expect(try await Fixture.stored(store, "users", "1")?.attributes["email"] == "a@x.test")
  }

  // MARK: Server-set members

  @Test func theServerSetsTheOwnerToTheRequesterOnCreate() async throws {
    let (server, store) = try await Fixture.server()
    // Required by the model, left out: the server sets it before the required check.
    let created = await Fixture.respond(
      server,
      Fixture.request(
        "POST", "/projects", body: #"{"data":{"type":"projects","attributes":{"name":"P"}}}"#,
        as: "2"))
    #expect(created.status == 201)
    #expect(created.json["data"]?["relationships"]?["owner"]?["data"]?["id"] == "2")
    let id = try #require(created.json["data"]?["id"]?.stringValue)
    let record = try #require(try await Fixture.stored(store, "projects", id))
    #expect(record.relationships["owner"] == .toOne(.init(type: "users", id: "2")))
    // The same value is accepted.
    let same = await Fixture.respond(
      server,
      Fixture.request(
        "POST", "/projects",
        body: #"{"data":{"type":"projects","attributes":{"name":"Q"},"relationships":"#
          + #"{"owner":{"data":{"type":"users","id":"3"}}}}}"#, as: "3"))
    #expect(same.status == 201)
    let before = try await store.read { reader in
      try await reader.page(
        JSONAPIStoreQuery(
          type: "projects", filters: [], sort: [.ascending("id")],
          window: .offset(0, limit: 100), countsTotal: true)
      ).total
    }
    let refusals: [(JSONAPIServerRequest, Int, String?)] = [
      // Another owner than the requester.
      (
        Fixture.request(
          "POST", "/projects",
          body: #"{"data":{"type":"projects","attributes":{"name":"R"},"relationships":"#
            + #"{"owner":{"data":{"type":"users","id":"3"}}}}}"#, as: "2"), 403,
        "/data/relationships/owner"
      ),
      // Nobody signed in: no owner to set.
      (
        Fixture.request(
          "POST", "/projects", body: #"{"data":{"type":"projects","attributes":{"name":"S"}}}"#,
          as: nil), 403, nil
      ),
      (
        Fixture.request(
          "PATCH", "/projects/1",
          body: #"{"data":{"type":"projects","id":"1","relationships":{"owner":{"data":"#
            + #"{"type":"users","id":"1"}}}}}"#), 403, "/data/relationships/owner"
      ),
      (
        Fixture.request(
          "PATCH", "/projects/1/relationships/owner", body: #"{"data":{"type":"users","id":"2"}}"#
        ), 403, "/data"
      ),
      (
        Fixture.request(
          "POST", "/operations",
          body: Fixture.operations(
            #"{"op":"add","data":{"type":"projects","attributes":{"name":"T"},"#
              + #""relationships":{"owner":{"data":{"type":"users","id":"1"}}}}}"#),
          contentType: ServerFixture.atomic, as: "2"), 403,
        "/atomic:operations/0/data/relationships/owner"
      ),
    ]
    for (request, status, pointer) in refusals {
      let response = await Fixture.respond(server, request)
      #expect(response.status == status, "\(request.method) \(request.target)")
      #expect(response.errorSource == pointer, "\(request.method) \(request.target)")
    }
    let after = try await store.read { reader in
      try await reader.page(
        JSONAPIStoreQuery(
          type: "projects", filters: [], sort: [.ascending("id")],
          window: .offset(0, limit: 100), countsTotal: true)
      ).total
    }
    #expect(after == before)
    #expect(
      try await Fixture.stored(store, "projects", "1")?.relationships["owner"]
        == .toOne(.init(type: "users", id: "1")))
    // In an operation the owner is set as in a create.
    let operation = await Fixture.respond(
      server,
      Fixture.request(
        "POST", "/operations",
        body: Fixture.operations(
          #"{"op":"add","data":{"type":"projects","attributes":{"name":"U"}}}"#),
        contentType: ServerFixture.atomic, as: "3"))
    #expect(operation.status == 200)
    #expect(
      operation.json["atomic:results"]?[0]?["data"]?["relationships"]?["owner"]?["data"]?["id"]
        == "3")
  }

  @Test func aServerSetAttributeIsFilledAndComparedOnCreate() async throws {
    let users = try JSONAPIResourceDeclaration(Fixture.User.self).setByServer(attribute: "email") {
      requester in .string("\(requester?.userID ?? "nobody")@x.test")
    }
    let store = JSONAPIMemoryStore(schemas: [users.schema])
    let server = try JSONAPIServer(resources: [users], store: store)
    #expect(users.serverSetMembers == ["email"])
    let created = await Fixture.respond(
      server,
      Fixture.request(
        "POST", "/users", body: #"{"data":{"type":"users","attributes":{"name":"A"}}}"#, as: "7"))
    #expect(created.status == 201)
    #expect(created.json["data"]?["attributes"]?["email"] == "7@x.test")
    let other = await Fixture.respond(
      server,
      Fixture.request(
        "POST", "/users",
        body: #"{"data":{"type":"users","attributes":{"name":"B","email":"me@x.test"}}}"#))
    #expect(other.status == 403)
    #expect(other.errorSource == "/data/attributes/email")
    #expect(try await Fixture.stored(store, "users", "2") == nil)
  }

  // MARK: Members served to some requesters only

  @Test func anEmailIsServedOnlyToItsUser() async throws {
    let (server, _) = try await Fixture.server()
    let own = await Fixture.respond(server, Fixture.request("GET", "/users/1", as: "1"))
    #expect(own.json["data"]?["attributes"]?["email"] == "u1@x.test")
    let others = await Fixture.respond(server, Fixture.request("GET", "/users/1", as: "2"))
    #expect(others.status == 200)
    #expect(others.json["data"]?["attributes"] == ["name": "User 1"])
    let nobody = await Fixture.respond(server, Fixture.request("GET", "/users/1", as: nil))
    #expect(nobody.json["data"]?["attributes"]?["email"] == nil)
    let list = await Fixture.respond(server, Fixture.request("GET", "/users", as: "2"))
    let emails = list.json["data"]?.arrayValue?.map { $0["attributes"]?["email"] }
    #expect(emails == [nil, "u2@x.test", nil])
    // Naming it in a sparse fieldset does not get it.
    let sparse = await Fixture.respond(
      server, Fixture.request("GET", "/users/1?fields%5Busers%5D=email", as: "2"))
    #expect(sparse.status == 200)
    #expect(sparse.json["data"]?["attributes"] == nil)
    // Nor including the user from elsewhere.
    let included = await Fixture.respond(
      server, Fixture.request("GET", "/projects/1?include=owner", as: "2"))
    #expect(included.json["included"]?[0]?["attributes"] == ["name": "User 1"])
    #expect(!String(decoding: included.body, as: UTF8.self).contains("u1@x.test"))
    // Nor a write's answer.
    let renamed = await Fixture.respond(
      server,
      Fixture.request(
        "PATCH", "/users/1", body: #"{"data":{"type":"users","id":"1","attributes":{"name":"N"}}}"#,
        as: "2"))
    #expect(renamed.status == 200)
    #expect(renamed.json["data"]?["attributes"] == ["name": "N"])
    // The owner is served the same resource with it.
    let mine = await Fixture.respond(
      server, Fixture.request("GET", "/projects/1?include=owner", as: "1"))
    #expect(mine.json["included"]?[0]?["attributes"]?["email"] == "u1@x.test")
  }

  // MARK: Values the model's types cannot read (issue 46 item 4)

  @Test(arguments: [
    // Default options read dates as numbers: text is refused at once.
    (#""due":"tomorrow""#, "/data/attributes/due", false),
    // ISO 8601 text that is no date: the model's type refuses it.
    (#""due":"tomorrow""#, "/data/attributes/due", true),
    (#""due":1700000000"#, "/data/attributes/due", true),
    // An integer too large for Int8, text that is no UUID: JSON types that fit the kind.
    (#""due":0,"level":300"#, "/data/attributes/level", false),
    (#""due":0,"token":"not-a-uuid""#, "/data/attributes/token", false),
  ])
  func aValueTheModelCannotReadIs422AndNeverStored(
    attributes: String, pointer: String, iso8601: Bool
  ) async throws {
    let options = JSONAPIServer.Options()
    if iso8601 {
      options.decoder.dateDecodingStrategy = .iso8601
      options.encoder.dateEncodingStrategy = .iso8601
    }
    let (server, store) = try await Fixture.server(options: options)
    let created = await Fixture.respond(
      server,
      Fixture.request(
        "POST", "/tasks",
        body: #"{"data":{"type":"tasks","attributes":{"title":"x","done":false,"# + attributes
          + #"},"relationships":{"project":{"data":{"type":"projects","id":"1"}}}}}"#))
    #expect(created.status == 422)
    #expect(created.errorSource == pointer)
    #expect(try await Fixture.stored(store, "tasks", "5") == nil)
    let updated = await Fixture.respond(
      server,
      Fixture.request(
        "PATCH", "/tasks/1",
        body: #"{"data":{"type":"tasks","id":"1","attributes":{"# + attributes
          + "}}}"))
    #expect(updated.status == 422)
    #expect(updated.errorSource == pointer)
    let operation = await Fixture.respond(
      server,
      Fixture.request(
        "POST", "/operations",
        body: Fixture.operations(
          #"{"op":"update","data":{"type":"tasks","id":"1","attributes":{"# + attributes + "}}}"),
        contentType: ServerFixture.atomic))
    #expect(operation.status == 422)
    #expect(operation.errorSource == "/atomic:operations/0" + pointer)
    let task = try #require(try await Fixture.stored(store, "tasks", "1"))
    #expect(task.attributes["level"] == nil && task.attributes["token"] == nil)
    #expect(task.attributes["due"] == Fixture.stored(Fixture.now.addingTimeInterval(-86_400)))
  }

  @Test func valuesTheModelReadsAreStoredAsSent() async throws {
    let options = JSONAPIServer.Options()
    options.decoder.dateDecodingStrategy = .iso8601
    options.encoder.dateEncodingStrategy = .iso8601
    let (server, store) = try await Fixture.server(options: options)
    let token = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
    let updated = await Fixture.respond(
      server,
      Fixture.request(
        "PATCH", "/tasks/1",
        body: #"{"data":{"type":"tasks","id":"1","attributes":{"due":"2030-01-01T00:00:00Z","#
          + #""level":-5,"token":""# + token + #""}}}"#))
    #expect(updated.status == 200)
    let task = try #require(try await Fixture.stored(store, "tasks", "1"))
    #expect(task.attributes["due"] == "2030-01-01T00:00:00Z")
    #expect(task.attributes["level"] == .integer(-5))
    #expect(task.attributes["token"] == .string(token))
  }

  // MARK: OpenAPI

  @Test func theDescriptionMarksFieldRulesAndReadsDatesAsTheServerDoes() async throws {
    typealias Schema = JSONAPIOpenAPIDocument.Schema
    let (server, _) = try await Fixture.server()
    let document = server.openAPIDocument(title: "Tracker", version: "1")
    let schemas = document.components.schemas
    let attributes = schemas["TasksAttributes"]?.properties
    #expect(attributes?["overdue"]?.readOnly == true)
    #expect(attributes?["due"] == Schema(type: ["number"]))
    // Requests: the computed attribute is not sent at all.
    #expect(schemas["TasksAttributesInCreate"]?.properties?["overdue"] == nil)
    #expect(schemas["TasksAttributesInCreate"]?.properties?["title"] != nil)
    #expect(schemas["TasksAttributesInUpdate"]?.properties?["overdue"] == nil)
    // Updates cannot change `project`, nor projects' `tasks` and `owner`.
    #expect(schemas["TasksRelationshipsInRequest"]?.properties?["project"] != nil)
    #expect(schemas["TasksRelationshipsInUpdate"]?.properties?["project"] == nil)
    #expect(schemas["ProjectsRelationshipsInUpdate"]?.properties?.keys.sorted() == [])
    #expect(schemas["ProjectsRelationships"]?.properties?["owner"]?.readOnly == true)
    let update = schemas["TasksUpdate"]?.properties?["data"]?.properties
    #expect(update?["relationships"] == .named("TasksRelationshipsInUpdate"))
    #expect(update?["attributes"] == .named("TasksAttributesInUpdate"))
    #expect(schemas["UsersAttributes"]?.properties?["email"]?.description != nil)
    // `fields[tasks]` lists the computed attribute.
    let json = String(decoding: try JSONEncoder().encode(document), as: UTF8.self)
    #expect(json.contains(#""readOnly":true"#))
    // A decoder reading ISO 8601 text describes requests' dates so, answers' as the encoder writes.
    let options = JSONAPIServer.Options()
    options.decoder.dateDecodingStrategy = .iso8601
    let (reading, _) = try await Fixture.server(options: options)
    let described = reading.openAPIDocument(title: "Tracker", version: "1").components.schemas
    #expect(described["TasksAttributes"]?.properties?["due"] == Schema(type: ["number"]))
    #expect(
      described["TasksAttributesInCreate"]?.properties?["due"]
        == Schema(type: ["string"], format: "date-time"))
  }

  @Test func aDeclarationWithoutFieldRulesIsDescribedAsBefore() async throws {
    let (server, _) = try await ServerFixture.server()
    let schemas = server.openAPIDocument(title: "Blog", version: "1").components.schemas
    #expect(schemas["ArticlesAttributesInCreate"] == nil)
    #expect(schemas["ArticlesRelationshipsInUpdate"] == nil)
    #expect(
      schemas["ArticlesUpdate"]?.properties?["data"]?.properties?["attributes"]
        == .named("ArticlesAttributes"))
  }

  // MARK: Request rules (issue 47 item 2)

  @Test func bodiesAreCheckedByTheRequestRulesWithPointersIntoOperations() async throws {
    let (server, _) = try await ServerFixture.server()
    let comments = try #require(server.resources["comments"])
    let articles = try #require(server.resources["articles"])
    #expect(comments.requestRules == JSONAPIRequestRules(acceptsClientGeneratedIDs: true))
    #expect(articles.requestRules == JSONAPIRequestRules())
    let cases: [(String, Int, String)] = [
      (
        #"{"op":"add","data":{"type":"people","attributes":{"name":"x"}},"href":"/articles"}"#, 409,
        "/atomic:operations/0/data/type"
      ),
      (
        #"{"op":"add","data":{"type":"articles","id":"99","attributes":{"title":"x"}}}"#, 403,
        "/atomic:operations/0/data/id"
      ),
      (
        #"{"op":"update","ref":{"type":"articles","id":"1"},"data":{"type":"articles","id":"2","attributes":{}}}"#,
        409, "/atomic:operations/0/data/id"
      ),
    ]
    for (operation, status, pointer) in cases {
      let response = await ServerFixture.respond(
        server,
        ServerFixture.request(
          "POST", "/operations", body: Fixture.operations(operation),
          contentType: ServerFixture.atomic))
      #expect(response.status == status, "\(operation)")
      #expect(response.errorSource == pointer, "\(operation)")
    }
    // The same refusal as a hand-written server's rules give.
    let sent = JSONAPIResourceIdentifier(type: "articles", id: "99")
    let object = JSONAPIErrorObject(
      describing: try #require(throws: JSONAPIRequestError.self) {
        try articles.requestRules.checkCreate(sent, type: "articles")
      })
    let served = await ServerFixture.respond(
      server,
      ServerFixture.request(
        "POST", "/articles",
        body: #"{"data":{"type":"articles","id":"99","attributes":{"title":"x"}}}"#))
    #expect(served.json["errors"]?[0]?["code"] == object.code.map(JSONAPIValue.string))
    #expect(served.errorSource == object.source?.pointer)
    // A client id where the declaration accepts them.
    let created = await ServerFixture.respond(
      server,
      ServerFixture.request(
        "POST", "/comments",
        body: #"{"data":{"type":"comments","id":"c-1","attributes":{"body":"x"}}}"#))
    #expect(created.status == 201)
    #expect(created.json["data"]?["id"] == "c-1")
  }
}
