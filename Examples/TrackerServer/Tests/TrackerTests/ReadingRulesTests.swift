import Foundation
import Testing

@testable import TrackerApp
@testable import TrackerKit

/// The tracker's read rules, each tried by every seeded user, on both stores.
@Suite struct ReadingRulesTests {
  @Test(arguments: Backing.allCases)
  func everyPathRefusesRequestsWithoutAKnownToken(_ backing: Backing) async throws {
    try await withTracker(backing) { client, _ in
      for token in [nil, "tok-nobody", "tok-ann-but-longer"] {
        for path in [
          "/users", "/users/1", "/projects", "/projects/1", "/projects/1/tasks",
          "/projects/1/relationships/members", "/tasks?include=project", "/tasks/1",
          "/nowhere",
        ] {
          let reply = try await client.get(token, path)
          #expect(reply.status == 401, "\(path) with \(token ?? "no token")")
          #expect(reply.headers[.wwwAuthenticate]?.hasPrefix(#"Bearer realm="tracker""#) == true)
          #expect(reply.json["errors"]?[0]?["status"]?.stringValue == "401")
          #expect(reply.json["data"] == nil)
        }
        let create = #"{"data":{"type":"projects","attributes":{"name":"x"}}}"#
        #expect(try await client.send(token, .post, "/projects", create).status == 401)
        let remove = #"{"op":"remove","ref":{"type":"projects","id":"1"}}"#
        let atomic = try await client.send(
          token, .post, "/operations", #"{"atomic:operations":["# + remove + "]}",
          contentType: atomic)
        #expect(atomic.status == 401)
      }
      // Nothing was removed by the refused requests.
      #expect(try await client.get("ann", "/projects/1").status == 200)
    }
  }

  @Test(arguments: Backing.allCases)
  func eachUserListsExactlyWhatTheySee(_ backing: Backing) async throws {
    try await withTracker(backing) { client, _ in
      for user in ["ann", "bob", "cat"] {
        for type in ["users", "projects", "tasks"] {
          let reply = try await client.get(user, "/\(type)")
          #expect(reply.status == 200)
          let expected = (seen[user] ?? []).filter { $0.type == type }.map(\.id).sorted()
          #expect(reply.ids.sorted() == expected, "\(user) lists \(type)")
          // Totals count only what the user sees.
          #expect(reply.json["meta"]?["page"]?["total"]?.intValue == expected.count)
          expectNothingHidden(reply, for: user)
        }
      }
    }
  }

  @Test(arguments: Backing.allCases)
  func includesLinkageAndRelatedEndpointsNameNothingHidden(_ backing: Backing) async throws {
    try await withTracker(backing) { client, _ in
      let paths = [
        "/users?include=ownedProjects,assigned", "/users/1?include=ownedProjects.tasks",
        "/users/2?include=ownedProjects,assigned", "/users/2/ownedProjects",
        "/users/2/assigned", "/users/2/relationships/ownedProjects",
        "/users/2/relationships/assigned", "/users/1/ownedProjects",
        "/projects?include=owner,members,tasks.assignee", "/projects/3?include=tasks",
        "/projects/3/tasks", "/projects/3/members", "/projects/3/owner",
        "/projects/3/relationships/tasks", "/tasks?include=project.owner,assignee.ownedProjects",
        "/tasks?include=project.members", "/tasks/4?include=assignee.assigned",
      ]
      for user in ["ann", "bob", "cat"] {
        for path in paths {
          let reply = try await client.get(user, path)
          expectNothingHidden(reply, for: user)
        }
      }
      // bob's own project 2 is hidden from ann, though it is bob's.
      let owned = try await client.get("ann", "/users/2/relationships/ownedProjects")
      #expect(owned.status == 200)
      #expect(owned.ids == ["3"])
      let assigned = try await client.get("ann", "/users/2/assigned")
      #expect(assigned.ids == ["4"])
      // cat sees no one else: ann's page is not found for her.
      #expect(try await client.get("cat", "/users/1/ownedProjects").status == 404)
    }
  }

  @Test(arguments: Backing.allCases)
  func aHiddenResourceIsAnswered404AsAnIdNobodyHas(_ backing: Backing) async throws {
    try await withTracker(backing) { client, _ in
      let hidden: [(String, String, String)] = [
        ("ann", "projects", "2"), ("ann", "tasks", "2"), ("ann", "users", "3"),
        ("cat", "projects", "1"), ("cat", "tasks", "4"), ("cat", "users", "1"),
        ("bob", "projects", "1"), ("bob", "tasks", "5"),
      ]
      for (user, type, id) in hidden {
        for suffix in ["", "/relationships/" + (type == "tasks" ? "project" : "ownedProjects")] {
          let reply = try await client.get(user, "/\(type)/\(id)\(suffix)")
          let nobody = try await client.get(user, "/\(type)/999\(suffix)")
          #expect(reply.status == 404, "\(user) GET \(type)/\(id)\(suffix)")
          #expect(nobody.status == 404)
          #expect(reply.text == nobody.text.replacingOccurrences(of: "999", with: id))
          expectNothingHidden(reply.replacingID(id), for: user)
        }
      }
    }
  }

  @Test(arguments: Backing.allCases)
  func filtersAndSortsFindOnlyVisibleRows(_ backing: Backing) async throws {
    try await withTracker(backing) { client, _ in
      #expect(try await client.get("ann", "/projects?filter%5Bname%5D=bob").ids == [])
      #expect(try await client.get("bob", "/projects?filter%5Bname%5D=bob").ids == ["2"])
      #expect(try await client.get("ann", "/users?filter%5Bname%5D=at").ids == [])
      #expect(try await client.get("cat", "/users?filter%5Bname%5D=at").ids == ["3"])
      let byProject = try await client.get("ann", "/tasks?filter%5Bproject%5D=2,3")
      #expect(byProject.ids.sorted() == ["3", "4"])
      expectNothingHidden(byProject, for: "ann")
      #expect(try await client.get("cat", "/tasks?filter%5Bdone%5D=false").ids == ["5"])
      let sorted = try await client.get("ann", "/tasks?sort=-priority,title")
      #expect(sorted.ids == ["1", "4", "3"])
      #expect(try await client.get("bob", "/projects?sort=name").ids == ["2", "3"])
      #expect(try await client.get("ann", "/tasks?sort=due").status == 200)
      #expect(try await client.get("ann", "/users?sort=-name").ids == ["2", "1"])
    }
  }

  @Test(arguments: Backing.allCases)
  func emailIsNeitherFilterableNorSortable(_ backing: Backing) async throws {
    try await withTracker(backing) { client, _ in
      let filtered = try await client.get("ann", "/users?filter%5Bemail%5D=bob")
      #expect(filtered.status == 400)
      #expect(!filtered.text.contains("bob@example.com"))
      #expect(try await client.get("ann", "/users?sort=email").status == 400)
    }
  }

  /// Waits for field capabilities (`servedOnly`): fails until then.
  @Test(arguments: Backing.allCases)
  func emailIsServedOnlyToItsUser(_ backing: Backing) async throws {
    try await withTracker(backing) { client, _ in
      let users = try await client.get("ann", "/users")
      for user in users.json["data"]?.arrayValue ?? [] {
        let email = user["attributes"]?["email"]
        #expect(
          (email != nil) == (user["id"]?.stringValue == "1"), "email of \(user["id"] ?? .null)")
      }
      let included = try await client.get("bob", "/projects/3?include=members,owner")
      #expect(!included.text.contains("ann@example.com"))
      #expect(included.text.contains("bob@example.com"))
    }
  }

  /// Waits for field capabilities (`computed`): fails until then.
  @Test(arguments: Backing.allCases)
  func overdueIsComputed(_ backing: Backing) async throws {
    try await withTracker(backing) { client, _ in
      let tasks = try await client.get("bob", "/tasks")
      var overdue: [String: Bool] = [:]
      for task in tasks.json["data"]?.arrayValue ?? [] {
        overdue[task["id"]?.stringValue ?? ""] = task["attributes"]?["overdue"]?.boolValue
      }
      #expect(overdue == ["2": false, "3": false, "4": true])
      #expect(
        try await client.get("bob", "/tasks/4").json["data"]?["attributes"]?["due"]?.stringValue
          == "2020-01-01T00:00:00Z")
    }
  }
}

extension Reply {
  /// The reply with `999` in its text where a hidden id's answer had `id`: what a never-existing
  /// id's answer names.
  func replacingID(_ id: String) -> Reply {
    var copy = self
    copy.body = Data(text.replacingOccurrences(of: "/\(id)", with: "/999").utf8)
    return copy
  }
}
