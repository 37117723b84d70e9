import Foundation
import GlueTestSupport
import JSONAPIServer
import Testing

/// Writes over HTTP through the glue: creates, updates, deletes, relationship endpoints, Atomic
/// Operations, the library's hooks, and bodies past the server's limit.
@Suite struct WritingTests {
  @Test func aCreateIs201WithLocation() async throws {
    try await withLibrary { library in
      let reply = try await library.send(
        .post, "/books",
        body: #"""
          {"data":{"type":"books","attributes":{"title":"Parable of the Sower",
          "isbn":"9780000000099","year":1993},
          "relationships":{"author":{"data":{"type":"authors","id":"3"}}}}}
          """#)
      #expect(reply.status == 201)
      #expect(reply.header("Location") == "\(base)/books/7")
      #expect(reply.header("Content-Length") == String(reply.body.count))
      #expect(reply.json["data"]?["id"] == "7")
      #expect(reply.json["data"]?["attributes"]?["year"] == 1993)
      #expect(try await library.send(.get, "/authors/3/books").ids == ["6", "7"])
    }
  }

  @Test func anUpdateChangesWhatWasSentAndAnOverdueLoanMayBeReturned() async throws {
    try await withLibrary { library in
      let reply = try await library.send(
        .patch, "/loans/3",
        body: #"{"data":{"type":"loans","id":"3","attributes":{"returned":true}}}"#)
      #expect(reply.status == 200)
      let attributes = reply.json["data"]?["attributes"]
      #expect(attributes?["returned"] == true)
      #expect(attributes?["borrower"] == "Cy")
      #expect(attributes?["dueDate"] == "2021-06-30T00:00:00Z")
      let unreturned = try await library.send(.get, "/loans?filter%5Breturned%5D=false")
      #expect(unreturned.ids == ["1", "4"])
    }
  }

  @Test func onlyALibrarianDeletesALoanAnd204HasNoBody() async throws {
    try await withLibrary { library in
      let refused = try await library.send(.delete, "/loans/2")
      #expect(refused.status == 403)
      #expect(refused.json["errors"]?[0]?["title"] == "Only librarians delete loans")
      let deleted = try await library.send(.delete, "/loans/2", librarian: "Mo")
      #expect(deleted.status == 204)
      #expect(deleted.body.isEmpty)
      #expect(deleted.header("Content-Length") == nil)
      #expect(try await library.send(.get, "/loans/2").status == 404)
      #expect(try await library.send(.get, "/books/1/loans").ids == ["1"])
    }
  }

  @Test func relationshipEndpointsReadReplaceAddAndRemove() async throws {
    try await withLibrary { library in
      let linkage = try await library.send(.get, "/loans/3/relationships/book")
      #expect(linkage.status == 200)
      #expect(linkage.json["data"] == ["type": "books", "id": "4"])
      #expect(linkage.json["links"]?["related"] == .string("\(base)/loans/3/book"))

      let replaced = try await library.send(
        .patch, "/loans/3/relationships/book", body: #"{"data":{"type":"books","id":"5"}}"#)
      #expect(replaced.status == 204)
      #expect(try await library.send(.get, "/books/5/loans").ids == ["3"])

      let added = try await library.send(
        .post, "/authors/3/relationships/books", body: #"{"data":[{"type":"books","id":"5"}]}"#)
      #expect(added.status == 204)
      #expect(try await library.send(.get, "/books/5/author").json["data"]?["id"] == "3")
      #expect(try await library.send(.get, "/authors/3/relationships/books").ids == ["5", "6"])

      let removed = try await library.send(
        .delete, "/authors/3/relationships/books", body: #"{"data":[{"type":"books","id":"5"}]}"#)
      #expect(removed.status == 204)
      #expect(try await library.send(.get, "/books/5/author").json["data"] == .null)

      let toOnePost = try await library.send(
        .post, "/loans/3/relationships/book", body: #"{"data":{"type":"books","id":"5"}}"#)
      #expect(toOnePost.status == 405)
      let missing = try await library.send(
        .patch, "/loans/3/relationships/book", body: #"{"data":{"type":"books","id":"99"}}"#)
      #expect(missing.status == 404)
      #expect(missing.errorSource == "/data")
    }
  }

  @Test func aNewLoanFallsDueAfterNow() async throws {
    try await withLibrary { library in
      func lend(_ due: String) -> String {
        #"{"data":{"type":"loans","attributes":{"borrower":"Dee","dueDate":"\#(due)","#
          + #""returned":false},"relationships":{"book":{"data":{"type":"books","id":"2"}}}}}"#
      }
      let past = try await library.send(.post, "/loans", body: lend("2025-06-01T00:00:00Z"))
      #expect(past.status == 422)
      #expect(past.json["errors"]?[0]?["code"] == "past-due-date")
      #expect(past.errorSource == "/data/attributes/dueDate")
      let notADate = try await library.send(.post, "/loans", body: lend("soon"))
      #expect(notADate.status == 422)
      #expect(notADate.errorSource == "/data/attributes/dueDate")
      #expect(notADate.json["errors"]?[0]?["code"] == "date")
      let future = try await library.send(.post, "/loans", body: lend("2025-07-01T09:30:00+02:00"))
      #expect(future.status == 201)
      #expect(future.json["data"]?["attributes"]?["dueDate"] == "2025-07-01T07:30:00Z")
      #expect(future.header("Location") == "\(base)/loans/5")
      #expect(try await library.send(.get, "/books/2/loans").ids == ["5"])
    }
  }

  @Test func aBookNeedsA13DigitISBN() async throws {
    try await withLibrary { library in
      let reply = try await library.send(
        .patch, "/books/1", body: #"{"data":{"type":"books","id":"1","attributes":{"isbn":"12"}}}"#)
      #expect(reply.status == 422)
      #expect(reply.json["errors"]?[0]?["code"] == "isbn")
      #expect(reply.errorSource == "/data/attributes/isbn")
      let book = try await library.send(.get, "/books/1")
      #expect(book.json["data"]?["attributes"]?["isbn"] == "9780000000010")
    }
  }

  @Test func atomicOperationsWithLids() async throws {
    try await withLibrary { library in
      let body = #"""
        {"atomic:operations":[
          {"op":"add","data":{"type":"authors","lid":"a","attributes":{"name":"N. K. Jemisin"}}},
          {"op":"add","data":{"type":"books","lid":"b","attributes":{"title":"The Fifth Season",
            "isbn":"9780000000100","year":2015},
            "relationships":{"author":{"data":{"type":"authors","lid":"a"}}}}},
          {"op":"add","data":{"type":"loans","attributes":{"borrower":"Eve",
            "dueDate":"2025-07-01T00:00:00Z","returned":false},
            "relationships":{"book":{"data":{"type":"books","lid":"b"}}}}}
        ]}
        """#
      let reply = try await library.send(
        .post, "/operations", body: body, contentType: atomic, accept: atomic)
      #expect(reply.status == 200)
      #expect(reply.header("Content-Type") == atomic)
      let results = reply.json["atomic:results"]?.arrayValue ?? []
      #expect(results.map { $0["data"]?["id"] } == ["4", "7", "5"])
      try #require(results.count == 3)
      #expect(results[1]["data"]?["relationships"]?["author"]?["data"]?["id"] == "4")
      #expect(try await library.send(.get, "/books/7/loans").ids == ["5"])
    }
  }

  @Test func aFailingOperationRollsBackAndPointsIntoIt() async throws {
    try await withLibrary { library in
      let body = #"""
        {"atomic:operations":[
          {"op":"add","data":{"type":"authors","attributes":{"name":"Rolled Back"}}},
          {"op":"add","data":{"type":"books","attributes":{"title":"T","isbn":"1","year":1}}}
        ]}
        """#
      let reply = try await library.send(
        .post, "/operations", body: body, contentType: atomic, accept: atomic)
      #expect(reply.status == 422)
      #expect(reply.errorSource == "/atomic:operations/1/data/attributes/isbn")
      let authors = try await library.send(.get, "/authors?filter%5Bname%5D=Rolled")
      #expect(authors.status == 200 && authors.ids == [])
      #expect(try await library.send(.get, "/authors/4").status == 404)

      let plain = try await library.send(.post, "/operations", body: body)
      #expect(plain.status == 415)
      #expect(plain.json["errors"]?[0]?["status"] == "415")
    }
  }

  @Test func aBodyPastTheLimitIs413() async throws {
    try await withLibrary { library in
      let filler = String(repeating: "x", count: 64 << 10)
      let body = #"{"data":{"type":"authors","attributes":{"name":"\#(filler)"}}}"#
      let reply = try await library.send(.post, "/authors", body: body)
      #expect(reply.status == 413)
      #expect(reply.json["errors"]?[0]?["status"] == "413")
      #expect(try await library.send(.get, "/authors/4").status == 404)
      // Just under the limit is read whole.
      let fits = String(repeating: "x", count: (64 << 10) - 200)
      let created = try await library.send(
        .post, "/authors", body: #"{"data":{"type":"authors","attributes":{"name":"\#(fits)"}}}"#)
      #expect(created.status == 201)
    }
  }
}
