import Foundation
import Testing

@testable import JSONAPICodable

/// The whole Atomic Operations exchange with the library's types alone (issue 12, "Done when"):
/// client encodes → server decodes → server encodes results → client decodes results.
@Suite struct AtomicRoundTripEncodingTests {
  @Test func aRequestWithLocalIdentifiersRoundTrips() throws {
    // Client: R104 add with lid, a second add linking to it by lid, R105 update, R106 remove.
    let person = AtomicPerson(lid: "p1", name: "Dan")
    let article = AtomicArticle(lid: "a1", title: "Hello", author: AtomicPerson(lid: "p1"))
    let request = try JSONAPIEncoder().encode(operations: [
      .add(person),
      .add(article),
      .update(AtomicArticle(id: "13", title: "Renamed")),
      .remove(JSONAPIResourceIdentifier(type: "articles", id: "7")),
    ])
    _ = try checkedAtomic(request, name: "atomic-round-trip-request")

    // Server: reads the operations, resolves the lid, creates the resources with ids.
    let operations = try JSONAPIDecoder().decodeOperations(from: request)
    #expect(operations.map(\.op) == [.add, .add, .update, .remove])
    var created = try operations[0].decode(AtomicPerson.self)
    #expect(created == person)
    // A resource with an id is known by it: the draft 1.1 schema rejects both id and lid.
    created.id = "9"
    created.lid = nil
    var createdArticle = try operations[1].decode(AtomicArticle.self)
    #expect(createdArticle.author == person)  // the lid resolved to the first operation's person
    createdArticle.id = "1"
    createdArticle.lid = nil
    createdArticle.author = created
    var updated = try operations[2].decode(AtomicArticle.self)
    updated.wordCount = 2
    #expect(operations[3].ref == JSONAPIOperationReference(type: "articles", id: "7"))
    #expect(operations[3].hasData == false)
    let response = try JSONAPIEncoder().encode(results: [
      JSONAPIOperationResult(data: created),
      JSONAPIOperationResult(data: createdArticle),
      JSONAPIOperationResult(data: updated, meta: ["changed": ["wordCount"]]),
      JSONAPIOperationResult(),
    ])
    #expect(AtomicComplianceChecker.violations(in: response, answering: request) == [])
    _ = try checkedAtomic(response, name: "atomic-round-trip-results")

    // Client: reads the results; the article's author resolves against the first result by id.
    let results = try JSONAPIDecoder().decode([JSONAPIOperationResult].self, from: response)
    #expect(results.count == 4)
    #expect(try results[0].decode(AtomicPerson.self) == AtomicPerson(id: "9", name: "Dan"))
    let article1 = try results[1].decode(AtomicArticle.self)
    #expect(article1.id == "1")
    #expect(article1.title == "Hello")
    #expect(article1.author == AtomicPerson(id: "9", name: "Dan"))
    #expect(
      try results[2].decode(AtomicArticle.self)
        == AtomicArticle(id: "13", title: "Renamed", wordCount: 2))
    #expect(results[2].meta == ["changed": ["wordCount"]])
    #expect(try results[3].decode(AtomicArticle?.self) == nil)
  }
}
