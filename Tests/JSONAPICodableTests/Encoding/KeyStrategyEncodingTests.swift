import Foundation
import Testing

@testable import JSONAPICodable

@Suite("Key encoding strategies")
struct KeyStrategyEncodingTests {
  /// What swift-foundation's JSONEncoder makes of each name with `convertToSnakeCase` (read from
  /// it on Linux; note `URL` gives `u_rl`). Written out rather than asked of the system's
  /// JSONEncoder, so that the test means the same where another Foundation converts differently.
  static let conversions: [(String, String)] = [
    ("a", "a"), ("A", "a"), ("title", "title"), ("firstName", "first_name"), ("URL", "u_rl"),
    ("URLString", "u_rl_string"), ("userID", "user_id"), ("myURLString", "my_url_string"),
    ("ABC1def", "a_bc_1def"), ("version2Name", "version2_name"), ("a1B", "a1_b"),
    ("already_snake", "already_snake"), ("_leading", "_leading"), ("trailing_", "trailing_"),
    ("camelCaseXML", "camel_case_xml"), ("HTTPRequestURL", "h_ttp_request_url"),
    ("éÉtat", "é_état"), ("ÀB", "à_b"), ("oneTwoThree", "one_two_three"), ("X1Y2", "x1_y2"),
    ("snake__Double", "snake___double"), ("ID", "i_d"), ("iPhone", "i_phone"),
    ("Ǆemal", "ǆemal"), ("ǅemal", "ǆemal"), ("ĳssel", "ĳssel"), ("a B", "a _b"),
  ]

  @Test("convertToSnakeCase gives exactly what JSONEncoder gives", arguments: conversions)
  func snakeCaseMatchesJSONEncoder(name: String, snakeCase: String) throws {
    #expect(KeyConversion.snakeCase(name) == snakeCase)
  }

  struct Profile: Encodable {
    var id = "1"
    var type = "profiles"
    var firstName = "Ann"
    var homeAddress = Address()
    var bestFriend = Person(id: "2")
    var extra: [String: Int] = ["keepMe": 1]
    var meta: JSONAPIValue = ["pageCount": 1]
  }

  struct Address: Encodable { var streetName = "Main" }

  @Test("snake case converts attribute and relationship names, nested struct keys too, not data")
  func snakeCaseDocument() throws {
    let encoder = JSONAPIEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    #expect(
      try encodeDocument(Profile(), name: "snake-case", with: encoder) == [
        "data": [
          "type": "profiles", "id": "1",
          "attributes": [
            "first_name": "Ann", "home_address": ["street_name": "Main"], "extra": ["keepMe": 1],
          ],
          "relationships": ["best_friend": ["data": ["type": "people", "id": "2"]]],
          "meta": ["pageCount": 1],
        ]
      ])
  }

  @Test("kebab case joins the same words with hyphens")
  func kebabCase() throws {
    let encoder = JSONAPIEncoder()
    encoder.keyEncodingStrategy = .convertToKebabCase
    let document = try encodeDocument(Profile(), name: "kebab-case", with: encoder)
    #expect(document["data"]?["attributes"]?["first-name"] == "Ann")
    #expect(document["data"]?["attributes"]?["home-address"] == ["street-name": "Main"])
    #expect(document["data"]?["relationships"]?["best-friend"] != nil)
    #expect(KeyConversion.kebabCase("myURLString") == "my-url-string")
  }

  @Test("custom receives the coding path and never touches id, type, lid, meta, links")
  func customStrategy() throws {
    let encoder = JSONAPIEncoder()
    encoder.keyEncodingStrategy = .custom { path in
      AnyCodingKey("\(path.count)" + (path.last?.stringValue.uppercased() ?? ""))
    }
    let document = try encodeDocument(Profile(), name: "custom-keys", with: encoder)
    #expect(document["data"]?["id"] == "1")
    #expect(document["data"]?["attributes"]?["1FIRSTNAME"] == "Ann")
    #expect(document["data"]?["attributes"]?["1HOMEADDRESS"] == ["2STREETNAME": "Main"])
    #expect(document["data"]?["meta"] == ["pageCount": 1])
  }
}
