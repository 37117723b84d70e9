import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// A blog served by `JSONAPIServer` on a `JSONAPIMemoryStore`: 3 people, 12 articles (article n
/// by person (n % 3) + 1, n × 10 words), 2 comments on article 1. The store is wrapped to count
/// its calls.
enum ServerFixture {
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
    var author: Person?
    var article: Article?
  }

  static let mediaType = "application/vnd.api+json"
  static let atomic = #"application/vnd.api+json;ext="https://jsonapi.org/ext/atomic""#

  /// The server, its counting store, and the declarations' hooks as given.
  static func server(
    hooks: JSONAPIResourceHooks = JSONAPIResourceHooks(),
    articlePaging: JSONAPIPaging = .pageNumber(defaultSize: 5, maxSize: 10),
    validateComment: (@Sendable (Comment) throws -> Void)? = nil
  ) async throws -> (JSONAPIServer, CountingStore) {
    let people = try JSONAPIResourceDeclaration(
      Person.self, filters: ["name": .contains("name")], sortable: ["name"])
    let articles = try JSONAPIResourceDeclaration(
      Article.self,
      filters: [
        "title": .contains("title"), "author": .ids("author"), "wordCount": .equals("wordCount"),
        "longerThan": .greaterThan("wordCount"),
      ],
      sortable: ["title", "wordCount"], paging: articlePaging, hooks: hooks)
    let comments = try JSONAPIResourceDeclaration(
      Comment.self, acceptsClientGeneratedIDs: true, validate: validateComment)
    let memory = JSONAPIMemoryStore(schemas: [people.schema, articles.schema, comments.schema])
    _ = try await memory.insert(seed())
    let store = CountingStore(base: memory)
    let server = try JSONAPIServer(
      resources: [people, articles, comments], store: store, baseURL: "https://api.example.com")
    return (server, store)
  }

  static func seed() -> [JSONAPIResourceRecord] {
    var records: [JSONAPIResourceRecord] = (1...3).map {
      JSONAPIResourceRecord(
        type: "people", id: String($0), attributes: ["name": .string("Person \($0)")])
    }
    for number in 1...12 {
      records.append(
        JSONAPIResourceRecord(
          type: "articles", id: String(number),
          attributes: [
            "title": .string(String(format: "Article %02d", number)),
            "wordCount": .integer(number * 10),
          ],
          relationships: [
            "author": .toOne(
              JSONAPIResourceIdentifier(type: "people", id: String(number % 3 + 1))),
            "comments": .toMany(
              number == 1
                ? [
                  JSONAPIResourceIdentifier(type: "comments", id: "1"),
                  JSONAPIResourceIdentifier(type: "comments", id: "2"),
                ] : []),
          ]))
    }
    for number in 1...2 {
      records.append(
        JSONAPIResourceRecord(
          type: "comments", id: String(number), attributes: ["body": .string("Comment \(number)")],
          relationships: [
            "author": .toOne(JSONAPIResourceIdentifier(type: "people", id: "3")),
            "article": .toOne(JSONAPIResourceIdentifier(type: "articles", id: "1")),
          ]))
    }
    return records
  }

  /// `server`'s answer to `request`. Every document it answers with (Atomic Operations aside)
  /// is checked by `JSONAPIComplianceChecker` and dumped for the schema check of
  /// Scripts/validate-encoded-documents.sh, as the encoder's documents are.
  static func respond(_ server: JSONAPIServer, _ request: JSONAPIServerRequest) async
    -> JSONAPIServerResponse
  {
    let response = await server.respond(to: request)
    let isAtomic = response.header("Content-Type")?.contains("ext=") == true
    // Sparse fieldsets may leave included resources unreachable, which JSON:API allows (R38's
    // exception) and the checker does not know: such answers are left to the tests' own checks.
    let isSparse = request.target.contains("fields%5B")
    if !response.body.isEmpty, !isAtomic, !isSparse {
      let name =
        "served-" + request.method.lowercased() + "-"
        + String(request.target.map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(80))
        + "-\(response.status)"
      _ = try? checked(
        response.body, name: name, kind: .response,
        answersInclude: request.target.contains("include="))
    }
    return response
  }

  /// A request with the JSON:API media type in `Accept`, and in `Content-Type` with a body.
  static func request(
    _ method: String, _ target: String, body: String? = nil, contentType: String = mediaType,
    accept: String = mediaType
  ) -> JSONAPIServerRequest {
    var headers: [(name: String, value: String)] = [("Accept", accept)]
    if body != nil { headers.append(("Content-Type", contentType)) }
    return JSONAPIServerRequest(
      method: method, target: target, headers: headers, body: Data((body ?? "").utf8))
  }
}

/// A store that counts the calls the server makes, to hold reads to one per type and include
/// level.
final class CountingStore: JSONAPIStore, @unchecked Sendable {
  let base: any JSONAPIStore
  private let lock = NSLock()
  private var counted: [String] = []

  init(base: any JSONAPIStore) { self.base = base }

  /// The calls so far (`resources people`, `page articles`, `create comments`…), and reset.
  func takeCalls() -> [String] {
    lock.withLock {
      defer { counted = [] }
      return counted
    }
  }

  func record(_ call: String) { lock.withLock { counted.append(call) } }

  func read<T: Sendable>(_ body: @Sendable (any JSONAPIStoreReader) async throws -> T)
    async throws -> T
  {
    try await base.read { reader in try await body(CountingReader(base: reader, store: self)) }
  }

  func write<T: Sendable>(_ body: @Sendable (any JSONAPIStoreWriter) async throws -> T)
    async throws -> T
  {
    try await base.write { writer in try await body(CountingWriter(base: writer, store: self)) }
  }
}

struct CountingReader: JSONAPIStoreReader {
  let base: any JSONAPIStoreReader
  let store: CountingStore

  func resources(_ type: String, ids: [String]) async throws -> [JSONAPIResourceRecord] {
    store.record("resources \(type)")
    return try await base.resources(type, ids: ids)
  }

  func page(_ query: JSONAPIStoreQuery) async throws -> JSONAPIStorePage {
    store.record("page \(query.type)")
    return try await base.page(query)
  }
}

struct CountingWriter: JSONAPIStoreWriter {
  let base: any JSONAPIStoreWriter
  let store: CountingStore

  func resources(_ type: String, ids: [String]) async throws -> [JSONAPIResourceRecord] {
    store.record("resources \(type)")
    return try await base.resources(type, ids: ids)
  }

  func page(_ query: JSONAPIStoreQuery) async throws -> JSONAPIStorePage {
    store.record("page \(query.type)")
    return try await base.page(query)
  }

  func create(_ record: JSONAPIResourceRecord) async throws -> JSONAPIResourceRecord {
    store.record("create \(record.type)")
    return try await base.create(record)
  }

  func update(_ changes: JSONAPIResourceRecord) async throws -> JSONAPIResourceRecord? {
    store.record("update \(changes.type)")
    return try await base.update(changes)
  }

  func delete(_ type: String, id: String) async throws -> Bool {
    store.record("delete \(type)")
    return try await base.delete(type, id: id)
  }

  func add(
    _ identifiers: [JSONAPIResourceIdentifier], to relationship: String, of type: String,
    id: String
  ) async throws -> Bool {
    store.record("add \(type).\(relationship)")
    return try await base.add(identifiers, to: relationship, of: type, id: id)
  }

  func remove(
    _ identifiers: [JSONAPIResourceIdentifier], from relationship: String, of type: String,
    id: String
  ) async throws -> Bool {
    store.record("remove \(type).\(relationship)")
    return try await base.remove(identifiers, from: relationship, of: type, id: id)
  }
}

extension JSONAPIServerResponse {
  /// The body as JSON.
  var json: JSONAPIValue {
    (try? JSONDecoder().decode(JSONAPIValue.self, from: body)) ?? .null
  }

  /// The ids of the primary data, in order.
  var ids: [String] {
    json["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
  }

  /// `source.pointer` (or `source.parameter`, `source.header`) of the first error.
  var errorSource: String? {
    let source = json["errors"]?[0]?["source"]
    return source?["pointer"]?.stringValue ?? source?["parameter"]?.stringValue
      ?? source?["header"]?.stringValue
  }
}
