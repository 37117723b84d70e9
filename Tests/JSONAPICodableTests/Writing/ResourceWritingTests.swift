import Foundation
import Testing

@testable import JSONAPICodable

/// Resource objects and resource identifier objects are written straight from their parts, not
/// from an object: these tests pin their member order and layout in every output formatting.
@Suite("Writing resources and linkage")
struct ResourceWritingTests {
  struct Person: Encodable {
    var id = "p1"
    var type = "people"
    var name = "Ann"
  }

  /// Identifier plus an object `meta`: stays out of `included`, the meta rides on the linkage.
  struct TagReference: Encodable {
    var id = "t1"
    var type = "tags"
    var meta = ["weight": 2]
  }

  struct Post: Encodable {
    var id = "1"
    var type = "posts"
    var title = "Hi"
    var author = Person()
    var tags = [TagReference()]
  }

  func encoded(_ formatting: JSONAPIEncoder.OutputFormatting) throws -> String {
    let encoder = JSONAPIEncoder()
    encoder.outputFormatting = formatting
    return String(decoding: try encoder.encode(Post()), as: UTF8.self)
  }

  @Test("compact: resource members type, id, attributes, relationships; linkage type, id, meta")
  func compactOrder() throws {
    let expected =
      #"{"data":{"type":"posts","id":"1","attributes":{"title":"Hi"},"relationships":{"#
      + #""author":{"data":{"type":"people","id":"p1"}},"#
      + #""tags":{"data":[{"type":"tags","id":"t1","meta":{"weight":2}}]}}},"#
      + #""included":[{"type":"people","id":"p1","attributes":{"name":"Ann"}}]}"#
    #expect(try encoded([]) == expected)
  }

  @Test("pretty-printed: the compact text laid out (no member strings hold whitespace)")
  func prettyMatchesCompact() throws {
    let pretty = try encoded([.prettyPrinted])
    #expect(pretty.contains("\n    \"type\" : \"posts\",\n"))
    let squeezed = pretty.filter { $0 != " " && $0 != "\n" }
    #expect(squeezed == (try encoded([])))
  }

  /// JSONEncoder's layout (two-space indent, `" : "`, members sorted by UTF-8 bytes), written out
  /// rather than asked of the system's JSONEncoder, whose output differs between OS versions.
  @Test("pretty-printed with sorted keys: byte for byte JSONEncoder's layout")
  func sortedMatchesJSONEncoderLayout() throws {
    let expected = """
      {
        "data" : {
          "attributes" : {
            "title" : "Hi"
          },
          "id" : "1",
          "relationships" : {
            "author" : {
              "data" : {
                "id" : "p1",
                "type" : "people"
              }
            },
            "tags" : {
              "data" : [
                {
                  "id" : "t1",
                  "meta" : {
                    "weight" : 2
                  },
                  "type" : "tags"
                }
              ]
            }
          },
          "type" : "posts"
        },
        "included" : [
          {
            "attributes" : {
              "name" : "Ann"
            },
            "id" : "p1",
            "type" : "people"
          }
        ]
      }
      """
    #expect(try encoded([.prettyPrinted, .sortedKeys]) == expected)
    #expect(try encoded([.sortedKeys]) == expected.filter { $0 != " " && $0 != "\n" })
  }
}
