import Foundation
import JSONAPIServer
import JSONAPISQLiteStore
import Testing

// The store plugged into JSONAPIServer (issue 37) on the HummingbirdServer example's database:
// reads with includes and inverse relationships, writes, relationship endpoints, Atomic
// Operations all or nothing, and refusals answered as JSON:API errors.
@Suite struct ServerTests {
  typealias Blog = BlogServer

  @Test func getWithIncludesPagesAndInverseLinkage() async throws {
    let (server, _) = try await Blog.make()
    let list = await server.respond(
      to: Blog.request("GET", "/articles?include=author,comments&sort=-title"))
    #expect(list.status == 200)
    #expect(list.ids == ["4", "3"])
    #expect(list.json["meta"]?["page"]?["total"] == 4)
    let included = (list.json["included"]?.arrayValue ?? []).map { item in
      "\(item["type"]?.stringValue ?? "")/\(item["id"]?.stringValue ?? "")"
    }
    #expect(Set(included) == ["people/1", "people/3"])
    let first = await server.respond(to: Blog.request("GET", "/articles/1?include=comments.author"))
    #expect(
      first.json["data"]?["relationships"]?["comments"]?["data"] == [
        ["type": "comments", "id": "1"], ["type": "comments", "id": "2"],
      ])
    #expect(first.json["included"]?.arrayValue?.count == 4)  // 2 comments and their 2 authors
    let related = await server.respond(to: Blog.request("GET", "/articles/1/comments"))
    #expect(related.ids == ["1", "2"])
    let filtered = await server.respond(
      to: Blog.request("GET", "/articles?filter[title]=ARTICLE%2003"))
    #expect(filtered.ids == ["3"])
    let byAuthor = await server.respond(to: Blog.request("GET", "/articles?filter[author]=1,2"))
    #expect(byAuthor.ids == ["1", "2"] && byAuthor.json["meta"]?["page"]?["total"] == 3)
  }

  @Test func postPatchAndDeleteGoThroughTheStore() async throws {
    let (server, store) = try await Blog.make()
    let created = await server.respond(
      to: Blog.request(
        "POST", "/articles?include=author",
        body: #"""
          {"data":{"type":"articles","attributes":{"title":"New","body":"nul\u0000tail"},
            "relationships":{"author":{"data":{"type":"people","id":"2"}},
              "comments":{"data":[{"type":"comments","id":"2"}]}}}}
          """#))
    #expect(created.status == 201)
    #expect(created.header("Location") == "https://api.example.com/articles/5")
    #expect(created.json["included"]?[0]?["attributes"]?["name"] == "Grace Hopper")
    // The inverse was written through the comment's `article`.
    #expect(
      try await store.find("comments", "2")?.relationships["article"]
        == .toOne(.init(type: "articles", id: "5")))
    #expect(try await store.find("articles", "5")?.attributes["body"] == "nul\u{0}tail")
    let patched = await server.respond(
      to: Blog.request(
        "PATCH", "/articles/5",
        body: #"{"data":{"type":"articles","id":"5","attributes":{"title":"Renamed"}}}"#))
    #expect(patched.status == 200)
    #expect(patched.json["data"]?["attributes"]?["title"] == "Renamed")
    #expect(patched.json["data"]?["attributes"]?["body"] == "nul\u{0}tail")
    let moved = await server.respond(
      to: Blog.request(
        "POST", "/articles/2/relationships/comments",
        body: #"{"data":[{"type":"comments","id":"1"}]}"#))
    #expect(moved.status == 204 || moved.status == 200)
    #expect(await server.respond(to: Blog.request("GET", "/articles/2/comments")).ids == ["1"])
    let deleted = await server.respond(to: Blog.request("DELETE", "/people/2"))
    #expect(deleted.status == 204)
    // Linkage to the deleted person is cleared, the articles and comments stay.
    let article = await server.respond(to: Blog.request("GET", "/articles/5"))
    #expect(article.json["data"]?["relationships"]?["author"]?["data"] == .null)
    #expect(await server.respond(to: Blog.request("GET", "/people/2")).status == 404)
  }

  @Test func atomicOperationsCommitTogetherOrNotAtAll() async throws {
    let (server, _) = try await Blog.make()
    let body = #"""
      {"atomic:operations":[
        {"op":"add","data":{"type":"people","lid":"p","attributes":{"name":"Dan"}}},
        {"op":"add","data":{"type":"articles","lid":"a","attributes":{"title":"Atomic"},
          "relationships":{"author":{"data":{"type":"people","lid":"p"}}}}},
        {"op":"update","ref":{"type":"articles","lid":"a"},
          "data":{"type":"articles","attributes":{"body":"Done"}}},
        {"op":"remove","ref":{"type":"articles","id":"4"}}
      ]}
      """#
    let response = await server.respond(
      to: Blog.request(
        "POST", "/operations", body: body, contentType: Blog.atomic, accept: Blog.atomic))
    #expect(response.status == 200)
    let results = response.json["atomic:results"]?.arrayValue ?? []
    #expect(results.count == 4)
    #expect(results[0]["data"]?["id"] == "4")
    #expect(results[1]["data"]?["relationships"]?["author"]?["data"]?["id"] == "4")
    #expect(results[2]["data"]?["attributes"]?["body"] == "Done")
    #expect(await server.respond(to: Blog.request("GET", "/articles/4")).status == 404)
    // A failing operation takes every earlier one back with it (R110).
    let failing = #"""
      {"atomic:operations":[
        {"op":"add","data":{"type":"people","attributes":{"name":"Kept?"}}},
        {"op":"remove","ref":{"type":"articles","id":"1"}},
        {"op":"add","data":{"type":"articles","attributes":{"title":5}}}
      ]}
      """#
    let refused = await server.respond(
      to: Blog.request(
        "POST", "/operations", body: failing, contentType: Blog.atomic, accept: Blog.atomic))
    #expect(refused.status == 422)
    let people = await server.respond(to: Blog.request("GET", "/people"))
    #expect(people.ids == ["1", "2", "3", "4"], "nothing of the request stored")
    #expect(await server.respond(to: Blog.request("GET", "/articles/1")).status == 200)
  }

  @Test func valuesTheStoreCannotKeepAre422() async throws {
    let (server, _) = try await Blog.make()
    // Comments allow client ids, but their table's ids are integers.
    let response = await server.respond(
      to: Blog.request(
        "POST", "/comments",
        body: #"{"data":{"type":"comments","id":"c1","attributes":{"body":"x"}}}"#))
    #expect(response.status == 422)
    let given = await server.respond(
      to: Blog.request(
        "POST", "/comments",
        body: #"{"data":{"type":"comments","id":"30","attributes":{"body":"x"}}}"#))
    #expect(given.status == 201)
    let again = await server.respond(
      to: Blog.request(
        "POST", "/comments",
        body: #"{"data":{"type":"comments","id":"30","attributes":{"body":"y"}}}"#))
    #expect(again.status == 409)
  }

  // Issue 37 item 9: the statements of a request are bounded by its include depth and the types
  // it reaches, not by the number of resources: a page of 2 articles and a page of 10, each with
  // their authors, comments and the comments' authors, stay under one bound (each store call is
  // one read transaction: GRDB's BEGIN, PRAGMA schema_version and COMMIT around its SELECTs). The
  // larger page may cost fewer: its level-1 people already hold the comments' authors.
  @Test func statementsPerRequestDependOnIncludeDepthNotOnResources() async throws {
    let (server, store) = try await Blog.make()
    for number in 5...12 {
      let created = await server.respond(
        to: Blog.request(
          "POST", "/articles",
          body: #"{"data":{"type":"articles","attributes":{"title":"More \#(number)"},"#
            + #""relationships":{"author":{"data":{"type":"people","id":"2"}}}}}"#))
      let id = created.json["data"]?["id"]?.stringValue ?? ""
      for comment in 1...3 {
        _ = await server.respond(
          to: Blog.request(
            "POST", "/comments",
            body: #"{"data":{"type":"comments","attributes":{"body":"C\#(comment)"},"#
              + #""relationships":{"article":{"data":{"type":"articles","id":"\#(id)"}},"#
              + #""author":{"data":{"type":"people","id":"3"}}}}}"#))
      }
    }
    func statements(_ target: String) async -> (Int, JSONAPIServerResponse) {
      _ = await server.respond(to: Blog.request("GET", "/people/1"))  // the reader is open
      let before = store.statementCount
      let response = await server.respond(to: Blog.request("GET", target))
      return (store.statementCount - before, response)
    }
    let include = "include=author,comments.author"
    let (small, two) = await statements("/articles?\(include)&page%5Bsize%5D=2")
    let (large, ten) = await statements("/articles?\(include)&page%5Bsize%5D=10")
    #expect(two.ids.count == 2 && ten.ids.count == 10)
    #expect((ten.json["included"]?.arrayValue?.count ?? 0) > 20)
    #expect(small <= 24 && large <= 24, "\(small) statements for 2 articles, \(large) for 10")
    #expect(large <= small, "more resources, more statements: \(small) for 2, \(large) for 10")
    let (none, _) = await statements("/articles?page%5Bsize%5D=10")
    #expect(none < large, "includes cost statements: \(none) without, \(large) with")
  }
}
