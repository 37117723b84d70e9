import Foundation
import Testing

@testable import JSONAPICodable

@Suite("Key encoding strategies")
struct KeyStrategyEncodingTests {
  /// Encodes one member per name through a keyed container, so both encoders convert them.
  struct NamedMembers: Encodable {
    var names: [String]
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: NameKey.self)
      for name in names { try container.encode(1, forKey: NameKey(stringValue: name)) }
    }
  }

  struct NameKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  static let names = [
    "a", "A", "title", "firstName", "URL", "URLString", "userID", "myURLString", "ABC1def",
    "version2Name", "a1B", "already_snake", "_leading", "trailing_", "camelCaseXML",
    "HTTPRequestURL", "éÉtat", "ÀB", "oneTwoThree", "X1Y2", "snake__Double", "ID", "iPhone",
    "Ǆemal", "ǅemal", "ĳssel", "a B",
  ]

  @Test("convertToSnakeCase gives exactly what JSONEncoder gives", arguments: names)
  func snakeCaseMatchesJSONEncoder(name: String) throws {
    let foundation = JSONEncoder()
    foundation.keyEncodingStrategy = .convertToSnakeCase
    let expected = try JSONDecoder().decode(
      [String: Int].self, from: foundation.encode(NamedMembers(names: [name])))
    #expect([KeyConversion.snakeCase(name): 1] == expected)
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
