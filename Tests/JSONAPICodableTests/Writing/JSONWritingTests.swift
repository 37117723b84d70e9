import Foundation
import Testing

@testable import JSONAPICodable

@Suite("JSON writer")
struct JSONWritingTests {
  /// Writes `value` through the encoder's value tree and writer alone (no JSON:API document).
  func written<T: Encodable>(_ value: T, _ formatting: JSONAPIEncoder.OutputFormatting) throws
    -> String
  {
    var options = EncodingOptions()
    options.outputFormatting = formatting
    let tree = try EncoderImpl.root(for: T.self, options: options).wrap(value, key: nil)
    var writer = JSONWriter(formatting: formatting, limits: .init(maxNestingDepth: 600))
    try writer.write(tree)
    return String(decoding: try writer.bytes.takeData(), as: UTF8.self)
  }

  func foundation<T: Encodable>(_ value: T, _ formatting: JSONEncoder.OutputFormatting) throws
    -> String
  {
    let encoder = JSONEncoder()
    encoder.outputFormatting = formatting
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  struct Sample: Encodable {
    var empty: [Int] = []
    var emptyObject: [String: Int] = [:]
    var text = "x/y\u{1}\u{8}\u{c}\n\r\t\u{1f}\u{7f}\"\\é😀 plain"
    var numbers = [
      1.0, 0.1, 1e20, 1e-7, -0.0, 123_456_789_012.5, .greatestFiniteMagnitude,
      .leastNonzeroMagnitude,
    ]
    var floats: [Float] = [3.14, 1, 0.1]
    var integers = [Int.min, 0, Int.max]
    var unsigned = UInt64.max
    var small: Int8 = -128
    var flags = [true, false]
    var missing: Int? = nil
    var nested = ["b": [1, 2], "a": [3]]
    var b = 2
    var a = 1
  }

  static let formattings: [(JSONAPIEncoder.OutputFormatting, JSONEncoder.OutputFormatting)] = [
    ([.sortedKeys], [.sortedKeys]),
    ([.prettyPrinted, .sortedKeys], [.prettyPrinted, .sortedKeys]),
    ([.sortedKeys, .withoutEscapingSlashes], [.sortedKeys, .withoutEscapingSlashes]),
    (
      [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes],
      [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    ),
  ]

  @Test("byte for byte what JSONEncoder writes", arguments: 0..<formattings.count)
  func matchesJSONEncoder(index: Int) throws {
    let (ours, theirs) = Self.formattings[index]
    #expect(try written(Sample(), ours) == foundation(Sample(), theirs))
  }

  @Test("without .sortedKeys members keep the order the model encoded them in")
  func insertionOrder() throws {
    struct Ordered: Encodable {
      var zebra = 1
      var apple = 2
      var mango = 3
    }
    #expect(try written(Ordered(), []) == #"{"zebra":1,"apple":2,"mango":3}"#)
  }

  @Test("escapes: quotes, backslash, slash, control characters; other text copied as is")
  func escapes() throws {
    #expect(try written("a/b\"c\\d\u{0}e\u{1b}", []) == #""a\/b\"c\\d\u0000e\u001b""#)
    #expect(try written("a/b", [.withoutEscapingSlashes]) == #""a/b""#)
    #expect(try written("日本語 ünïcödé", []) == "\"日本語 ünïcödé\"")
  }

  /// Every character that needs escaping, and neighbours that must not be (0x7F, the bytes of
  /// multi-byte UTF-8, `0` and `]` next to the quote and backslash), at every position of strings
  /// long and short, so that each falls in every byte of the eight the writer tests at once and
  /// in the tail it goes through byte by byte.
  @Test(
    "escaping matches JSONEncoder wherever the character falls in long text",
    arguments: [JSONEncoder.OutputFormatting(), .withoutEscapingSlashes])
  func escapesAtEveryPosition(formatting: JSONEncoder.OutputFormatting) throws {
    let ours: JSONAPIEncoder.OutputFormatting =
      formatting.contains(.withoutEscapingSlashes) ? [.withoutEscapingSlashes] : []
    let specials: [Character] = [
      "\u{0}", "\u{1f}", "\n", "\"", "\\", "/", "\u{7f}", "é", "😀", "0", "]", "!", "\u{20}",
    ]
    var texts: [String] = []
    for length in [1, 7, 8, 9, 15, 16, 17, 23, 24, 40] {
      for position in 0..<length {
        for special in specials {
          var characters = Array(repeating: Character("a"), count: length)
          characters[position] = special
          texts.append(String(characters))
        }
      }
    }
    // Several at once, and a run of them across a word boundary.
    texts.append("abcdefg\"\\/\u{1}hijklmnopqrstuvw\n\n\n\n\n\n\n\n\nxyz")
    #expect(try written(texts, ours) == foundation(texts, formatting))
  }

  @Test("sorted keys compare UTF-8 bytes, as JSONEncoder does")
  func sortedKeyOrder() throws {
    let keys = ["b", "a", "B", "a10", "a2", "_z", "Z", "é", "aa", "a_b", "a-b"]
    let value = Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) })
    #expect(try written(value, [.sortedKeys]) == foundation(value, [.sortedKeys]))
  }

  @Test("a whole document pretty-printed with sorted keys")
  func prettyDocument() throws {
    let encoder = JSONAPIEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    struct Link: Encodable {
      var id = "1"
      var type = "links"
      var url = "https://a/b"
    }
    let expected = """
      {
        "data" : {
          "attributes" : {
            "url" : "https:\\/\\/a\\/b"
          },
          "id" : "1",
          "type" : "links"
        }
      }
      """
    #expect(String(decoding: try encoder.encode(Link()), as: UTF8.self) == expected)
  }

  @Test("a tree deeper than the writer's limit throws instead of recursing on")
  func writerDepthLimit() throws {
    var node = EncodedNode.null
    for _ in 0..<50 {
      let array = EncodedArray()
      array.elements = [node]
      node = .array(array)
    }
    var writer = JSONWriter(formatting: [], limits: .init(maxNestingDepth: 12))
    // The error names the limit the user set, not the writer's allowance for document levels.
    let depth = 12 + JSONWriter.documentLevels
    #expect(
      throws: JSONAPIError.encodingNestingTooDeep(
        limit: 12, codingPath: String(repeating: "[0]", count: depth))
    ) { try writer.write(node) }
  }
}

@Suite("JSON writing: deterministic dictionaries")
struct DictionaryOrderWritingTests {
  @Test("dictionaries are written with sorted keys even without .sortedKeys")
  func dictionariesSorted() throws {
    struct Bag: Encodable {
      var id = "1"
      var type = "bags"
      var counts = ["pear": 1, "apple": 2, "fig": 3, "kiwi": 4]
    }
    let data = try JSONAPIEncoder().encode(Bag())
    #expect(text(data).contains(#""counts":{"apple":2,"fig":3,"kiwi":4,"pear":1}"#))
  }
}
