import Foundation
import Testing

@testable import JSONAPICodable

/// Resolving relationships against included and primary data (R29–R42, R116, R117).
@Suite struct RelationshipTests {
  let decoder = JSONAPIDecoder()

  struct Person: Decodable, Equatable {
    var id: String
    var type: String
    var name: String?
  }
  struct Article: Decodable, Equatable {
    var id: String
    var author: Person?
  }

  @Test func relatedResourceIsFoundByTypeAndIdNotIdAlone() throws {
    // R16, R116: ("people", "1") and ("robots", "1") are different resources.
    let json = """
      {"data": {"type": "articles", "id": "1",
        "relationships": {"author": {"data": {"type": "people", "id": "1"}}}},
       "included": [
        {"type": "robots", "id": "1", "attributes": {"name": "R2"}},
        {"type": "people", "id": "1", "attributes": {"name": "Ada"}}]}
      """
    let article = try decoder.decode(Article.self, from: json)
    #expect(article.author == Person(id: "1", type: "people", name: "Ada"))
  }

  struct Thread: Decodable, Equatable {
    var id: String
    var people: [Person]
  }

  @Test func theResourceAfterTheLastFoundIsTakenOnlyWhenItsTypeAndIdBothMatch() throws {
    // R16, R40: looking a linkage up tries the resource after the one found last first (chains
    // list their links in order). Here that neighbour shares an id but not a type, or a type but
    // not an id, or has only a lid; the table must answer each time.
    let json = """
      {"data": {"type": "threads", "id": "t",
        "relationships": {"people": {"data": [
          {"type": "people", "id": "1"}, {"type": "people", "id": "2"},
          {"type": "people", "id": "3"}, {"type": "people", "id": "5"},
          {"type": "people", "id": "4"}, {"type": "people", "id": "6"}]}}},
       "included": [
        {"type": "people", "id": "1", "attributes": {"name": "Ada"}},
        {"type": "robots", "id": "2", "attributes": {"name": "R2"}},
        {"type": "people", "id": "2", "attributes": {"name": "Bea"}},
        {"type": "people", "id": "3", "attributes": {"name": "Cy"}},
        {"type": "people", "id": "4", "attributes": {"name": "Di"}},
        {"type": "people", "id": "5", "attributes": {"name": "Ed"}},
        {"type": "people", "lid": "6", "attributes": {"name": "Fay"}},
        {"type": "people", "id": "6", "attributes": {"name": "Gus"}}]}
      """
    let thread = try decoder.decode(Thread.self, from: json)
    #expect(thread.people.map(\.name) == ["Ada", "Bea", "Cy", "Ed", "Di", "Gus"])
  }

  @Test func relatedResourceNotIncludedDecodesFromItsIdentifier() throws {
    // R33: linkage may point at resources that are not included.
    let json = """
      {"data": {"type": "articles", "id": "1",
        "relationships": {"author": {"data": {"type": "people", "id": "7"}}}}}
      """
    let article = try decoder.decode(Article.self, from: json)
    #expect(article.author == Person(id: "7", type: "people", name: nil))
  }

  struct Strict: Decodable {
    var id: String
    var author: StrictPerson
  }
  struct StrictPerson: Decodable {
    var id: String
    var name: String
  }

  @Test func requiredFieldOfANotIncludedResourceIsAClearKeyNotFound() throws {
    let json = """
      {"data": {"type": "articles", "id": "1",
        "relationships": {"author": {"data": {"type": "people", "id": "7"}}}}}
      """
    let error = thrownError { try decoder.decode(Strict.self, from: json) }
    guard case .keyNotFound(let key, let context) = error as? DecodingError else {
      Issue.record("expected keyNotFound, got \(String(describing: error))")
      return
    }
    #expect(key.stringValue == "name")
    #expect(context.codingPath.map(\.stringValue) == ["author"])
  }

  struct Tagged: Decodable, Equatable {
    var id: String
    var tags: [Person]
  }

  @Test func toManyLinkageDecodesAsAnArrayInOrderWithMixedTypes() throws {
    // R31: order preserved. R33: identifiers in one array may have different types.
    let json = """
      {"data": {"type": "posts", "id": "1", "relationships": {"tags": {"data": [
        {"type": "people", "id": "2"}, {"type": "bots", "id": "1"}, {"type": "people", "id": "1"}]}}},
       "included": [{"type": "people", "id": "1", "attributes": {"name": "one"}},
                    {"type": "people", "id": "2", "attributes": {"name": "two"}}]}
      """
    let post = try decoder.decode(Tagged.self, from: json)
    #expect(
      post.tags == [
        Person(id: "2", type: "people", name: "two"), Person(id: "1", type: "bots", name: nil),
        Person(id: "1", type: "people", name: "one"),
      ])
  }

  @Test func emptyAndNullLinkage() throws {
    // R30: null is an empty to-one, [] an empty to-many.
    let json = """
      {"data": {"type": "posts", "id": "1", "relationships": {
        "author": {"data": null}, "tags": {"data": []}}}}
      """
    struct Post: Decodable {
      var author: Person?
      var tags: [Person]
    }
    let post = try decoder.decode(Post.self, from: json)
    #expect(post.author == nil)
    #expect(post.tags.isEmpty)
  }

  @Test func relationshipWithOnlyLinksCountsAsAbsent() throws {
    // R32: no data means "linkage not provided".
    let article = try decoder.decode(
      Article.self, from: Fixture.corpus("spec-1.1_fetch-single-related-link-only"))
    #expect(article.author == nil)
    struct Required: Decodable { var author: Person }
    let error = thrownError {
      try decoder.decode(
        Required.self, from: Fixture.corpus("spec-1.1_fetch-single-related-link-only"))
    }
    guard case .keyNotFound(let key, let context) = error as? DecodingError else {
      Issue.record("expected keyNotFound, got \(String(describing: error))")
      return
    }
    #expect(key.stringValue == "author")
    #expect(context.debugDescription.contains("no data"))
  }

  struct WithRelationship: Decodable {
    var id: String
    var author: JSONAPIRelationship<Person?>
    var comments: JSONAPIRelationship<[Person]?>
  }

  @Test func jsonapiRelationshipReadsDataMetaAndLinks() throws {
    let json = """
      {"data": {"type": "articles", "id": "1", "relationships": {
        "author": {"links": {"related": "/articles/1/author"}, "meta": {"since": 2020},
                   "data": {"type": "people", "id": "9"}},
        "comments": {"links": {"self": "/articles/1/relationships/comments"}}}},
       "included": [{"type": "people", "id": "9", "attributes": {"name": "Dan"}}]}
      """
    let article = try decoder.decode(WithRelationship.self, from: json)
    #expect(article.author.data?.name == "Dan")
    #expect(article.author.meta?["since"] == 2020)
    #expect(article.author.links?.related?.href == "/articles/1/author")
    #expect(article.comments.data == nil)
    #expect(article.comments.links?.selfLink?.href == "/articles/1/relationships/comments")
  }

  @Test func linksOnlyRelationshipDecodesIntoJSONAPIRelationshipWithNilData() throws {
    struct Post: Decodable { var author: JSONAPIRelationship<Person?> }
    let post = try decoder.decode(
      Post.self, from: Fixture.corpus("spec-1.1_fetch-single-related-link-only"))
    #expect(post.author.data == nil)
    #expect(post.author.links?.related != nil)
  }

  @Test func identifierMetaIsReadForResourcesNotIncluded() throws {
    struct Ref: Decodable {
      var id: String
      var meta: JSONAPIValue?
    }
    struct Post: Decodable { var author: Ref }
    let json = """
      {"data": {"type": "posts", "id": "1", "relationships": {
        "author": {"data": {"type": "people", "id": "3", "meta": {"role": "editor"}}}}}}
      """
    #expect(try decoder.decode(Post.self, from: json).author.meta?["role"] == "editor")
  }

  struct Comment: Decodable, Equatable {
    var id: String
    var article: Article?
  }

  @Test func includedResourcesResolveBackToPrimaryData() throws {
    // R42: included resources may point at the primary data.
    let json = """
      {"data": [{"type": "articles", "id": "1",
        "relationships": {"author": {"data": {"type": "people", "id": "2"}}}}],
       "included": [{"type": "people", "id": "2", "attributes": {"name": "P"}}]}
      """
    #expect(try decoder.decode([Article].self, from: json).first?.author?.name == "P")
    let comments = """
      {"data": [{"type": "comments", "id": "c", "relationships": {
          "article": {"data": {"type": "articles", "id": "1"}}}},
        {"type": "articles", "id": "1", "relationships": {
          "author": {"data": {"type": "people", "id": "2"}}}}],
       "included": [{"type": "people", "id": "2", "attributes": {"name": "P"}}]}
      """
    struct Mixed: Decodable {
      var id: String
      var article: Article?
    }
    let decoded = try decoder.decode([Mixed].self, from: comments)
    #expect(decoded[0].article?.author?.name == "P")
  }

  @Test func lidLinksANewResourceToItsRelatives() throws {
    // R41: (type, lid) establishes identity inside a document.
    let json = """
      {"data": {"type": "albums", "lid": "a1", "relationships": {
        "cover": {"data": {"type": "photos", "lid": "p1"}}}},
       "included": [{"type": "photos", "lid": "p1", "attributes": {"title": "Sunrise"}}]}
      """
    struct Photo: Decodable {
      var lid: String
      var title: String
    }
    struct Album: Decodable {
      var lid: String
      var cover: Photo
    }
    #expect(try decoder.decode(Album.self, from: json).cover.title == "Sunrise")
  }

  enum Media: Decodable, Equatable {
    case anime(Anime)
    case manga(Manga)
    case other(String)

    struct Anime: Decodable, Equatable {
      var id: String
      var episodeCount: Int?
    }
    struct Manga: Decodable, Equatable {
      var id: String
      var chapterCount: Int?
    }

    enum CodingKeys: String, CodingKey { case type }

    init(from decoder: any Decoder) throws {
      let type = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .type)
      switch type {
      case "anime": self = .anime(try Anime(from: decoder))
      case "manga": self = .manga(try Manga(from: decoder))
      default: self = .other(type)
      }
    }
  }

  struct MediaRelationship: Decodable {
    var id: String
    var role: String
    var destination: Media?
  }

  @Test func polymorphicRelationshipThroughACustomInit() throws {
    let relations = try decoder.decode(
      [MediaRelationship].self,
      from: Fixture.corpus("kitsu_media-relationships-polymorphic-included"))
    #expect(relations.count == 2)
    let kinds = relations.compactMap(\.destination).map { media -> String in
      switch media {
      case .anime: return "anime"
      case .manga: return "manga"
      case .other(let type): return type
      }
    }
    #expect(Set(kinds) == ["anime", "manga"])
  }

  @Test func relationshipValueThatIsNotAnObjectIsAnInvalidDocument() throws {
    let json = #"{"data": {"type": "a", "id": "1", "relationships": {"author": "9"}}}"#
    let error = thrownError { try decoder.decode(Article.self, from: json) }
    guard case .invalidDocument(_, let pointer) = error as? JSONAPIError else {
      Issue.record("expected invalidDocument, got \(String(describing: error))")
      return
    }
    #expect(pointer == "/data/relationships/author")
  }

  @Test func linkageOfTheWrongShapeIsAnInvalidDocument() throws {
    for (linkage, pointer) in [
      (#""9""#, "/data/relationships/author/data"),
      (#"{"id": "9"}"#, "/data/relationships/author/data"),
      // An integer id reads as its digits (issue 36); a fraction makes it no id (R35).
      (#"{"type": "people", "id": 9.5}"#, "/data/relationships/author/data/id"),
    ] {
      let json =
        #"{"data": {"type": "a", "id": "1", "relationships": {"author": {"data": \#(linkage)}}}}"#
      let error = thrownError { try decoder.decode(Article.self, from: json) }
      guard case .invalidDocument(_, let found) = error as? JSONAPIError else {
        Issue.record("\(linkage): expected invalidDocument, got \(String(describing: error))")
        continue
      }
      #expect(found == pointer, "\(linkage)")
    }
  }
}

/// Regression: optional resource types must not read a memo entry that does not exist.
@Suite struct OptionalResolutionRegressionTests {
  struct Person: Decodable, Equatable {
    var id: String
    var name: String?
  }

  @Test func optionalRelatedTypesResolveTheIncludedResource() throws {
    let json = """
      {"data": {"type": "articles", "id": "1", "relationships": {
        "author": {"data": {"type": "people", "id": "9"}}}},
       "included": [{"type": "people", "id": "9", "attributes": {"name": "Dan"}}]}
      """
    struct ViaRelationship: Decodable { var author: JSONAPIRelationship<Person?> }
    struct ViaExplicitOptional: Decodable {
      var author: Person?
      enum CodingKeys: String, CodingKey { case author }
      init(from decoder: any Decoder) throws {
        author = try decoder.container(keyedBy: CodingKeys.self).decode(
          Person?.self, forKey: .author)
      }
    }
    let expected = Person(id: "9", name: "Dan")
    #expect(try JSONAPIDecoder().decode(ViaRelationship.self, from: json).author.data == expected)
    #expect(try JSONAPIDecoder().decode(ViaExplicitOptional.self, from: json).author == expected)
  }
}
