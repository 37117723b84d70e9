import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

// The Swift snippets of the DocC article ServingResources.md and of the README's "Serving
// JSON:API", compiled and run here. ReadmeSnippetSyncTests checks that every line of both has
// its twin in the snippet tests.
@Suite struct ServingResourcesSnippetTests {
  struct Person: Codable, Sendable, JSONAPIResource {
    static let jsonAPIType = "people"
    var id: String?
    var name: String
  }

  struct Article: Codable, Sendable, JSONAPIResource {
    static let jsonAPIType = "articles"
    var id: String?
    var title: String
    var wordCount: Int?
    var author: Person?
    var comments: [Comment]?
  }

  struct Comment: Codable, Sendable, JSONAPIResource {
    static let jsonAPIType = "comments"
    var id: String?
    var body: String
    var article: Article?
  }

  @Test func declaringAndServing() async throws {
    let people = try JSONAPIResourceDeclaration(Person.self, sortable: ["name"])
    let articles = try JSONAPIResourceDeclaration(
      Article.self,
      filters: ["title": .contains("title"), "author": .ids("author")],
      sortable: ["title", "wordCount"],
      paging: .cursor(defaultSize: 10, maxSize: 100),
      inverses: ["comments": "article"])
    let comments = try JSONAPIResourceDeclaration(Comment.self)
    let store = JSONAPIMemoryStore(schemas: [people.schema, articles.schema, comments.schema])
    let server = try JSONAPIServer(
      resources: [people, articles, comments], store: store, baseURL: "https://api.example.com")
    try await store.insert([
      JSONAPIResourceRecord(type: "people", id: "9", attributes: ["name": "Dan"]),
      JSONAPIResourceRecord(
        type: "articles", id: "1", attributes: ["title": "Short", "wordCount": 10],
        relationships: ["author": .toOne(JSONAPIResourceIdentifier(type: "people", id: "9"))]),
      JSONAPIResourceRecord(
        type: "articles", id: "2", attributes: ["title": "Long", "wordCount": 900],
        relationships: ["author": .toOne(JSONAPIResourceIdentifier(type: "people", id: "9"))]),
      JSONAPIResourceRecord(
        type: "comments", id: "5", attributes: ["body": "Nice"],
        relationships: ["article": .toOne(JSONAPIResourceIdentifier(type: "articles", id: "2"))]),
    ])

    let response = await server.respond(
      to: JSONAPIServerRequest(
        method: "GET", target: "/articles?include=author&sort=-wordCount",
        headers: [("Accept", "application/vnd.api+json")]))
    #expect(response.status == 200)
    #expect(response.ids == ["2", "1"])
    #expect(response.json["included"]?[0]?["attributes"]?["name"] == "Dan")
    // The inverse: article 2's comments are the comments whose article it is.
    #expect(
      response.json["data"]?[0]?["relationships"]?["comments"]?["data"]
        == [["type": "comments", "id": "5"]])
  }

  /// Who may write, as an app's glue would put it in the request's context.
  struct Editor: Sendable {}

  @Test func hooksAndTheModelsCheck() async throws {
    var hooks = JSONAPIResourceHooks()
    hooks.authorize = { access in
      guard access.action.isRead || access.request.context is Editor else {
        throw JSONAPIErrorObject(status: "403", title: "Only editors write")
      }
    }
    let guarded = try JSONAPIResourceDeclaration(
      Comment.self, hooks: hooks,
      validate: { comment in
        if comment.body.isEmpty {
          throw JSONAPIErrorObject(
            status: "422", detail: "A comment needs a body",
            source: .init(pointer: "/data/attributes/body"))
        }
      })
    let people = try JSONAPIResourceDeclaration(Person.self)
    let articles = try JSONAPIResourceDeclaration(Article.self)
    let store = JSONAPIMemoryStore(schemas: [people.schema, articles.schema, guarded.schema])
    let server = try JSONAPIServer(resources: [people, articles, guarded], store: store)
    func post(_ body: String, as context: (any Sendable)?) async -> JSONAPIServerResponse {
      await server.respond(
        to: JSONAPIServerRequest(
          method: "POST", target: "/comments",
          headers: [("Content-Type", "application/vnd.api+json")], body: Data(body.utf8),
          context: context))
    }
    let empty = #"{"data":{"type":"comments","attributes":{"body":""}}}"#
    #expect(await post(empty, as: nil).status == 403)
    let refused = await post(empty, as: Editor())
    #expect(refused.status == 422 && refused.errorSource == "/data/attributes/body")
    let kept = await post(#"{"data":{"type":"comments","attributes":{"body":"Hi"}}}"#, as: Editor())
    #expect(kept.status == 201)
  }

  /// The OpenAPI description, with a schema the model cannot give.
  @Test func theOpenAPIDescription() async throws {
    let people = try JSONAPIResourceDeclaration(
      Person.self,
      attributeSchemas: ["name": .init(type: ["string"], minLength: 1)])
    let server = try JSONAPIServer(
      resources: [people], store: JSONAPIMemoryStore(schemas: [people.schema]))
    let body = try server.openAPIDocument(title: "Blog", version: "1.0.0").jsonData()
    let read = try JSONDecoder().decode(JSONAPIOpenAPIDocument.self, from: body)
    #expect(read.info.title == "Blog")
    #expect(read.components.schemas["PeopleAttributes"]?.properties?["name"]?.minLength == 1)
  }
}
