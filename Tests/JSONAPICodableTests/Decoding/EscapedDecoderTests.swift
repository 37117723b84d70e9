import Foundation
import Testing

@testable import JSONAPICodable

/// Codable lets a model keep its `Decoder`, a container or a `superDecoder()` and use them after
/// `decode` returns. The bytes they read must still be there (issue 11: with the `String` overload
/// this read freed memory). `Scripts/asan.sh` runs this suite under AddressSanitizer in CI.
@Suite struct EscapedDecoderTests {
  enum Keys: String, CodingKey { case id, title, author, name, tags }

  /// Keeps everything it was given while decoding.
  final class Keeper: Decodable {
    let decoder: any Decoder
    let container: KeyedDecodingContainer<Keys>
    let author: any Decoder
    let tags: any Decoder
    let title: String

    init(from decoder: any Decoder) throws {
      self.decoder = decoder
      container = try decoder.container(keyedBy: Keys.self)
      author = try container.superDecoder(forKey: .author)
      tags = try container.superDecoder(forKey: .tags)
      title = try container.decode(String.self, forKey: .title)
    }
  }

  struct Person: Decodable, Equatable {
    var id: String
    var name: String
  }

  static let json = """
    {"data": {"type": "articles", "id": "1", "attributes": {"title": "Kept \\u00e9 decoders"},
      "relationships": {"author": {"data": {"type": "people", "id": "9"}},
                        "tags": {"data": [{"type": "tags", "id": "t1"}, {"type": "tags", "id": "t2"}]}}},
     "included": [{"type": "people", "id": "9", "attributes": {"name": "Dan \\ud83d\\ude00"}},
                  {"type": "tags", "id": "t1"}]}
    """

  /// Every public overload; each makes its own short-lived buffer.
  static func decodeKeeper(_ overload: String) throws -> Keeper {
    let decoder = JSONAPIDecoder()
    switch overload {
    case "Data": return try decoder.decode(Keeper.self, from: Data(json.utf8))
    case "[UInt8]": return try decoder.decode(Keeper.self, from: Array(json.utf8))
    default:
      // A fresh native string whose storage dies with the call's copy.
      return try decoder.decode(
        Keeper.self, from: String(json.utf8.map { Character(UnicodeScalar($0)) }))
    }
  }

  @Test(arguments: ["Data", "[UInt8]", "String"])
  func keptDecodersReadTheDocumentAfterDecodeReturns(overload: String) throws {
    let keeper = try Self.decodeKeeper(overload)
    // Churn the heap so that freed input would be reused by now.
    let churn = (0..<200).map { String(repeating: "x", count: 64 + $0) }
    #expect(churn.count == 200)

    #expect(keeper.title == "Kept é decoders")
    #expect(try keeper.container.decode(String.self, forKey: .title) == "Kept é decoders")
    #expect(try Person(from: keeper.author) == Person(id: "9", name: "Dan 😀"))
    let author = try keeper.author.container(keyedBy: Keys.self)
    #expect(try author.decode(String.self, forKey: .name) == "Dan 😀")
    var tags = try keeper.tags.unkeyedContainer()
    #expect(tags.count == 2)
    #expect(try tags.decode(JSONAPIResourceIdentifier.self).id == "t1")
    #expect(try tags.decode(JSONAPIResourceIdentifier.self).id == "t2")
    // The kept decoder itself stands on the primary data again once the call is over.
    let again = try keeper.decoder.container(keyedBy: Keys.self)
    #expect(try again.decode(String.self, forKey: .id) == "1")
    #expect(keeper.decoder.codingPath.isEmpty)
  }

  @Test func aDecodeThatThrowsAfterKeepingADecoderLeavesItReadable() throws {
    nonisolated(unsafe) var kept: (any Decoder)?
    struct Thrower: Decodable {
      init(from decoder: any Decoder) throws {
        Self.sink(decoder)
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "on purpose"))
      }
      nonisolated(unsafe) static var sink: (any Decoder) -> Void = { _ in }
    }
    Thrower.sink = { kept = $0 }
    defer { Thrower.sink = { _ in } }
    #expect(throws: DecodingError.self) {
      try JSONAPIDecoder().decode(Thrower.self, from: String(Self.json))
    }
    let container = try #require(kept).container(keyedBy: Keys.self)
    #expect(try container.decode(String.self, forKey: .title) == "Kept é decoders")
  }
}
