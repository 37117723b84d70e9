import Foundation
import Testing

@testable import JSONAPICodable

/// One broken input and the exact error it must give (decoder-semantics: "Error mapping").
struct BrokenDocument: Sendable, CustomTestStringConvertible {
  enum Model: Sendable {
    /// `[BrokenArticle]`
    case articles
    /// `BrokenArticle`
    case article
    /// `JSONAPIDocument<[BrokenArticle]?, JSONAPIValue>`
    case document
  }

  enum Expected: Sendable {
    /// `offset`/`line` when the position of the fault is unambiguous.
    case invalidJSON(offset: Int? = nil, line: Int? = nil)
    case duplicateKey(String, offset: Int)
    case nestingTooDeep(limit: Int)
    case notADocument
    case errorDocument(statuses: [String?])
    case invalidDocument(pointer: String)
    case duplicateResource(type: String, id: String, pointer: String)
    case typeMismatch(path: String)
    case keyNotFound(key: String, path: String)
    case valueNotFound(path: String)
    case dataCorrupted(path: String)
  }

  var name: String
  var bytes: [UInt8]
  var model: Model = .articles
  var expected: Expected

  var testDescription: String { name }
}

extension BrokenDocument {
  init(_ name: String, _ text: String, _ expected: Expected, model: Model = .articles) {
    self.init(name: name, bytes: Array(text.utf8), model: model, expected: expected)
  }

  /// `{"meta":{"v":` + value + `}}`: a JSON fault inside an otherwise valid document.
  static func inMeta(_ name: String, _ value: String, _ expected: Expected = .invalidJSON())
    -> BrokenDocument
  {
    BrokenDocument(name, #"{"meta":{"v":"# + value + "}}", expected)
  }

  /// A string in meta containing the raw bytes given (invalid UTF-8, control characters).
  static func rawInString(_ name: String, _ raw: [UInt8]) -> BrokenDocument {
    let prefix = Array(#"{"meta":{"s":"a"#.utf8)
    return BrokenDocument(
      name: name, bytes: prefix + raw + Array(#"b"}}"#.utf8), expected: .invalidJSON(offset: 15))
  }

  /// One article resource with the given extra members after `"id":"1"`.
  static func article(
    _ name: String, _ members: String, _ expected: Expected, model: Model = .article
  )
    -> BrokenDocument
  {
    BrokenDocument(
      name, #"{"data":{"type":"articles","id":"1","attributes":{"title":"t"}"# + members + "}}",
      expected, model: model)
  }

  /// One article resource whose attributes are `title` and the given members.
  static func attributes(_ name: String, _ members: String, _ expected: Expected) -> BrokenDocument
  {
    BrokenDocument(
      name, #"{"data":{"type":"articles","id":"1","attributes":{"title":"t","# + members + "}}}",
      expected, model: .article)
  }

  /// A duplicate member `key`; the error must point at the last occurrence of `marker`.
  static func duplicate(_ name: String, _ text: String, _ key: String, at marker: String)
    -> BrokenDocument
  {
    let bytes = Array(text.utf8)
    let needle = Array(marker.utf8)
    let offset =
      (0...(bytes.count - needle.count)).last {
        bytes[$0..<($0 + needle.count)].elementsEqual(needle)
      }
      ?? -1
    return BrokenDocument(name, text, .duplicateKey(key, offset: offset))
  }

  /// An article whose `author` relationship has the given value.
  static func author(_ name: String, _ value: String, _ expected: Expected) -> BrokenDocument {
    article(name, #","relationships":{"author":"# + value + "}", expected)
  }
}

@Suite struct BrokenDocumentTests {
  static let invalidJSON: [BrokenDocument] = [
    BrokenDocument("empty input", "", .invalidJSON(offset: 0, line: 1)),
    BrokenDocument("whitespace only", " \n\t ", .invalidJSON(offset: 4, line: 2)),
    BrokenDocument("truncated after a member name", #"{"data":"#, .invalidJSON(offset: 8)),
    BrokenDocument("truncated inside a string", #"{"data":{"type":"art"#, .invalidJSON()),
    BrokenDocument("truncated inside a literal", #"{"data":nul"#, .invalidJSON()),
    BrokenDocument("truncated after a number", #"{"meta":{"n":1"#, .invalidJSON(offset: 14)),
    BrokenDocument("truncated after a comma", #"{"meta":{"a":[1,"#, .invalidJSON(offset: 16)),
    BrokenDocument("truncated inside an escape", #"{"meta":{"s":"\"#, .invalidJSON()),
    BrokenDocument(
      "truncated on a later line", "{\n  \"meta\": {\n    \"a\": [\n", .invalidJSON(line: 4)),
    .inMeta("escape \\x", #""\x41""#),
    .inMeta("escape \\a", #""\a""#),
    .inMeta("escape \\u with three hex digits", #""\u12G4""#),
    .inMeta("escape \\u with non-hex", #""\uZZZZ""#),
    .inMeta("escape \\U in capitals", #""\U0041""#),
    .inMeta("lone high surrogate", #""\uD800""#),
    .inMeta("lone low surrogate", #""\uDC00""#),
    .inMeta("high surrogate before a letter escape", #""\uD800\u0041""#),
    .inMeta("high surrogate before text", #""\uD83Dx""#),
    .inMeta("two high surrogates", #""\uD83D\uD83D""#),
    .rawInString("UTF-8 lone continuation byte", [0x80]),
    .rawInString("UTF-8 overlong slash", [0xC0, 0xAF]),
    .rawInString("UTF-8 overlong NUL (3 bytes)", [0xE0, 0x80, 0x80]),
    .rawInString("UTF-8 truncated sequence", [0xE2, 0x82]),
    .rawInString("UTF-8 encoded surrogate", [0xED, 0xA0, 0x80]),
    .rawInString("UTF-8 beyond U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
    .rawInString("UTF-8 byte 0xFF", [0xFF]),
    .rawInString("raw control character U+0001", [0x01]),
    .rawInString("raw line feed in a string", [0x0A]),
    .rawInString("raw tab in a string", [0x09]),
    BrokenDocument(
      name: "invalid UTF-8 outside strings", bytes: Array(#"{"meta":{}"#.utf8) + [0xC3] + [0x7D],
      expected: .invalidJSON(offset: 10)),
    BrokenDocument("trailing garbage", #"{"meta":{}} x"#, .invalidJSON(offset: 12)),
    BrokenDocument("two top-level values", #"{"meta":{}}{"meta":{}}"#, .invalidJSON(offset: 11)),
    BrokenDocument("trailing NUL byte", "{\"meta\":{}}\u{0}", .invalidJSON(offset: 11)),
    .inMeta("NaN literal", "NaN"),
    .inMeta("Infinity literal", "Infinity"),
    .inMeta("-Infinity literal", "-Infinity"),
    .inMeta("leading zero", "01"),
    .inMeta("negative leading zero", "-012"),
    .inMeta("plus sign", "+1"),
    .inMeta("no digit before the point", ".5"),
    .inMeta("no digit after the point", "1."),
    .inMeta("empty exponent", "1e"),
    .inMeta("signed empty exponent", "1e+"),
    .inMeta("minus alone", "-"),
    .inMeta("hexadecimal number", "0x10"),
    .inMeta("capitalised literal", "True"),
    BrokenDocument("unquoted member name", #"{meta:{}}"#, .invalidJSON(offset: 1)),
    BrokenDocument("single quotes", #"{'meta':{}}"#, .invalidJSON(offset: 1)),
    BrokenDocument("trailing comma in an object", #"{"meta":{"a":1,}}"#, .invalidJSON(offset: 15)),
    BrokenDocument("trailing comma in an array", #"{"meta":{"a":[1,]}}"#, .invalidJSON(offset: 16)),
    BrokenDocument("missing colon", #"{"meta" {}}"#, .invalidJSON(offset: 8)),
    BrokenDocument("missing comma", #"{"meta":{"a":1 "b":2}}"#, .invalidJSON(offset: 15)),
    BrokenDocument("mismatched bracket", #"{"meta":{"a":[1}}"#, .invalidJSON(offset: 15)),
    BrokenDocument("comment", "// c\n{\"meta\":{}}", .invalidJSON(offset: 0)),
    BrokenDocument(
      name: "UTF-16 LE byte order mark", bytes: [0xFF, 0xFE] + Array(#"{"meta":{}}"#.utf8),
      expected: .invalidJSON(offset: 0)),
    BrokenDocument(
      name: "UTF-16 BE byte order mark", bytes: [0xFE, 0xFF, 0x00, 0x7B, 0x00, 0x7D],
      expected: .invalidJSON(offset: 0)),
    BrokenDocument(
      name: "UTF-32 LE byte order mark", bytes: [0xFF, 0xFE, 0x00, 0x00, 0x7B, 0, 0, 0],
      expected: .invalidJSON(offset: 0)),
    BrokenDocument(
      name: "UTF-8 byte order mark twice",
      bytes: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array(#"{"meta":{}}"#.utf8),
      expected: .invalidJSON(offset: 3)),
  ]

  static let duplicateKeys: [BrokenDocument] = [
    .duplicate("duplicate top-level member", #"{"meta":{},"meta":{}}"#, "meta", at: #""meta":{}}"#),
    .duplicate(
      "duplicate resource meta member",
      #"{"data":{"type":"articles","id":"1","attributes":{"title":"t"},"meta":{"n":1,"n":2}}}"#,
      "n", at: #""n":2"#),
    .duplicate(
      "duplicate attribute",
      #"{"data":{"type":"articles","id":"1","attributes":{"title":"t","title":"u"}}}"#,
      "title", at: #""title":"u""#),
    .duplicate(
      "duplicate spelt with an escape", #"{"meta":{"a":1,"\u0061":2}}"#, "a", at: #""\u0061""#),
  ]

  static let limitsAndShape: [BrokenDocument] = [
    .inMeta(
      "nesting deeper than 512",
      String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
      .nestingTooDeep(limit: 512)),
    BrokenDocument("top level is an array", #"[{"meta":{}}]"#, .notADocument),
    BrokenDocument("top level is a string", #""data""#, .notADocument),
    BrokenDocument("top level is a number", "42", .notADocument),
    BrokenDocument("top level is null", "null", .notADocument),
    BrokenDocument("empty object (R2)", "{}", .notADocument),
    BrokenDocument("only links and jsonapi (R2)", #"{"links":{},"jsonapi":{}}"#, .notADocument),
    BrokenDocument("meta null as the only member (R2)", #"{"meta":null}"#, .notADocument),
    BrokenDocument("meta a number as the only member (R43)", #"{"meta":1}"#, .notADocument),
    BrokenDocument(
      "error document (R88)", #"{"errors":[{"status":"404"},{"title":"x"}]}"#,
      .errorDocument(statuses: ["404", nil])),
    BrokenDocument(
      "error document read as a whole document", #"{"errors":[{"status":"500"}]}"#,
      .errorDocument(statuses: ["500"]), model: .document),
  ]

  static let jsonAPIViolations: [BrokenDocument] = [
    BrokenDocument(
      "data with errors (R3)", #"{"data":[],"errors":[]}"#, .invalidDocument(pointer: "")),
    BrokenDocument(
      "included without data (R5)", #"{"meta":{},"included":[]}"#,
      .invalidDocument(pointer: "/included"), model: .document),
    BrokenDocument(
      "included not an array (R37)", #"{"data":[],"included":{}}"#,
      .invalidDocument(pointer: "/included")),
    BrokenDocument("data a string (R8)", #"{"data":"1"}"#, .invalidDocument(pointer: "/data")),
    BrokenDocument("data a number (R8)", #"{"data":1}"#, .invalidDocument(pointer: "/data")),
    BrokenDocument("data a Boolean (R8)", #"{"data":true}"#, .invalidDocument(pointer: "/data")),
    BrokenDocument(
      "resource without type (R12)", #"{"data":{"id":"1","attributes":{"title":"t"}}}"#,
      .invalidDocument(pointer: "/data"), model: .article),
    BrokenDocument(
      "second resource without type (R12)",
      #"{"data":[{"type":"a","id":"1","attributes":{"title":"t"}},{"id":"2"}]}"#,
      .invalidDocument(pointer: "/data/1")),
    BrokenDocument(
      "included resource without type (R12)",
      #"{"data":[],"included":[{"type":"a","id":"1"},{"type":"a","id":"2"},{"type":"a","id":"3"},{"id":"4"}]}"#,
      .invalidDocument(pointer: "/included/3")),
    BrokenDocument(
      // The pointer names the member itself, as for a fractional id (decoder-semantics: "/data").
      "numeric type (R14)", #"{"data":{"type":7,"id":"1","attributes":{"title":"t"}}}"#,
      .invalidDocument(pointer: "/data/type"), model: .article),
    // An integer id reads as its digits (issue 36); a number with a fraction or exponent is no id.
    BrokenDocument(
      "fractional id (R14)", #"{"data":{"type":"a","id":1.5,"attributes":{"title":"t"}}}"#,
      .invalidDocument(pointer: "/data/id"), model: .article),
    BrokenDocument(
      "numeric lid (R14)", #"{"data":{"type":"a","lid":5,"attributes":{"title":"t"}}}"#,
      .invalidDocument(pointer: "/data/lid"), model: .article),
    BrokenDocument(
      "id with an exponent in a collection (R14)",
      #"{"data":[{"type":"a","id":"1","attributes":{"title":"t"}},{"type":"a","id":2e0}]}"#,
      .invalidDocument(pointer: "/data/1/id")),
    BrokenDocument(
      "id 3.0 in included (R14)", #"{"data":[],"included":[{"type":"a","id":3.0}]}"#,
      .invalidDocument(pointer: "/included/0/id")),
    .author(
      "relationship a string (R24)", #""people/9""#,
      .invalidDocument(pointer: "/data/relationships/author")),
    .author(
      "relationship an array (R24)", #"[{"type":"people","id":"9"}]"#,
      .invalidDocument(pointer: "/data/relationships/author")),
    .author(
      "linkage a string (R30)", #"{"data":"9"}"#,
      .invalidDocument(pointer: "/data/relationships/author/data")),
    .author(
      "linkage a number (R30)", #"{"data":9}"#,
      .invalidDocument(pointer: "/data/relationships/author/data")),
    .author(
      "identifier without type (R34)", #"{"data":{"id":"9"}}"#,
      .invalidDocument(pointer: "/data/relationships/author/data")),
    .author(
      // The pointer names the member itself (decoder-semantics says ".../author/data").
      "identifier with fractional id (R35)", #"{"data":{"type":"people","id":9.5}}"#,
      .invalidDocument(pointer: "/data/relationships/author/data/id")),
    .article(
      "relationships not an object (R24)", #","relationships":[]"#,
      .invalidDocument(pointer: "/data/relationships")),
    BrokenDocument(
      "attributes not an object (R21)", #"{"data":{"type":"a","id":"1","attributes":"title"}}"#,
      .invalidDocument(pointer: "/data/attributes"), model: .article),
    BrokenDocument(
      "the same resource twice in included (R40)",
      #"{"data":[],"included":[{"type":"p","id":"1"},{"type":"q","id":"1"},{"type":"p","id":"1"}]}"#,
      .duplicateResource(type: "p", id: "1", pointer: "/included/2")),
    BrokenDocument(
      "primary resource repeated in included (R40)",
      #"{"data":{"type":"articles","id":"1","attributes":{"title":"t"}},"#
        + #""included":[{"type":"articles","id":"1"}]}"#,
      .duplicateResource(type: "articles", id: "1", pointer: "/included/0"), model: .article),
  ]

  static let modelMismatches: [BrokenDocument] = [
    BrokenDocument(
      // `"id": null` reads as absent (issue 36): the model's required id is then missing.
      "null id, required model (R14)",
      #"{"data":{"type":"a","id":null,"attributes":{"title":"t"}}}"#, .valueNotFound(path: "id"),
      model: .article),
    .author(
      "to-one model, to-many linkage", #"{"data":[{"type":"people","id":"9"}]}"#,
      .typeMismatch(path: "author")),
    .article(
      "to-many model, to-one linkage",
      #","relationships":{"comments":{"data":{"type":"people","id":"9"}}}"#,
      .typeMismatch(path: "comments")),
    BrokenDocument(
      "collection model, single resource",
      #"{"data":{"type":"a","id":"1","attributes":{"title":"t"}}}"#, .typeMismatch(path: "")),
    BrokenDocument(
      "missing required attribute", #"{"data":[{"type":"a","id":"1","attributes":{}}]}"#,
      .keyNotFound(key: "title", path: "0")),
    BrokenDocument(
      "null primary data, required model", #"{"data":null}"#, .valueNotFound(path: ""),
      model: .article),
    BrokenDocument(
      "attribute of the wrong type", #"{"data":[{"type":"a","id":"1","attributes":{"title":5}}]}"#,
      .typeMismatch(path: "0.title")),
    .attributes(
      "nested attribute of the wrong type", #""details":{"words":"many"}"#,
      .typeMismatch(path: "details.words")),
    .attributes("1e400 into Double", #""rating":1e400"#, .dataCorrupted(path: "rating")),
    // Float reads through Double: the key reaches both errors (it is made only when thrown).
    .attributes("1e39 into Float", #""score":1e39"#, .dataCorrupted(path: "score")),
    .attributes("a string into Float", #""score":"high""#, .typeMismatch(path: "score")),
    .attributes("300 into Int8", #""age":300"#, .dataCorrupted(path: "age")),
    .attributes("-1 into UInt", #""views":-1"#, .dataCorrupted(path: "views")),
    .attributes("2^63 into Int", #""words":9223372036854775808"#, .dataCorrupted(path: "words")),
    .attributes("1.5 into Int", #""words":1.5"#, .dataCorrupted(path: "words")),
  ]

  static let all: [BrokenDocument] =
    invalidJSON + duplicateKeys + limitsAndShape + jsonAPIViolations + modelMismatches

  @Test func theTableHasAtLeastSixtyRows() {
    #expect(Self.all.count >= 60)
    #expect(Set(Self.all.map(\.name)).count == Self.all.count)
  }

  @Test(arguments: all)
  func failsWithItsOwnError(_ row: BrokenDocument) throws {
    let decoder = JSONAPIDecoder()
    let error: any Error
    do {
      switch row.model {
      case .articles: _ = try decoder.decode([BrokenArticle].self, from: row.bytes)
      case .article: _ = try decoder.decode(BrokenArticle.self, from: row.bytes)
      case .document:
        _ = try decoder.decode(
          JSONAPIDocument<[BrokenArticle]?, JSONAPIValue>.self, from: row.bytes)
      }
      Issue.record("\(row.name): decoded without an error")
      return
    } catch let thrown {
      error = thrown
    }
    check(error, against: row)
    // The Data overload reads the same bytes and must fail identically.
    if let error = error as? JSONAPIError {
      #expect(throws: error) {
        switch row.model {
        case .articles: _ = try decoder.decode([BrokenArticle].self, from: Data(row.bytes))
        case .article: _ = try decoder.decode(BrokenArticle.self, from: Data(row.bytes))
        case .document:
          _ = try decoder.decode(
            JSONAPIDocument<[BrokenArticle]?, JSONAPIValue>.self, from: Data(row.bytes))
        }
      }
    }
  }

  @Test func aUTF8ByteOrderMarkIsSkipped() throws {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    let text = #" {"data":[{"type":"a","id":"1","attributes":{"title":"t"}}]}"#
    let articles = try JSONAPIDecoder().decode([BrokenArticle].self, from: bom + Array(text.utf8))
    #expect(articles == [BrokenArticle(id: "1", type: "a", title: "t")])
    // Locations after a skipped mark still count its bytes: the garbage is at byte 3 + 12.
    let broken = bom + Array(#"{"meta":{}} x"#.utf8)
    do {
      _ = try JSONAPIDecoder().decode([BrokenArticle].self, from: broken)
      Issue.record("trailing garbage after a byte order mark decoded")
    } catch JSONAPIError.invalidJSON(_, let location) {
      #expect(location.offset == 15 && location.line == 1 && location.column == 16)
    }
  }

  private func check(_ error: any Error, against row: BrokenDocument) {
    let context = Testing.Comment(rawValue: "\(row.name): got \(error)")
    switch (row.expected, error) {
    case (.invalidJSON(let offset, let line), JSONAPIError.invalidJSON(_, let location)):
      checkConsistent(location, in: row.bytes, context)
      if let offset { #expect(location.offset == offset, context) }
      if let line { #expect(location.line == line, context) }
    case (.duplicateKey(let name, let offset), JSONAPIError.duplicateKey(let key, let location)):
      #expect(key == name, context)
      #expect(location.offset == offset, context)
      checkConsistent(location, in: row.bytes, context)
    case (.nestingTooDeep(let limit), JSONAPIError.nestingTooDeep(let thrownLimit, let location)):
      #expect(thrownLimit == limit, context)
      checkConsistent(location, in: row.bytes, context)
    case (.notADocument, JSONAPIError.notADocument):
      break
    case (.errorDocument(let statuses), JSONAPIError.errorDocument(let errors)):
      #expect(errors.map(\.status) == statuses, context)
    case (.invalidDocument(let pointer), JSONAPIError.invalidDocument(_, let thrownPointer)):
      #expect(thrownPointer == pointer, context)
    case (
      .duplicateResource(let type, let id, let pointer),
      JSONAPIError.duplicateResource(let thrownType, let thrownID, let thrownPointer)
    ):
      #expect([thrownType, thrownID, thrownPointer] == [type, id, pointer], context)
    case (.typeMismatch(let path), DecodingError.typeMismatch(_, let thrown)):
      #expect(pathText(thrown.codingPath) == path, context)
    case (.keyNotFound(let key, let path), DecodingError.keyNotFound(let thrownKey, let thrown)):
      #expect(thrownKey.stringValue == key, context)
      #expect(pathText(thrown.codingPath) == path, context)
    case (.valueNotFound(let path), DecodingError.valueNotFound(_, let thrown)):
      #expect(pathText(thrown.codingPath) == path, context)
    case (.dataCorrupted(let path), DecodingError.dataCorrupted(let thrown)):
      #expect(pathText(thrown.codingPath) == path, context)
    default:
      Issue.record("\(row.name): expected \(row.expected), got \(error)")
    }
  }

  /// Line and column must describe the same byte as the offset.
  private func checkConsistent(
    _ location: JSONAPISourceLocation, in bytes: [UInt8], _ context: Testing.Comment
  ) {
    #expect((0...bytes.count).contains(location.offset), context)
    let before = bytes.prefix(max(0, min(location.offset, bytes.count)))
    let lineFeeds = before.filter { $0 == 0x0A }.count
    let lineStart = (before.lastIndex(of: 0x0A).map { $0 + 1 }) ?? 0
    #expect(location.line == lineFeeds + 1, context)
    #expect(location.column == location.offset - lineStart + 1, context)
  }
}
