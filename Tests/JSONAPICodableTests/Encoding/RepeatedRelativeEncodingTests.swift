import Foundation
import Testing

@testable import JSONAPICodable

/// The encoder skips re-classifying a related resource it has already met when the copy can add
/// nothing; these pin down that the shortcut never changes the output or swallows an error.
@Suite("Encoding repeated related resources")
struct RepeatedRelativeEncodingTests {
  struct Owner: Encodable {
    var id = "o"
    var type = "owners"
    var name = "Olga"
    var pets: JSONAPIRelationship<[Int]>?
  }
  struct Shop: Encodable {
    var id: String
    var type = "shops"
    var owner: Owner
  }

  @Test("a repeated copy whose relationship data is not resources still throws, with its path")
  func repeatedCopyStillValidated() throws {
    let shops = [
      Shop(id: "1", owner: Owner()),
      Shop(id: "2", owner: Owner(pets: JSONAPIRelationship(data: [1]))),
    ]
    #expect {
      try JSONAPIEncoder().encode(shops)
    } throws: { error in
      guard case JSONAPIError.invalidValue(_, let path) = error else { return false }
      return path == "[1].owner.pets.data[0]"
    }
  }

  @Test("an error in a resource reached through a to-many relationship names its element")
  func toManyElementPaths() throws {
    struct Mall: Encodable {
      var id = "m"
      var type = "malls"
      var owners: [Owner]
    }
    // Two related resources of one relationship share the path's step for its name: each must
    // still name its own index, and the second of two malls its own.
    let malls = [
      Mall(id: "1", owners: [Owner(id: "a"), Owner(id: "b")]),
      Mall(
        id: "2",
        owners: [
          Owner(id: "c"), Owner(id: "d"), Owner(id: "e", pets: JSONAPIRelationship(data: [1])),
        ]
      ),
    ]
    #expect {
      try JSONAPIEncoder().encode(malls)
    } throws: { error in
      guard case JSONAPIError.invalidValue(_, let path) = error else { return false }
      return path == "[1].owners[2].pets.data[0]"
    }
  }

  @Test("a copy of a primary resource with an invalid relationship still throws (R40)")
  func copyOfPrimaryStillValidated() throws {
    struct Place: Encodable {
      var id = "p"
      var type = "places"
      var owner: Owner?
      var next: Next?
    }
    struct Next: Encodable {
      var id = "p"
      var type = "places"
      var extra = JSONAPIRelationship(data: [2])
    }
    #expect {
      try JSONAPIEncoder().encode(Place(next: Next()))
    } throws: { error in
      guard case JSONAPIError.invalidValue(_, let path) = error else { return false }
      return path == "next.extra.data[0]"
    }
  }

  @Test("a repeated copy with a field the first lacked still merges it; identical ones add nothing")
  func repeatedCopyWithNewFieldMerges() throws {
    struct Writer: Encodable {
      var id = "w"
      var type = "writers"
      var name = "Wu"
      var age: Int?
    }
    struct Book: Encodable {
      var id: String
      var type = "books"
      var writer: Writer
    }
    let books = [
      Book(id: "1", writer: Writer()), Book(id: "2", writer: Writer()),
      Book(id: "3", writer: Writer(age: 33)), Book(id: "4", writer: Writer(name: "Other")),
    ]
    let document = try encodeDocument(books, name: "repeated-copy-merge")
    #expect(
      document["included"] == [
        ["type": "writers", "id": "w", "attributes": ["name": "Wu", "age": 33]]
      ])
  }
}
