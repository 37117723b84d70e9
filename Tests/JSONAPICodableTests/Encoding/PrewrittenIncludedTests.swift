import Foundation
import Testing

@testable import JSONAPICodable

/// A streamed collection's related resources are taken apart and written as each primary resource
/// streams (``IncludedPrewriter``), and `included` is put together from that text afterwards. The
/// document must be the one the assembly from the finished tree gives (R38: each resource once, in
/// the order met breadth first; copies merged, the first met winning): these compare the two
/// routes byte for byte where copies of a resource differ, where taking one apart fails, and on
/// shapes and output formats where the order of the two traversals differs.
@Suite("Related resources written as the collection streams")
struct PrewrittenIncludedTests {
  /// A person with everything optional, so copies can differ in their fields.
  struct Member: Encodable {
    var id: String
    var type = "people"
    var name: String?
    var email: String?
    /// A relationship whose data is not a resource: taking the resource apart throws.
    var broken: JSONAPIRelationship<Int>?
    var friend: Box?
  }

  /// Indirection, so a member can hold a member.
  final class Box: Encodable {
    let member: Member
    init(_ member: Member) { self.member = member }
    func encode(to encoder: any Encoder) throws { try member.encode(to: encoder) }
  }

  struct Note: Encodable {
    var id: String
    var type = "notes"
    var author: Member?
  }

  struct Post: Encodable {
    var id: String
    var type = "posts"
    var author: Member?
    var notes: [Note] = []
  }

  /// The document from both routes: written as the collection streams, and assembled from the
  /// finished tree (prewriting off: ``EncodingOptions/prewritesIncludedFrom``).
  static func bothRoutes<T: Encodable>(
    _ value: T, formatting: JSONAPIEncoder.OutputFormatting = []
  ) -> (streamed: Result<Data, any Error>, assembled: Result<Data, any Error>) {
    var options = EncodingOptions()
    options.outputFormatting = formatting
    // Even the smallest collection here is written as it streams.
    options.prewritesIncludedFrom = 0
    var assembled = options
    assembled.prewritesIncludedFrom = .max
    let encoder = JSONAPIEncoder()
    return (
      Result { try encoder.encode(value, options: options) },
      Result { try encoder.encode(value, options: assembled) }
    )
  }

  /// The `included` resources of `data` as `type/id` with their attributes.
  static func included(_ data: Data) throws -> [(identity: String, attributes: [String: String])] {
    let document = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    let resources = document?["included"] as? [[String: Any]] ?? []
    return resources.map { resource in
      let identity = "\(resource["type"] ?? "")/\(resource["id"] ?? "")"
      let attributes = (resource["attributes"] as? [String: Any] ?? [:]).compactMapValues {
        $0 as? String
      }
      return (identity, attributes)
    }
  }

  static let formats: [JSONAPIEncoder.OutputFormatting] = [
    [], .prettyPrinted, .sortedKeys, [.prettyPrinted, .sortedKeys], .withoutEscapingSlashes,
  ]

  @Test("shared, nested and repeated resources: the same bytes in every output format")
  func sameBytesAsAssembly() throws {
    // 3 000 posts, each by one of 1 500 members (more than the table of recent identities holds),
    // each with notes by other members, some of them posts' authors too.
    let posts = (0..<3_000).map { index in
      Post(
        id: "\(index)", author: Member(id: "m\(index % 1_500)", name: "Member \(index % 1_500)"),
        notes: (0..<(index % 4)).map { note in
          Note(
            id: "\(index)-\(note)",
            author: Member(
              id: "m\((index * 7 + note) % 1_600)", name: "Member \((index * 7 + note) % 1_600)"))
        })
    }
    let members = Set(
      posts.flatMap { post in [post.author?.id] + post.notes.map { $0.author?.id } }.compactMap {
        $0
      })
    for format in Self.formats {
      let (streamed, assembled) = Self.bothRoutes(posts, formatting: format)
      let streamedData = try streamed.get()
      #expect(streamedData == (try assembled.get()), "format \(format.rawValue)")
      // Every member once, and the notes.
      let included = try Self.included(streamedData)
      #expect(Set(included.map(\.identity)).count == included.count)
      #expect(included.filter { $0.identity.hasPrefix("people/") }.count == members.count)
      #expect(included.filter { $0.identity.hasPrefix("notes/") }.count == 4_500)
    }
  }

  @Test("collections on either side of the size from which prewriting starts")
  func aroundTheThreshold() throws {
    let from = EncodingOptions().prewritesIncludedFrom
    var assembled = EncodingOptions()
    assembled.prewritesIncludedFrom = .max
    for count in [1, from - 1, from, from + 1, 3 * from] {
      let posts = (0..<count).map { index in
        Post(
          id: "\(index)", author: Member(id: "m\(index % 7)", name: "Member \(index % 7)"),
          notes: [
            Note(id: "n\(index)", author: Member(id: "m\(index % 5)", name: "Member \(index % 5)"))
          ])
      }
      let data = try JSONAPIEncoder().encode(posts)
      #expect(data == (try JSONAPIEncoder().encode(posts, options: assembled)), "\(count) posts")
      let members = Set((0..<count).flatMap { ["m\($0 % 7)", "m\($0 % 5)"] })
      #expect(try Self.included(data).count == count + members.count, "\(count) posts")
    }
  }

  @Test("a document with meta, links and jsonapi around a prewritten collection")
  func documentMembersAroundIncluded() throws {
    struct Page: Encodable { var totalPages = 3 }
    let posts = (0..<100).map { index in
      Post(id: "\(index)", author: Member(id: "m\(index % 9)", name: "Member \(index % 9)"))
    }
    let document = JSONAPIDocument(
      data: posts, meta: Page(), links: ["self": "/posts?page[number]=1"],
      jsonapi: JSONAPIObject(version: "1.1"))
    for format in Self.formats {
      let (streamed, assembled) = Self.bothRoutes(document, formatting: format)
      let data = try streamed.get()
      #expect(data == (try assembled.get()), "format \(format.rawValue)")
      let members = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      #expect(Set(members.keys) == ["data", "included", "meta", "links", "jsonapi"])
      #expect(try Self.included(data).count == 9)
    }
  }

  @Test("copies that differ: the copy met first breadth first wins, though met later in the stream")
  func breadthFirstCopyWins() throws {
    // Post 0 reaches m1 at depth 2 (through its note), post 1 at depth 1: breadth first, post 1's
    // copy comes first, while the stream meets post 0's first.
    let posts = [
      Post(
        id: "0", author: Member(id: "m0", name: "Zero"),
        notes: [Note(id: "n0", author: Member(id: "m1", name: "Deep copy"))]),
      Post(id: "1", author: Member(id: "m1", name: "Shallow copy")),
    ]
    let (streamed, assembled) = Self.bothRoutes(posts)
    let data = try streamed.get()
    #expect(data == (try assembled.get()))
    let m1 = try Self.included(data).first { $0.identity == "people/m1" }
    #expect(m1?.attributes["name"] == "Shallow copy")
  }

  @Test("copies with other fields are merged into the first")
  func copiesMerge() throws {
    let posts = [
      Post(id: "0", author: Member(id: "m1", name: "Named")),
      Post(id: "1", author: Member(id: "m1", email: "m1@example.com")),
      Post(id: "2", author: Member(id: "m1", name: "Renamed", email: "other@example.com")),
    ]
    let (streamed, assembled) = Self.bothRoutes(posts)
    let data = try streamed.get()
    #expect(data == (try assembled.get()))
    let m1 = try Self.included(data).first { $0.identity == "people/m1" }
    #expect(m1?.attributes == ["name": "Named", "email": "m1@example.com"])
  }

  @Test("text that is canonically equivalent but spelled differently is not the same copy")
  func canonicallyEquivalentText() throws {
    let composed = "Caf\u{E9}"
    let decomposed = "Cafe\u{301}"
    #expect(composed == decomposed)
    // The stream meets two composed copies first (through notes, depth 2), then a decomposed one
    // (a post's author, depth 1), which comes first breadth first: taken for the same copy as
    // the composed ones, its text would be theirs.
    let posts = [
      Post(id: "0", notes: [Note(id: "n0", author: Member(id: "m1", name: composed))]),
      Post(id: "1", notes: [Note(id: "n1", author: Member(id: "m1", name: composed))]),
      Post(id: "2", author: Member(id: "m1", name: decomposed)),
    ]
    let (streamed, assembled) = Self.bothRoutes(posts)
    let data = try streamed.get()
    #expect(data == (try assembled.get()))
    // Compared as bytes: `String.contains` would find either spelling.
    #expect(data.range(of: Data(decomposed.utf8)) != nil)
    #expect(data.range(of: Data(composed.utf8)) == nil)
  }

  @Test("a copy that cannot be taken apart is the assembly's error")
  func reachedFailureThrows() throws {
    let posts = [
      Post(id: "0", author: Member(id: "m0", name: "Fine")),
      Post(
        id: "1",
        notes: [Note(id: "n1", author: Member(id: "m2", broken: JSONAPIRelationship(data: 5)))]),
    ]
    let (streamed, assembled) = Self.bothRoutes(posts)
    let expected = try #require(Self.failure(assembled))
    #expect(Self.failure(streamed) == expected)
    #expect(expected.contains("JSONAPIRelationship must be a resource"))
    #expect(expected.contains("[1].notes[0].author.broken"))
  }

  @Test("a failing copy under a copy the assembly never follows is no error")
  func unreachedFailureIsNoError() throws {
    // Both posts' authors are m1 with the same fields; the second copy's friend cannot be taken
    // apart, but breadth first the second copy repeats the first and is not followed.
    let posts = [
      Post(id: "0", author: Member(id: "m1", name: "One", friend: Box(Member(id: "f", name: "F")))),
      Post(
        id: "1",
        author: Member(
          id: "m1", name: "One", friend: Box(Member(id: "f", broken: JSONAPIRelationship(data: 5))))
      ),
    ]
    let (streamed, assembled) = Self.bothRoutes(posts)
    let data = try streamed.get()
    #expect(data == (try assembled.get()))
    #expect(try Self.included(data).map(\.identity) == ["people/m1", "people/f"])
  }

  @Test("a resource's friend chain, long and repeating: the same bytes, each resource once")
  func chainsAndCycles() throws {
    // Members whose friends are members (some posts' authors), 40 deep.
    func chain(from start: Int, depth: Int) -> Member {
      var member = Member(id: "c\(start + depth)", name: "End")
      for level in stride(from: depth - 1, through: 0, by: -1) {
        member = Member(id: "c\(start + level)", name: "Level \(level)", friend: Box(member))
      }
      return member
    }
    let posts = (0..<60).map { index in
      Post(id: "\(index)", author: chain(from: index % 20, depth: 40))
    }
    for format in Self.formats {
      let (streamed, assembled) = Self.bothRoutes(posts, formatting: format)
      let data = try streamed.get()
      #expect(data == (try assembled.get()))
      let identities = try Self.included(data).map(\.identity)
      #expect(identities.count == 60)
      #expect(Set(identities).count == 60)
    }
  }

  static func failure(_ result: Result<Data, any Error>) -> String? {
    guard case .failure(let error) = result else { return nil }
    return "\(error)"
  }
}
