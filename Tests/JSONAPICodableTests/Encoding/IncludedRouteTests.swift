import Foundation
import Testing

@testable import JSONAPICodable

/// `included` has one route: the primary data's related resources are queued and taken apart
/// breadth first, each identity once, copies merged field by field with the first met winning
/// (R38). These pin the documents that route gives, byte for byte, for copies that differ, copies
/// whose fields merge, text spelled two ways, a failing copy, and shapes and output formats of
/// collections large enough to stream in several batches; and they count that each value's
/// `encode(to:)` runs once per call.
@Suite("One route for included")
struct IncludedRouteTests {
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

  /// `value` encoded with `formatting`.
  static func encode<T: Encodable>(
    _ value: T, formatting: JSONAPIEncoder.OutputFormatting = []
  ) throws -> Data {
    let encoder = JSONAPIEncoder()
    encoder.outputFormatting = formatting
    return try encoder.encode(value)
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

  /// A 64-bit FNV-1a digest of `data`, with its length: large documents are pinned by these.
  static func digest(_ data: Data) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in data {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return "\(data.count) \(String(hash, radix: 16))"
  }

  static let formats: [JSONAPIEncoder.OutputFormatting] = [
    [], .prettyPrinted, .sortedKeys, [.prettyPrinted, .sortedKeys], .withoutEscapingSlashes,
  ]

  @Test("shared, nested and repeated resources: the pinned bytes in every output format")
  func sharedNestedRepeated() throws {
    // 3 000 posts, each by one of 1 500 members, each with notes by other members, some of them
    // posts' authors too.
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
    // The documents the encoder gave before `included` had one route (checked equal to the
    // queue's then), in the order of `formats`; since issue 36 the posts without notes write
    // `"notes": {"data": []}`, a relationship as in the posts with notes (R20, R30), where they
    // wrote the attribute `"notes": []`.
    let pinned = [
      "1019767 f310db812aff3df9", "2394159 c1470c7595b2e76b", "1019767 ec62a862c9147b6f",
      "2394159 8fca37fb317d55b5", "1019767 f310db812aff3df9",
    ]
    for (format, expected) in zip(Self.formats, pinned) {
      let data = try Self.encode(posts, formatting: format)
      #expect(Self.digest(data) == expected, "format \(format.rawValue)")
      // One member, one kind: every post's notes are a relationship, and never an attribute.
      let document = try JSONSerialization.jsonObject(with: data) as? [String: Any]
      let resources = document?["data"] as? [[String: Any]] ?? []
      #expect(resources.count == 3_000)
      #expect(
        resources.allSatisfy { post in
          (post["relationships"] as? [String: Any])?["notes"] != nil
            && (post["attributes"] as? [String: Any])?["notes"] == nil
        })
      // Every member once, and the notes.
      let included = try Self.included(data)
      #expect(Set(included.map(\.identity)).count == included.count)
      #expect(included.filter { $0.identity.hasPrefix("people/") }.count == members.count)
      #expect(included.filter { $0.identity.hasPrefix("notes/") }.count == 4_500)
    }
  }

  @Test("collections of one to three batches of the stream")
  func collectionSizes() throws {
    let pinned = [
      1: "311 a36704ecda061fcd", 63: "14910 96f9bd1d2d56a888", 64: "15140 c4f6082493d0e0bb",
      65: "15370 7024e42c83175dd3", 192: "44856 f4f1f07018919b13",
    ]
    for (count, expected) in pinned.sorted(by: { $0.key < $1.key }) {
      let posts = (0..<count).map { index in
        Post(
          id: "\(index)", author: Member(id: "m\(index % 7)", name: "Member \(index % 7)"),
          notes: [
            Note(id: "n\(index)", author: Member(id: "m\(index % 5)", name: "Member \(index % 5)"))
          ])
      }
      let data = try Self.encode(posts)
      #expect(Self.digest(data) == expected, "\(count) posts")
      let members = Set((0..<count).flatMap { ["m\($0 % 7)", "m\($0 % 5)"] })
      #expect(try Self.included(data).count == count + members.count, "\(count) posts")
    }
  }

  @Test("a document with meta, links and jsonapi around a streamed collection")
  func documentMembersAroundIncluded() throws {
    struct Page: Encodable { var totalPages = 3 }
    let posts = (0..<100).map { index in
      Post(id: "\(index)", author: Member(id: "m\(index % 9)", name: "Member \(index % 9)"))
    }
    let document = JSONAPIDocument(
      data: posts, meta: Page(), links: ["self": "/posts?page[number]=1"],
      jsonapi: JSONAPIObject(version: "1.1"))
    let pinned = [
      "12356 a562ef0989584124", "28413 a1bf96a8825c2308", "12356 46fd1dd749594c6e",
      "28413 2e6c0e7065f8d26", "12355 27afccc9eb48809e",
    ]
    for (format, expected) in zip(Self.formats, pinned) {
      let data = try Self.encode(document, formatting: format)
      #expect(Self.digest(data) == expected, "format \(format.rawValue)")
      let members = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      #expect(Set(members.keys) == ["data", "included", "meta", "links", "jsonapi"])
      #expect(try Self.included(data).count == 9)
    }
  }

  @Test("copies that differ: the copy met first breadth first wins, though encoded later")
  func breadthFirstCopyWins() throws {
    // Post 0 reaches m1 at depth 2 (through its note), post 1 at depth 1: breadth first, post 1's
    // copy comes first, though post 0's is encoded first.
    let posts = [
      Post(
        id: "0", author: Member(id: "m0", name: "Zero"),
        notes: [Note(id: "n0", author: Member(id: "m1", name: "Deep copy"))]),
      Post(id: "1", author: Member(id: "m1", name: "Shallow copy")),
    ]
    let data = try Self.encode(posts)
    // Post 1's empty notes are a relationship, as post 0's notes are (R20, R30).
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"{"data":[{"type":"posts","id":"0","relationships":{"author":{"data":{"type":"people","id":"m0"}},"notes":{"data":[{"type":"notes","id":"n0"}]}}},{"type":"posts","id":"1","relationships":{"author":{"data":{"type":"people","id":"m1"}},"notes":{"data":[]}}}],"included":[{"type":"people","id":"m0","attributes":{"name":"Zero"}},{"type":"notes","id":"n0","relationships":{"author":{"data":{"type":"people","id":"m1"}}}},{"type":"people","id":"m1","attributes":{"name":"Shallow copy"}}]}"#
    )
  }

  @Test("copies with other fields are merged into the first")
  func copiesMerge() throws {
    let posts = [
      Post(id: "0", author: Member(id: "m1", name: "Named")),
      Post(id: "1", author: Member(id: "m1", email: "m1@example.com")),
      Post(id: "2", author: Member(id: "m1", name: "Renamed", email: "other@example.com")),
    ]
    let data = try Self.encode(posts)
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"{"data":[{"type":"posts","id":"0","attributes":{"notes":[]},"relationships":{"author":{"data":{"type":"people","id":"m1"}}}},{"type":"posts","id":"1","attributes":{"notes":[]},"relationships":{"author":{"data":{"type":"people","id":"m1"}}}},{"type":"posts","id":"2","attributes":{"notes":[]},"relationships":{"author":{"data":{"type":"people","id":"m1"}}}}],"included":[{"type":"people","id":"m1","attributes":{"name":"Named","email":"m1@example.com"}}]}"#
    )
  }

  @Test("text that is canonically equivalent but spelled differently keeps its own spelling")
  func canonicallyEquivalentText() throws {
    let composed = "Caf\u{E9}"
    let decomposed = "Cafe\u{301}"
    #expect(composed == decomposed)
    // Two composed copies come through notes (depth 2), a decomposed one as a post's author
    // (depth 1), which comes first breadth first: its bytes are the ones written.
    let posts = [
      Post(id: "0", notes: [Note(id: "n0", author: Member(id: "m1", name: composed))]),
      Post(id: "1", notes: [Note(id: "n1", author: Member(id: "m1", name: composed))]),
      Post(id: "2", author: Member(id: "m1", name: decomposed)),
    ]
    let data = try Self.encode(posts)
    // Post 2's empty notes are a relationship, as the other posts' notes are (R20, R30).
    let expected =
      #"{"data":[{"type":"posts","id":"0","relationships":{"notes":{"data":[{"type":"notes","id":"n0"}]}}},{"type":"posts","id":"1","relationships":{"notes":{"data":[{"type":"notes","id":"n1"}]}}},{"type":"posts","id":"2","relationships":{"author":{"data":{"type":"people","id":"m1"}},"notes":{"data":[]}}}],"included":[{"type":"notes","id":"n0","relationships":{"author":{"data":{"type":"people","id":"m1"}}}},{"type":"notes","id":"n1","relationships":{"author":{"data":{"type":"people","id":"m1"}}}},{"type":"people","id":"m1","attributes":{"name":""#
      + decomposed + #""}}]}"#
    // Compared as bytes: `String.==` would equate either spelling.
    #expect(data == Data(expected.utf8))
    #expect(data.range(of: Data(composed.utf8)) == nil)
  }

  @Test("a copy that cannot be taken apart throws, with its path")
  func reachedFailureThrows() throws {
    let posts = [
      Post(id: "0", author: Member(id: "m0", name: "Fine")),
      Post(
        id: "1",
        notes: [Note(id: "n1", author: Member(id: "m2", broken: JSONAPIRelationship(data: 5)))]),
    ]
    let error = #expect(throws: JSONAPIError.self) { try Self.encode(posts) }
    let message = "\(error.map { "\($0)" } ?? "")"
    #expect(
      message
        == "Cannot encode the value at [1].notes[0].author.broken.data: the data of a JSONAPIRelationship must be a resource with `type` and `id`, an array of them, or nil (see https://jsonapi.org/format/#document-resource-object-linkage)"
    )
  }

  @Test("a failing copy under a copy that repeats an earlier one is no error")
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
    let data = try Self.encode(posts)
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"{"data":[{"type":"posts","id":"0","attributes":{"notes":[]},"relationships":{"author":{"data":{"type":"people","id":"m1"}}}},{"type":"posts","id":"1","attributes":{"notes":[]},"relationships":{"author":{"data":{"type":"people","id":"m1"}}}}],"included":[{"type":"people","id":"m1","attributes":{"name":"One"},"relationships":{"friend":{"data":{"type":"people","id":"f"}}}},{"type":"people","id":"f","attributes":{"name":"F"}}]}"#
    )
  }

  @Test("a resource's friend chain, long and repeating: the pinned bytes, each resource once")
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
    let pinned = [
      "14565 9774b46c026e4166", "32492 2f58b2bfc821740c", "14565 23f628cd6f437fe0",
      "32492 d700863dd3c94264", "14565 9774b46c026e4166",
    ]
    for (format, expected) in zip(Self.formats, pinned) {
      let data = try Self.encode(posts, formatting: format)
      #expect(Self.digest(data) == expected, "format \(format.rawValue)")
      let identities = try Self.included(data).map(\.identity)
      #expect(identities.count == 60)
      #expect(Set(identities).count == 60)
    }
  }

  /// Counts `encode(to:)` calls by kind, from any thread.
  final class EncodeCounter: @unchecked Sendable {
    // @unchecked: `counts` is only read and written under the lock.
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func record(_ kind: String) { lock.withLock { counts[kind, default: 0] += 1 } }
    func count(_ kind: String) -> Int { lock.withLock { counts[kind, default: 0] } }
  }

  struct CountedPerson: Encodable {
    var id: String
    var type = "people"
    var name: String
    let counter: EncodeCounter

    enum CodingKeys: String, CodingKey { case id, type, name }

    func encode(to encoder: any Encoder) throws {
      counter.record("people")
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(type, forKey: .type)
      try container.encode(name, forKey: .name)
    }
  }

  struct CountedArticle: Encodable {
    var id: String
    var type = "articles"
    var author: CountedPerson
    let counter: EncodeCounter

    enum CodingKeys: String, CodingKey { case id, type, author }

    func encode(to encoder: any Encoder) throws {
      counter.record("articles")
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(type, forKey: .type)
      try container.encode(author, forKey: .author)
    }
  }

  @Test(
    "each value's encode(to:) runs once per call, also when copies of a shared resource differ",
    arguments: [nil, 0, 50, 99])
  func encodeToRunsOnce(differingCopy: Int?) throws {
    // 100 articles sharing one author; with `differingCopy`, that article's copy has another name.
    let counter = EncodeCounter()
    let articles = (0..<100).map { (index: Int) -> CountedArticle in
      let differs = differingCopy.map { $0 == index } ?? false
      return CountedArticle(
        id: String(index),
        author: CountedPerson(id: "9", name: differs ? "Daniel" : "Dan", counter: counter),
        counter: counter)
    }
    let data = try JSONAPIEncoder().encode(articles)
    #expect(counter.count("articles") == 100)
    #expect(counter.count("people") == 100)
    // R38: the author once; the first copy met breadth first (article 0's) wins.
    let included = try Self.included(data)
    #expect(included.map(\.identity) == ["people/9"])
    #expect(included.first?.attributes["name"] == (differingCopy == 0 ? "Daniel" : "Dan"))
  }
}
