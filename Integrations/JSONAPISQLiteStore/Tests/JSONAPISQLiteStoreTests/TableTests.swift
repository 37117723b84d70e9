import Foundation
import GRDB
import JSONAPIServer
import JSONAPISQLiteStore
import Testing

// Tables: existing databases served as they are or through mappings, default tables made from
// the schemas of models, text ids, the values a column keeps or refuses, and the schemas and
// databases the store refuses to open.
@Suite struct TableTests {
  typealias S = Schemas

  // MARK: - Existing databases

  @Test func theHummingbirdBlogDatabaseIsServedAsItIs() async throws {
    let path = try BlogServer.existingDatabase()
    let declarations = try BlogServer.declarations()
    let store = try JSONAPISQLiteStore(path: path, schemas: declarations.map(\.schema))
    let people = try await store.read { try await $0.resources("people", ids: ["1", "3"]) }
    #expect(
      Set(people.compactMap { $0.attributes["name"]?.stringValue }) == [
        "Ada Lovelace", "Alan Turing",
      ])
    let article = try await store.find("articles", "2")
    #expect(article?.attributes == ["title": "Article 02", "body": "Body of article 2."])
    // The inverse `comments` has no storage: the server fills it from the comments' `article`.
    #expect(
      article?.relationships == [
        "author": .toOne(JSONAPIResourceIdentifier(type: "people", id: "2"))
      ])
    let comment = try await store.find("comments", "1")
    #expect(comment?.relationships["article"] == .toOne(.init(type: "articles", id: "1")))
    // Without the server, an inverse still filters and scopes through the to-one side.
    let commented = try await store.ids(
      JSONAPIStoreQuery(
        type: "articles",
        filters: [
          JSONAPIFilterCondition(
            member: "comments", isRelationship: true, comparison: .equals, values: ["2"])
        ]))
    #expect(commented == ["1"])
    let uncommented = try await store.ids(
      JSONAPIStoreQuery(
        type: "articles",
        filters: [
          JSONAPIFilterCondition(
            member: "comments", isRelationship: true, comparison: .equals, values: [nil])
        ]))
    #expect(uncommented == ["2", "3", "4"])
    let scoped = try await store.ids(
      JSONAPIStoreQuery(
        type: "comments",
        scope: .init(owner: .init(type: "articles", id: "1"), relationship: "comments")))
    #expect(scoped == ["1", "2"])
    // Nothing was added to the database: no join table (the only to-many is an inverse).
    let tables = try await DatabaseQueue(path: path).read { db in
      try String.fetchAll(
        db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    }
    #expect(tables == ["articles", "comments", "people", "sqlite_sequence"])
    // Writes keep the database's ids going.
    let created = try await store.insert([
      JSONAPIResourceRecord(
        type: "articles", id: "", attributes: ["title": "New"],
        relationships: ["author": .toOne(.init(type: "people", id: "1"))])
    ])
    #expect(created.first?.id == "5")
    #expect(created.first?.attributes == ["title": "New", "body": nil])
  }

  static func label(_ id: String) -> JSONAPIResourceIdentifier {
    JSONAPIResourceIdentifier(type: "labels", id: id)
  }

  @Test func mappedTablesWithOtherNamesTextIdsAndAJoinTableWithoutPositions() async throws {
    let path = TestDatabases.path()
    try await DatabaseQueue(path: path).write { db in
      try db.execute(
        sql: """
          CREATE TABLE legacy_people (person_id INTEGER PRIMARY KEY, full_name TEXT NOT NULL);
          CREATE TABLE posts (slug TEXT PRIMARY KEY NOT NULL, headline TEXT, writer INTEGER);
          CREATE TABLE post_labels (post TEXT NOT NULL, label TEXT NOT NULL,
            PRIMARY KEY (post, label));
          INSERT INTO legacy_people VALUES (7, 'Ada');
          INSERT INTO posts VALUES ('hello', 'Hello', 7), ('later', 'Later', NULL);
          INSERT INTO post_labels VALUES ('hello', 'swift'), ('hello', 'db');
          """)
    }
    let schemas = [
      JSONAPIResourceSchema(
        type: "people", attributes: [.init(name: "name", kind: .string, isOptional: false)],
        relationships: []),
      JSONAPIResourceSchema(
        type: "posts", attributes: [.init(name: "title", kind: .string, isOptional: true)],
        relationships: [
          .init(name: "author", targetType: "people", isToMany: false, isOptional: true),
          .init(name: "labels", targetType: "labels", isToMany: true, isOptional: true),
        ]),
      JSONAPIResourceSchema(type: "labels", attributes: [], relationships: []),
    ]
    let store = try JSONAPISQLiteStore(
      path: path, schemas: schemas,
      tables: [
        "people": JSONAPISQLiteTable(
          name: "legacy_people", idColumn: "person_id", columns: ["name": "full_name"]),
        "posts": JSONAPISQLiteTable(
          name: "posts", idColumn: "slug", idKind: .text,
          columns: ["title": "headline", "author": "writer"],
          joinTables: [
            "labels": JSONAPISQLiteJoinTable(
              name: "post_labels", ownerColumn: "post", targetColumn: "label", positionColumn: nil)
          ]),
        "labels": JSONAPISQLiteTable(name: "labels", idKind: .text),
      ])
    let hello = try await store.find("posts", "hello")
    #expect(hello?.attributes == ["title": "Hello"])
    #expect(hello?.relationships["author"] == .toOne(.init(type: "people", id: "7")))
    // Without a position column, linkage reads in the order of the related ids.
    #expect(hello?.relationships["labels"] == .toMany([Self.label("db"), Self.label("swift")]))
    #expect(try await store.find("people", "7")?.attributes == ["name": "Ada"])
    // Filters, sort and writes go through the mapping.
    let byAuthor = try await store.ids(
      JSONAPIStoreQuery(
        type: "posts",
        filters: [
          JSONAPIFilterCondition(
            member: "author", isRelationship: true, comparison: .equals, values: [nil])
        ]))
    #expect(byAuthor == ["later"])
    #expect(
      try await store.ids(JSONAPIStoreQuery(type: "posts", sort: [.descending("id")])) == [
        "later", "hello",
      ])
    _ = try await store.write { writer in
      try await writer.add(
        [Self.label("db"), Self.label("news")], to: "labels", of: "posts", id: "later")
    }
    #expect(
      try await store.find("posts", "later")?.relationships["labels"]
        == .toMany([Self.label("db"), Self.label("news")]))
    let made = try await store.insert([JSONAPIResourceRecord(type: "posts", id: "")])
    #expect(made.first.map { UUID(uuidString: $0.id) != nil } == true)
    #expect(try await store.write { try await $0.delete("people", id: "7") })
    #expect(try await store.find("posts", "hello")?.relationships["author"] == .toOne(nil))
  }

  // MARK: - Default tables

  enum Status: String, Codable, CaseIterable, Sendable { case draft, published }

  struct Size: Codable, Sendable, Hashable {
    var width: Double
    var height: Double
  }

  struct Maker: Codable, Sendable, JSONAPIResource {
    static let jsonAPIType = "makers"
    var id: String?
    var name: String
  }

  struct Part: Codable, Sendable, JSONAPIResource {
    static let jsonAPIType = "parts"
    var id: String?
    var serial: Int
  }

  struct Gadget: Codable, Sendable, JSONAPIResource {
    static let jsonAPIType = "gadgets"
    var id: String?
    var name: String
    var price: Double
    var stock: Int?
    var isActive: Bool
    var releasedAt: Date?
    var status: Status
    var labels: [String]
    var size: Size?
    var extra: JSONAPIValue?
    var maker: Maker?
    var parts: [Part]?
  }

  @Test func defaultTablesAreMadeFromTheSchemasOfModels() async throws {
    let schemas = [
      try JSONAPIResourceSchema(reading: Gadget.self),
      try JSONAPIResourceSchema(reading: Maker.self),
      try JSONAPIResourceSchema(reading: Part.self),
    ]
    let path = TestDatabases.path()
    let store = try JSONAPISQLiteStore(path: path, schemas: schemas)
    let columns = try await DatabaseQueue(path: path).read { db in
      var columns: [String: [String]] = [:]
      for table in ["gadgets", "makers", "parts", "gadgets_parts"] {
        columns[table] = try db.columns(in: table).map { "\($0.name) \($0.type)" }
      }
      return columns
    }
    #expect(
      columns["gadgets"] == [
        "id INTEGER", "name TEXT", "price REAL", "stock INTEGER", "isActive INTEGER",
        "releasedAt ", "status TEXT", "labels TEXT", "size TEXT", "extra ", "maker_id INTEGER",
      ])
    #expect(
      columns["gadgets_parts"] == ["owner_id INTEGER", "target_id INTEGER", "position INTEGER"])
    #expect(columns["parts"] == ["id INTEGER", "serial INTEGER"])
    let values: [String: JSONAPIValue] = [
      "name": "Lamp", "price": .number(19.5), "stock": 3, "isActive": true,
      "releasedAt": "2024-05-01T10:00:00Z", "status": "published", "labels": ["a", "b\u{0}"],
      "size": ["width": 1.5, "height": 2], "extra": ["nested": [true, nil, 1.25]],
    ]
    let parts = try await store.insert([
      JSONAPIResourceRecord(type: "parts", id: "", attributes: ["serial": 1]),
      JSONAPIResourceRecord(type: "parts", id: "", attributes: ["serial": 2]),
    ])
    let created = try await store.insert([
      JSONAPIResourceRecord(
        type: "gadgets", id: "", attributes: values,
        relationships: ["parts": .toMany(parts.reversed().map(\.identifier))]),
      JSONAPIResourceRecord(
        type: "gadgets", id: "",
        attributes: [
          "name": "Clock", "price": 5, "isActive": false, "releasedAt": .number(1_714_557_600.25),
          "status": "draft", "labels": [], "extra": "text",
        ]),
    ])
    let lamp = try await store.find("gadgets", created[0].id)
    #expect(lamp?.attributes == values)
    #expect(
      lamp?.relationships == [
        "maker": .toOne(nil), "parts": .toMany(parts.reversed().map(\.identifier)),
      ])
    let clock = try await store.find("gadgets", created[1].id)
    // A numeric date stays a number.
    #expect(clock?.attributes["releasedAt"] == .number(1_714_557_600.25))
    #expect(clock?.attributes["price"] == 5 && clock?.attributes["isActive"] == false)
    #expect(clock?.attributes["stock"] == .null && clock?.attributes["size"] == .null)
    #expect(clock?.attributes["extra"] == "text")
    // Equality on JSON values compares them whatever their members' order.
    let matching = try await store.ids(
      JSONAPIStoreQuery(
        type: "gadgets",
        filters: [
          JSONAPIFilterCondition(
            member: "size", comparison: .equals, values: [["height": 2.0, "width": 1.5]]),
          JSONAPIFilterCondition(member: "isActive", comparison: .equals, values: [true]),
        ]))
    #expect(matching == [created[0].id])
    // A second store on the same file uses the tables as they are.
    let again = try JSONAPISQLiteStore(path: path, schemas: schemas)
    #expect(try await again.find("gadgets", created[0].id) == lamp)
  }

  @Test func valuesAColumnCannotKeepExactlyAreRefused() async throws {
    let schemas = [
      try JSONAPIResourceSchema(reading: Gadget.self),
      try JSONAPIResourceSchema(reading: Maker.self),
      try JSONAPIResourceSchema(reading: Part.self),
    ]
    let store = try makeStore(schemas: schemas)
    let base: [String: JSONAPIValue] = [
      "name": "x", "price": 1, "isActive": true, "status": "draft", "labels": [],
    ]
    let refused: [(String, JSONAPIValue)] = [
      ("price", .integer((1 << 60) + 1)),  // no exact Double
      ("price", .number(.nan)),
      ("stock", "seven"),
      ("isActive", 1),
      ("labels", "a"),
      ("color", "red"),  // no column
    ]
    for (member, value) in refused {
      var attributes = base
      attributes[member] = value
      await #expect(throws: JSONAPIStoreError.unstorableValue(member: member, reason: "")) {
        do {
          try await store.insert([
            JSONAPIResourceRecord(type: "gadgets", id: "", attributes: attributes)
          ])
        } catch JSONAPIStoreError.unstorableValue(let member, _) {
          throw JSONAPIStoreError.unstorableValue(member: member, reason: "")
        }
      }
    }
    await #expect(throws: JSONAPIStoreError.self) {
      try await store.insert([
        JSONAPIResourceRecord(
          type: "gadgets", id: "", attributes: base,
          relationships: ["maker": .toOne(.init(type: "makers", id: "x"))])
      ])
    }
    #expect(try await store.ids(JSONAPIStoreQuery(type: "gadgets")).isEmpty)
  }

  @Test func textIdsAreKeptByteForByteAndSortByBytes() async throws {
    let store = try makeStore(tables: ["tags": JSONAPISQLiteTable(name: "tags", idKind: .text)])
    // "é" precomposed and decomposed: equal as Swift strings, two different ids.
    try await store.insert(
      ["\u{E9}", "e\u{301}", "10", "9", "007"].map { JSONAPIResourceRecord(type: "tags", id: $0) })
    let found = try await store.read { try await $0.resources("tags", ids: ["e\u{301}"]) }
    #expect(found.map { Array($0.id.utf8) } == [Array("e\u{301}".utf8)])
    let sorted = try await store.ids(JSONAPIStoreQuery(type: "tags"))
    #expect(
      sorted.map { Array($0.utf8) }
        == ["007", "10", "9", "e\u{301}", "\u{E9}"].map { Array($0.utf8) })
    await #expect(throws: JSONAPIStoreError.alreadyExists(type: "tags", id: "10")) {
      try await store.insert([JSONAPIResourceRecord(type: "tags", id: "10")])
    }
  }

  // MARK: - Refusals at opening

  @Test func schemasAndDatabasesTheStoreCannotServeAreRefusedAtOpening() throws {
    func opening(
      _ schemas: [JSONAPIResourceSchema], _ tables: [String: JSONAPISQLiteTable] = [:],
      path: String = TestDatabases.path()
    ) -> String? {
      do {
        _ = try JSONAPISQLiteStore(path: path, schemas: schemas, tables: tables)
        return nil
      } catch let error as JSONAPISQLiteStoreError {
        return error.reason
      } catch {
        return "\(error)"
      }
    }
    let anyTarget = JSONAPIResourceSchema(
      type: "notes", attributes: [],
      relationships: [.init(name: "subject", targetType: nil, isToMany: false, isOptional: true)])
    #expect(opening([anyTarget])?.contains("subject") == true)
    let missingTarget = JSONAPIResourceSchema(
      type: "notes", attributes: [],
      relationships: [.init(name: "owner", targetType: "people", isToMany: false, isOptional: true)]
    )
    #expect(opening([missingTarget])?.contains("owner") == true)
    let strayInverse = JSONAPIResourceSchema(
      type: "people", attributes: [],
      relationships: [
        .init(
          name: "articles", targetType: "articles", isToMany: true, isOptional: true,
          inverse: "editor")
      ])
    #expect(opening([strayInverse, S.articles, S.tags])?.contains("editor") == true)
    #expect(opening(S.all, ["tags": JSONAPISQLiteTable(name: "people")])?.contains("share") == true)
    let clash = JSONAPIResourceSchema(
      type: "people",
      attributes: [.init(name: "favorite_id", kind: .string, isOptional: true)],
      relationships: [
        .init(name: "favorite", targetType: "articles", isToMany: false, isOptional: true)
      ])
    #expect(opening([clash, S.articles, S.tags])?.contains("favorite_id") == true)
    // An existing table without a column the schema needs.
    let path = TestDatabases.path()
    try DatabaseQueue(path: path).write { db in
      try db.execute(sql: "CREATE TABLE tags (id INTEGER PRIMARY KEY, label TEXT)")
    }
    #expect(opening(S.all, path: path)?.contains("\"name\"") == true)
    #expect(
      opening(
        S.all, ["tags": JSONAPISQLiteTable(name: "tags", columns: ["name": "label"])], path: path)
        == nil)
    // Integer ids need the id column to be the rowid: SQLite makes them.
    let withoutKey = TestDatabases.path()
    try DatabaseQueue(path: withoutKey).write { db in
      try db.execute(sql: "CREATE TABLE tags (id INTEGER, name TEXT)")
    }
    #expect(opening(S.all, path: withoutKey)?.contains("INTEGER PRIMARY KEY") == true)
    let textTags = ["tags": JSONAPISQLiteTable(name: "tags", idKind: .text)]
    #expect(opening(S.all, textTags, path: withoutKey) == nil)
  }
}
