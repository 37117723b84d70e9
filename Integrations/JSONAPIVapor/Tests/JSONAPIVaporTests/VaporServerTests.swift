import Foundation
import JSONAPIServer
import Testing
import Vapor
import JSONAPIVapor
import VaporTesting

struct Author: Codable, Sendable, JSONAPIResource {
  static let jsonAPIType = "authors"
  var id: String?
  var name: String
}

struct Book: Codable, Sendable, JSONAPIResource {
  static let jsonAPIType = "books"
  var id: String?
  var title: String
  var author: Author?
}

/// The server from declarations through Vapor's own routing, in process.
@Test func vaporServesTheDeclaredResourcesThroughTheRoutes() async throws {
  let authors = try JSONAPIResourceDeclaration(Author.self)
  let books = try JSONAPIResourceDeclaration(Book.self, sortable: ["title"])
  let store = JSONAPIMemoryStore(schemas: [authors.schema, books.schema])
  try await store.insert([
    JSONAPIResourceRecord(type: "authors", id: "1", attributes: ["name": "Ursula"]),
    JSONAPIResourceRecord(
      type: "books", id: "1", attributes: ["title": "The Dispossessed"],
      relationships: ["author": .toOne(JSONAPIResourceIdentifier(type: "authors", id: "1"))]),
  ])
  let server = try JSONAPIServer(resources: [authors, books], store: store)
  let jsonAPI: HTTPHeaders = [
    "Accept": "application/vnd.api+json", "Content-Type": "application/vnd.api+json",
  ]
  let routes = JSONAPIRoutes(server: server)
  try await withApp(
    configure: { app in try app.register(collection: routes) },
    { app in try await exercise(app.testing(), headers: jsonAPI) })
}

/// A read with an include, a create, and a method the endpoint does not answer.
func exercise(_ tester: TestingApplicationTester, headers: HTTPHeaders) async throws {
  try await tester.test(
    .GET, "/books/1", headers: headers,
    beforeRequest: { request in request.url = URI(string: "/books/1?include=author") },
    afterResponse: { response async in
      #expect(response.status == .ok)
      #expect(response.headers.first(name: "Content-Type") == "application/vnd.api+json")
      #expect(response.body.string.contains(#""name":"Ursula""#))
    })
  let draft = #"{"data":{"type":"books","attributes":{"title":"Lathe"}}}"#
  try await tester.test(
    .POST, "/books", headers: headers, body: ByteBuffer(string: draft),
    afterResponse: { response async in
      #expect(response.status == .created)
      #expect(response.headers.first(name: "Location") == "/books/2")
    })
  try await tester.test(
    .PUT, "/books/1", headers: headers,
    afterResponse: { response async in
      #expect(response.status == .methodNotAllowed)
      #expect(response.headers.first(name: "Allow") == "GET, PATCH, DELETE, HEAD")
    })
}
