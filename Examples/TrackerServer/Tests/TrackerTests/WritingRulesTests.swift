import Foundation
import Testing

@testable import TrackerApp
@testable import TrackerKit

func identifier(_ type: String, _ id: String) -> String { #"{"type":"\#(type)","id":"\#(id)"}"# }

/// The tracker's write rules, each tried by someone it should stop, on both stores.
@Suite struct WritingRulesTests {
  @Test(arguments: Backing.allCases)
  func anyoneCreatesAProjectTheyOwn(_ backing: Backing) async throws {
    try await withTracker(backing) { client, _ in
      let mine = try await client.send(
        "cat", .post, "/projects",
        #"{"data":{"type":"projects","attributes":{"name":"Cat's second"},"#
          + #""relationships":{"owner":{"data":\#(identifier("users", "3"))}}}}"#)
      #expect(mine.status == 201)
      #expect(mine.json["data"]?["relationships"]?["owner"]?["data"]?["id"]?.stringValue == "3")
      // Naming another owner is refused (bob is visible to ann, so this is no 404).
      let theirs = try await client.send(
        "ann", .post, "/projects",
        #"{"data":{"type":"projects","attributes":{"name":"For bob"},"#
          + #""relationships":{"owner":{"data":\#(identifier("users", "2"))}}}}"#)
      #expect(theirs.status == 403)
      #expect(theirs.errorPointer == "/data/relationships/owner")
      // A client-chosen id is refused.
      let chosen = try await client.send(
        "ann", .post, "/projects",
        #"{"data":{"type":"projects","id":"77","attributes":{"name":"Mine"},"#
          + #""relationships":{"owner":{"data":\#(identifier("users", "1"))}}}}"#)
      #expect(chosen.status == 403)
      #expect(try await client.get("bob", "/projects").ids.sorted() == ["2", "3"])
    }
  }

  /// Waits for field capabilities (`setToRequester`): fails until then.
  @Test(arguments: Backing.allCases)
  func aCreateMayLeaveTheOwnerOut(_ backing: Backing) async throws {
    try await withTracker(backing) { client, _ in
      let created = try await client.send(
        "bob", .post, "/projects", #"{"data":{"type":"projects","attributes":{"name":"New"}}}"#)
      #expect(created.status == 201)
      #expect(created.json["data"]?["relationships"]?["owner"]?["data"]?["id"]?.stringValue == "2")
    }
  }

  @Test(arguments: Backing.allCases)
  func onlyTheOwnerRenamesChangesMembersOrDeletes(_ backing: Backing) async throws {
    try await withTracker(backing) { client, _ in
      let rename = #"{"data":{"type":"projects","id":"3","attributes":{"name":"Ours"}}}"#
      let byMember = try await client.send("ann", .patch, "/projects/3", rename)
      #expect(byMember.status == 403)
      let members = #"{"data":[]}"#
      #expect(
        try await client.send("ann", .patch, "/projects/3/relationships/members", members).status
          == 403)
      #expect(
        try await client.send(
          "ann", .delete, "/projects/3/relationships/members",
          #"{"data":[\#(identifier("users", "1"))]}"#
        ).status == 403)
      #expect(try await client.send("ann", .delete, "/projects/3").status == 403)
      let stored = try await client.get("bob", "/projects/3")
      #expect(stored.json["data"]?["attributes"]?["name"]?.stringValue == "Shared")
      #expect(stored.json["data"]?["relationships"]?["members"]?["data"]?[0]?["id"] == "1")
      // The owner may; the owner never changes.
      #expect(try await client.send("bob", .patch, "/projects/3", rename).status == 200)
      let newOwner =
        #"{"data":{"type":"projects","id":"3","relationships":{"owner":{"data":\#(identifier("users", "1"))}}}}"#
      let moved = try await client.send("bob", .patch, "/projects/3", newOwner)
      #expect(moved.status == 403)
      #expect(
        try await client.send(
          "bob", .patch, "/projects/3/relationships/owner",
          #"{"data":\#(identifier("users", "1"))}"#
        ).status == 403)
      // A user's mirrored relationship moves no project either.
      #expect(
        try await client.send(
          "ann", .post, "/users/1/relationships/ownedProjects",
          #"{"data":[\#(identifier("projects", "3"))]}"#
        ).status == 403)
      #expect(
        try await client.get("ann", "/projects/3").json["data"]?["relationships"]?["owner"]?[
          "data"]?["id"] == "2")
    }
  }

  /// Waits for delete rules (cascade): fails until then.
  @Test(arguments: Backing.allCases)
  func deletingAProjectDeletesItsTasks(_ backing: Backing) async throws {
    try await withTracker(backing) { client, store in
      #expect(try await client.send("bob", .delete, "/projects/3").status == 204)
      #expect(try await client.get("ann", "/tasks/3").status == 404)
      let left = try await store.read { reader in
        try await reader.resources("tasks", ids: ["1", "2", "3", "4", "5"])
      }
      #expect(left.map(\.id).sorted() == ["1", "2", "5"])
    }
  }

  @Test(arguments: Backing.allCases)
  func theProjectsPeopleCreateAndEditTasksTheOwnerDeletes(_ backing: Backing) async throws {
    try await withTracker(backing) { client, _ in
      func task(_ title: String, project: String, assignee: String?) -> String {
        let person = assignee.map { #","assignee":{"data":\#(identifier("users", $0))}"# } ?? ""
        return
          #"{"data":{"type":"tasks","attributes":{"title":"\#(title)","done":false,"priority":2},"#
          + #""relationships":{"project":{"data":\#(identifier("projects", project))}\#(person)}}}"#
      }
      // ann is a member of 3: she creates and edits its tasks.
      let created = try await client.send(
        "ann", .post, "/tasks", task("Mine too", project: "3", assignee: "2"))
      #expect(created.status == 201)
      let id = created.ids.first ?? ""
      let done = #"{"data":{"type":"tasks","id":"\#(id)","attributes":{"done":true}}}"#
      #expect(try await client.send("ann", .patch, "/tasks/\(id)", done).status == 200)
      // The assignee is one of the project's people (cat is not; cat is hidden from ann).
      let outsider = try await client.send(
        "bob", .post, "/tasks", task("Nope", project: "2", assignee: "1"))
      #expect(outsider.status == 422)
      #expect(outsider.errorPointer == "/data/relationships/assignee")
      let reassign =
        #"{"data":{"type":"tasks","id":"2","relationships":{"assignee":{"data":\#(identifier("users", "1"))}}}}"#
      #expect(try await client.send("bob", .patch, "/tasks/2", reassign).status == 422)
      // The project is set on create only.
      let move =
        #"{"data":{"type":"tasks","id":"3","relationships":{"project":{"data":\#(identifier("projects", "2"))}}}}"#
      #expect(try await client.send("bob", .patch, "/tasks/3", move).status == 403)
      #expect(
        try await client.send(
          "bob", .patch, "/tasks/3/relationships/project",
          #"{"data":\#(identifier("projects", "2"))}"#
        ).status == 403)
      // Only the project's owner deletes a task.
      #expect(try await client.send("ann", .delete, "/tasks/\(id)").status == 403)
      #expect(try await client.send("bob", .delete, "/tasks/\(id)").status == 204)
      #expect(try await client.send("ann", .delete, "/tasks/1").status == 204)
    }
  }

  /// Waits for field capabilities (`computed`): fails until then.
  @Test(arguments: Backing.allCases)
  func overdueIsNeverWritten(_ backing: Backing) async throws {
    try await withTracker(backing) { client, _ in
      let write = #"{"data":{"type":"tasks","id":"1","attributes":{"overdue":true}}}"#
      let refused = try await client.send("ann", .patch, "/tasks/1", write)
      #expect(refused.status == 403)
      #expect(refused.errorPointer == "/data/attributes/overdue")
      #expect(
        try await client.get("ann", "/tasks/1").json["data"]?["attributes"]?["overdue"] == false)
    }
  }

  @Test(arguments: Backing.allCases)
  func everyRelatedResourceAWriteNamesMustBeVisible(_ backing: Backing) async throws {
    try await withTracker(backing) { client, _ in
      // cat in a member list, by ann who cannot see cat: 404 at the member, nothing changed.
      let withCat =
        #"{"data":{"type":"projects","attributes":{"name":"With cat"},"relationships":{"#
        + #""owner":{"data":\#(identifier("users", "1"))},"#
        + #""members":{"data":[\#(identifier("users", "3"))]}}}}"#
      let create = try await client.send("ann", .post, "/projects", withCat)
      #expect(create.status == 404)
      #expect(create.errorPointer == "/data/relationships/members/data/0")
      expectNothingHidden(create.replacingID("3"), for: "ann")
      let endpoint = try await client.send(
        "ann", .post, "/projects/1/relationships/members",
        #"{"data":[\#(identifier("users", "3"))]}"#)
      #expect(endpoint.status == 404)
      #expect(endpoint.errorPointer == "/data/0")
      // A task in a project ann cannot see, and in one nobody has: the same answer.
      let body = { (project: String) in
        #"{"data":{"type":"tasks","attributes":{"title":"x","done":false,"priority":0},"#
          + #""relationships":{"project":{"data":\#(identifier("projects", project))}}}}"#
      }
      let hidden = try await client.send("ann", .post, "/tasks", body("2"))
      let nobody = try await client.send("ann", .post, "/tasks", body("999"))
      #expect(hidden.status == 404)
      #expect(hidden.errorPointer == "/data/relationships/project/data")
      #expect(hidden.text == nobody.text.replacingOccurrences(of: "999", with: "2"))
      // The mirrored relationships of a user.
      let mirrored = try await client.send(
        "ann", .post, "/users/1/relationships/ownedProjects",
        #"{"data":[\#(identifier("projects", "2"))]}"#)
      #expect(mirrored.status == 404)
      #expect(mirrored.errorPointer == "/data/0")
      let assigned = try await client.send(
        "ann", .patch, "/users/1/relationships/assigned",
        #"{"data":[\#(identifier("tasks", "2"))]}"#)
      #expect(assigned.status == 404)
      // A batch whose second operation names a hidden project leaves nothing of its first.
      let batch = try await client.operations(
        "ann",
        #"{"op":"update","data":{"type":"projects","id":"1","attributes":{"name":"Renamed"}}},"#
          + #"{"op":"add","data":{"type":"tasks","attributes":{"title":"y","done":false,"priority":0},"#
          + #""relationships":{"project":{"data":\#(identifier("projects", "4"))}}}}"#)
      #expect(batch.status == 404)
      #expect(batch.errorPointer?.hasPrefix("/atomic:operations/1") == true)
      expectNothingHidden(batch.replacingID("4"), for: "ann")
      #expect(
        try await client.get("ann", "/projects/1").json["data"]?["attributes"]?["name"]
          == "Ann's plans")
      #expect(try await client.get("cat", "/tasks").ids == ["5"])
    }
  }

  @Test(arguments: Backing.allCases)
  func usersAreNeitherCreatedNorDeleted(_ backing: Backing) async throws {
    try await withTracker(backing) { (client, _) async throws in
      let create = #"{"data":{"type":"users","attributes":{"name":"dan","email":"d@example.com"}}}"#
      #expect(try await client.send("ann", .post, "/users", create).status == 403)
      #expect(try await client.send("ann", .delete, "/users/1").status == 403)
      #expect(try await client.send("ann", .delete, "/users/2").status == 403)
      // Refused before anything is read: a hidden user's answer is a never-existing one's.
      let hidden = try await client.send("ann", .delete, "/users/3")
      let nobody = try await client.send("ann", .delete, "/users/999")
      #expect(hidden.status == 403)
      #expect(hidden.text == nobody.text)
      #expect(try await client.get("bob", "/users").ids.sorted() == ["1", "2"])
    }
  }
}
