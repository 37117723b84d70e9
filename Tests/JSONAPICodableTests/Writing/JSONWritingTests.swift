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
    let tree = try EncodingCall(options: options).root(for: T.self).wrap(value, key: nil)
    var writer = JSONWriter(formatting: formatting, depthLimit: 600, reportedDepthLimit: 600)
    try writer.write(tree)
    return String(decoding: try writer.bytes.takeData(), as: UTF8.self)
  }

  /// `text` as a JSON string the way JSONEncoder writes one (RFC 8259 §7): `"`, `\` and, unless
  /// `escapingSlashes` is false, `/` after a backslash; backspace, form feed, newline, return and
  /// tab by their short names; other controls below U+0020 as `\u00xx` in lowercase hex;
  /// everything else, U+007F and non-ASCII included, as it is. Spelled out here rather than asked of
  /// the system's JSONEncoder, whose output is not the same on every OS version.
  static func jsonString(_ text: String, escapingSlashes: Bool = true) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "/": result += escapingSlashes ? "\\/" : "/"
      case "\u{8}": result += "\\b"
      case "\u{c}": result += "\\f"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\u{0}"..."\u{1f}":
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
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
    // Int64, not Int: the expected text must not depend on the width of `Int`.
    var integers = [Int64.min, 0, Int64.max]
    var unsigned = UInt64.max
    var small: Int8 = -128
    var flags = [true, false]
    var missing: Int? = nil
    var nested = ["b": [1, 2], "a": [3]]
    var b = 2
    var a = 1
  }

  /// `Sample` as JSONEncoder lays it out with sorted keys: numbers in Swift's shortest round-trip
  /// spelling with a `.0` dropped, exponents as `e+20` and `e-07`. Written out rather than asked
  /// of the system's JSONEncoder, whose output is not the same on every OS version.
  static let compactSample =
    #"{"a":1,"b":2,"empty":[],"emptyObject":{},"flags":[true,false],"floats":[3.14,1,0.1],"#
    + #""integers":[-9223372036854775808,0,9223372036854775807],"nested":{"a":[3],"b":[1,2]},"#
    + #""numbers":[1,0.1,1e+20,1e-07,-0,123456789012.5,1.7976931348623157e+308,5e-324],"#
    + #""small":-128,"text":\#(jsonString(Sample().text)),"unsigned":18446744073709551615}"#

  static let prettySample = """
    {
      "a" : 1,
      "b" : 2,
      "empty" : [

      ],
      "emptyObject" : {

      },
      "flags" : [
        true,
        false
      ],
      "floats" : [
        3.14,
        1,
        0.1
      ],
      "integers" : [
        -9223372036854775808,
        0,
        9223372036854775807
      ],
      "nested" : {
        "a" : [
          3
        ],
        "b" : [
          1,
          2
        ]
      },
      "numbers" : [
        1,
        0.1,
        1e+20,
        1e-07,
        -0,
        123456789012.5,
        1.7976931348623157e+308,
        5e-324
      ],
      "small" : -128,
      "text" : \(jsonString(Sample().text)),
      "unsigned" : 18446744073709551615
    }
    """

  static let formattings: [(JSONAPIEncoder.OutputFormatting, String)] = [
    ([.sortedKeys], compactSample),
    ([.prettyPrinted, .sortedKeys], prettySample),
    (
      [.sortedKeys, .withoutEscapingSlashes],
      compactSample.replacingOccurrences(of: #"x\/y"#, with: "x/y")
    ),
    (
      [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes],
      prettySample.replacingOccurrences(of: #"x\/y"#, with: "x/y")
    ),
  ]

  @Test("byte for byte what JSONEncoder writes", arguments: 0..<formattings.count)
  func matchesJSONEncoder(index: Int) throws {
    let (formatting, expected) = Self.formattings[index]
    #expect(try written(Sample(), formatting) == expected)
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
    "escaping as JSONEncoder escapes wherever the character falls in long text",
    arguments: [true, false])
  func escapesAtEveryPosition(escapingSlashes: Bool) throws {
    let ours: JSONAPIEncoder.OutputFormatting = escapingSlashes ? [] : [.withoutEscapingSlashes]
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
    let expected =
      "["
      + texts.map { Self.jsonString($0, escapingSlashes: escapingSlashes) }.joined(separator: ",")
      + "]"
    #expect(try written(texts, ours) == expected)
  }

  @Test("sorted keys compare UTF-8 bytes, as JSONEncoder does")
  func sortedKeyOrder() throws {
    let keys = ["b", "a", "B", "a10", "a2", "_z", "Z", "é", "aa", "a_b", "a-b"]
    let value = Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) })
    // By bytes: B 0x42, Z 0x5A, _ 0x5F, a 0x61 (a prefix first; then - 0x2D, 1, 2, _, a), b, é 0xC3.
    #expect(
      try written(value, [.sortedKeys])
        == #"{"B":1,"Z":1,"_z":1,"a":1,"a-b":1,"a10":1,"a2":1,"a_b":1,"aa":1,"b":1,"é":1}"#)
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
    var writer = JSONWriter(formatting: [], depthLimit: 20, reportedDepthLimit: 12)
    // The error names the limit it is told to report (the user's), not the writer's allowance.
    #expect(
      throws: JSONAPIError.encodingNestingTooDeep(
        limit: 12, codingPath: String(repeating: "[0]", count: 20))
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
