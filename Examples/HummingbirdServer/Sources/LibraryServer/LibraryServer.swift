import Foundation
import HTTPTypes
import Hummingbird
import JSONAPIHummingbird
import JSONAPIServer

/// A lending library served from declarations: `PORT` (default 8081) on 127.0.0.1, in memory,
/// seeded with 3 authors, 6 books and 4 loans. `BASE_URL` sets the prefix of links and `Location`.
@main
struct LibraryApp {
  static func main() async throws {
    let environment = ProcessInfo.processInfo.environment
    guard let port = Int(environment["PORT"] ?? "8081"), (1...65535).contains(port) else {
      print("PORT must be a number from 1 to 65535")
      exit(2)
    }
    let server = try await Library.server(
      baseURL: environment["BASE_URL"] ?? "http://127.0.0.1:\(port)")
    let app = buildApplication(
      server: server,
      configuration: ApplicationConfiguration(
        address: .hostname("127.0.0.1", port: port), serverName: "LibraryServer"),
      context: Library.librarian)
    try await app.runService()
  }
}

struct Author: Codable, Sendable, JSONAPIResource {
  static let jsonAPIType = "authors"
  var id: String?
  var name: String
  var books: [Book]?
}

struct Book: Codable, Sendable, JSONAPIResource {
  static let jsonAPIType = "books"
  var id: String?
  var title: String
  var isbn: String
  var year: Int
  var author: Author?
  var loans: [Loan]?
}

struct Loan: Codable, Sendable, JSONAPIResource {
  static let jsonAPIType = "loans"
  var id: String?
  var borrower: String
  var dueDate: Date
  var returned: Bool
  var book: Book?
}

/// Who a request comes from, when it says it is a librarian (`X-Librarian: NAME`).
struct Librarian: Sendable { var name: String }

enum Library {
  /// The hooks' context: the librarian the request names, if any.
  @Sendable static func librarian(_ request: Request, _: BasicRequestContext) -> (any Sendable)? {
    HTTPField.Name("X-Librarian").flatMap { request.headers[$0] }.map(Librarian.init(name:))
  }

  /// The server on a new store holding the seed. `now` is the clock new loans are checked by.
  static func server(baseURL: String, now: @escaping @Sendable () -> Date = Date.init)
    async throws -> JSONAPIServer
  {
    let authors = try JSONAPIResourceDeclaration(
      Author.self, filters: ["name": .contains("name")], sortable: ["name"],
      paging: .pageNumber(defaultSize: 10, maxSize: 50), inverses: ["books": "author"])
    // The checks are `willSave` hooks on records: `validate` would decode a book with its author
    // as an identifier alone, which `Author` (its name required) cannot be.
    let books = try JSONAPIResourceDeclaration(
      Book.self,
      filters: [
        "title": .contains("title"), "author": .ids("author"), "year": .equals("year"),
        "since": .greaterThan("year"),
      ],
      sortable: ["title", "year"], paging: .cursor(defaultSize: 3, maxSize: 20),
      inverses: ["loans": "book"],
      hooks: JSONAPIResourceHooks(willSave: { book, _ in
        let isbn = book.attributes["isbn"]?.stringValue ?? ""
        guard isbn.count == 13, isbn.allSatisfy({ ("0"..."9").contains($0) }) else {
          throw invalid("isbn", code: "isbn", "an ISBN is 13 digits")
        }
      }))
    // Only librarians delete loans. A due date is stored in one form, so that sort and filters
    // compare like with like; a new loan falls due in the future (an old one may be overdue).
    let loans = try JSONAPIResourceDeclaration(
      Loan.self,
      filters: [
        "returned": .equals("returned"), "book": .ids("book"), "dueBefore": .lessThan("dueDate"),
      ],
      sortable: ["dueDate", "borrower"], paging: .pageNumber(defaultSize: 10, maxSize: 50),
      hooks: JSONAPIResourceHooks(
        authorize: { access in
          guard access.action != .delete || access.request.context is Librarian else {
            throw JSONAPIErrorObject(status: "403", title: "Only librarians delete loans")
          }
        },
        willSave: { loan, access in
          let text = loan.attributes["dueDate"]?.stringValue ?? ""
          guard let due = try? Date(text, strategy: .iso8601) else {
            throw invalid("dueDate", code: "date", "a date and time such as 2030-01-31T12:00:00Z")
          }
          if access.action == .create, due <= now() {
            throw invalid("dueDate", code: "past-due-date", "a new loan falls due after now")
          }
          loan.attributes["dueDate"] = .string(due.formatted(.iso8601))
        }))
    let store = JSONAPIMemoryStore(schemas: [authors.schema, books.schema, loans.schema])
    try await store.insert(seed)
    // `Loan.dueDate` is a `Date` sent as ISO 8601 text: the server's coders say so, so that a
    // body's dates are read as the model reads them (anything else is a 422 at the member) and
    // the OpenAPI description calls them `date-time` strings.
    let decoder = JSONAPIDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let encoder = JSONAPIEncoder()
    encoder.dateEncodingStrategy = .iso8601
    return try JSONAPIServer(
      resources: [authors, books, loans], store: store, baseURL: baseURL,
      options: JSONAPIServer.Options(maxBodyBytes: 64 << 10, decoder: decoder, encoder: encoder))
  }

  static func invalid(_ member: String, code: String, _ detail: String) -> JSONAPIErrorObject {
    JSONAPIErrorObject(
      status: "422", code: code, title: "Invalid Attribute", detail: detail,
      source: .init(pointer: "/data/attributes/\(member)"))
  }

  static let seed: [JSONAPIResourceRecord] = {
    func identifier(_ type: String, _ id: Int) -> JSONAPILinkage {
      .toOne(.init(type: type, id: "\(id)"))
    }
    let authors = ["Ursula K. Le Guin", "Terry Pratchett", "Octavia E. Butler"].map {
      JSONAPIResourceRecord(type: "authors", id: "", attributes: ["name": .string($0)])
    }
    let books: [(String, Int, Int)] = [
      ("A Wizard of Earthsea", 1968, 1), ("The Left Hand of Darkness", 1969, 1),
      ("The Dispossessed", 1974, 1), ("Guards! Guards!", 1989, 2), ("Small Gods", 1992, 2),
      ("Kindred", 1979, 3),
    ]
    let loans: [(String, String, Bool, Int)] = [
      ("Ada", "2030-03-01T00:00:00Z", false, 1), ("Ben", "2020-01-15T00:00:00Z", true, 1),
      ("Cy", "2021-06-30T00:00:00Z", false, 4), ("Ada", "2030-01-10T00:00:00Z", false, 6),
    ]
    return authors
      + books.enumerated().map { index, book in
        JSONAPIResourceRecord(
          type: "books", id: "",
          attributes: [
            "title": .string(book.0), "isbn": .string("97800000000\(10 + index)"),
            "year": .integer(book.1),
          ], relationships: ["author": identifier("authors", book.2)])
      }
      + loans.map { loan in
        JSONAPIResourceRecord(
          type: "loans", id: "",
          attributes: [
            "borrower": .string(loan.0), "dueDate": .string(loan.1), "returned": .bool(loan.2),
          ], relationships: ["book": identifier("books", loan.3)])
      }
  }()
}
