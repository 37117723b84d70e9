import Foundation
import JSONAPISQLiteStore
import JSONAPIServer
import Testing

// Removing members from an inverse relationship (issue 47 item 6): the server reads only the
// removed members that name the owner, and clears their to-one; members of other owners and ids
// that name nothing are left alone.
@Suite struct InverseRemoveTests {
  @Test func removingFromAnInverseClearsOnlyRemovedMembersOfThatOwner() async throws {
    let (server, store) = try await BlogServer.make()
    // Comments 1 and 2 are article 1's; comment 3 is article 2's.
    try await store.insert([
      JSONAPIResourceRecord(
        type: "comments", id: "3", attributes: ["body": "Comment 3"],
        relationships: ["article": .toOne(JSONAPIResourceIdentifier(type: "articles", id: "2"))])
    ])
    let removed = await server.respond(
      to: BlogServer.request(
        "DELETE", "/articles/1/relationships/comments",
        body: #"""
          {"data":[{"type":"comments","id":"2"},{"type":"comments","id":"3"},
            {"type":"comments","id":"99"}]}
          """#))
    #expect(removed.status == 204 || removed.status == 200, "\(removed.status)")
    #expect(
      await server.respond(to: BlogServer.request("GET", "/articles/1/comments")).ids == ["1"])
    #expect(
      await server.respond(to: BlogServer.request("GET", "/articles/2/comments")).ids == ["3"])
    #expect(try await store.find("comments", "2")?.relationships["article"] == .toOne(nil))
  }
}
