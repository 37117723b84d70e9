import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

// JSONAPIResourceSchema(reading:): a resource's fields learned from its Decodable model (R17,
// R20-R24), relationships by their targets (R29-R33), names as the encoder writes them (R44).
@Suite struct SchemaReadingTests {
  typealias Schema = JSONAPIResourceSchema
  typealias Attribute = JSONAPIResourceSchema.Attribute
  typealias Relationship = JSONAPIResourceSchema.Relationship
  typealias ValueKind = JSONAPIResourceSchema.ValueKind

  // MARK: Models

  struct Person: Codable, JSONAPIResource {
    static let jsonAPIType = "people"
    var id: String
    var name: String
    var articles: [Article]?  // back to Article: a cycle the reader must not follow (R42)
  }

  struct Article: Codable, JSONAPIResource {
    static let jsonAPIType = "articles"
    var id: String?
    var title: String
    var wordCount: Int?
    var author: Person?
    var comments: [Comment]?
  }

  struct Comment: Codable, JSONAPIResource {
    static let jsonAPIType = "comments"
    var id: String
    var body: String
    var author: Person
  }

  struct Scalars: Decodable, JSONAPIResource {
    static let jsonAPIType = "scalars"
    var text: String
    var flag: Bool
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var double: Double
    var float: Float
    var decimal: Decimal
    var date: Date
    var data: Data
    var url: URL
    var uuid: UUID
    var value: JSONAPIValue
  }

  @Test func everyScalarHasItsKind() throws {
    let schema = try Schema(reading: Scalars.self)
    #expect(schema.type == "scalars")
    #expect(schema.relationships.isEmpty)
    let expected: [(String, ValueKind)] = [
      ("text", .string), ("flag", .boolean), ("int", .integer), ("int8", .integer),
      ("int16", .integer), ("int32", .integer), ("int64", .integer), ("uint", .integer),
      ("uint8", .integer), ("uint16", .integer), ("uint32", .integer), ("uint64", .integer),
      ("double", .number), ("float", .number), ("decimal", .number), ("date", .date),
      ("data", .string), ("url", .string), ("uuid", .string), ("value", .any),
    ]
    #expect(
      schema.attributes
        == expected.map { Attribute(name: $0.0, kind: $0.1, isOptional: false) })
  }

  // MARK: Optionals

  struct Optionals: Decodable, JSONAPIResource {
    static let jsonAPIType = "optionals"
    var required: String
    var synthesized: Int?
    var checked: Bool?
    var nullable: Double?
    var wrapped: String?

    enum CodingKeys: String, CodingKey { case required, synthesized, checked, nullable, wrapped }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      required = try container.decode(String.self, forKey: .required)
      synthesized = try container.decodeIfPresent(Int.self, forKey: .synthesized)
      // Absence checked by hand, and null checked by hand.
      checked =
        container.contains(.checked) ? try container.decode(Bool.self, forKey: .checked) : nil
      nullable =
        try container.decodeNil(forKey: .nullable)
        ? nil : try container.decode(Double.self, forKey: .nullable)
      // An Optional decoded whole: its own init(from:) asks decodeNil.
      wrapped = try container.decode(String?.self, forKey: .wrapped)
    }
  }

  @Test func optionalMembersAreOptional() throws {
    let schema = try Schema(reading: Optionals.self)
    #expect(
      schema.attributes == [
        Attribute(name: "required", kind: .string, isOptional: false),
        Attribute(name: "synthesized", kind: .integer, isOptional: true),
        Attribute(name: "checked", kind: .boolean, isOptional: true),
        Attribute(name: "nullable", kind: .number, isOptional: true),
        Attribute(name: "wrapped", kind: .string, isOptional: true),
      ])
  }

  // MARK: Arrays, objects, enums

  struct Geo: Codable {
    var lat: Double
    var lng: Double
  }

  struct Address: Codable {
    var street: String
    var zip: String?
    var geo: Geo
  }

  enum Status: String, Codable, CaseIterable {
    case draft, review, published
  }

  enum Priority: Int, Codable, CaseIterable {
    case low = 1
    case high = 2
  }

  struct Shapes: Decodable, JSONAPIResource {
    static let jsonAPIType = "shapes"
    var tags: [String]
    var scores: Set<Int>
    var matrix: [[Double]]
    var address: Address
    var previous: [Address]?
    var counts: [String: Int]
    var status: Status
    var history: [Status]
    var priority: Priority
  }

  @Test func arraysObjectsDictionariesAndEnums() throws {
    let schema = try Schema(reading: Shapes.self)
    let address = ValueKind.object(members: [
      Attribute(name: "street", kind: .string, isOptional: false),
      Attribute(name: "zip", kind: .string, isOptional: true),
      Attribute(
        name: "geo",
        kind: .object(members: [
          Attribute(name: "lat", kind: .number, isOptional: false),
          Attribute(name: "lng", kind: .number, isOptional: false),
        ]), isOptional: false),
    ])
    let status = ValueKind.enumeration(["draft", "review", "published"])
    #expect(
      schema.attributes == [
        Attribute(name: "tags", kind: .array(.string), isOptional: false),
        Attribute(name: "scores", kind: .array(.integer), isOptional: false),
        Attribute(name: "matrix", kind: .array(.array(.number)), isOptional: false),
        Attribute(name: "address", kind: address, isOptional: false),
        Attribute(name: "previous", kind: .array(address), isOptional: true),
        Attribute(name: "counts", kind: .object(members: []), isOptional: false),
        Attribute(name: "status", kind: status, isOptional: false),
        Attribute(name: "history", kind: .array(status), isOptional: false),
        Attribute(name: "priority", kind: .integer, isOptional: false),
      ])
    #expect(schema.relationships.isEmpty)
  }

  // A recursive attribute type: recorded 8 levels deep, then `.any`; reading ends.
  struct Category: Codable {
    var name: String
    var children: [Category]
  }

  struct Catalog: Decodable, JSONAPIResource {
    static let jsonAPIType = "catalogs"
    var root: Category
  }

  @Test func recursiveAttributesAreReadToABoundedDepth() throws {
    let schema = try Schema(reading: Catalog.self)
    var kind = try #require(schema.attribute(named: "root")).kind
    var levels = 0
    // Each level is an object (depth + 1) holding an array (depth + 1).
    while case .object(let members) = kind, members.count == 2, members[0].kind == .string,
      case .array(let element) = members[1].kind
    {
      levels += 1
      kind = element
    }
    #expect(levels == 4)
    #expect(kind == .any)
  }

  // MARK: Relationships

  struct Tag: Codable, Hashable, JSONAPIResource {
    static let jsonAPIType = "tags"
    var id: String
  }

  struct Label: Codable, JSONAPIRelationshipExpressible {
    var id: String
    var type: String
  }

  struct Topic: Codable, JSONAPIRelationshipExpressible, JSONAPIResource {
    static let jsonAPIType = "topics"
    var id: String
  }

  struct Reference: Codable {  // plain, but with id and type: a relationship as the encoder has it
    var id: String
    var type: String
  }

  struct Card: Codable, JSONAPIAttributeExpressible {  // id and type, yet always an attribute
    var id: String
    var type: String
  }

  struct Post: Decodable, JSONAPIResource {
    static let jsonAPIType = "posts"
    var title: String
    var author: Person
    var editor: Person?
    var comments: [Comment]
    var tags: Set<Tag>?
    var reviewers: JSONAPIRelationship<[Person]>
    var publisher: JSONAPIRelationship<Person?>?
    var owner: JSONAPIResourceIdentifier
    var watchers: [JSONAPIResourceIdentifier]?
    var label: Label
    var topic: Topic?
    var reference: Reference
    var references: [Reference]
    var card: Card
  }

  @Test func relationshipsHaveTheirTargetsAndCardinality() throws {
    let schema = try Schema(reading: Post.self)
    #expect(
      schema.relationships == [
        Relationship(name: "author", targetType: "people", isToMany: false, isOptional: false),
        Relationship(name: "editor", targetType: "people", isToMany: false, isOptional: true),
        Relationship(name: "comments", targetType: "comments", isToMany: true, isOptional: false),
        Relationship(name: "tags", targetType: "tags", isToMany: true, isOptional: true),
        Relationship(name: "reviewers", targetType: "people", isToMany: true, isOptional: false),
        Relationship(name: "publisher", targetType: "people", isToMany: false, isOptional: true),
        Relationship(name: "owner", targetType: nil, isToMany: false, isOptional: false),
        Relationship(name: "watchers", targetType: nil, isToMany: true, isOptional: true),
        Relationship(name: "label", targetType: nil, isToMany: false, isOptional: false),
        Relationship(name: "topic", targetType: "topics", isToMany: false, isOptional: true),
        Relationship(name: "reference", targetType: nil, isToMany: false, isOptional: false),
        Relationship(name: "references", targetType: nil, isToMany: true, isOptional: false),
      ])
    #expect(
      schema.attributes == [
        Attribute(name: "title", kind: .string, isOptional: false),
        Attribute(
          name: "card",
          kind: .object(members: [
            Attribute(name: "id", kind: .string, isOptional: false),
            Attribute(name: "type", kind: .string, isOptional: false),
          ]), isOptional: false),
      ])
  }

  struct Wrapped: Decodable, JSONAPIResource {
    static let jsonAPIType = "wrapped"
    var one: JSONAPIRelationship<Person>
    var maybe: JSONAPIRelationship<Person?>
    var many: JSONAPIRelationship<[Comment]>?
    var linkage: JSONAPIRelationship<[JSONAPIResourceIdentifier]>
  }

  @Test func theRelationshipWrapperNamesItsData() throws {
    let schema = try Schema(reading: Wrapped.self)
    #expect(schema.attributes.isEmpty)
    #expect(
      schema.relationships == [
        Relationship(name: "one", targetType: "people", isToMany: false, isOptional: false),
        Relationship(name: "maybe", targetType: "people", isToMany: false, isOptional: true),
        Relationship(name: "many", targetType: "comments", isToMany: true, isOptional: true),
        Relationship(name: "linkage", targetType: nil, isToMany: true, isOptional: false),
      ])
  }

  // Articles refer to people who refer to articles: a relationship is a leaf, so reading ends.
  @Test func cyclicModelsTerminate() throws {
    let article = try Schema(reading: Article.self)
    #expect(article.attributes.map(\.name) == ["title", "wordCount"])
    #expect(
      article.relationships == [
        Relationship(name: "author", targetType: "people", isToMany: false, isOptional: true),
        Relationship(name: "comments", targetType: "comments", isToMany: true, isOptional: true),
      ])
    let person = try Schema(reading: Person.self)
    #expect(person.attributes.map(\.name) == ["name"])
    #expect(
      person.relationships == [
        Relationship(name: "articles", targetType: "articles", isToMany: true, isOptional: true)
      ])
    let comment = try Schema(reading: Comment.self)
    #expect(comment.relationship(named: "author")?.targetType == "people")
    #expect(comment.attribute(named: "body")?.kind == .string)
  }

  // To-one cycles (classes): a required author whose book is optional, and a model that refers
  // to itself.
  final class Book: Decodable, JSONAPIResource {
    static let jsonAPIType = "books"
    let title: String
    let author: Writer
  }

  final class Writer: Decodable, JSONAPIResource {
    static let jsonAPIType = "writers"
    let name: String
    let latest: Book?
    let mentor: Writer?
    let students: [Writer]
  }

  @Test func toOneCyclesTerminate() throws {
    let book = try Schema(reading: Book.self)
    #expect(book.attributes.map(\.name) == ["title"])
    #expect(
      book.relationships == [
        Relationship(name: "author", targetType: "writers", isToMany: false, isOptional: false)
      ])
    let writer = try Schema(reading: Writer.self)
    #expect(
      writer.relationships == [
        Relationship(name: "latest", targetType: "books", isToMany: false, isOptional: true),
        Relationship(name: "mentor", targetType: "writers", isToMany: false, isOptional: true),
        Relationship(name: "students", targetType: "writers", isToMany: true, isOptional: false),
      ])
  }

  // MARK: Names

  struct Profile: Codable, JSONAPIResource {
    static let jsonAPIType = "profiles"
    var id: String
    var firstName: String
    var homeAddress: Address?
    var bestFriend: Person?
    var userID: Int
    var meta: JSONAPIValue?
  }

  @Test func keyStrategiesGiveTheDocumentsMemberNames() throws {
    let snake = try Schema(reading: Profile.self, keyEncodingStrategy: .convertToSnakeCase)
    #expect(snake.attributes.map(\.name) == ["first_name", "home_address", "user_id"])
    #expect(snake.relationships.map(\.name) == ["best_friend"])
    let kebab = try Schema(reading: Profile.self, keyEncodingStrategy: .convertToKebabCase)
    #expect(kebab.attributes.map(\.name) == ["first-name", "home-address", "user-id"])
    #expect(kebab.relationships.map(\.name) == ["best-friend"])
    let upper = try Schema(
      reading: Profile.self,
      keyEncodingStrategy: .custom { path in
        AnyCodingKey((path.last?.stringValue ?? "").uppercased())
      })
    #expect(upper.attributes.map(\.name) == ["FIRSTNAME", "HOMEADDRESS", "USERID"])
    // Members of nested objects are converted too, as the encoder converts them.
    guard case .object(let members) = snake.attribute(named: "home_address")?.kind else {
      Issue.record("home_address is not an object")
      return
    }
    #expect(members.map(\.name) == ["street", "zip", "geo"])
  }

  // The schema's names are the ones JSONAPIEncoder writes.
  @Test func namesMatchWhatTheEncoderWrites() throws {
    let profile = Profile(
      id: "1", firstName: "Ada",
      homeAddress: Address(street: "s", zip: "z", geo: Geo(lat: 1, lng: 2)),
      bestFriend: Person(id: "2", name: "Bo"), userID: 3, meta: nil)
    for strategy in [JSONAPIEncoder.KeyEncodingStrategy.convertToSnakeCase, .convertToKebabCase] {
      let encoder = JSONAPIEncoder()
      encoder.keyEncodingStrategy = strategy
      let document = try JSONDecoder().decode(JSONAPIValue.self, from: encoder.encode(profile))
      let schema = try Schema(reading: Profile.self, keyEncodingStrategy: strategy)
      let attributes = try #require(document["data"]?["attributes"]?.objectValue)
      let relationships = try #require(document["data"]?["relationships"]?.objectValue)
      #expect(Set(attributes.keys) == Set(schema.attributes.map(\.name)))
      #expect(Set(relationships.keys) == Set(schema.relationships.map(\.name)))
    }
  }

  // MARK: The resource's own members

  struct Identified: Decodable, JSONAPIResource {
    static let jsonAPIType = "identified"
    var id: Int
    var type: String
    var lid: String?
    var meta: JSONAPIValue?
    var links: JSONAPILinks?
    var name: String

    enum CodingKeys: String, CodingKey { case id, type, lid, meta, links, name }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      id = try container.decode(Int.self, forKey: .id)
      type = try container.decode(String.self, forKey: .type)
      // The reader gives a resource its declared type (R19).
      guard type == Self.jsonAPIType else {
        throw DecodingError.dataCorruptedError(
          forKey: .type, in: container, debugDescription: "wrong type \(type)")
      }
      lid = try container.decodeIfPresent(String.self, forKey: .lid)
      meta = try container.decodeIfPresent(JSONAPIValue.self, forKey: .meta)
      links = try container.decodeIfPresent(JSONAPILinks.self, forKey: .links)
      name = try container.decode(String.self, forKey: .name)
    }
  }

  @Test func identityMetaAndLinksAreNoFields() throws {
    let schema = try Schema(reading: Identified.self)
    #expect(schema.attributes == [Attribute(name: "name", kind: .string, isOptional: false)])
    #expect(schema.relationships.isEmpty)
  }

  // The order is the order the model asks, not the order it declares.
  struct Reordered: Decodable, JSONAPIResource {
    static let jsonAPIType = "reordered"
    var a: String
    var b: Person
    var c: Int

    enum CodingKeys: String, CodingKey { case a, b, c }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      c = try container.decode(Int.self, forKey: .c)
      b = try container.decode(Person.self, forKey: .b)
      a = try container.decode(String.self, forKey: .a)
      _ = try container.decode(String.self, forKey: .a)  // asked twice: one member
    }
  }

  @Test func membersComeInTheOrderAsked() throws {
    let schema = try Schema(reading: Reordered.self)
    #expect(schema.attributes.map(\.name) == ["c", "a"])
    #expect(schema.relationships.map(\.name) == ["b"])
  }

  // A superclass decoding from the same decoder adds its members to the subclass's.
  class Entry: Decodable {
    var createdAt: Date
  }

  final class Note: Entry, JSONAPIResource {
    static let jsonAPIType = "notes"
    var text: String

    enum CodingKeys: String, CodingKey { case text }

    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      text = try container.decode(String.self, forKey: .text)
      try super.init(from: decoder)
    }
  }

  @Test func superclassMembersJoinTheSubclass() throws {
    let schema = try Schema(reading: Note.self, keyEncodingStrategy: .convertToSnakeCase)
    #expect(
      schema.attributes == [
        Attribute(name: "text", kind: .string, isOptional: false),
        Attribute(name: "created_at", kind: .date, isOptional: false),
      ])
  }

  // MARK: Models the reader cannot read

  struct TooShort: Error, CustomStringConvertible {
    var description: String { "a title needs at least 3 characters" }
  }

  struct Validated: Decodable, JSONAPIResource {
    static let jsonAPIType = "validated"
    var title: String

    enum CodingKeys: String, CodingKey { case title }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      title = try container.decode(String.self, forKey: .title)
      guard title.count >= 3 else { throw TooShort() }
    }
  }

  @Test func aValidationThatRejectsPlaceholdersIsAClearError() throws {
    let error = try #require(throws: JSONAPIDeclarationError.self) {
      try Schema(reading: Validated.self)
    }
    let (reason, codingPath) = (error.reason, error.memberPath ?? "")
    #expect(codingPath == "")
    #expect(
      reason
        == "JSONAPIResourceSchema(reading: Validated.self): Validated.init(from:) threw on the "
        + "placeholder values the schema reader decodes (\"x\" for text, 1 for numbers, true, "
        + "2024-01-01T00:00:00Z for dates, the first case of CaseIterable enums): a title needs "
        + "at least 3 characters. Let it accept them, or build the schema with "
        + "JSONAPIResourceSchema(type:attributes:relationships:)")
    #expect(error.description == reason, "no member path to add at the top level")
  }

  enum Mood: String, Codable {
    case happy, sad
  }

  struct Diary: Decodable, JSONAPIResource {
    static let jsonAPIType = "diaries"
    var title: String
    var days: [Day]
  }

  struct Day: Codable {
    var mood: Mood
  }

  @Test func anEnumThatIsNotCaseIterableIsAClearError() throws {
    let error = try #require(throws: JSONAPIDeclarationError.self) {
      try Schema(reading: Diary.self)
    }
    #expect(
      error
        == JSONAPIDeclarationError(
          reason: "JSONAPIResourceSchema(reading: Diary.self): the enum Mood "
            + "is not CaseIterable, so the schema cannot list its cases, and it rejected a "
            + "placeholder value (Cannot initialize Mood from invalid String value x). Make Mood "
            + "CaseIterable, or build the schema with "
            + "JSONAPIResourceSchema(type:attributes:relationships:)",
          memberPath: "days[0].mood"))
  }

  // A related resource that throws on placeholders names its own place.
  struct Strict: Decodable, JSONAPIResource {
    static let jsonAPIType = "stricts"
    var mood: Mood
  }

  struct Holder: Decodable, JSONAPIResource {
    static let jsonAPIType = "holders"
    var name: String
    var strict: Strict
  }

  @Test func aRelatedModelThatThrowsNamesItsPlace() throws {
    let error = try #require(throws: JSONAPIDeclarationError.self) {
      try Schema(reading: Holder.self)
    }
    let (reason, codingPath) = (error.reason, error.memberPath ?? "")
    #expect(codingPath == "strict.mood")
    #expect(reason.contains("Make Mood CaseIterable"))
  }

  // A class that holds itself without an optional: no placeholder ends; reading stops.
  final class Chain: Decodable, JSONAPIResource {
    static let jsonAPIType = "chains"
    let next: Link
  }

  final class Link: Decodable {
    let next: Link
  }

  @Test func aTypeThatHoldsItselfStopsAtTheDepthLimit() throws {
    let error = try #require(throws: JSONAPIDeclarationError.self) {
      try Schema(reading: Chain.self)
    }
    let (reason, codingPath) = (error.reason, error.memberPath ?? "")
    #expect(codingPath == "next.next.next.next.next.next.next.next...")
    #expect(
      reason
        == "JSONAPIResourceSchema(reading: Chain.self): values nest deeper than 32 levels, so a "
        + "type holds itself without an optional or an array between. Make that member optional "
        + "or an array, or build the schema with "
        + "JSONAPIResourceSchema(type:attributes:relationships:)")
  }

  struct NotAnObject: Decodable, JSONAPIResource {
    static let jsonAPIType = "scalars"
    var value: String

    init(from decoder: any Decoder) throws {
      value = try decoder.singleValueContainer().decode(String.self)
    }
  }

  @Test func aModelThatIsNoObjectIsRefused() throws {
    let error = try #require(throws: JSONAPIDeclarationError.self) {
      try Schema(reading: NotAnObject.self)
    }
    #expect(error.description.contains("reads an array or a single value"))
  }

  // MARK: The documentation's example

  @Test func theTypesDocumentationExample() throws {
    let schema = try Schema(reading: Article.self)
    #expect(schema.type == "articles")
    #expect(schema.attributes.map(\.name) == ["title", "wordCount"])
    #expect(schema.relationships.map(\.name) == ["author", "comments"])
    #expect(schema.attribute(named: "wordCount")?.isOptional == true)
    #expect(schema.attribute(named: "title")?.isOptional == false)
    let snake = try Schema(reading: Article.self, keyEncodingStrategy: .convertToSnakeCase)
    #expect(snake.attributes.map(\.name) == ["title", "word_count"])
  }

  // MARK: validate(attribute:as:)

  @Test func valuesThatFitTheirKind() {
    let fits: [(JSONAPIValue, ValueKind)] = [
      (.string("a"), .string), (.integer(3), .integer), (.number(3.0), .integer),
      (.integer(3), .number), (.number(2.5), .number), (.bool(false), .boolean),
      (.string("2024-01-01T00:00:00Z"), .date), (.number(1.7e9), .date), (.integer(0), .date),
      (.string("draft"), .enumeration(["draft", "published"])),
      (.array([.integer(1), .null, .integer(2)]), .array(.integer)), (.array([]), .array(.string)),
      (.object(["x": .integer(1)]), .object(members: [])), (.null, .any),
      (.object(["a": .array([.string("x")])]), .any),
      (
        .object(["street": .string("s"), "extra": .bool(true)]),
        .object(members: [
          Attribute(name: "street", kind: .string, isOptional: false),
          Attribute(name: "zip", kind: .string, isOptional: true),
        ])
      ),
      (
        .object(["zip": .null, "street": .string("s")]),
        .object(members: [
          Attribute(name: "street", kind: .string, isOptional: false),
          Attribute(name: "zip", kind: .string, isOptional: true),
        ])
      ),
    ]
    for (value, kind) in fits {
      #expect(ValueKind.validate(attribute: value, as: kind) == nil, "\(value) as \(kind)")
    }
  }

  @Test func valuesThatDoNotFitSayWhy() {
    let address = ValueKind.object(members: [
      Attribute(name: "street", kind: .string, isOptional: false),
      Attribute(
        name: "geo",
        kind: .object(members: [Attribute(name: "lat", kind: .number, isOptional: false)]),
        isOptional: true),
    ])
    let mismatches: [(JSONAPIValue, ValueKind, String)] = [
      (.string("7"), .integer, "expected an integer, found a string"),
      (.number(2.5), .integer, "expected an integer, found a number with a fraction"),
      (.integer(1), .string, "expected a string, found a number"),
      (.string("true"), .boolean, "expected true or false, found a string"),
      (.bool(true), .date, "expected a date (a string or a number), found a boolean"),
      (.null, .string, "expected a string, found null"),
      (
        .string("Draft"), .enumeration(["draft", "published"]),
        "expected one of \"draft\", \"published\", found \"Draft\""
      ),
      (.integer(1), .enumeration(["a"]), "expected one of \"a\", found a number"),
      (.object([:]), .array(.string), "expected an array, found an object"),
      (
        .array([.integer(1), .string("a")]), .array(.integer),
        "at [1]: expected an integer, found a string"
      ),
      (.array([]), .object(members: []), "expected an object, found an array"),
      (
        .object(["geo": .object(["lat": .string("n")])]), address,
        "at street: the member is missing, but it is not optional"
      ),
      (
        .object(["street": .null]), address,
        "at street: the member is null, but it is not optional"
      ),
      (
        .object(["street": .string("s"), "geo": .object(["lat": .string("n")])]), address,
        "at geo.lat: expected a number, found a string"
      ),
    ]
    for (value, kind, reason) in mismatches {
      #expect(ValueKind.validate(attribute: value, as: kind) == reason)
    }
  }

  // A schema read from a model validates what the model's encoder writes.
  @Test func aSchemaAcceptsTheAttributesItsModelWrites() throws {
    let encoder = JSONAPIEncoder()
    let profile = Profile(
      id: "1", firstName: "Ada",
      homeAddress: Address(street: "s", zip: nil, geo: Geo(lat: 1, lng: 2)),
      bestFriend: nil, userID: 3, meta: nil)
    let document = try JSONDecoder().decode(JSONAPIValue.self, from: encoder.encode(profile))
    let attributes = try #require(document["data"]?["attributes"]?.objectValue)
    let schema = try Schema(reading: Profile.self)
    for attribute in schema.attributes {
      guard let value = attributes[attribute.name], value != .null else {
        #expect(attribute.isOptional, "\(attribute.name)")
        continue
      }
      #expect(ValueKind.validate(attribute: value, as: attribute.kind) == nil, "\(attribute.name)")
    }
    #expect(
      ValueKind.validate(
        attribute: .object(["street": .integer(1)]),
        as: try #require(schema.attribute(named: "homeAddress")).kind)
        == "at street: expected a string, found a number")
  }
}
