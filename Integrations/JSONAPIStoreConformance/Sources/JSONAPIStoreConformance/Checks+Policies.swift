import Foundation
import JSONAPIServer

// The policy checks (issue 46): the tracker served by `JSONAPIServer` over the store under test.
// Rows a requester may not see do not exist for them, on every path a row can leave or enter
// by; write rules see the rows. Each check is a request by someone who must not get through.
extension JSONAPIStoreConformance {
  typealias T = Tracker

  /// The body as text.
  static func text(_ response: JSONAPIServerResponse) -> String {
    String(decoding: response.body, as: UTF8.self)
  }

  /// The `source.pointer` of each error of `response`.
  static func pointers(_ response: JSONAPIServerResponse) -> [String] {
    let document = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
    return (document?["errors"] as? [[String: Any]] ?? []).compactMap {
      ($0["source"] as? [String: Any])?["pointer"] as? String
    }
  }

  /// Notes each of `hidden` (type/id pairs) and each of `words` that `response` names.
  static func expectHidden(
    _ response: JSONAPIServerResponse, _ hidden: [JSONAPIResourceIdentifier],
    words: [String] = [], _ what: String, _ report: inout Report
  ) {
    let named = T.named(in: response.body)
    for identifier in hidden {
      let identity = T.Identity(type: identifier.type, id: identifier.id ?? "")
      report.expect(!named.contains(identity), "\(what): names the hidden \(identity)")
    }
    let body = text(response)
    for word in words {
      report.expect(!body.contains(word), "\(what): the hidden \(word.debugDescription) appears")
    }
  }

  /// Notes where `target` (naming the hidden id `id`) answers otherwise than the same target
  /// naming an id that exists for nobody: status and the whole body, the id aside (R10: a
  /// missing resource is `404`).
  static func expectSameAsNonexistent(
    _ server: JSONAPIServer, as user: String, _ method: String, _ target: String, id: String,
    body: String? = nil, _ report: inout Report
  ) async {
    let hidden = await T.respond(server, as: user, method, target, body: body)
    let nobody = await T.respond(
      server, as: user, method, target.replacingOccurrences(of: "/\(id)", with: "/zz9"),
      body: body?.replacingOccurrences(of: "\"\(id)\"", with: "\"zz9\""))
    let what = "\(method) \(target) as \(user)"
    report.expect(hidden.status, 404, "\(what): status")
    report.expect(hidden.status, nobody.status, "\(what): status as for an id nobody has")
    report.expect(
      text(hidden), text(nobody).replacingOccurrences(of: "zz9", with: id),
      "\(what): the body of an id nobody has")
  }

  // MARK: Reads

  /// R11, R64: a list holds visible rows only, and its total counts them.
  static let policyLists: Body = { store, report in
    guard let server = try await T.server(store) else { return }
    let response = await T.respond(server, as: "1", "GET", "/projects?page%5Bsize%5D=10")
    report.expect(response.status, 200, "GET /projects as 1: status")
    let named = T.named(in: response.body)
    report.expect(
      named.isSubset(of: T.visible(to: "1", in: T.seed())),
      "GET /projects as 1 names \(named.subtracting(T.visible(to: "1", in: T.seed())))")
    report.expect(
      Set(named.filter { $0.type == "projects" }),
      [.init(type: "projects", id: "1"), .init(type: "projects", id: "3")],
      "GET /projects as 1: the projects")
    report.expect(text(response).contains(#""total":2"#), "GET /projects as 1: total 2")
    expectHidden(
      response, [T.id("projects", "2"), T.id("projects", "4"), T.id("users", "3")],
      words: ["Bob's secrets", "Cat's corner"], "GET /projects as 1", &report)
    // Nobody signed in sees nothing.
    let anonymous = await T.respond(server, as: nil, "GET", "/tasks")
    report.expect(anonymous.status, 200, "GET /tasks as nobody: status")
    report.expect(T.named(in: anonymous.body), [], "GET /tasks as nobody: what it names")
  }

  /// R10: a hidden row answers 404 with the document of an id nobody has, by GET, HEAD, PATCH,
  /// DELETE, related and relationship endpoints.
  static let policyHiddenAsNonexistent: Body = { store, report in
    guard let server = try await T.server(store) else { return }
    let before = try await T.snapshot(store)
    let reads: [(String, String, String)] = [
      ("GET", "/projects/2", "2"), ("HEAD", "/projects/2", "2"),
      ("GET", "/tasks/5?include=project", "5"), ("GET", "/users/3", "3"),
      ("GET", "/projects/2/tasks", "2"), ("GET", "/tasks/2/project", "2"),
      ("GET", "/projects/2/relationships/members", "2"), ("DELETE", "/tasks/2", "2"),
    ]
    for (method, target, id) in reads {
      await expectSameAsNonexistent(server, as: "1", method, target, id: id, &report)
    }
    await expectSameAsNonexistent(
      server, as: "1", "PATCH", "/tasks/2", id: "2",
      body: #"{"data":{"type":"tasks","id":"2","attributes":{"done":true}}}"#, &report)
    await expectSameAsNonexistent(
      server, as: "1", "POST", "/projects/2/relationships/members", id: "2",
      body: #"{"data":[{"type":"users","id":"1"}]}"#, &report)
    report.expect(try await T.snapshot(store) == before, "refused writes changed the store")
  }

  /// R38, R67: `include` at every depth and the linkage of every relationship (mirrored ones
  /// too) leave hidden rows out.
  static let policyIncludeAndLinkage: Body = { store, report in
    guard let server = try await T.server(store) else { return }
    let target = "/users/2?include=assigned,ownedProjects.tasks.assignee"
    let response = await T.respond(server, as: "1", "GET", target)
    report.expect(response.status, 200, "GET \(target) as 1: status")
    expectHidden(
      response, [T.id("tasks", "2"), T.id("projects", "2"), T.id("tasks", "5")],
      words: ["Bob's secret", "bob's secrets"], "GET \(target) as 1", &report)
    report.expect(
      T.named(in: response.body).contains(T.Identity(type: "tasks", id: "4")),
      "GET \(target) as 1 names the visible tasks/4")
    // Bob is visible to Ann (they share project 3); what Bob owns and is assigned alone is not,
    // and an included row's own linkage must not name it either.
    let throughOwner = "/projects/3?include=owner.ownedProjects,owner.assigned,tasks.assignee"
    let owner = await T.respond(server, as: "1", "GET", throughOwner)
    report.expect(owner.status, 200, "GET \(throughOwner) as 1: status")
    expectHidden(
      owner, [T.id("projects", "2"), T.id("tasks", "2")], words: ["Bob's secret"],
      "GET \(throughOwner) as 1", &report)
    let deepTarget = "/tasks?include=project.owner.ownedProjects&page%5Bsize%5D=50"
    let deep = await T.respond(server, as: "3", "GET", deepTarget)
    report.expect(deep.status, 200, "GET \(deepTarget) as 3: status")
    report.expect(
      T.named(in: deep.body),
      [
        .init(type: "tasks", id: "5"), .init(type: "projects", id: "4"),
        .init(type: "users", id: "3"),
      ],
      "GET \(deepTarget) as 3: what it names")
  }

  /// R11, R87: related and relationship endpoints list visible rows only.
  static let policyRelatedEndpoints: Body = { store, report in
    guard let server = try await T.server(store) else { return }
    for target in [
      "/users/2/assigned", "/users/2/relationships/assigned", "/users/2/ownedProjects",
      "/users/2/relationships/ownedProjects",
    ] {
      let response = await T.respond(server, as: "1", "GET", target)
      report.expect(response.status, 200, "GET \(target) as 1: status")
      expectHidden(
        response, [T.id("tasks", "2"), T.id("projects", "2")], "GET \(target) as 1", &report)
    }
    let linkage = await T.respond(server, as: "1", "GET", "/users/2/relationships/assigned")
    report.expect(
      T.named(in: linkage.body), [T.Identity(type: "tasks", id: "4")],
      "GET /users/2/relationships/assigned as 1: the linkage")
    let meta = await T.respond(server, as: "1", "GET", "/users/2/ownedProjects")
    report.expect(text(meta).contains(#""total":1"#), "GET /users/2/ownedProjects as 1: total 1")
  }

  /// R70: filters match visible rows only, and never tell what a visible row links that is
  /// hidden; cursors walk visible rows only.
  static let policyFiltersAndCursors: Body = { store, report in
    guard let server = try await T.server(store) else { return }
    let filtered = await T.respond(server, as: "1", "GET", "/tasks?filter%5Bproject%5D=2,4")
    report.expect(filtered.status, 200, "filter[project]=2,4 as 1: status")
    report.expect(T.named(in: filtered.body), [], "filter[project]=2,4 as 1: what it names")
    let byName = await T.respond(server, as: "1", "GET", "/users?filter%5Bname%5D=cat")
    report.expect(T.named(in: byName.body), [], "filter[name]=cat as 1: what it names")
    // Every page by cursor, sorted by title: exactly the visible tasks, and no more.
    let pages = try await T.walk(server, as: "1", "/tasks?sort=-title")
    for (target, response) in pages {
      report.expect(response.status, 200, "GET \(target) as 1: status")
    }
    report.expect(
      pages.flatMap { T.ids(in: $0.1) }, ["3", "4", "1"],
      "the visible tasks by cursor, sorted by -title")
  }

  // MARK: Writes

  /// R74, R84: a mirrored relationship endpoint may not take a hidden row (404 pointing at it),
  /// nor move a visible one whose own rules refuse it (403); nothing changes.
  static let policyMirroredWrites: Body = { store, report in
    guard let server = try await T.server(store) else { return }
    let before = try await T.snapshot(store)
    let hidden = await T.respond(
      server, as: "1", "POST", "/users/1/relationships/ownedProjects",
      body: #"{"data":[{"type":"projects","id":"2"}]}"#)
    report.expect(hidden.status, 404, "adding the hidden projects/2 to ownedProjects: status")
    report.expect(pointers(hidden), ["/data/0"], "adding the hidden projects/2: the pointer")
    let refused = await T.respond(
      server, as: "1", "POST", "/users/1/relationships/ownedProjects",
      body: #"{"data":[{"type":"projects","id":"3"}]}"#)
    report.expect(refused.status, 403, "taking over projects/3 by ownedProjects: status")
    let replaced = await T.respond(
      server, as: "1", "PATCH", "/users/1",
      body: #"{"data":{"type":"users","id":"1","relationships":{"ownedProjects":{"data":[]}}}}"#)
    // Project 1 would lose its owner: the projects' own rule refuses it (`owner` is set on
    // create only) before the store would (409).
    report.expect(replaced.status, 403, "emptying ownedProjects of users/1: status")
    report.expect(
      try await T.snapshot(store) == before, "refused mirrored writes changed the store")
  }

  /// R75, R76: a create may name only visible related rows (404 with the pointer), and rules see
  /// the resource; R81: a member may not rename a project (403).
  static let policyWrites: Body = { store, report in
    guard let server = try await T.server(store) else { return }
    let before = try await T.snapshot(store)
    let elsewhere = await T.respond(
      server, as: "1", "POST", "/tasks",
      body: #"{"data":{"type":"tasks","attributes":{"title":"x","done":false},"#
        + #""relationships":{"project":{"data":{"type":"projects","id":"2"}}}}}"#)
    report.expect(elsewhere.status, 404, "a task in the hidden projects/2: status")
    report.expect(
      pointers(elsewhere), ["/data/relationships/project/data"],
      "a task in the hidden projects/2: the pointer")
    expectHidden(
      elsewhere, [], words: ["Bob's secrets"], "a task in the hidden projects/2", &report)
    let assignee = await T.respond(
      server, as: "1", "POST", "/tasks",
      body: #"{"data":{"type":"tasks","attributes":{"title":"x","done":false},"relationships":{"#
        + #""project":{"data":{"type":"projects","id":"1"}},"#
        + #""assignee":{"data":{"type":"users","id":"2"}}}}}"#)
    report.expect(assignee.status, 422, "a task assigned outside its project: status")
    let rename = await T.respond(
      server, as: "1", "PATCH", "/projects/3",
      body: #"{"data":{"type":"projects","id":"3","attributes":{"name":"Mine"}}}"#)
    report.expect(rename.status, 403, "a member renames projects/3: status")
    let delete = await T.respond(server, as: "1", "DELETE", "/tasks/3")
    report.expect(delete.status, 403, "a member deletes tasks/3: status")
    let owner = await T.respond(
      server, as: "1", "POST", "/projects",
      body: #"{"data":{"type":"projects","attributes":{"name":"x"},"relationships":{"#
        + #""owner":{"data":{"type":"users","id":"2"}}}}}"#)
    report.expect(owner.status, 403, "a project created for another owner: status")
    report.expect(try await T.snapshot(store) == before, "refused writes changed the store")
    // What the rules allow goes through.
    let created = await T.respond(
      server, as: "1", "POST", "/tasks",
      body: #"{"data":{"type":"tasks","attributes":{"title":"y","done":false},"relationships":{"#
        + #""project":{"data":{"type":"projects","id":"3"}},"#
        + #""assignee":{"data":{"type":"users","id":"2"}}}}}"#)
    report.expect(created.status, 201, "a task the rules allow: status")
  }

  /// R81, R84: a replaced to-many keeps the members the requester cannot see (they could not
  /// name them), and removing a hidden row is removing one that does not exist.
  static let policyHiddenMembers: Body = { store, report in
    // Task 6 is in bob's secret project and assigned to ann, who cannot see it.
    guard
      let server = try await T.server(
        store, T.seed() + [T.task("6", "Hidden from ann", project: "2", assignee: "1")])
    else { return }
    let replaced = await T.respond(
      server, as: "1", "PATCH", "/users/1/relationships/assigned",
      body: #"{"data":[{"type":"tasks","id":"1"}]}"#)
    report.expect(replaced.status, 204, "replacing assigned of users/1: status")
    let removed = await T.respond(
      server, as: "1", "DELETE", "/users/1/relationships/assigned",
      body: #"{"data":[{"type":"tasks","id":"6"}]}"#)
    report.expect(removed.status, 204, "removing the hidden tasks/6: status")
    let stored = try await T.snapshot(store)
    func assignee(_ id: String) -> JSONAPILinkage? {
      stored.first { $0.type == "tasks" && $0.id == id }?.relationships["assignee"]
    }
    report.expect(assignee("6"), .toOne(T.id("users", "1")), "the hidden tasks/6 keeps ann")
    report.expect(assignee("3"), .toOne(nil), "tasks/3, replaced away, has no assignee")
    report.expect(assignee("1"), .toOne(T.id("users", "1")), "tasks/1 keeps ann")
    let linkage = await T.respond(server, as: "1", "GET", "/users/1/relationships/assigned")
    report.expect(
      T.named(in: linkage.body), [T.Identity(type: "tasks", id: "1")],
      "the linkage ann sees of her assigned tasks")
  }

  /// R74, R113: a refused operation leaves nothing of its batch, and answers as the same
  /// request alone would, pointing into the operation.
  static let policyOperations: Body = { store, report in
    guard let server = try await T.server(store) else { return }
    let before = try await T.snapshot(store)
    let response = await T.respond(
      server, as: "1", "POST", "/operations",
      body: #"{"atomic:operations":[{"op":"add","data":{"type":"tasks","attributes":{"#
        + #""title":"new","done":false},"relationships":{"project":{"data":{"#
        + #""type":"projects","id":"1"}}}}},{"op":"update","data":{"type":"tasks","id":"2","#
        + #""attributes":{"title":"mine"}}}]}"#, atomic: true)
    report.expect(response.status, 404, "an operation updating the hidden tasks/2: status")
    report.expect(
      pointers(response), ["/atomic:operations/1"], "an operation on the hidden tasks/2: pointer")
    expectHidden(
      response, [], words: ["Bob's secret"], "an operation on the hidden tasks/2", &report)
    let mirrored = await T.respond(
      server, as: "1", "POST", "/operations",
      body: #"{"atomic:operations":[{"op":"add","ref":{"type":"users","id":"1","#
        + #""relationship":"ownedProjects"},"data":[{"type":"projects","id":"2"}]}]}"#,
      atomic: true)
    report.expect(mirrored.status, 404, "an operation adding the hidden projects/2: status")
    report.expect(try await T.snapshot(store) == before, "refused operations changed the store")
  }

  /// A store that cannot apply row conditions is refused when a type has a visibility policy, and
  /// so are client-generated ids on such a type.
  static let policyStoreRefused: Body = { store, report in
    let declarations = try T.declarations()
    do {
      _ = try JSONAPIServer(resources: declarations, store: WithoutRowConditions(base: store))
      report.expect(false, "a store that applies no row conditions was taken")
    } catch is JSONAPIDeclarationError {}
    // Client-generated ids on a type with a visibility policy: a create under a hidden row's id
    // would answer 409 and so reveal it.
    var clientIDs = declarations
    clientIDs[2] = try JSONAPIResourceDeclaration(
      Tracker.Task.self, filters: ["project": .ids("project")], acceptsClientGeneratedIDs: true
    ).secured(by: declarations[2].policy)
    do {
      _ = try JSONAPIServer(resources: clientIDs, store: store)
      report.expect(false, "client-generated ids on a type with a visibility policy were taken")
    } catch let error as JSONAPIDeclarationError {
      report.expect(
        error.reason.contains("tasks") && error.reason.contains("acceptsClientGeneratedIDs"),
        "the refusal of client-generated ids names the type and the fix: \(error.reason)")
    }
  }
}

/// A store that applies no row conditions: the one under test, with the protocol's default.
struct WithoutRowConditions: JSONAPIStore {
  let base: any JSONAPIStore

  func read<T: Sendable>(_ body: @Sendable (any JSONAPIStoreReader) async throws -> T)
    async throws -> T
  {
    try await base.read(body)
  }

  func write<T: Sendable>(_ body: @Sendable (any JSONAPIStoreWriter) async throws -> T)
    async throws -> T
  {
    try await base.write(body)
  }
}
