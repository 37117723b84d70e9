import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// The OpenAPI description a server derives from its declarations says what the server does.
@Suite struct OpenAPITests {
  typealias Schema = JSONAPIOpenAPIDocument.Schema

  static func document() async throws -> (JSONAPIOpenAPIDocument, JSONAPIServer) {
    let (server, _) = try await ServerFixture.server()
    return (server.openAPIDocument(title: "Blog", version: "1.0.0"), server)
  }

  static func methods(_ item: JSONAPIOpenAPIDocument.PathItem) -> Set<String> {
    var methods: Set<String> = []
    if item.get != nil { methods.insert("GET") }
    if item.head != nil { methods.insert("HEAD") }
    if item.post != nil { methods.insert("POST") }
    if item.patch != nil { methods.insert("PATCH") }
    if item.delete != nil { methods.insert("DELETE") }
    return methods
  }

  /// Every path of the document is an endpoint of the server, with the methods its `405` lists in
  /// `Allow`, and every endpoint kind is described.
  @Test func everyPathAndMethodIsWhatTheServerAnswers() async throws {
    let (document, server) = try await Self.document()
    #expect(document.openapi == "3.1.0")
    #expect(document.servers == [.init(url: "https://api.example.com")])
    for path in [
      "/articles", "/articles/{id}", "/articles/{id}/author",
      "/articles/{id}/relationships/comments", "/comments/{id}/relationships/article",
      "/operations",
    ] {
      #expect(document.paths[path] != nil, "\(path) is missing")
    }
    // 3 types × (collection, resource) + 4 relationships × (related, linkage) + operations.
    let expectedPaths = 3 * 2 + 4 * 2 + 1
    #expect(document.paths.count == expectedPaths)
    for (path, item) in document.paths {
      let concrete = path.replacingOccurrences(of: "{id}", with: "1")
      let response = await server.respond(
        to: JSONAPIServerRequest(
          method: "TRACE", target: concrete, headers: [("Accept", ServerFixture.mediaType)]))
      #expect(response.status == 405, "\(path)")
      let allowed = Set(
        (response.header("Allow") ?? "").split(separator: ",").map {
          $0.trimmingCharacters(in: .whitespaces)
        })
      #expect(allowed == Self.methods(item), "\(path)")
    }
  }

  /// Parameters come from the declarations, enumerated where they are finite.
  @Test func parametersFollowTheDeclarations() async throws {
    let (document, _) = try await Self.document()
    let list = try #require(document.paths["/articles"]?.get?.parameters)
    func parameter(_ name: String) -> JSONAPIOpenAPIDocument.Parameter? {
      list.first { $0.name == name }
    }
    let sort = try #require(parameter("sort"))
    #expect(sort.style == "form" && sort.explode == false)
    #expect(
      sort.schema.items?.enumeration
        == ["id", "-id", "title", "-title", "wordCount", "-wordCount"].map { .string($0) })
    let include = try #require(parameter("include")?.schema.items?.enumeration)
    #expect(include.contains(.string("author")) && include.contains(.string("comments.author")))
    #expect(!include.contains(.string("nonsense")))
    #expect(parameter("fields[people]")?.schema.items?.enumeration == [.string("name")])
    #expect(parameter("filter[longerThan]") != nil && parameter("filter[nothing]") == nil)
    // The fixture pages articles by number, 10 at most.
    #expect(parameter("page[size]")?.schema.maximum == 10)
    #expect(parameter("page[number]")?.schema.minimum == 1)
    #expect(parameter("page[after]") == nil)
    // Creates of comments may carry an id; of articles not.
    let (document2, _) = try await Self.document()
    let comment = document2.components.schemas["CommentsCreate"]?.properties?["data"]
    let article = document2.components.schemas["ArticlesCreate"]?.properties?["data"]
    #expect(comment?.properties?["id"] != nil && article?.properties?["id"] == nil)
  }

  /// Attributes are typed from the model; optionals allow `null`; relationships are linkage to
  /// the declared type.
  @Test func schemasAreTypedFromTheModel() async throws {
    let (document, _) = try await Self.document()
    let attributes = try #require(document.components.schemas["ArticlesAttributes"]?.properties)
    #expect(attributes["title"]?.type == ["string"])
    #expect(attributes["wordCount"]?.type == ["integer", "null"])
    #expect(document.components.schemas["ArticlesAttributes"]?.additionalProperties == false)
    let relationships = try #require(
      document.components.schemas["ArticlesRelationships"]?.properties)
    let author = relationships["author"]?.properties?["data"]
    #expect(author?.type == ["object", "null"])
    #expect(author?.properties?["type"]?.constant == .string("people"))
    #expect(relationships["comments"]?.properties?["data"]?.items == .named("CommentsIdentifier"))
    #expect(
      document.components.schemas["PeopleIdentifier"]?.properties?["type"]?.constant
        == .string("people"))
  }

  @Test func datesFollowTheEncodersStrategyAndDeclarationsOverride() throws {
    struct Event: Codable, Sendable, JSONAPIResource {
      static let jsonAPIType = "events"
      var id: String?
      var at: Date
      var contact: String
    }
    let encoder = JSONAPIEncoder()
    encoder.dateEncodingStrategy = .iso8601
    let events = try JSONAPIResourceDeclaration(
      Event.self, attributeSchemas: ["contact": Schema(type: ["string"], format: "email")])
    let server = try JSONAPIServer(
      resources: [events], store: JSONAPIMemoryStore(schemas: [events.schema]),
      options: .init(encoder: encoder))
    let document = server.openAPIDocument(title: "Events", version: "1")
    let attributes = document.components.schemas["EventsAttributes"]?.properties
    #expect(attributes?["at"] == Schema(type: ["string"], format: "date-time"))
    #expect(attributes?["contact"]?.format == "email")
    #expect(document.servers == nil)
    #expect(throws: JSONAPIDeclarationError.self) {
      _ = try JSONAPIResourceDeclaration(
        Event.self, attributeSchemas: ["nowhere": Schema(type: ["string"])])
    }
  }

  /// The JSON reads back as the same document, `$ref`, `in`, `enum` and `const` spelled as
  /// OpenAPI spells them, and every `$ref` names a schema the document has.
  @Test func theJSONRoundTripsAndEveryReferenceResolves() async throws {
    let (document, _) = try await Self.document()
    let data = try document.jsonData()
    #expect(try JSONDecoder().decode(JSONAPIOpenAPIDocument.self, from: data) == document)
    #expect(try document.jsonData() == data)
    let text = String(decoding: data, as: UTF8.self)
    for spelling in [##""$ref":"##, #""in":"query""#, #""enum":["#, #""const":"people""#] {
      #expect(text.contains(spelling), "\(spelling)")
    }
    var references: Set<String> = []
    var rest = Substring(text)
    while let range = rest.range(of: ##""$ref":"#/components/schemas/"##) {
      rest = rest[range.upperBound...]
      references.insert(String(rest.prefix { $0 != "\"" }))
    }
    #expect(!references.isEmpty)
    #expect(references.subtracting(document.components.schemas.keys).isEmpty)
  }
}
