import Foundation
import Testing

@testable import JSONAPICodable

@Suite("Encoding with sparse fieldsets")
struct SparseFieldsetEncodingTests {
  @Test("fields[TYPE] keeps only the named fields in primary and included resources (R39)")
  func sparseFieldsets() throws {
    let encoder = JSONAPIEncoder()
    encoder.sparseFieldsets = ["articles": ["title", "comments"], "people": []]
    let article = Article(
      id: "1", title: "Hi", author: Person(id: "9", name: "Dan"),
      comments: [Comment(id: "c1", body: "Nice", author: Person(id: "8", name: "Eve"))])
    let document = try encodeDocument(article, name: "sparse-fieldsets", with: encoder)
    #expect(
      document == [
        "data": [
          "type": "articles", "id": "1", "attributes": ["title": "Hi"],
          "relationships": ["comments": ["data": [["type": "comments", "id": "c1"]]]],
        ],
        "included": [
          [
            "type": "comments", "id": "c1", "attributes": ["body": "Nice"],
            "relationships": ["author": ["data": ["type": "people", "id": "8"]]],
          ],
          ["type": "people", "id": "8"],
        ],
      ])
  }

  @Test("fieldsets name members after key conversion, as the query parameter does")
  func fieldsetsUseMemberNames() throws {
    struct Profile: Encodable {
      var id = "1"
      var type = "profiles"
      var firstName = "Ann"
      var lastName = "Lee"
    }
    let encoder = JSONAPIEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.sparseFieldsets = ["profiles": ["last_name"]]
    #expect(
      try encodeDocument(Profile(), name: "sparse-converted", with: encoder) == [
        "data": ["type": "profiles", "id": "1", "attributes": ["last_name": "Lee"]]
      ])
  }
}
