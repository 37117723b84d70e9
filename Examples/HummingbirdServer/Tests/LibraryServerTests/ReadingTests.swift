import Foundation
import GlueTestSupport
import JSONAPIServer
import Testing

/// Reads over HTTP through the glue: collections, resources, related resources, linkage, paging,
/// negotiation.
@Suite struct ReadingTests {
  @Test func aCollectionWithIncludeFieldsSortAndFilter() async throws {
    try await withLibrary { library in
      let reply = try await library.send(
        .get,
        "/books?include=author&fields%5Bbooks%5D=title,author&fields%5Bauthors%5D=name"
          + "&sort=-year&filter%5Bauthor%5D=1")
      #expect(reply.status == 200)
      #expect(reply.ids == ["3", "2", "1"])
      let first = reply.json["data"]?[0]
      #expect(first?["attributes"] == ["title": "The Dispossessed"])
      #expect(first?["relationships"]?["author"]?["data"] == ["type": "authors", "id": "1"])
      #expect(first?["links"]?["self"] == .string("\(base)/books/3"))
      let included = reply.json["included"]?.arrayValue ?? []
      #expect(included.count == 1)
      #expect(included.first?["attributes"] == ["name": "Ursula K. Le Guin"])
      #expect(included.first?["relationships"] == nil)
    }
  }

  @Test func filtersReadTheRawQueryAsReceived() async throws {
    try await withLibrary { library in
      #expect(try await library.send(.get, "/books?filter%5Bsince%5D=1975").ids == ["4", "5", "6"])
      #expect(try await library.send(.get, "/books?filter%5Btitle%5D=small%20gods").ids == ["5"])
      #expect(try await library.send(.get, "/books?filter%5Btitle%5D=Guards%21").ids == ["4"])
      #expect(try await library.send(.get, "/books?filter%5Byear%5D=1969,1979").ids == ["2", "6"])
      let overdue = try await library.send(
        .get, "/loans?filter%5Breturned%5D=false&filter%5BdueBefore%5D=2025-06-15")
      #expect(overdue.ids == ["3"])
      let refused = try await library.send(.get, "/books?filter%5Byear%5D=many")
      #expect(refused.status == 400)
      #expect(refused.errorSource == "filter[year]")
      let unknown = try await library.send(.get, "/books?filter%5Bisbn%5D=1")
      #expect(unknown.status == 400)
      #expect(unknown.errorSource == "filter[isbn]")
    }
  }

  @Test func booksArePagedByCursorWithTheProfile() async throws {
    try await withLibrary { library in
      let first = try await library.send(.get, "/books?sort=title")
      #expect(first.status == 200)
      #expect(first.ids == ["1", "4", "6"])
      #expect(first.header("Content-Type") == #"\#(jsonAPI);profile="\#(cursorProfile)""#)
      #expect(first.json["links"]?["prev"] == .null)
      let second = try await library.follow(first.json["links"]?["next"]?.stringValue)
      #expect(second.ids == ["5", "3", "2"])
      #expect(second.json["links"]?["next"] == .null)
      let back = try await library.follow(second.json["links"]?["prev"]?.stringValue)
      #expect(back.ids == ["1", "4", "6"])
      let tooLarge = try await library.send(.get, "/books?page%5Bsize%5D=21")
      #expect(tooLarge.status == 400)
      #expect(tooLarge.errorSource == "page[size]")
    }
  }

  @Test func loansAndAuthorsArePagedByNumber() async throws {
    try await withLibrary { library in
      let page = try await library.send(
        .get, "/loans?sort=dueDate&page%5Bnumber%5D=2&page%5Bsize%5D=2")
      #expect(page.status == 200)
      #expect(page.header("Content-Type") == jsonAPI)
      #expect(page.ids == ["4", "1"])
      let links = page.json["links"]
      #expect(links?["prev"]?.stringValue?.contains("page%5Bnumber%5D=1") == true)
      #expect(links?["last"]?.stringValue?.contains("page%5Bnumber%5D=2") == true)
      #expect(links?["next"] == nil)
      let authors = try await library.send(.get, "/authors?sort=-name&page%5Bsize%5D=2")
      #expect(authors.ids == ["1", "2"])
      #expect(authors.json["links"]?["next"]?.stringValue?.contains("page%5Bnumber%5D=2") == true)
    }
  }

  @Test func aResourceOr404() async throws {
    try await withLibrary { library in
      let author = try await library.send(.get, "/authors/2")
      #expect(author.status == 200)
      #expect(author.json["data"]?["attributes"]?["name"] == "Terry Pratchett")
      #expect(author.json["data"]?["links"]?["self"] == .string("\(base)/authors/2"))
      let missing = try await library.send(.get, "/authors/99")
      #expect(missing.status == 404)
      #expect(missing.json["errors"]?[0]?["status"] == "404")
      #expect(missing.header("Content-Type") == jsonAPI)
    }
  }

  @Test func relatedResourcesToOneAndToManyThroughInverses() async throws {
    try await withLibrary { library in
      let author = try await library.send(.get, "/books/4/author")
      #expect(author.status == 200)
      #expect(author.json["data"]?["id"] == "2")
      #expect(author.json["data"]?["type"] == "authors")
      #expect(try await library.send(.get, "/authors/1/books").ids == ["1", "2", "3"])
      #expect(try await library.send(.get, "/books/1/loans?sort=borrower").ids == ["1", "2"])
      #expect(try await library.send(.get, "/books/2/loans").ids == [])
      #expect(try await library.send(.get, "/books/99/author").status == 404)
    }
  }

  @Test func headIsGetWithoutABody() async throws {
    try await withLibrary { library in
      let get = try await library.send(.get, "/books/1")
      let head = try await library.send(.head, "/books/1")
      #expect(head.status == 200)
      #expect(head.body.isEmpty && !get.body.isEmpty)
      #expect(head.header("Content-Type") == get.header("Content-Type"))
      #expect(get.header("Content-Length") == String(get.body.count))
      #expect(head.header("Content-Length") == nil)
    }
  }

  @Test func otherMethodsAre405WithAllow() async throws {
    try await withLibrary { library in
      let put = try await library.send(.put, "/books")
      #expect(put.status == 405)
      #expect(put.header("Allow") == "GET, POST, HEAD")
      #expect(put.json["errors"]?[0]?["status"] == "405")
      let post = try await library.send(.post, "/books/1", body: "{}")
      #expect(post.status == 405)
      #expect(post.header("Allow") == "GET, PATCH, DELETE, HEAD")
    }
  }

  @Test func negotiationAnswers406And415() async throws {
    try await withLibrary { library in
      let unacceptable = try await library.send(
        .get, "/books/1", accept: #"application/vnd.api+json; ext="https://example.com/x""#)
      #expect(unacceptable.status == 406)
      #expect(unacceptable.json["errors"]?[0]?["status"] == "406")
      let unsupported = try await library.send(
        .post, "/authors", body: #"{"data":{"type":"authors","attributes":{"name":"N"}}}"#,
        contentType: "application/vnd.api+json; charset=utf-8")
      #expect(unsupported.status == 415)
      #expect(unsupported.json["errors"]?[0]?["status"] == "415")
      #expect(try await library.send(.get, "/authors").status == 200)
    }
  }
}
