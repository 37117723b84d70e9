import Foundation
import Testing

@testable import JSONAPICodable

// The decoding snippets of README.md (quick start, decoding rules, errors), compiled and run here
// against a document they are meant for; ReadmeSnippetSyncTests checks that every README line
// has its twin in these files. Snippets that moved from the README to the DocC articles keep
// their tests here, marked as such.
@Suite struct ReadmeSnippetTests {
  // MARK: Quick start

  // The README's one-line declarations, as written there.
  // swift-format-ignore
  struct Person: Decodable { var id: String; var name: String }
  // swift-format-ignore
  struct Article: Decodable { var id: String; var title: String; var author: Person }

  static let articles = #"""
    {
      "meta": { "totalPages": 3 },
      "links": { "next": "https://api.example.com/articles?page%5Bnumber%5D=2" },
      "data": [
        {
          "type": "articles", "id": "1",
          "attributes": { "title": "JSON:API paints my bikeshed!" },
          "relationships": { "author": { "data": { "type": "people", "id": "9" } } }
        },
        {
          "type": "articles", "id": "2",
          "attributes": { "title": "Rails is omakase" },
          "relationships": { "author": { "data": { "type": "people", "id": "9" } } }
        }
      ],
      "included": [{ "type": "people", "id": "9", "attributes": { "name": "Dan" } }]
    }
    """#

  @Test func quickStart() throws {
    let data = Data(Self.articles.utf8)
    let articles = try JSONAPIDecoder().decode([Article].self, from: data)
    #expect(articles.map(\.title) == ["JSON:API paints my bikeshed!", "Rails is omakase"])
    #expect(articles.map(\.author.name) == ["Dan", "Dan"])
  }

  // The README says the decoder also takes `[UInt8]` and `String`.
  @Test func decodesFromBytesAndFromString() throws {
    let decoder = JSONAPIDecoder()
    let fromBytes = try decoder.decode([Article].self, from: Array(Self.articles.utf8))
    let fromString = try decoder.decode([Article].self, from: Self.articles)
    #expect(fromBytes.map(\.id) == ["1", "2"])
    #expect(fromString.map(\.id) == ["1", "2"])
    #expect(fromString.first?.author.name == "Dan")
  }

  // MARK: Decoding rules: top-level meta and links

  struct PageMeta: Decodable { var totalPages: Int }

  @Test func compoundDocumentMetaAndLinks() throws {
    let data = Data(Self.articles.utf8)
    let page = try JSONAPIDecoder().decode(JSONAPIDocument<[Article], PageMeta>.self, from: data)
    #expect(page.data.map(\.author.name) == ["Dan", "Dan"])
    #expect(page.meta?.totalPages == 3)
    #expect(page.links?.next?.href == "https://api.example.com/articles?page%5Bnumber%5D=2")
  }

  // MARK: Relationships with meta (moved to DocC: CompoundDocuments.md)

  struct Comment: Decodable {
    var id: String
    var body: String
  }
  struct Post: Decodable {
    var id: String
    var comments: JSONAPIRelationship<[Comment]>
  }

  @Test func relationshipWithMeta() throws {
    let data = Data(
      #"""
      {
        "data": {
          "type": "posts", "id": "1",
          "relationships": {
            "comments": {
              "meta": { "count": 2 },
              "links": { "related": "/posts/1/comments" },
              "data": [{ "type": "comments", "id": "5" }, { "type": "comments", "id": "12" }]
            }
          }
        },
        "included": [
          { "type": "comments", "id": "12", "attributes": { "body": "Second" } },
          { "type": "comments", "id": "5", "attributes": { "body": "First" } }
        ]
      }
      """#.utf8)
    let post = try JSONAPIDecoder().decode(Post.self, from: data)
    #expect(post.comments.data.map(\.body) == ["First", "Second"])
    #expect(post.comments.meta?["count"]?.intValue == 2)
    #expect(post.comments.links?.related?.href == "/posts/1/comments")
  }

  // MARK: Polymorphism (moved to DocC: CompoundDocuments.md)

  struct Image: Decodable {
    var id: String
    var width: Int
  }
  struct Video: Decodable {
    var id: String
    var seconds: Double
  }

  enum Media: Decodable {
    case image(Image)
    case video(Video)

    private enum CodingKeys: String, CodingKey { case type }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      switch try container.decode(String.self, forKey: .type) {
      case "videos": self = .video(try Video(from: decoder))
      default: self = .image(try Image(from: decoder))
      }
    }
  }

  struct Story: Decodable {
    var id: String
    var hero: Media?
  }

  @Test func polymorphicRelationship() throws {
    let data = Data(
      #"""
      {
        "data": [
          { "type": "stories", "id": "1",
            "relationships": { "hero": { "data": { "type": "images", "id": "i" } } } },
          { "type": "stories", "id": "2",
            "relationships": { "hero": { "data": { "type": "videos", "id": "v" } } } },
          { "type": "stories", "id": "3", "relationships": { "hero": { "data": null } } }
        ],
        "included": [
          { "type": "images", "id": "i", "attributes": { "width": 1200 } },
          { "type": "videos", "id": "v", "attributes": { "seconds": 184.5 } }
        ]
      }
      """#.utf8)
    let stories = try JSONAPIDecoder().decode([Story].self, from: data)
    #expect(stories.count == 3)
    guard case .image(let image)? = stories.first?.hero else {
      Issue.record("story 1 should have an image")
      return
    }
    #expect(image.width == 1200)
    guard case .video(let video)? = stories.dropFirst().first?.hero else {
      Issue.record("story 2 should have a video")
      return
    }
    #expect(video.seconds == 184.5)
    #expect(stories.last?.hero == nil)
  }

  // Encoding rules: see Encoding/ReadmeSnippetEncodingTests.swift. Talking to a server and
  // Atomic Operations through the client: see JSONAPINetworkingTests/ReadmeRequestSnippetTests.swift.

  // MARK: Errors

  enum Outcome: Equatable { case article, errorDocument, jsonAPIError, other }

  /// The README's do/catch, with each branch recording which one ran.
  func handle(_ data: Data) -> (Outcome, [String]) {
    var printed: [String] = []
    func print(_ value: Any) { printed.append("\(value)") }
    do {
      let article = try JSONAPIDecoder().decode(Article.self, from: data)
      print(article.title)
      return (.article, printed)
    } catch JSONAPIError.errorDocument(let errors) {
      for error in errors { print(error) }  // 422 Invalid Attribute - … (at /data/attributes/title)
      return (.errorDocument, printed)
    } catch let error as JSONAPIError {
      print(error)  // not JSON / not JSON:API: says what and where
      return (.jsonAPIError, printed)
    } catch {
      print(error)  // DecodingError: the document does not fit the model, with its coding path
      return (.other, printed)
    }
  }

  @Test func errorHandling() {
    let errorDocument = Data(
      #"""
      {"errors": [{"status": "422", "title": "Invalid Attribute",
        "detail": "Title must not be empty.", "source": {"pointer": "/data/attributes/title"}}]}
      """#.utf8)
    let (outcome, printed) = handle(errorDocument)
    #expect(outcome == .errorDocument)
    #expect(
      printed == ["422 Invalid Attribute - Title must not be empty. (at /data/attributes/title)"])

    #expect(handle(Data(#"{"data": ["#.utf8)).0 == .jsonAPIError)
    let missingTitle = Data(
      #"{"data": {"type": "articles", "id": "1", "attributes": {}}}"#.utf8)
    #expect(handle(missingTitle).0 == .other)
  }
}
