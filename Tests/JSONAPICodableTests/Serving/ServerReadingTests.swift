import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// `JSONAPIServer`'s GET endpoints (issue 37): collections with include, fields, sort, filter and
/// page; resources; related resources; linkage; and what each refuses, with status and source.
@Suite struct ServerReadingTests {
  typealias Fixture = ServerFixture

  @Test func aCollectionPagesByNumberWithLinksAndMeta() async throws {
    let (server, _) = try await Fixture.server()
    let response = await Fixture.respond(
      server, Fixture.request("GET", "/articles?page%5Bnumber%5D=2"))
    #expect(response.status == 200)
    #expect(response.header("Content-Type") == Fixture.mediaType)
    #expect(response.ids == ["6", "7", "8", "9", "10"])
    let links = response.json["links"]
    #expect(links?["self"]?.stringValue == "https://api.example.com/articles?page%5Bnumber%5D=2")
    #expect(links?["next"]?.stringValue?.hasSuffix("page%5Bnumber%5D=3") == true)
    #expect(links?["last"]?.stringValue?.hasSuffix("page%5Bnumber%5D=3") == true)
    #expect(response.json["meta"]?["page"]?["total"] == .integer(12))
    let first = response.json["data"]?[0]
    #expect(first?["attributes"]?["title"] == "Article 06")
    #expect(first?["links"]?["self"] == "https://api.example.com/articles/6")
    #expect(
      first?["relationships"]?["author"]?["links"]?["related"]
        == "https://api.example.com/articles/6/author")
    #expect(first?["relationships"]?["author"]?["data"]?["id"] == "1")
  }

  @Test func includesAreReadPerLevelAndTypeNotPerResource() async throws {
    let (server, store) = try await Fixture.server()
    _ = store.takeCalls()
    let response = await Fixture.respond(
      server,
      Fixture.request(
        "GET", "/articles?include=author,comments.author&page%5Bsize%5D=10"))
    #expect(response.status == 200)
    // R67/R41: each included resource once, none of the primary data.
    let included = response.json["included"]?.arrayValue ?? []
    let identities = included.compactMap { item in
      item["type"]?.stringValue.flatMap { type in item["id"]?.stringValue.map { "\(type)/\($0)" } }
    }
    #expect(Set(identities) == ["people/1", "people/2", "people/3", "comments/1", "comments/2"])
    #expect(identities.count == Set(identities).count)
    // One page read, then level 1 (people and comments), then level 2 (people again, already
    // known: comment authors are person 3, read at level 1): a bounded number of calls for 10
    // articles.
    #expect(store.takeCalls() == ["page articles", "resources comments", "resources people"])
  }

  @Test func includedIsPresentExactlyWhenIncludeIsAsked() async throws {
    let (server, _) = try await Fixture.server()
    let plain = await Fixture.respond(server, Fixture.request("GET", "/articles/1"))
    #expect(plain.json["included"] == nil)
    // R67: asked for and empty, it is still there.
    let empty = await Fixture.respond(
      server, Fixture.request("GET", "/articles/2?include=comments"))
    #expect(empty.json["included"] == [])
  }

  @Test func sparseFieldsetsKeepOnlyTheFieldsAsked() async throws {
    let (server, _) = try await Fixture.server()
    let response = await Fixture.respond(
      server, Fixture.request("GET", "/articles/1?fields%5Barticles%5D=title&include=author"))
    let data = response.json["data"]
    #expect(data?["attributes"]?.objectValue?.keys.sorted() == ["title"])
    #expect(data?["relationships"] == nil)
    #expect(response.json["included"]?[0]?["attributes"]?["name"] == "Person 2")
  }

  @Test func sortAndFilterAreTheDeclaredOnes() async throws {
    let (server, _) = try await Fixture.server()
    let sorted = await Fixture.respond(server, Fixture.request("GET", "/articles?sort=-wordCount"))
    #expect(sorted.ids == ["12", "11", "10", "9", "8"])
    let byAuthor = await Fixture.respond(
      server, Fixture.request("GET", "/articles?filter%5Bauthor%5D=2&page%5Bsize%5D=10"))
    #expect(byAuthor.ids == ["1", "4", "7", "10"])
    let longer = await Fixture.respond(
      server, Fixture.request("GET", "/articles?filter%5BlongerThan%5D=100"))
    #expect(longer.ids == ["11", "12"])
    let titled = await Fixture.respond(
      server, Fixture.request("GET", "/articles?filter%5Btitle%5D=ARTICLE%2001"))
    #expect(titled.ids == ["1"])
  }

  @Test(arguments: [
    ("/articles?sort=body", 400, "sort"),
    ("/articles?filter%5Bbody%5D=x", 400, "filter[body]"),
    ("/articles?filter%5BwordCount%5D=many", 400, "filter[wordCount]"),
    ("/articles?include=editor", 400, "include"),
    ("/articles?include=author.author", 400, "include"),
    ("/articles?include=comments.article.author.name", 400, "include"),
    ("/articles?fields%5Bbooks%5D=title", 400, "fields[books]"),
    ("/articles?page%5Bsize%5D=11", 400, "page[size]"),
    ("/articles?page%5Bcursor%5D=1", 400, "page[cursor]"),
    ("/articles/1?sort=title", 400, "sort"),
    ("/articles/1/relationships/author?include=author", 400, "include"),
  ])
  func refusedQueriesNameTheirParameter(_ target: String, _ status: Int, _ parameter: String)
    async throws
  {
    let (server, _) = try await Fixture.server()
    let response = await Fixture.respond(server, Fixture.request("GET", target))
    #expect(response.status == status)
    #expect(response.errorSource == parameter)
    #expect(response.json["errors"]?[0]?["detail"]?.stringValue?.isEmpty == false)
  }

  @Test func aFilterValueThatIsNotTheMembersTypeSaysWhy() async throws {
    let (server, _) = try await Fixture.server()
    let response = await Fixture.respond(
      server, Fixture.request("GET", "/articles?filter%5BwordCount%5D=10,many"))
    #expect(response.status == 400)
    #expect(response.json["errors"]?[0]?["code"] == "invalid-filter-value")
    #expect(
      response.json["errors"]?[0]?["detail"]?.stringValue?.contains("not a whole number") == true)
  }

  @Test func aFilterValueWithUPlus0000IsRefusedNotCut() async throws {
    let (server, _) = try await Fixture.server()
    // `%00zzzz` cut at U+0000 would be empty text, which every title contains.
    let response = await Fixture.respond(
      server, Fixture.request("GET", "/articles?filter%5Btitle%5D=%00zzzz"))
    #expect(response.status == 400 && response.errorSource == "filter[title]")
    #expect(response.json["errors"]?[0]?["detail"]?.stringValue?.contains("U+0000") == true)
  }

  @Test func oneResourceAndItsAbsence() async throws {
    let (server, _) = try await Fixture.server()
    let one = await Fixture.respond(server, Fixture.request("GET", "/people/2"))
    #expect(one.status == 200 && one.json["data"]?["attributes"]?["name"] == "Person 2")
    #expect(one.json["links"]?["self"] == "https://api.example.com/people/2")
    let missing = await Fixture.respond(server, Fixture.request("GET", "/people/9"))
    #expect(missing.status == 404)
    #expect(missing.json["errors"]?[0]?["status"] == "404")
    let noType = await Fixture.respond(server, Fixture.request("GET", "/books"))
    #expect(noType.status == 404)
    let noRelationship = await Fixture.respond(server, Fixture.request("GET", "/articles/1/editor"))
    #expect(noRelationship.status == 404)
  }

  @Test func relatedResourcesAndLinkage() async throws {
    let (server, _) = try await Fixture.server()
    let author = await Fixture.respond(server, Fixture.request("GET", "/articles/4/author"))
    #expect(author.json["data"]?["id"] == "2" && author.json["data"]?["type"] == "people")
    let comments = await Fixture.respond(
      server, Fixture.request("GET", "/articles/1/comments?include=author"))
    #expect(comments.ids == ["1", "2"])
    #expect(comments.json["included"]?[0]?["id"] == "3")
    let none = await Fixture.respond(server, Fixture.request("GET", "/articles/2/comments"))
    #expect(none.status == 200 && none.ids.isEmpty)
    let linkage = await Fixture.respond(
      server, Fixture.request("GET", "/articles/1/relationships/comments"))
    #expect(
      linkage.json["data"]
        == [["type": "comments", "id": "1"], ["type": "comments", "id": "2"]])
    #expect(
      linkage.json["links"]?["self"]
        == "https://api.example.com/articles/1/relationships/comments")
    let missingOwner = await Fixture.respond(
      server, Fixture.request("GET", "/articles/99/comments"))
    #expect(missingOwner.status == 404)
  }

  @Test func cursorPagingFollowsTheProfile() async throws {
    let (server, _) = try await Fixture.server(
      articlePaging: .cursor(defaultSize: 5, maxSize: 10))
    let profile = JSONAPIPaging.cursorPaginationProfile
    let first = await Fixture.respond(server, Fixture.request("GET", "/articles?sort=-wordCount"))
    #expect(first.ids == ["12", "11", "10", "9", "8"])
    #expect(first.header("Content-Type")?.contains(profile) == true)
    let next = try #require(first.json["links"]?["next"]?.stringValue)
    let second = await Fixture.respond(server, Fixture.request("GET", next))
    #expect(second.ids == ["7", "6", "5", "4", "3"])
    let prev = try #require(second.json["links"]?["prev"]?.stringValue)
    let back = await Fixture.respond(server, Fixture.request("GET", prev))
    #expect(back.ids == ["12", "11", "10", "9", "8"])
    // A cursor made for another sort is refused, naming the parameter.
    let cursor = try #require(second.json["data"]?[0]?["meta"]?["page"]?["cursor"]?.stringValue)
    let mixed = await Fixture.respond(
      server, Fixture.request("GET", "/articles?sort=title&page%5Bafter%5D=\(cursor)"))
    #expect(mixed.status == 400 && mixed.errorSource == "page[after]")
    // Cursors are base64url (RFC 4648, section 5) without padding.
    let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    #expect(cursor.allSatisfy(alphabet.contains))
  }

  @Test func cursorTextIsBase64URLPaddedOrNot() {
    // 0xFB 0xFF is "+/8=" in standard base64: every character base64url changes.
    #expect(JSONAPIServer.base64URL(Data([0xFB, 0xFF])) == "-_8")
    #expect(JSONAPIServer.data(base64URL: "-_8") == Data([0xFB, 0xFF]))
    #expect(JSONAPIServer.data(base64URL: "-_8=") == Data([0xFB, 0xFF]))
    #expect(JSONAPIServer.data(base64URL: "+/8=") == nil)
    #expect(JSONAPIServer.data(base64URL: "-_8!") == nil)
  }

  @Test func headAnswersAsGetWithoutABody() async throws {
    let (server, _) = try await Fixture.server()
    let get = await Fixture.respond(server, Fixture.request("GET", "/articles/1"))
    let head = await Fixture.respond(server, Fixture.request("HEAD", "/articles/1"))
    #expect(head.status == 200 && head.body.isEmpty && !get.body.isEmpty)
    #expect(head.header("Content-Type") == get.header("Content-Type"))
  }

  @Test(arguments: [
    ("PUT", "/articles", "GET, POST, HEAD"),
    ("POST", "/articles/1", "GET, PATCH, DELETE, HEAD"),
    ("PATCH", "/articles/1/author", "GET, HEAD"),
    ("POST", "/articles/1/relationships/author", "GET, PATCH, HEAD"),
    ("GET", "/operations", "POST"),
  ])
  func otherMethodsAre405WithAllow(_ method: String, _ target: String, _ allow: String)
    async throws
  {
    let (server, _) = try await Fixture.server()
    let response = await Fixture.respond(server, Fixture.request(method, target))
    #expect(response.status == 405)
    #expect(response.header("Allow") == allow)
    #expect(response.json["errors"]?[0]?["status"] == "405")
  }

  @Test func negotiationRefusesUnknownExtensions() async throws {
    let (server, _) = try await Fixture.server()
    let accept = await Fixture.respond(
      server,
      Fixture.request(
        "GET", "/articles", accept: #"application/vnd.api+json;ext="https://example.com/x""#))
    #expect(accept.status == 406 && accept.errorSource == "Accept")
    let content = await Fixture.respond(
      server,
      Fixture.request(
        "POST", "/articles", body: "{}",
        contentType: #"application/vnd.api+json;ext="https://example.com/x""#))
    #expect(content.status == 415 && content.errorSource == "Content-Type")
  }
}
