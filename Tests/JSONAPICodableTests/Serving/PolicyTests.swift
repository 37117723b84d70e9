import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// Issue 46: rows a requester may not see do not exist for them, on every path a row can leave or
/// enter by; write rules see the rows. Each test is a request by someone who must not get through.
@Suite struct PolicyTests {
  typealias T = TrackerFixture

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

  /// Asserts that `response` names none of `hidden` (type/id pairs) and none of `words`.
  static func expectHidden(
    _ response: JSONAPIServerResponse, _ hidden: [JSONAPIResourceIdentifier],
    words: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let named = T.named(in: response.body)
    for identifier in hidden {
      #expect(
        !named.contains(ServedIdentity(type: identifier.type, id: identifier.id ?? "")),
        "\(identifier.type)/\(identifier.id ?? "") is named", sourceLocation: sourceLocation)
    }
    let body = text(response)
    for word in words {
      #expect(!body.contains(word), "\(word) appears", sourceLocation: sourceLocation)
    }
  }

  /// Asserts that `target` (naming the hidden id `id`) answers as the same target naming an id
  /// that exists for nobody: status and the whole body, the id aside (R10: a missing resource is
  /// `404`).
  static func expectSameAsNonexistent(
    _ server: JSONAPIServer, as user: String, _ method: String, _ target: String, id: String,
    body: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let hidden = await T.respond(server, as: user, method, target, body: body)
    let nobody = await T.respond(
      server, as: user, method, target.replacingOccurrences(of: "/\(id)", with: "/zz9"),
      body: body?.replacingOccurrences(of: "\"\(id)\"", with: "\"zz9\""))
    #expect(hidden.status == 404, sourceLocation: sourceLocation)
    #expect(hidden.status == nobody.status, sourceLocation: sourceLocation)
    #expect(
      text(hidden) == text(nobody).replacingOccurrences(of: "zz9", with: id),
      sourceLocation: sourceLocation)
  }

  // MARK: Reads

  /// R11, R64: a list holds visible rows only, and its total counts them.
  @Test func listsAndTotalsHoldVisibleRowsOnly() async throws {
    let (server, _) = try await T.server()
    let response = await T.respond(server, as: "1", "GET", "/projects?page%5Bsize%5D=10")
    #expect(response.status == 200)
    let named = T.named(in: response.body)
    #expect(named.isSubset(of: T.visible(to: "1", in: T.seed())))
    #expect(
      Set(named.filter { $0.type == "projects" }) == [
        .init(type: "projects", id: "1"), .init(type: "projects", id: "3"),
      ])
    #expect(Self.text(response).contains(#""total":2"#))
    Self.expectHidden(
      response, [T.id("projects", "2"), T.id("projects", "4"), T.id("users", "3")],
      words: ["Bob's secrets", "Cat's corner"])
    // Nobody signed in sees nothing.
    let anonymous = await T.respond(server, as: nil, "GET", "/tasks")
    #expect(anonymous.status == 200)
    #expect(T.named(in: anonymous.body).isEmpty)
  }

  /// R10: a hidden row answers 404 with the document of an id nobody has, by GET, HEAD, PATCH,
  /// DELETE, related and relationship endpoints.
  @Test func hiddenRowsAnswerAsNonexistent() async throws {
    let (server, store) = try await T.server()
    let before = try await T.snapshot(store)
    await Self.expectSameAsNonexistent(server, as: "1", "GET", "/projects/2", id: "2")
    await Self.expectSameAsNonexistent(server, as: "1", "HEAD", "/projects/2", id: "2")
    await Self.expectSameAsNonexistent(server, as: "1", "GET", "/tasks/5?include=project", id: "5")
    await Self.expectSameAsNonexistent(server, as: "1", "GET", "/users/3", id: "3")
    await Self.expectSameAsNonexistent(server, as: "1", "GET", "/projects/2/tasks", id: "2")
    await Self.expectSameAsNonexistent(server, as: "1", "GET", "/tasks/2/project", id: "2")
    await Self.expectSameAsNonexistent(
      server, as: "1", "GET", "/projects/2/relationships/members", id: "2")
    await Self.expectSameAsNonexistent(
      server, as: "1", "PATCH", "/tasks/2",
      id: "2", body: #"{"data":{"type":"tasks","id":"2","attributes":{"done":true}}}"#)
    await Self.expectSameAsNonexistent(server, as: "1", "DELETE", "/tasks/2", id: "2")
    await Self.expectSameAsNonexistent(
      server, as: "1", "POST", "/projects/2/relationships/members", id: "2",
      body: #"{"data":[{"type":"users","id":"1"}]}"#)
    #expect(try await T.snapshot(store) == before)
  }

  /// R38, R67: `include` at every depth and the linkage of every relationship (mirrored ones
  /// too) leave hidden rows out.
  @Test func includeAndLinkageLeaveHiddenRowsOut() async throws {
    let (server, _) = try await T.server()
    let response = await T.respond(
      server, as: "1", "GET", "/users/2?include=assigned,ownedProjects.tasks.assignee")
    #expect(response.status == 200)
    Self.expectHidden(
      response, [T.id("tasks", "2"), T.id("projects", "2"), T.id("tasks", "5")],
      words: ["Bob's secret", "bob's secrets"])
    #expect(T.named(in: response.body).contains(ServedIdentity(type: "tasks", id: "4")))
    let deep = await T.respond(
      server, as: "3", "GET", "/tasks?include=project.owner.ownedProjects&page%5Bsize%5D=50")
    #expect(deep.status == 200)
    #expect(
      T.named(in: deep.body)
        == [
          ServedIdentity(type: "tasks", id: "5"), .init(type: "projects", id: "4"),
          .init(type: "users", id: "3"),
        ])
  }

  /// R11, R87: related and relationship endpoints list visible rows only.
  @Test func relatedAndRelationshipEndpointsListVisibleRowsOnly() async throws {
    let (server, _) = try await T.server()
    for target in [
      "/users/2/assigned", "/users/2/relationships/assigned", "/users/2/ownedProjects",
      "/users/2/relationships/ownedProjects",
    ] {
      let response = await T.respond(server, as: "1", "GET", target)
      #expect(response.status == 200, "\(target)")
      Self.expectHidden(response, [T.id("tasks", "2"), T.id("projects", "2")])
    }
    let linkage = await T.respond(server, as: "1", "GET", "/users/2/relationships/assigned")
    #expect(T.named(in: linkage.body) == [ServedIdentity(type: "tasks", id: "4")])
    let meta = await T.respond(server, as: "1", "GET", "/users/2/ownedProjects")
    #expect(Self.text(meta).contains(#""total":1"#))
  }

  /// R70: filters match visible rows only, and never tell what a visible row links that is
  /// hidden; cursors walk visible rows only.
  @Test func filtersSortsAndCursorsSeeVisibleRowsOnly() async throws {
    let (server, _) = try await T.server()
    let filtered = await T.respond(server, as: "1", "GET", "/tasks?filter%5Bproject%5D=2,4")
    #expect(filtered.status == 200)
    #expect(T.named(in: filtered.body).isEmpty)
    let byName = await T.respond(server, as: "1", "GET", "/users?filter%5Bname%5D=cat")
    #expect(T.named(in: byName.body).isEmpty)
    // Every page by cursor, sorted by title: exactly the visible tasks, and no more.
    var target: String? = "/tasks?sort=-title"
    var seen: [String] = []
    var pages = 0
    while let next = target, pages < 10 {
      pages += 1
      let response = await T.respond(server, as: "1", "GET", next)
      #expect(response.status == 200)
      let document = try #require(
        try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
      seen += (document["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
      target = ((document["links"] as? [String: Any])?["next"] as? String)?
        .replacingOccurrences(of: "https://tracker.example.com", with: "")
    }
    #expect(seen == ["3", "4", "1"])
  }

  // MARK: Writes

  /// R74, R84: a mirrored relationship endpoint may not take a hidden row (404 pointing at it),
  /// nor move a visible one whose own rules refuse it (403); nothing changes.
  @Test func mirroredWritesAreHeldToBothTypes() async throws {
    let (server, store) = try await T.server()
    let before = try await T.snapshot(store)
    let hidden = await T.respond(
      server, as: "1", "POST", "/users/1/relationships/ownedProjects",
      body: #"{"data":[{"type":"projects","id":"2"}]}"#)
    #expect(hidden.status == 404)
    #expect(Self.pointers(hidden) == ["/data/0"])
    let refused = await T.respond(
      server, as: "1", "POST", "/users/1/relationships/ownedProjects",
      body: #"{"data":[{"type":"projects","id":"3"}]}"#)
    #expect(refused.status == 403)
    let replaced = await T.respond(
      server, as: "1", "PATCH", "/users/1",
      body: #"{"data":{"type":"users","id":"1","relationships":{"ownedProjects":{"data":[]}}}}"#)
    // Project 1 would lose its owner: the projects' own rule refuses it (`owner` is set on
    // create only) before the store would (409).
    #expect(replaced.status == 403)
    #expect(try await T.snapshot(store) == before)
  }

  /// R75, R76: a create may name only visible related rows (404 with the pointer), and rules see
  /// the resource; R81: a member may not rename a project (403).
  @Test func writesNameVisibleRowsAndFollowTheRules() async throws {
    let (server, store) = try await T.server()
    let before = try await T.snapshot(store)
    let elsewhere = await T.respond(
      server, as: "1", "POST", "/tasks",
      body: #"{"data":{"type":"tasks","attributes":{"title":"x","done":false},"#
        + #""relationships":{"project":{"data":{"type":"projects","id":"2"}}}}}"#)
    #expect(elsewhere.status == 404)
    #expect(Self.pointers(elsewhere) == ["/data/relationships/project/data"])
    Self.expectHidden(elsewhere, [], words: ["Bob's secrets"])
    let assignee = await T.respond(
      server, as: "1", "POST", "/tasks",
      body: #"{"data":{"type":"tasks","attributes":{"title":"x","done":false},"relationships":{"#
        + #""project":{"data":{"type":"projects","id":"1"}},"#
        + #""assignee":{"data":{"type":"users","id":"2"}}}}}"#)
    #expect(assignee.status == 422)
    let rename = await T.respond(
      server, as: "1", "PATCH", "/projects/3",
      body: #"{"data":{"type":"projects","id":"3","attributes":{"name":"Mine"}}}"#)
    #expect(rename.status == 403)
    let delete = await T.respond(server, as: "1", "DELETE", "/tasks/3")
    #expect(delete.status == 403)
    let owner = await T.respond(
      server, as: "1", "POST", "/projects",
      body: #"{"data":{"type":"projects","attributes":{"name":"x"},"relationships":{"#
        + #""owner":{"data":{"type":"users","id":"2"}}}}}"#)
    #expect(owner.status == 403)
    #expect(try await T.snapshot(store) == before)
    // What the rules allow goes through.
    let created = await T.respond(
      server, as: "1", "POST", "/tasks",
      body: #"{"data":{"type":"tasks","attributes":{"title":"y","done":false},"relationships":{"#
        + #""project":{"data":{"type":"projects","id":"3"}},"#
        + #""assignee":{"data":{"type":"users","id":"2"}}}}}"#)
    #expect(created.status == 201)
  }

  /// R81, R84: a replaced to-many keeps the members the requester cannot see (they could not
  /// name them), and removing a hidden row is removing one that does not exist.
  @Test func hiddenMembersAreKept() async throws {
    var seed = T.seed()
    // Task 6 is in bob's secret project and assigned to ann, who cannot see it.
    seed.append(T.task("6", "Hidden from ann", project: "2", assignee: "1"))
    let (server, store) = try await T.server(seed)
    let replaced = await T.respond(
      server, as: "1", "PATCH", "/users/1/relationships/assigned",
      body: #"{"data":[{"type":"tasks","id":"1"}]}"#)
    #expect(replaced.status == 204)
    let removed = await T.respond(
      server, as: "1", "DELETE", "/users/1/relationships/assigned",
      body: #"{"data":[{"type":"tasks","id":"6"}]}"#)
    #expect(removed.status == 204)
    let stored = try await T.snapshot(store)
    func assignee(_ id: String) -> JSONAPILinkage? {
      stored.first { $0.type == "tasks" && $0.id == id }?.relationships["assignee"]
    }
    #expect(assignee("6") == .toOne(T.id("users", "1")))
    #expect(assignee("3") == .toOne(nil))
    #expect(assignee("1") == .toOne(T.id("users", "1")))
    let linkage = await T.respond(server, as: "1", "GET", "/users/1/relationships/assigned")
    #expect(T.named(in: linkage.body) == [ServedIdentity(type: "tasks", id: "1")])
  }

  /// R74, R113: a refused operation leaves nothing of its batch, and answers as the same
  /// request alone would, pointing into the operation.
  @Test func refusedOperationLeavesNothing() async throws {
    let (server, store) = try await T.server()
    let before = try await T.snapshot(store)
    let response = await T.respond(
      server, as: "1", "POST", "/operations",
      body: #"{"atomic:operations":[{"op":"add","data":{"type":"tasks","attributes":{"#
        + #""title":"new","done":false},"relationships":{"project":{"data":{"#
        + #""type":"projects","id":"1"}}}}},{"op":"update","data":{"type":"tasks","id":"2","#
        + #""attributes":{"title":"mine"}}}]}"#, atomic: true)
    #expect(response.status == 404)
    #expect(Self.pointers(response) == ["/atomic:operations/1"])
    Self.expectHidden(response, [], words: ["Bob's secret"])
    let mirrored = await T.respond(
      server, as: "1", "POST", "/operations",
      body: #"{"atomic:operations":[{"op":"add","ref":{"type":"users","id":"1","#
        + #""relationship":"ownedProjects"},"data":[{"type":"projects","id":"2"}]}]}"#,
      atomic: true)
    #expect(mirrored.status == 404)
    #expect(try await T.snapshot(store) == before)
  }

  /// A store that cannot apply row conditions is refused when a type has a visibility policy.
  @Test func storesThatCannotApplyConditionsAreRefused() async throws {
    let declarations = try T.declarations()
    let store = CountingStore(base: JSONAPIMemoryStore(schemas: declarations.map(\.schema)))
    #expect(throws: JSONAPIDeclarationError.self) {
      _ = try JSONAPIServer(resources: declarations, store: store)
    }
  }
}
