import Foundation
import Testing

@testable import JSONAPICodable

/// What a person reads when a valid document does not fit the model: every `DecodingError` the
/// decoder throws names the member and its JSON Pointer, prints without internal type names or
/// doubled punctuation, and carries a hint for the three commonest causes, only when it is true.
/// Cases and coding paths stay those `JSONDecoder` gives, since Codable users match on them.
@Suite struct ErrorMessageTests {
  struct Person: Decodable {
    var id: String
    var name: String
  }
  struct Article: Decodable {
    var id: String
    var title: String
    var author: Person
  }
  struct Comment: Decodable {
    var id: String
    var author: Person
  }
  struct Post: Decodable {
    var id: String
    var comments: [Comment]
  }

  /// The context of a `DecodingError` thrown by `body`, with the error.
  static func decodingError<T>(_ body: () throws -> T) -> (DecodingError, DecodingError.Context)? {
    guard let error = thrownError(body) as? DecodingError else { return nil }
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .keyNotFound(_, let context), .dataCorrupted(let context):
      return (error, context)
    @unknown default:
      return nil
    }
  }

  static func message<T>(_ body: () throws -> T) -> String? {
    decodingError(body)?.1.debugDescription
  }

  // MARK: - Every message

  /// One document per kind of error the decoder throws, with the member and pointer it must name.
  static let failures: [(json: String, model: String, member: String, pointer: String)] = [
    // R21: an attribute of the wrong type.
    (
      #"{"data":{"type":"articles","id":"1","attributes":{"title":7}}}"#, "article", #""title""#,
      "/data/attributes/title"
    ),
    // An attribute that is null where the model needs a value.
    (
      #"{"data":{"type":"articles","id":"1","attributes":{"title":null}}}"#, "article",
      #""title""#, "/data/attributes/title"
    ),
    // A missing attribute: the pointer is the resource lacking it.
    (#"{"data":{"type":"articles","id":"1"}}"#, "article", #""title""#, "/data"),
    // R12: a resource without an id, decoded into a model that needs one.
    (#"{"data":{"type":"articles","attributes":{"title":"t"}}}"#, "article", #""id""#, "/data"),
    // A member missing in a plain object (meta, R56).
    (#"{"meta":{"count":1},"data":null}"#, "meta", #""total""#, "/meta"),
    // A number too large for the model's integer.
    (
      #"{"data":{"type":"x","id":"1","attributes":{"n":300}}}"#, "int8", "<300>",
      "/data/attributes/n"
    ),
    // R14: an id that does not convert to the model's integer.
    (#"{"data":{"type":"x","id":"05","attributes":{"n":1}}}"#, "int8", #""05""#, "/data/id"),
    // An array shorter than a tuple-like model reads.
    (
      #"{"data":{"type":"x","id":"1","attributes":{"pair":[1]}}}"#, "pair", "pair",
      "/data/attributes/pair"
    ),
    // R3: no primary data where the model needs it.
    (#"{"meta":{"count":1}}"#, "article", #""data""#, "/"),
    // R26: a relationship with links only where the model needs its data.
    (
      #"{"data":{"type":"articles","id":"1","attributes":{"title":"t"},"relationships":{"author":{"links":{"related":"/x"}}}}}"#,
      "article", #""author""#, "/data/relationships/author"
    ),
    // A date the strategy cannot read (ISO 8601 text under `.iso8601` that is not ISO 8601).
    (
      #"{"data":{"type":"x","id":"1","attributes":{"at":"May 1"}}}"#, "date", #""May 1""#,
      "/data/attributes/at"
    ),
  ]

  struct Meta: Decodable { var total: Int }
  struct Small: Decodable {
    var id: Int8
    var n: Int8
  }
  struct Pair: Decodable {
    var id: String
    var pair: Numbers
    struct Numbers: Decodable {
      var first: Int
      var second: Int
      init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        first = try container.decode(Int.self)
        second = try container.decode(Int.self)
      }
    }
  }
  struct Stamp: Decodable {
    var id: String
    var at: Date
  }

  static func failure(_ json: String, _ model: String) -> (any Error)? {
    let decoder = JSONAPIDecoder()
    decoder.dateDecodingStrategy = .iso8601
    switch model {
    case "article": return thrownError { try decoder.decode(Article.self, from: json) }
    case "meta":
      return thrownError { try decoder.decode(JSONAPIDocument<Article?, Meta>.self, from: json) }
    case "int8": return thrownError { try decoder.decode(Small.self, from: json) }
    case "pair": return thrownError { try decoder.decode(Pair.self, from: json) }
    default: return thrownError { try decoder.decode(Stamp.self, from: json) }
    }
  }

  @Test(arguments: failures)
  func printedErrorsNameTheMemberAndPointerWithoutInternals(
    json: String, model: String, member: String, pointer: String
  ) throws {
    let error = try #require(Self.failure(json, model) as? DecodingError)
    let context: DecodingError.Context
    switch error {
    case .typeMismatch(_, let found), .valueNotFound(_, let found), .keyNotFound(_, let found),
      .dataCorrupted(let found):
      context = found
    @unknown default:
      Issue.record("unknown case")
      return
    }
    #expect(context.debugDescription.contains(member), "\(context.debugDescription)")
    #expect(context.debugDescription.contains("(at \(pointer)"), "\(context.debugDescription)")
    // The standard library adds the period after the debug description itself.
    #expect(!context.debugDescription.hasSuffix("."))
    for printed in [String(describing: error), "\(error)", String(reflecting: error)] {
      #expect(printed.contains(pointer), "\(printed)")
      #expect(!printed.contains("DecodingFailureLocation"), "\(printed)")
      #expect(!printed.contains("Optional("), "\(printed)")
      #expect(!printed.contains("CodingKeys("), "\(printed)")
      #expect(!printed.contains(".."), "\(printed)")
      #expect(!printed.contains(". ."), "\(printed)")
    }
    // The location under the message is the one it shows (and that error objects point to).
    let location = try #require(context.underlyingError as? DecodingFailureLocation)
    #expect(DecoderImpl.shown(location.pointer) == pointer)
  }

  @Test func aTypeMismatchReadsAsOneSentenceWithMemberAndPointer() throws {
    let (error, context) = try #require(
      Self.decodingError {
        try JSONAPIDecoder().decode(
          Article.self, from: #"{"data":{"type":"articles","id":"1","attributes":{"title":7}}}"#)
      })
    guard case .typeMismatch(let type, _) = error else {
      Issue.record("expected typeMismatch, got \(error)")
      return
    }
    #expect(ObjectIdentifier(type) == ObjectIdentifier(String.self))
    #expect(context.codingPath.map(\.stringValue) == ["title"])
    #expect(
      context.debugDescription
        == #"Expected to decode String for "title" but found a number (at /data/attributes/title)"#)
    #expect(
      "\(context.underlyingError.map { "\($0)" } ?? "")"
        == "the value at JSON Pointer /data/attributes/title")
  }

  @Test func aMissingMemberNamesTheResourceAndWhereTheMemberWouldBe() throws {
    let (error, context) = try #require(
      Self.decodingError {
        try JSONAPIDecoder().decode(Article.self, from: #"{"data":{"type":"articles","id":"1"}}"#)
      })
    guard case .keyNotFound(let key, _) = error else {
      Issue.record("expected keyNotFound, got \(error)")
      return
    }
    #expect(key.stringValue == "title")
    #expect(context.codingPath.isEmpty)
    #expect(
      context.debugDescription
        == #"No attribute or relationship "title" in the resource articles/1 (at /data)"#)
    #expect(
      context.underlyingError.map { "\($0)" }
        == "no value at JSON Pointer /data/attributes/title")
  }

  // MARK: - Not included (R33, R67)

  static let withoutIncluded = #"""
    {"data": {"type": "articles", "id": "1", "attributes": {"title": "T"},
      "relationships": {"author": {"data": {"type": "people", "id": "9"}}}}}
    """#

  // R33: linkage may name a resource the document does not include; the model then reads only
  // the identifier, and a required attribute is missing at a member that cannot exist.
  @Test func aRelatedResourceNotIncludedSaysWhichIncludeBringsIt() throws {
    let (error, context) = try #require(
      Self.decodingError { try JSONAPIDecoder().decode(Article.self, from: Self.withoutIncluded) })
    guard case .keyNotFound(let key, _) = error else {
      Issue.record("expected keyNotFound, got \(error)")
      return
    }
    #expect(key.stringValue == "name")
    #expect(context.codingPath.map(\.stringValue) == ["author"])
    #expect(
      context.debugDescription
        == #"No attribute or relationship "name" in the resource identifier people/9 (at /data/relationships/author/data). people/9 is not in "included", so only its type, id and meta can be read; request it with include=author (see https://jsonapi.org/format/#fetching-includes)"#
    )
  }

  // R67: an include path is dot-separated relationship names from the primary data, in the
  // document's spelling; a to-many step adds no index.
  @Test func theIncludePathFollowsTheRelationshipChainFromThePrimaryData() throws {
    let json = #"""
      {"data": [{"type": "posts", "id": "1", "relationships": {"comments": {"data": [
          {"type": "comments", "id": "5"}, {"type": "comments", "id": "6"}]}}}],
       "included": [
         {"type": "comments", "id": "5", "relationships": {"author": {"data": {"type": "people", "id": "9"}}}},
         {"type": "comments", "id": "6", "relationships": {"author": {"data": {"type": "people", "id": "9"}}}}]}
      """#
    let message = try #require(
      Self.message { try JSONAPIDecoder().decode([Post].self, from: json) })
    #expect(message.contains(#"people/9 is not in "included""#))
    #expect(message.contains("include=comments.author "), "\(message)")
    let document = try #require(
      Self.message {
        try JSONAPIDecoder().decode(JSONAPIDocument<[Post], JSONAPIValue>.self, from: json)
      })
    #expect(document.contains("include=comments.author "), "\(document)")
  }

  @Test func theIncludePathUsesTheDocumentsRelationshipNames() throws {
    struct Story: Decodable {
      var id: String
      var leadAuthor: Person
    }
    let json = #"""
      {"data": {"type": "stories", "id": "1",
        "relationships": {"lead-author": {"data": {"type": "people", "id": "9"}}}}}
      """#
    let decoder = JSONAPIDecoder()
    decoder.keyDecodingStrategy = .convertFromKebabCase
    let message = try #require(Self.message { try decoder.decode(Story.self, from: json) })
    #expect(message.contains("include=lead-author "), "\(message)")
  }

  // R34, R41: an identifier with a lid names a resource created in the same request; no include
  // can bring it, so the hint says it is not included and points at compound documents only.
  @Test func aLocalIdentifierNotIncludedGetsNoIncludePath() throws {
    struct Named: Decodable { var name: String }
    struct Draft: Decodable {
      var title: String
      var author: Named
    }
    let json = #"""
      {"data": {"type": "articles", "id": "1", "attributes": {"title": "T"},
        "relationships": {"author": {"data": {"type": "people", "lid": "new-1"}}}}}
      """#
    let message = try #require(
      Self.message { try JSONAPIDecoder().decode(Draft.self, from: json) })
    #expect(
      message.hasSuffix(
        #"people with lid "new-1" is not in "included", so only its type, id and meta can be read (see https://jsonapi.org/format/#document-compound-documents)"#
      ), "\(message)")
    #expect(!message.contains("include="))
  }

  // A to-many relationship: the path names the relationship, not the element's position.
  @Test func aToManyElementNotIncludedNamesItsRelationship() throws {
    struct Team: Decodable {
      var id: String
      var members: [Person]
    }
    let json = #"""
      {"data": {"type": "teams", "id": "1", "relationships": {"members": {"data": [
        {"type": "people", "id": "9"}]}}}}
      """#
    let (_, context) = try #require(
      Self.decodingError { try JSONAPIDecoder().decode(Team.self, from: json) })
    #expect(context.codingPath.map(\.stringValue) == ["members", "Index 0"])
    #expect(context.debugDescription.contains("request it with include=members "))
  }

  // The hint is only for identifiers: an included resource that lacks the attribute gets none.
  @Test func anIncludedResourceMissingAnAttributeGetsNoIncludeHint() throws {
    let json = #"""
      {"data": {"type": "articles", "id": "1", "attributes": {"title": "T"},
        "relationships": {"author": {"data": {"type": "people", "id": "9"}}}},
       "included": [{"type": "people", "id": "9", "attributes": {}}]}
      """#
    let message = try #require(
      Self.message { try JSONAPIDecoder().decode(Article.self, from: json) })
    #expect(
      message == #"No attribute or relationship "name" in the resource people/9 (at /included/0)"#)
  }

  // R42: a cycle gives the identifier at the cut although the resource is included: the hint says
  // so instead of asking for an include that is already there.
  @Test func aCycleCutIsNotReportedAsMissingFromIncluded() throws {
    struct Node: Decodable {
      var id: String
      var label: String
      var next: Box
    }
    final class Box: Decodable {
      let node: Node
      init(from decoder: any Decoder) throws { node = try Node(from: decoder) }
    }
    let json = #"""
      {"data": {"type": "n", "id": "a", "attributes": {"label": "A"},
        "relationships": {"next": {"data": {"type": "n", "id": "b"}}}},
       "included": [{"type": "n", "id": "b", "attributes": {"label": "B"},
        "relationships": {"next": {"data": {"type": "n", "id": "a"}}}}]}
      """#
    let message = try #require(Self.message { try JSONAPIDecoder().decode(Node.self, from: json) })
    #expect(message.contains("n/a is being decoded further up"), "\(message)")
    #expect(!message.contains(#"not in "included""#), "\(message)")
  }

  // MARK: - Key decoding strategy (R44: member names are case-sensitive and kept as written)

  struct Entry: Decodable {
    var id: String
    var bodyText: String
  }

  static func entry(_ member: String) -> String {
    #"{"data":{"type":"entries","id":"1","attributes":{"\#(member)":"x"}}}"#
  }

  @Test(arguments: [
    (
      "body-text", JSONAPIDecoder.KeyDecodingStrategy.useDefaultKeys, ".convertFromKebabCase",
      ".useDefaultKeys"
    ),
    ("body_text", .useDefaultKeys, ".convertFromSnakeCase", ".useDefaultKeys"),
    ("body_text", .convertFromKebabCase, ".convertFromSnakeCase", ".convertFromKebabCase"),
    ("body-text", .convertFromSnakeCase, ".convertFromKebabCase", ".convertFromSnakeCase"),
  ])
  func aMemberAnotherStrategyWouldMapIsNamed(
    member: String, strategy: JSONAPIDecoder.KeyDecodingStrategy, fits: String, current: String
  ) throws {
    let decoder = JSONAPIDecoder()
    decoder.keyDecodingStrategy = strategy
    let (error, context) = try #require(
      Self.decodingError { try decoder.decode(Entry.self, from: Self.entry(member)) })
    guard case .keyNotFound(let key, _) = error else {
      Issue.record("expected keyNotFound, got \(error)")
      return
    }
    #expect(key.stringValue == "bodyText")
    #expect(
      context.debugDescription
        == #"No attribute or relationship "bodyText" in the resource entries/1 (at /data). The resource has the member "\#(member)", which \#(fits) reads as "bodyText"; the key decoding strategy is \#(current)"#
    )
  }

  // A model whose coding key is spelled as the document spells it, under a converting strategy.
  @Test func aKeySpelledLikeTheDocumentUnderAConvertingStrategyIsNamed() throws {
    struct Spelled: Decodable {
      var id: String
      var body: String
      enum CodingKeys: String, CodingKey {
        case id
        case body = "body_text"
      }
    }
    let decoder = JSONAPIDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let message = try #require(
      Self.message { try decoder.decode(Spelled.self, from: Self.entry("body_text")) })
    #expect(
      message.hasSuffix(
        #"The resource has the member "body_text", which .useDefaultKeys reads as "body_text"; the key decoding strategy is .convertFromSnakeCase"#
      ), "\(message)")
  }

  @Test func aNestedObjectGetsTheHintToo() throws {
    struct Place: Decodable {
      var id: String
      var address: Address
    }
    struct Address: Decodable { var streetName: String }
    let json =
      #"{"data":{"type":"places","id":"1","attributes":{"address":{"street-name":"Main"}}}}"#
    let message = try #require(Self.message { try JSONAPIDecoder().decode(Place.self, from: json) })
    #expect(
      message
        == #"No member "streetName" in the object (at /data/attributes/address). The object has the member "street-name", which .convertFromKebabCase reads as "streetName"; the key decoding strategy is .useDefaultKeys"#
    )
  }

  @Test(arguments: [
    // Nothing like the key in the resource.
    (
      #"{"data":{"type":"entries","id":"1","attributes":{"title":"x"}}}"#,
      JSONAPIDecoder.KeyDecodingStrategy.useDefaultKeys
    ),
    // The strategy in use already maps body-text; the member is missing for another reason.
    (#"{"data":{"type":"entries","id":"1","attributes":{"title":"x"}}}"#, .convertFromKebabCase),
    // A near miss no built-in strategy maps to bodyText.
    (#"{"data":{"type":"entries","id":"1","attributes":{"body text":"x"}}}"#, .useDefaultKeys),
  ])
  func noStrategyHintWhenNoStrategyWouldHelp(
    json: String, strategy: JSONAPIDecoder.KeyDecodingStrategy
  ) throws {
    let decoder = JSONAPIDecoder()
    decoder.keyDecodingStrategy = strategy
    let message = try #require(Self.message { try decoder.decode(Entry.self, from: json) })
    #expect(
      message == #"No attribute or relationship "bodyText" in the resource entries/1 (at /data)"#)
  }

  // MARK: - Dates

  static func stamp(_ value: String) -> String {
    #"{"data":{"type":"stamps","id":"1","attributes":{"at":\#(value)}}}"#
  }

  static func dateMessage(
    _ value: String, _ strategy: JSONAPIDecoder.DateDecodingStrategy
  ) -> (DecodingError, DecodingError.Context)? {
    let decoder = JSONAPIDecoder()
    decoder.dateDecodingStrategy = strategy
    return decodingError { try decoder.decode(Stamp.self, from: stamp(value)) }
  }

  // The error the issue quotes: ISO 8601 text under the default strategy.
  @Test func isoTextUnderTheDefaultStrategyNamesIt() throws {
    let (error, context) = try #require(
      Self.dateMessage(#""2024-05-01T12:30:00Z""#, .deferredToDate))
    guard case .typeMismatch(let type, _) = error else {
      Issue.record("expected typeMismatch, got \(error)")
      return
    }
    #expect(ObjectIdentifier(type) == ObjectIdentifier(Double.self))
    #expect(context.codingPath.map(\.stringValue) == ["at"])
    #expect(
      context.debugDescription
        == #"Expected to decode Double for "at" but found a string (at /data/attributes/at). The date decoding strategy is .deferredToDate, which reads a number of seconds since 2001-01-01; the value is "2024-05-01T12:30:00Z", ISO 8601 text, which .iso8601 reads"#
    )
  }

  @Test(arguments: [
    (
      #""2024-05-01T12:30:00Z""#, JSONAPIDecoder.DateDecodingStrategy.secondsSince1970,
      ".secondsSince1970", ", ISO 8601 text, which .iso8601 reads"
    ),
    (
      #""2024-05-01T12:30:00+02:00""#, .millisecondsSince1970, ".millisecondsSince1970",
      ", ISO 8601 text, which .iso8601 reads"
    ),
    ("1714566600", .iso8601, ".iso8601", "the number 1714566600, which .secondsSince1970 reads"),
    (
      "1714566600000", .iso8601, ".iso8601",
      "the number 1714566600000, which .millisecondsSince1970 reads"
    ),
    (#""1714566600""#, .secondsSince1970, ".secondsSince1970", "a number inside a string"),
    (#""May 1, 2024""#, .iso8601, ".iso8601", #"the value is "May 1, 2024""#),
  ])
  func aDateTheStrategyDoesNotReadNamesStrategyAndValue(
    value: String, strategy: JSONAPIDecoder.DateDecodingStrategy, named: String, says: String
  ) throws {
    let (_, context) = try #require(Self.dateMessage(value, strategy))
    #expect(
      context.debugDescription.contains("The date decoding strategy is \(named), which reads"))
    #expect(context.debugDescription.contains(says), "\(context.debugDescription)")
    #expect(context.codingPath.map(\.stringValue) == ["at"])
    #expect(!context.debugDescription.hasSuffix("."))
  }

  @Test func aFormattersFormatIsShownAndIsoTextSuggestsIso8601() throws {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd"
    let (error, context) = try #require(
      Self.dateMessage(#""2024-05-01T12:30:00Z""#, .formatted(formatter)))
    guard case .dataCorrupted = error else {
      Issue.record("expected dataCorrupted, got \(error)")
      return
    }
    #expect(
      context.debugDescription
        == #"Date string does not match format expected by formatter (at /data/attributes/at). The date decoding strategy is .formatted, which reads text in the formatter's format "yyyy-MM-dd"; the value is "2024-05-01T12:30:00Z", ISO 8601 text, which .iso8601 reads"#
    )
  }

  @Test func aLongValueIsClipped() throws {
    let long = String(repeating: "x", count: 100)
    let (_, context) = try #require(Self.dateMessage("\"\(long)\"", .iso8601))
    #expect(context.debugDescription.contains("\"" + String(repeating: "x", count: 39) + "…\""))
    #expect(!context.debugDescription.contains(String(repeating: "x", count: 40)))
  }

  // No hint when the value is neither a string nor a number, when the strategy is the user's own
  // (its errors are its own words), or when the date fails for another reason than its value.
  @Test func noDateHintWhenItWouldNotBeTrue() throws {
    let (_, boolean) = try #require(Self.dateMessage("true", .secondsSince1970))
    #expect(
      boolean.debugDescription
        == #"Expected to decode Double for "at" but found a boolean (at /data/attributes/at)"#)
    let custom = JSONAPIDecoder.DateDecodingStrategy.custom { decoder in
      Date(timeIntervalSince1970: try decoder.singleValueContainer().decode(Double.self))
    }
    let (_, own) = try #require(Self.dateMessage(#""2024-05-01T12:30:00Z""#, custom))
    #expect(!own.debugDescription.contains("date decoding strategy"))
    let (_, null) = try #require(Self.dateMessage("null", .iso8601))
    #expect(!null.debugDescription.contains("date decoding strategy"))
    // A date that reads fine does not go near the hint.
    let decoder = JSONAPIDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let stamp = try decoder.decode(Stamp.self, from: Self.stamp(#""2024-05-01T12:30:00Z""#))
    #expect(stamp.at == Date(timeIntervalSince1970: 1_714_566_600))
  }

  // MARK: - Error objects keep their pointer

  // R97 (error objects, source.pointer): the location under the message still fills the pointer,
  // and a server's detail keeps the reason without the hints about its own decoder settings.
  @Test func errorObjectsKeepThePointerAndLeaveHintsOut() throws {
    let decoder = JSONAPIDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let error = try #require(
      thrownError { try decoder.decode(Stamp.self, from: Self.stamp(#""May 1""#)) })
    let object = JSONAPIErrorObject(describing: error)
    #expect(object.source?.pointer == "/data/attributes/at")
    #expect(object.detail == "Expected date string to be ISO8601-formatted")
    let missing = JSONAPIErrorObject(
      describing: try #require(
        thrownError { try JSONAPIDecoder().decode(Article.self, from: Self.withoutIncluded) }))
    #expect(missing.source?.pointer == "/data/relationships/author/data")
    #expect(missing.detail?.contains("/data/relationships/author/data/attributes/name") == true)
  }

  // MARK: - JSONAPIError

  @Test(arguments: [
    JSONAPIError.errorDocument([JSONAPIErrorObject(status: "422", title: "Invalid", detail: "Bad.")]
    ),
    .invalidJSON(
      reason: "expected a value", location: JSONAPISourceLocation(offset: 3, line: 1, column: 4)),
    .duplicateKey("a", location: JSONAPISourceLocation(offset: 3, line: 1, column: 4)),
    .nestingTooDeep(limit: 512, location: JSONAPISourceLocation(offset: 3, line: 1, column: 4)),
    .documentTooLarge(byteCount: 10, limit: 5),
    .notADocument(reason: "the top level is an array"),
    .invalidDocument(reason: "x", pointer: ""),
    .duplicateResource(type: "people", id: "9", pointer: "/included/1"),
    .relationshipDepthExceeded(limit: 64, pointer: "/included/3"),
    .resourceBudgetExceeded(limit: 100),
    .resourceTypeMismatch(expected: "people", found: "articles", pointer: "/data"),
    .missingResourceType(swiftType: "Person", codingPath: ""),
    .encodingNestingTooDeep(limit: 512, codingPath: "a.b"),
    .invalidValue(reason: "NaN", codingPath: ""),
  ])
  func libraryErrorsReadWithoutInternalsOrDoubledPunctuation(error: JSONAPIError) {
    for text in [error.description, "\(error)", error.localizedDescription] {
      #expect(!text.contains(".."), "\(text)")
      #expect(!text.contains("Optional("), "\(text)")
      #expect(!text.contains("JSONAPICodable."), "\(text)")
    }
  }
}
