import Foundation
import Testing

@testable import JSONAPICodable

@Suite("Encoding round trips: decode(encode(x)) == x")
struct RoundTripEncodingTests {
  func roundTrip<T: Codable & Equatable>(
    _ value: T, name: String, configure: (JSONAPIEncoder, JSONAPIDecoder) -> Void = { _, _ in }
  ) throws -> T {
    let encoder = JSONAPIEncoder()
    let decoder = JSONAPIDecoder()
    configure(encoder, decoder)
    let data = try encoder.encode(value)
    _ = try checked(data, name: name, kind: .response)
    return try decoder.decode(T.self, from: data)
  }

  static let article = Article(
    id: "1", title: "JSON:API paints my bikeshed!", author: Person(id: "9", name: "Dan"),
    comments: [
      Comment(id: "5", body: "First!", author: Person(id: "2", name: "Bo")),
      Comment(id: "12", body: "I like XML better", author: Person(id: "9", name: "Dan")),
    ],
    tags: [Tag(id: "a"), Tag(id: "b")])

  @Test("an article with author, comments (with their authors) and tags")
  func article() throws {
    #expect(try roundTrip(Self.article, name: "round-trip-article") == Self.article)
  }

  @Test("a collection sharing relatives, and an empty one")
  func collection() throws {
    let articles = [
      Self.article, Article(id: "2", title: "Second", author: Person(id: "2", name: "Bo")),
    ]
    #expect(try roundTrip(articles, name: "round-trip-collection") == articles)
    #expect(try roundTrip([Article](), name: "round-trip-empty") == [])
  }

  @Test("nil primary data")
  func nilData() throws {
    let none: Article? = nil
    #expect(try roundTrip(none, name: "round-trip-null") == nil)
  }

  struct Profile: Codable, Equatable {
    var id: Int
    var type = "profiles"
    var firstName: String
    var homeTown: String?
    var bestFriend: Person?
    var joined: Date
  }

  @Test("snake case, numeric ids and ISO 8601 dates on both sides")
  func strategies() throws {
    let profile = Profile(
      id: 7, firstName: "Ann", homeTown: nil, bestFriend: Person(id: "2", name: "Bo"),
      joined: Date(timeIntervalSince1970: 1_700_000_000))
    let decoded = try roundTrip(profile, name: "round-trip-strategies") { encoder, decoder in
      encoder.keyEncodingStrategy = .convertToSnakeCase
      decoder.keyDecodingStrategy = .convertFromSnakeCase
      encoder.dateEncodingStrategy = .iso8601
      decoder.dateDecodingStrategy = .iso8601
    }
    #expect(decoded == profile)
  }

  struct Post: Codable, Equatable {
    var id: String
    var type = "posts"
    var editor: JSONAPIRelationship<Person?>
    var tags: JSONAPIRelationship<[Tag]>
  }

  @Test("JSONAPIRelationship with meta and links, null and empty linkage")
  func relationships() throws {
    let post = Post(
      id: "1", editor: JSONAPIRelationship(data: nil, links: ["related": "/posts/1/editor"]),
      tags: JSONAPIRelationship(data: [], meta: ["count": 0]))
    #expect(try roundTrip(post, name: "round-trip-relationships") == post)
    let filled = Post(
      id: "2", editor: JSONAPIRelationship(data: Person(id: "3", name: "Cy")),
      tags: JSONAPIRelationship(data: [Tag(id: "x")], meta: ["count": 1]))
    #expect(try roundTrip(filled, name: "round-trip-relationships-filled") == filled)
    struct Assigned: Codable, Equatable {
      var id = "3"
      var type = "tasks"
      var owner: JSONAPIRelationship<Person>
    }
    let assigned = Assigned(
      owner: JSONAPIRelationship(data: Person(id: "3", name: "Cy"), links: ["self": "/x"]))
    #expect(try roundTrip(assigned, name: "round-trip-relationship-non-optional") == assigned)
  }

  @Test("a JSONAPIDocument with meta, links and jsonapi")
  func document() throws {
    let document = JSONAPIDocument<[Article], JSONAPIValue>(
      data: [Self.article], meta: ["total": 1], links: ["self": "/articles"],
      jsonapi: JSONAPIObject(version: "1.1"))
    #expect(try roundTrip(document, name: "round-trip-document") == document)
  }

  @Test("an error document decodes as JSONAPIError.errorDocument with the same errors")
  func errorDocument() throws {
    let errors = [JSONAPIErrorObject(status: "404", title: "Not Found")]
    let data = try JSONAPIEncoder().encode(errors: errors)
    #expect(throws: JSONAPIError.errorDocument(JSONAPIErrorDocument(errors: errors))) {
      try JSONAPIDecoder().decode(Article.self, from: data)
    }
  }
}
