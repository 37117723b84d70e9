import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// Validators and conditional requests (issue 48, RFC 9110 sections 8.8.3 and 13) on the memory
/// store: the `ETag` of every read, `If-None-Match` → `304`, and `If-Match` guarding writes inside
/// their transaction.
@Suite struct ConditionalRequestTests {
  typealias Fixture = ServerFixture

  /// A request with conditions added to the fixture's headers.
  static func request(
    _ method: String, _ target: String, body: String? = nil,
    _ conditions: [(name: String, value: String)] = [], contentType: String = Fixture.mediaType
  ) -> JSONAPIServerRequest {
    var request = Fixture.request(method, target, body: body, contentType: contentType)
    request.headers += conditions
    return request
  }

  static func etag(_ server: JSONAPIServer, _ target: String) async throws -> String {
    let response = await Fixture.respond(server, request("GET", target))
    #expect(response.status == 200, "\(target)")
    return try #require(response.header("ETag"), "\(target) has no ETag")
  }

  static func retitle(_ id: String, _ title: String) -> String {
    #"{"data":{"type":"articles","id":""# + id + #"","attributes":{"title":""# + title
      + #""}}}"#
  }

  static let reads = [
    "/articles", "/articles?include=author&sort=-title", "/articles/1", "/articles/1/author",
    "/articles/1/comments", "/articles/1/relationships/author",
    "/articles/1/relationships/comments",
  ]

  // MARK: Validators

  /// The digest is BLAKE2b: RFC 7693's own example (the 64-byte digest of "abc"), and 16-byte
  /// digests (the tags' length: a digest of its own, not a longer one cut short) of the empty
  /// input and of longer ones, against Python's `hashlib.blake2b(…, digest_size=16)`.
  @Test func theDigestIsBLAKE2b() {
    #expect(
      ServedDigest.hex(Data("abc".utf8), length: 64)
        == "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
        + "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923")
    #expect(ServedDigest.hex(Data()) == "cae66941d9efbd404e4d88758ea67670")
    #expect(ServedDigest.hex(Data("abc".utf8)) == "cf4ab791c62b8d2b2109c90275287816")
    #expect(
      ServedDigest.hex(Data(repeating: UInt8(ascii: "a"), count: 1000))
        == "a0e5a332e985551c28a377c40f4139c3")
  }

  /// Every block but the last is read where it lies and only the last is padded, so the lengths
  /// around a block's end (a full last block is not followed by an empty one) and a body that is
  /// a slice of larger data (its bytes start past index 0) are each checked, against Python's
  /// `hashlib.blake2b(…, digest_size=16)`.
  @Test func theDigestHoldsAtBlockEdgesAndOnSlices() {
    let bytes = (0..<400).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
    let expected: [(Int, String)] = [
      (1, "71b186b851e866e71be237342976049a"), (127, "e00ab0ead4d729de8fbe7745d642e416"),
      (128, "8e0cf9bb1b36fa6c42aa6490f719b575"), (129, "6cefde50e4008690e61cf8225d101256"),
      (255, "b1bce9f0dc0bec101cd5e09b7961937c"), (256, "ac60b0f8b3227af67328401630cd4dfa"),
      (257, "7e5b16bfede2940cbed4da50b56da597"), (400, "9192abcb04b659324c8e3e6b5186a98b"),
    ]
    for (count, digest) in expected {
      #expect(ServedDigest.hex(Data(bytes.prefix(count))) == digest, "\(count) bytes")
    }
    let slice = Data(bytes)[5..<300]
    #expect(slice.startIndex == 5)
    #expect(ServedDigest.hex(slice) == "bf425081d0403d192ba9d6c0dd07bb6e")
  }

  /// Every kind of read answers a strong tag that is the digest of the exact bytes served, and
  /// `HEAD` the same tag with no body.
  @Test(arguments: reads) func everyReadCarriesAStrongETagOfItsBytes(_ target: String) async throws
  {
    let (server, _) = try await Fixture.server()
    let get = await Fixture.respond(server, Self.request("GET", target))
    #expect(get.status == 200)
    let tag = try #require(get.header("ETag"))
    #expect(!tag.hasPrefix("W/"))
    #expect(tag.count == 34 && tag.hasPrefix("\"") && tag.hasSuffix("\""))
    #expect(tag == JSONAPIServer.entityTag(of: get.body))
    let head = await Fixture.respond(server, Self.request("HEAD", target))
    #expect(head.status == 200)
    #expect(head.body.isEmpty)
    #expect(head.header("ETag") == tag)
    // Two servers on one store (two instances behind a balancer) give one tag.
    let (other, _) = try await Fixture.server()
    #expect(try await Self.etag(other, target) == tag)
  }

  /// The tag changes when the answer does (a member, an included resource) and only then.
  @Test func theETagChangesExactlyWhenTheAnswerChanges() async throws {
    let (server, _) = try await Fixture.server()
    let one = try await Self.etag(server, "/articles/1")
    let withAuthor = try await Self.etag(server, "/articles/1?include=author")
    let list = try await Self.etag(server, "/articles")
    #expect(one != withAuthor)
    // Another article changes: article 1's answer is the same, the list's is not.
    var response = await Fixture.respond(
      server, Self.request("PATCH", "/articles/2", body: Self.retitle("2", "Other")))
    #expect(response.status == 200)
    #expect(try await Self.etag(server, "/articles/1") == one)
    #expect(try await Self.etag(server, "/articles") != list)
    // A write that stores what was there already changes nothing served.
    response = await Fixture.respond(
      server, Self.request("PATCH", "/articles/1", body: Self.retitle("1", "Article 01")))
    #expect(response.status == 200)
    #expect(try await Self.etag(server, "/articles/1") == one)
    // The author (person 2, included) changes: only the answer that includes it changes.
    response = await Fixture.respond(
      server,
      Self.request(
        "PATCH", "/people/2",
        body: #"{"data":{"type":"people","id":"2","attributes":{"name":"Renamed"}}}"#))
    #expect(response.status == 200)
    #expect(try await Self.etag(server, "/articles/1") == one)
    #expect(try await Self.etag(server, "/articles/1?include=author") != withAuthor)
    // Article 1 itself changes.
    response = await Fixture.respond(
      server, Self.request("PATCH", "/articles/1", body: Self.retitle("1", "Changed")))
    #expect(try await Self.etag(server, "/articles/1") != one)
  }

  /// A `PATCH` answered `200` carries the tag a `GET` of the target now answers.
  @Test func anUpdateCarriesTheNewETag() async throws {
    let (server, _) = try await Fixture.server()
    let response = await Fixture.respond(
      server,
      Self.request("PATCH", "/articles/1?include=author", body: Self.retitle("1", "New")))
    #expect(response.status == 200)
    let tag = try #require(response.header("ETag"))
    #expect(try await Self.etag(server, "/articles/1?include=author") == tag)
  }

  // MARK: If-None-Match

  /// `If-None-Match` naming the current tag (in a list, weak or `*`) is `304` with the tag and no
  /// body, for `GET` and `HEAD`; another tag is a full `200`.
  @Test(arguments: reads) func ifNoneMatchIsNotModified(_ target: String) async throws {
    let (server, _) = try await Fixture.server()
    let tag = try await Self.etag(server, target)
    for value in [tag, "\"other\", \(tag)", "W/\(tag)", "*", " \"a\" ,W/\(tag) "] {
      for method in ["GET", "HEAD"] {
        let response = await Fixture.respond(
          server, Self.request(method, target, [("If-None-Match", value)]))
        #expect(response.status == 304, "\(method) \(target) If-None-Match: \(value)")
        #expect(response.body.isEmpty)
        #expect(response.header("ETag") == tag)
        #expect(response.header("Content-Type") == nil)
      }
    }
    for value in ["\"other\"", "\"\(tag)\"", "garbled"] {
      let response = await Fixture.respond(
        server, Self.request("GET", target, [("If-None-Match", value)]))
      #expect(response.status == 200, "If-None-Match: \(value)")
      #expect(!response.body.isEmpty)
    }
  }

  /// After a change, the old tag no longer matches: the new answer is sent.
  @Test func aChangedResourceIsSentAgain() async throws {
    let (server, _) = try await Fixture.server()
    let tag = try await Self.etag(server, "/articles/1")
    _ = await Fixture.respond(
      server, Self.request("PATCH", "/articles/1", body: Self.retitle("1", "Changed")))
    let response = await Fixture.respond(
      server, Self.request("GET", "/articles/1", [("If-None-Match", tag)]))
    #expect(response.status == 200)
    #expect(response.json["data"]?["attributes"]?["title"] == "Changed")
  }

  // MARK: If-Match

  /// Stale `If-Match` on `PATCH`: `412` with an error document citing RFC 9110, nothing stored.
  @Test func aStaleIfMatchOnAnUpdateIs412AndChangesNothing() async throws {
    let (server, _) = try await Fixture.server()
    let read = try await Self.etag(server, "/articles/1")
    // Someone else changes the article after it was read.
    _ = await Fixture.respond(
      server, Self.request("PATCH", "/articles/1", body: Self.retitle("1", "Theirs")))
    let current = try await Self.etag(server, "/articles/1")
    let response = await Fixture.respond(
      server,
      Self.request("PATCH", "/articles/1", body: Self.retitle("1", "Mine"), [("If-Match", read)]))
    #expect(response.status == 412)
    #expect(response.json["errors"]?[0]?["code"] == "precondition-failed")
    #expect(response.json["errors"]?[0]?["status"] == "412")
    #expect(response.errorSource == "If-Match")
    #expect(
      response.json["errors"]?[0]?["detail"]?.stringValue?.contains(
        "https://www.rfc-editor.org/rfc/rfc9110#section-13.1.1") == true)
    #expect(try await Self.etag(server, "/articles/1") == current)
  }

  /// Stale `If-Match` on `DELETE`: `412`, the resource is still there.
  @Test func aStaleIfMatchOnADeleteIs412AndDeletesNothing() async throws {
    let (server, _) = try await Fixture.server()
    let response = await Fixture.respond(
      server, Self.request("DELETE", "/articles/3", [("If-Match", "\"0123\"")]))
    #expect(response.status == 412)
    #expect(try await Self.etag(server, "/articles/3").isEmpty == false)
  }

  /// Relationship writes compare with the linkage's tag: a stale one is `412`, nothing changes.
  @Test(arguments: ["PATCH", "POST", "DELETE"])
  func aStaleIfMatchOnARelationshipWriteIs412(_ method: String) async throws {
    let (server, _) = try await Fixture.server()
    let target = "/articles/1/relationships/comments"
    let before = try await Self.etag(server, target)
    let body = #"{"data":[{"type":"comments","id":"2"}]}"#
    // The resource's own tag is not the relationship's.
    let resourceTag = try await Self.etag(server, "/articles/1")
    for stale in [resourceTag, "\"stale\"", "W/\(before)"] {
      let response = await Fixture.respond(
        server, Self.request(method, target, body: body, [("If-Match", stale)]))
      #expect(response.status == 412, "\(method) If-Match: \(stale)")
    }
    #expect(try await Self.etag(server, target) == before)
    let current = await Fixture.respond(
      server, Self.request(method, target, body: body, [("If-Match", before)]))
    #expect(current.status == 204)
    // PATCH and DELETE leave comment 2 alone; POST adds it, which it has already (R84).
    #expect(try await Self.etag(server, target) != before || method == "POST")
  }

  /// The current tag (alone, in a list, or `*` on an existing resource) lets writes through.
  @Test func aCurrentIfMatchSucceeds() async throws {
    let (server, _) = try await Fixture.server()
    let tag = try await Self.etag(server, "/articles/1")
    var response = await Fixture.respond(
      server,
      Self.request(
        "PATCH", "/articles/1", body: Self.retitle("1", "Mine"),
        [("If-Match", "\"a\", \(tag)")]))
    #expect(response.status == 200)
    #expect(response.json["data"]?["attributes"]?["title"] == "Mine")
    // The answer's tag is the next version's.
    let next = try #require(response.header("ETag"))
    response = await Fixture.respond(
      server,
      Self.request("PATCH", "/articles/1", body: Self.retitle("1", "Again"), [("If-Match", next)]))
    #expect(response.status == 200)
    response = await Fixture.respond(
      server,
      Self.request("PATCH", "/articles/2", body: Self.retitle("2", "Star"), [("If-Match", "*")]))
    #expect(response.status == 200)
    let two = try await Self.etag(server, "/articles/2")
    response = await Fixture.respond(
      server, Self.request("DELETE", "/articles/2", [("If-Match", two)]))
    #expect(response.status == 204)
    response = await Fixture.respond(
      server, Self.request("DELETE", "/articles/3", [("If-Match", "*")]))
    #expect(response.status == 204)
    #expect(await Fixture.respond(server, Self.request("GET", "/articles/3")).status == 404)
  }

  /// `If-Match: *` needs a current representation (RFC 9110, section 13.1.1): on a missing
  /// resource it is `412`; without conditions the same request is `404`.
  @Test func ifMatchStarOnAMissingResourceIs412() async throws {
    let (server, _) = try await Fixture.server()
    for (method, body) in [("PATCH", Self.retitle("99", "x")), ("DELETE", nil)] {
      let guarded = await Fixture.respond(
        server, Self.request(method, "/articles/99", body: body, [("If-Match", "*")]))
      #expect(guarded.status == 412, "\(method)")
      let plain = await Fixture.respond(server, Self.request(method, "/articles/99", body: body))
      #expect(plain.status == 404, "\(method)")
    }
  }

  /// `If-Match` compares strongly: a weak tag, or a field that breaks the grammar, never matches.
  @Test(arguments: ["W/", "garbled ", "\"unterminated "])
  func aWeakOrGarbledIfMatchIs412(_ prefix: String) async throws {
    let (server, _) = try await Fixture.server()
    let tag = try await Self.etag(server, "/articles/1")
    let response = await Fixture.respond(
      server,
      Self.request(
        "PATCH", "/articles/1", body: Self.retitle("1", "x"), [("If-Match", prefix + tag)]))
    #expect(response.status == 412)
    #expect(try await Self.etag(server, "/articles/1") == tag)
  }

  /// `If-None-Match` on a write: `*` or the current tag means "only if it is not this", so `412`.
  @Test func ifNoneMatchOnAWriteIs412WhenItMatches() async throws {
    let (server, _) = try await Fixture.server()
    let tag = try await Self.etag(server, "/articles/1")
    for value in ["*", tag] {
      let response = await Fixture.respond(
        server,
        Self.request(
          "PATCH", "/articles/1", body: Self.retitle("1", "x"), [("If-None-Match", value)]))
      #expect(response.status == 412)
      #expect(response.errorSource == "If-None-Match")
    }
    #expect(try await Self.etag(server, "/articles/1") == tag)
  }

  /// Two writers that read the same version race with one `If-Match`: the check runs inside the
  /// write transaction, so exactly one wins and the other is `412`.
  @Test func twoConcurrentWritersWithOneIfMatchHaveOneWinner() async throws {
    let (server, _) = try await Fixture.server()
    for round in 0..<20 {
      let tag = try await Self.etag(server, "/articles/1")
      let statuses = await withTaskGroup(of: Int.self) { group in
        for writer in 0..<2 {
          group.addTask {
            await server.respond(
              to: Self.request(
                "PATCH", "/articles/1", body: Self.retitle("1", "r\(round)w\(writer)"),
                [("If-Match", tag)])
            ).status
          }
        }
        return await group.reduce(into: []) { $0.append($1) }
      }
      #expect(statuses.sorted() == [200, 412], "round \(round)")
    }
  }

  /// A conditional GET whose `If-Match` is stale is `412` too (RFC 9110, section 13.2.2).
  @Test func aStaleIfMatchOnAReadIs412() async throws {
    let (server, _) = try await Fixture.server()
    let response = await Fixture.respond(
      server, Self.request("GET", "/articles/1", [("If-Match", "\"stale\"")]))
    #expect(response.status == 412)
  }

  /// `If-Match` on `/operations` is refused with `412` and no operation runs: the endpoint has no
  /// representation to compare it with.
  @Test func ifMatchOnOperationsIs412AndRunsNothing() async throws {
    let (server, _) = try await Fixture.server()
    let tag = try await Self.etag(server, "/articles/1")
    let body =
      #"{"atomic:operations":[{"op":"update","data":{"type":"articles","id":"1","#
      + #""attributes":{"title":"Atomic"}}}]}"#
    let response = await Fixture.respond(
      server,
      Self.request(
        "POST", "/operations", body: body, [("If-Match", tag)], contentType: Fixture.atomic))
    #expect(response.status == 412)
    #expect(response.errorSource == "If-Match")
    #expect(try await Self.etag(server, "/articles/1") == tag)
    // Atomic results are not a document the compliance checker reads: asked directly.
    let plain = await server.respond(
      to: Self.request("POST", "/operations", body: body, contentType: Fixture.atomic))
    #expect(plain.status == 200 || plain.status == 204)
  }

  // MARK: OpenAPI

  /// The description lists the conditional headers and the `304` and `412` answers.
  @Test func theOpenAPIDescriptionListsTheConditions() async throws {
    let (server, _) = try await Fixture.server()
    let document = server.openAPIDocument(title: "Blog", version: "1")
    func names(_ operation: JSONAPIOpenAPIDocument.Operation?) -> Set<String> {
      Set((operation?.parameters ?? []).filter { $0.location == "header" }.map(\.name))
    }
    let resource = try #require(document.paths["/articles/{id}"])
    let linkage = try #require(document.paths["/articles/{id}/relationships/comments"])
    for read in [
      resource.get, resource.head, document.paths["/articles"]?.get,
      document.paths["/articles/{id}/author"]?.get, linkage.get, linkage.head,
    ] {
      #expect(names(read) == ["If-None-Match"])
      #expect(read?.responses["304"] != nil)
      #expect(read?.responses["200"]?.headers?["ETag"] != nil)
    }
    for write in [resource.patch, resource.delete, linkage.patch, linkage.post, linkage.delete] {
      #expect(names(write) == ["If-Match", "If-None-Match"])
      #expect(write?.responses["412"] != nil)
    }
    #expect(resource.patch?.responses["200"]?.headers?["ETag"] != nil)
    #expect(document.paths["/operations"]?.post?.responses["412"] != nil)
  }
}
