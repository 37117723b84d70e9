import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// `JSONAPIServer`'s writes (issue 37): creates, updates, deletes, relationship endpoints, Atomic
/// Operations, hooks, and every refusal with its status and pointer.
@Suite struct ServerWritingTests {
  typealias Fixture = ServerFixture

  static let newArticle =
    #"{"data":{"type":"articles","attributes":{"title":"New","wordCount":5},"#
    + #""relationships":{"author":{"data":{"type":"people","id":"2"}}}}}"#

  @Test func aCreateIs201WithLocationAndTheResource() async throws {
    let (server, _) = try await Fixture.server()
    let response = await Fixture.respond(
      server, Fixture.request("POST", "/articles?include=author", body: Self.newArticle))
    #expect(response.status == 201)
    #expect(response.header("Location") == "https://api.example.com/articles/13")
    // R78: Location and links.self match.
    #expect(response.json["data"]?["links"]?["self"] == "https://api.example.com/articles/13")
    #expect(response.json["data"]?["attributes"]?["title"] == "New")
    #expect(response.json["included"]?[0]?["attributes"]?["name"] == "Person 2")
    let read = await Fixture.respond(server, Fixture.request("GET", "/articles/13"))
    #expect(read.json["data"]?["relationships"]?["author"]?["data"]?["id"] == "2")
    #expect(read.json["data"]?["relationships"]?["comments"]?["data"] == [])
  }

  @Test(arguments: [
    // R78: another type → 409 at the type.
    (#"{"data":{"type":"people","attributes":{"name":"x"}}}"#, 409, "/data/type"),
    // R77: a client id where the declaration allows none → 403.
    (#"{"data":{"type":"articles","id":"77","attributes":{"title":"x"}}}"#, 403, "/data/id"),
    // A required attribute missing → 422 at attributes.
    (#"{"data":{"type":"articles","attributes":{"wordCount":1}}}"#, 422, "/data/attributes"),
    // An attribute the model has not → 422 at it.
    (
      #"{"data":{"type":"articles","attributes":{"title":"x","color":"red"}}}"#, 422,
      "/data/attributes/color"
    ),
    // A value of the wrong type → 422 at it.
    (#"{"data":{"type":"articles","attributes":{"title":5}}}"#, 422, "/data/attributes/title"),
    (#"{"data":{"type":"articles","attributes":{"title":null}}}"#, 422, "/data/attributes/title"),
    // R78: a related resource that does not exist → 404 at its linkage.
    (
      #"{"data":{"type":"articles","attributes":{"title":"x"},"relationships":{"author":{"data":{"type":"people","id":"9"}}}}}"#,
      404, "/data/relationships/author/data"
    ),
    (
      #"{"data":{"type":"articles","attributes":{"title":"x"},"relationships":{"comments":{"data":[{"type":"comments","id":"1"},{"type":"comments","id":"8"}]}}}}"#,
      404, "/data/relationships/comments/data/1"
    ),
    // Linkage of another type than the relationship's → 409.
    (
      #"{"data":{"type":"articles","attributes":{"title":"x"},"relationships":{"author":{"data":{"type":"comments","id":"1"}}}}}"#,
      409, "/data/relationships/author/data/type"
    ),
    // R76: a relationship without data → 400.
    (
      #"{"data":{"type":"articles","attributes":{"title":"x"},"relationships":{"author":{"meta":{}}}}}"#,
      400, "/data/relationships/author"
    ),
    // Not JSON, not an object, no data → 400.
    (#"{"data":"#, 400, nil),
    (#"[]"#, 400, ""),
    (#"{"meta":{}}"#, 400, ""),
  ])
  func refusedCreatesPointAtTheMember(_ body: String, _ status: Int, _ pointer: String?)
    async throws
  {
    let (server, _) = try await Fixture.server()
    let response = await Fixture.respond(server, Fixture.request("POST", "/articles", body: body))
    #expect(response.status == status)
    if let pointer { #expect(response.errorSource == pointer) }
    let count = await Fixture.respond(server, Fixture.request("GET", "/articles"))
    #expect(count.json["meta"]?["page"]?["total"] == .integer(12), "nothing stored")
  }

  @Test func clientIDsWhereAllowedAndTheirConflicts() async throws {
    let (server, _) = try await Fixture.server()
    let body =
      #"{"data":{"type":"comments","id":"c-1","attributes":{"body":"Hi"},"#
      + #""relationships":{"article":{"data":{"type":"articles","id":"2"}}}}}"#
    let created = await Fixture.respond(server, Fixture.request("POST", "/comments", body: body))
    #expect(created.status == 201 && created.json["data"]?["id"] == "c-1")
    let again = await Fixture.respond(server, Fixture.request("POST", "/comments", body: body))
    #expect(again.status == 409)
  }

  @Test func anUpdateChangesOnlyWhatWasSent() async throws {
    let (server, store) = try await Fixture.server()
    let response = await Fixture.respond(
      server,
      Fixture.request(
        "PATCH", "/articles/3",
        body: #"{"data":{"type":"articles","id":"3","attributes":{"title":"Renamed"}}}"#))
    #expect(response.status == 200)
    #expect(response.json["data"]?["attributes"]?["title"] == "Renamed")
    #expect(response.json["data"]?["attributes"]?["wordCount"] == .integer(30))
    #expect(response.json["data"]?["relationships"]?["author"]?["data"]?["id"] == "1")
    #expect(store.takeCalls().contains("update articles"))
    let mismatch = await Fixture.respond(
      server,
      Fixture.request(
        "PATCH", "/articles/3", body: #"{"data":{"type":"articles","id":"4","attributes":{}}}"#))
    #expect(mismatch.status == 409 && mismatch.errorSource == "/data/id")
    let missing = await Fixture.respond(
      server,
      Fixture.request(
        "PATCH", "/articles/99", body: #"{"data":{"type":"articles","id":"99"}}"#))
    #expect(missing.status == 404)
    let noID = await Fixture.respond(
      server, Fixture.request("PATCH", "/articles/3", body: #"{"data":{"type":"articles"}}"#))
    #expect(noID.status == 400 && noID.errorSource == "/data")
  }

  @Test func aDeleteIs204AndClearsLinkageThatNamedIt() async throws {
    let (server, _) = try await Fixture.server()
    let deleted = await Fixture.respond(server, Fixture.request("DELETE", "/comments/1"))
    #expect(deleted.status == 204 && deleted.body.isEmpty)
    let gone = await Fixture.respond(server, Fixture.request("GET", "/comments/1"))
    #expect(gone.status == 404)
    let linkage = await Fixture.respond(
      server, Fixture.request("GET", "/articles/1/relationships/comments"))
    #expect(linkage.json["data"] == [["type": "comments", "id": "2"]])
    let twice = await Fixture.respond(server, Fixture.request("DELETE", "/comments/1"))
    #expect(twice.status == 404)
  }

  @Test func relationshipEndpointsReplaceAddAndRemove() async throws {
    let (server, _) = try await Fixture.server()
    func linkage(_ target: String) async -> JSONAPIValue? {
      await Fixture.respond(server, Fixture.request("GET", target)).json["data"]
    }
    let author = "/articles/5/relationships/author"
    #expect(
      await Fixture.respond(
        server, Fixture.request("PATCH", author, body: #"{"data":{"type":"people","id":"3"}}"#)
      ).status == 204)
    #expect(await linkage(author)?["id"] == "3")
    #expect(
      await Fixture.respond(server, Fixture.request("PATCH", author, body: #"{"data":null}"#))
        .status
        == 204)
    #expect(await linkage(author) == .null)
    let comments = "/articles/2/relationships/comments"
    let one = #"{"data":[{"type":"comments","id":"1"}]}"#
    #expect(
      await Fixture.respond(server, Fixture.request("POST", comments, body: one)).status == 204)
    // R84: adding a present member is no error and no duplicate.
    #expect(
      await Fixture.respond(server, Fixture.request("POST", comments, body: one)).status == 204)
    #expect(await linkage(comments) == [["type": "comments", "id": "1"]])
    #expect(
      await Fixture.respond(server, Fixture.request("DELETE", comments, body: one)).status == 204)
    #expect(await linkage(comments) == [])
    let missing = await Fixture.respond(
      server, Fixture.request("POST", comments, body: #"{"data":[{"type":"comments","id":"9"}]}"#))
    #expect(missing.status == 404 && missing.errorSource == "/data/0")
    let toOneArray = await Fixture.respond(
      server, Fixture.request("PATCH", author, body: #"{"data":[]}"#))
    #expect(toOneArray.status == 400 && toOneArray.errorSource == "/data")
  }

  @Test func atomicOperationsRunInOneTransactionWithLids() async throws {
    let (server, _) = try await Fixture.server()
    let body = #"""
      {"atomic:operations":[
        {"op":"add","data":{"type":"people","lid":"p","attributes":{"name":"Dan"}}},
        {"op":"add","data":{"type":"articles","lid":"a","attributes":{"title":"Atomic"},
          "relationships":{"author":{"data":{"type":"people","lid":"p"}}}}},
        {"op":"update","ref":{"type":"articles","lid":"a"},
          "data":{"type":"articles","attributes":{"wordCount":7}}},
        {"op":"add","ref":{"type":"articles","id":"2","relationship":"comments"},
          "data":[{"type":"comments","id":"1"}]},
        {"op":"remove","ref":{"type":"articles","id":"12"}}
      ]}
      """#
    let response = await Fixture.respond(
      server,
      Fixture.request(
        "POST", "/operations", body: body, contentType: Fixture.atomic, accept: Fixture.atomic))
    #expect(response.status == 200)
    #expect(response.header("Content-Type") == Fixture.atomic)
    let results = response.json["atomic:results"]?.arrayValue ?? []
    #expect(results.count == 5)
    #expect(results[0]["data"]?["id"] == "4")
    #expect(results[1]["data"]?["relationships"]?["author"]?["data"]?["id"] == "4")
    #expect(results[2]["data"]?["attributes"]?["wordCount"] == .integer(7))
    #expect(results[3] == [:] && results[4] == [:])
    let removed = await Fixture.respond(server, Fixture.request("GET", "/articles/12"))
    #expect(removed.status == 404)
  }

  @Test func aFailingOperationUndoesTheOthersAndPointsIntoIt() async throws {
    let (server, _) = try await Fixture.server()
    let body = #"""
      {"atomic:operations":[
        {"op":"add","data":{"type":"people","attributes":{"name":"Kept?"}}},
        {"op":"add","data":{"type":"articles","attributes":{"title":5}}}
      ]}
      """#
    let response = await Fixture.respond(
      server,
      Fixture.request(
        "POST", "/operations", body: body, contentType: Fixture.atomic, accept: Fixture.atomic))
    #expect(response.status == 422)
    #expect(response.errorSource == "/atomic:operations/1/data/attributes/title")
    let people = await Fixture.respond(server, Fixture.request("GET", "/people"))
    #expect(people.ids == ["1", "2", "3"], "R110: nothing of the request stored")
    let plain = await Fixture.respond(server, Fixture.request("POST", "/operations", body: body))
    #expect(plain.status == 415)
  }

  @Test func hooksAuthorizeAndRefuseWithTheirErrorObject() async throws {
    var hooks = JSONAPIResourceHooks()
    hooks.authorize = { access in
      if !access.action.isRead {
        throw JSONAPIErrorObject(status: "403", code: "read-only", title: "Read only")
      }
    }
    let (server, _) = try await Fixture.server(hooks: hooks)
    let read = await Fixture.respond(server, Fixture.request("GET", "/articles/1"))
    #expect(read.status == 200)
    let write = await Fixture.respond(
      server, Fixture.request("POST", "/articles", body: Self.newArticle))
    #expect(write.status == 403 && write.json["errors"]?[0]?["code"] == "read-only")
  }

  @Test func theModelsOwnCheckRefusesWithItsPointer() async throws {
    let (server, _) = try await Fixture.server(validateComment: { comment in
      if comment.body.trimmingCharacters(in: .whitespaces).isEmpty {
        throw JSONAPIErrorObject(
          status: "422", code: "blank", title: "Invalid Attribute", detail: "body is blank",
          source: .init(pointer: "/data/attributes/body"))
      }
    })
    let blank = await Fixture.respond(
      server,
      Fixture.request(
        "POST", "/comments", body: #"{"data":{"type":"comments","attributes":{"body":" "}}}"#))
    #expect(blank.status == 422 && blank.errorSource == "/data/attributes/body")
    // Text is kept whole: a U+0000 inside is stored and read back exactly.
    let nul = await Fixture.respond(
      server,
      Fixture.request(
        "POST", "/comments",
        body: #"{"data":{"type":"comments","attributes":{"body":"nul\u0000tail"}}}"#))
    #expect(nul.status == 201)
    #expect(nul.json["data"]?["attributes"]?["body"] == .string("nul\u{0000}tail"))
  }

  @Test func theModelsCheckSeesItsRelatedResourcesWhole() async throws {
    // Person.name is required: the check decodes the comment with its author included.
    let (server, _) = try await Fixture.server(validateComment: { comment in
      if comment.author?.name == "Person 3" {
        throw JSONAPIErrorObject(
          status: "422", code: "banned", source: .init(pointer: "/data/relationships/author"))
      }
    })
    func post(author: String) async -> JSONAPIServerResponse {
      await Fixture.respond(
        server,
        Fixture.request(
          "POST", "/comments",
          body: #"{"data":{"type":"comments","attributes":{"body":"Hi"},"#
            + #""relationships":{"author":{"data":{"type":"people","id":"\#(author)"}}}}}"#))
    }
    let banned = await post(author: "3")
    #expect(banned.status == 422 && banned.json["errors"]?[0]?["code"] == "banned")
    #expect(await post(author: "1").status == 201)
  }
}
