import Foundation
import Testing

@testable import JSONAPICodable

/// Every document of the shared corpus (spec examples and real APIs; see Fixtures/corpus/PROVENANCE.md).
@Suite struct CorpusTests {
  /// Documents their authors wrote as negatives, with the error each must give.
  static let negatives: [String: @Sendable (JSONAPIError) -> Bool] = [
    "spec-1.1_jsonapi-object-fragment": { if case .notADocument = $0 { true } else { false } },
    "mattpolzin_empty-object-document": { if case .notADocument = $0 { true } else { false } },
    "mattpolzin_meta-null-document": { if case .notADocument = $0 { true } else { false } },
    "drupal_index-error-typo": { if case .notADocument = $0 { true } else { false } },
    "examples_invalid-request-datum": { if case .notADocument = $0 { true } else { false } },
    "official-schema-tests-1.0_invalid-resource-included-twice": {
      if case .duplicateResource = $0 { true } else { false }
    },
    // Not strict JSON (a trailing comma), as PROVENANCE notes.
    "japx_missing-relationship-objects": { if case .invalidJSON = $0 { true } else { false } },
  ]

  @Test func corpusIsPresent() {
    #expect(Fixture.corpusNames().count == 80)
  }

  @Test(arguments: Fixture.corpusNames())
  func everyDocumentDecodesOrFailsAsDocumented(name: String) throws {
    let data = try Fixture.corpus(name)
    let result = Result {
      try JSONAPIDecoder().decode(JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self, from: data)
    }
    if let expected = Self.negatives[name] {
      guard case .failure(let error as JSONAPIError) = result else {
        Issue.record("\(name) should fail, got \(result)")
        return
      }
      #expect(expected(error), "\(name): \(error)")
      return
    }
    switch result {
    case .success(let document):
      // Primary data comes back as the JSON it was: decode the same bytes with Foundation to compare.
      let raw = try JSONDecoder().decode(JSONAPIValue.self, from: data)
      let expectedData: JSONAPIValue? = raw["data"] == .null ? nil : raw["data"]
      #expect(document.data == expectedData, "\(name)")
      #expect(document.meta == raw["meta"], "\(name)")
    case .failure(JSONAPIError.errorDocument(let errors)):
      let raw = try JSONDecoder().decode(JSONAPIValue.self, from: data)
      #expect(errors.count == raw["errors"]?.arrayValue?.count, "\(name)")
    case .failure(let error):
      Issue.record("\(name) failed: \(error)")
    }
  }

  struct Resource: Decodable {
    var id: String?
    var lid: String?
    var type: String
    var links: JSONAPILinks?
    var meta: JSONAPIValue?
  }

  @Test(arguments: Fixture.corpusNames().filter { negatives[$0] == nil })
  func resourcesDecodeIntoAPlainModel(name: String) throws {
    // Every primary resource of every valid document decodes into a model of its identity members.
    let data = try Fixture.corpus(name)
    let raw = try JSONDecoder().decode(JSONAPIValue.self, from: data)
    let decoder = JSONAPIDecoder()
    if raw["errors"] != nil {
      guard
        case .errorDocument? = thrownError({ try decoder.decode([Resource].self, from: data) })
          as? JSONAPIError
      else {
        Issue.record("\(name): expected an error document")
        return
      }
      return
    }
    switch raw["data"] {
    case .array(let elements)?:
      let resources = try decoder.decode([Resource].self, from: data)
      #expect(resources.map(\.type) == elements.map { $0["type"]?.stringValue ?? "" })
    case .object(let members)?:
      let resource = try decoder.decode(Resource.self, from: data)
      #expect(resource.type == members["type"]?.stringValue)
      // An integer id (art4_invalid-id-integer) reads as its digits (R14 bent, issue 36).
      #expect(
        resource.id == (members["id"]?.stringValue ?? members["id"]?.intValue.map(String.init)))
    default:
      #expect(try decoder.decode(Resource?.self, from: data) == nil || raw["data"] == nil)
    }
  }

  struct Anime: Decodable {
    struct Titles: Decodable {
      var enJP: String?
      enum CodingKeys: String, CodingKey { case enJP = "en_jp" }
    }
    var id: String
    var canonicalTitle: String
    var titles: Titles
    var episodeCount: Int?
    var genres: JSONAPIRelationship<[JSONAPIValue]?>
  }

  @Test func kitsuLinksOnlyRelationships() throws {
    let anime = try JSONAPIDecoder().decode(
      Anime.self, from: Fixture.corpus("kitsu_anime-1-links-only-relationships"))
    #expect(anime.id == "1")
    #expect(anime.titles.enJP == "Cowboy Bebop")
    #expect(anime.genres.data == nil)
    #expect(anime.genres.links?.related != nil)
  }

  struct Flap: Decodable { var color: String }
  struct Wing: Decodable {
    var side: String
    var flap: Flap
  }
  struct Ship: Decodable {
    var name: String
    var wing: Wing
  }
  struct User: Decodable {
    var name: String
    var heads: Int
    var unknown: String?
    var ship: Ship
  }

  @Test func nestedIncludeChainResolvesThreeLevels() throws {
    let user = try JSONAPIDecoder().decode(
      User.self, from: Fixture.corpus("lode_nested-include-chain"))
    #expect(user.ship.wing.flap.color == "orange")
    #expect(user.unknown == nil)
  }

  struct DrupalArticle: Decodable {
    var id: String
    var title: String
    var uid: JSONAPIRelationship<JSONAPIValue?>
  }

  @Test func drupalLinkObjectsAndIdentifierMeta() throws {
    let data = try Fixture.corpus("drupal_article-detail")
    let document = try JSONAPIDecoder().decode(
      JSONAPIDocument<DrupalArticle, JSONAPIValue>.self, from: data)
    #expect(!document.data.title.isEmpty)
    #expect(document.links?.selfLink?.href.isEmpty == false)
    #expect(document.jsonapi?.meta != nil)
  }

  @Test func atMembersAndExtensionMembersEverywhereAreIgnored() throws {
    struct User: Decodable {
      var id: String
      var name: String?
    }
    for name in ["lode_at-members-everywhere", "lode_extension-members-everywhere"] {
      let user = try JSONAPIDecoder().decode(User.self, from: Fixture.corpus(name))
      #expect(user.id == "42", "\(name)")
    }
  }

  @Test func customAndNullLinksAreKeptOrDropped() throws {
    let document = try JSONAPIDecoder().decode(
      JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self,
      from: Fixture.corpus("drupal_index-custom-links"))
    #expect(document.links?["node--article"] != nil)
    let nulls = try JSONAPIDecoder().decode(
      JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self, from: Fixture.corpus("lode_null-values"))
    #expect(nulls.links?.isEmpty == true)  // both links are null: "the link does not exist" (R53)
    let atMembers = try JSONAPIDecoder().decode(
      JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self,
      from: Fixture.corpus("lode_at-members-everywhere"))
    #expect(atMembers.links?.names.contains("@context") == false)  // R50
    #expect(atMembers.links?["foo"]?.href == "https://jsonapi.org")
  }

  @Test func linkObjectWithEveryMember() throws {
    let document = try JSONAPIDecoder().decode(
      JSONAPIDocument<JSONAPIValue?, JSONAPIValue>.self,
      from: Fixture.corpus("art4_link-object-all-members"))
    let link = try #require(
      document.links?.selfLink ?? document.links?[document.links?.names.first ?? ""])
    #expect(!link.href.isEmpty)
    let described = document.links?.names.compactMap { document.links?[$0] }.contains {
      $0.describedBy != nil || $0.hreflang != nil || $0.title != nil
    }
    #expect(described == true)
  }
}
