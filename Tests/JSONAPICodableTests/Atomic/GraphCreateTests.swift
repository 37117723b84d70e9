import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

// Models of a blog: entries by people on blogs owned by people who work at organisations.

struct GraphOrg: Codable, Equatable, JSONAPIResource {
  static let jsonAPIType = "orgs"
  var id: String?
  var lid: String?
  var name: String?
}

struct GraphPerson: Codable, Equatable, JSONAPIResource {
  static let jsonAPIType = "people"
  var id: String?
  var lid: String?
  var name: String?
  var employer: GraphOrg?
}

struct GraphBlog: Codable, Equatable, JSONAPIResource {
  static let jsonAPIType = "blogs"
  var id: String?
  var lid: String?
  var name: String?
  var owner: GraphPerson?
  /// A reference that may close a cycle back to an entry.
  var featuredEntry: JSONAPIResourceIdentifier?
}

/// An attribute with a `type` member of its own: stays an attribute in a graph.
struct GraphMoney: Codable, Equatable, JSONAPIAttributeExpressible {
  var type: String
  var cents: Int
}

struct GraphEntry: Codable, Equatable, JSONAPIResource {
  static let jsonAPIType = "entries"
  var id: String?
  var lid: String?
  var headline: String?
  var blog: GraphBlog?
  var authors: [GraphPerson]?
  var price: GraphMoney?
}

/// A nested value with a stored `type` and no `id` or `lid`, not a JSONAPIResource.
struct GraphStoredType: Codable {
  var type: String
  var label: String
}

struct GraphNote: Codable {
  var type = "notes"
  var text: String
  var tag: GraphStoredType
}

/// `JSONAPIEncoder.encode(graph:)` (issue 29, item 1): every document passes the atomic checks
/// (`AtomicComplianceChecker`, R98-R108), decodes back with `decodeOperations(from:)`, and each
/// `add` body passes `JSONAPIRequestRules.checkCreate`; `checkedGraph` also checks that every
/// relationship points at a resource added before, and that each new resource is added once.
@Suite struct GraphCreateTests {
  let encoder = JSONAPIEncoder()

  @Test func aNewEntryWithANewBlogAndTwoNewAuthorsIsFourAddsRootLast() throws {
    let draft = GraphEntry(
      headline: "Graphs", blog: GraphBlog(name: "Swift notes"),
      authors: [GraphPerson(name: "Dan"), GraphPerson(name: "Eve")])
    let data = try encoder.encode(graph: draft)
    let operations = try checkedGraph(data, name: "graph-entry-blog-authors")
    #expect(operations.map(\.summary) == ["add blogs", "add people", "add people", "add entries"])
    // Made-up lids in the order the resources were met: the root, then breadth first.
    #expect(operations.map(\.lid) == ["graph-2", "graph-3", "graph-4", "graph-1"])
    let entry = try #require(operations.last)
    #expect(entry["data"]?["attributes"] == ["headline": "Graphs"])
    #expect(
      entry["data"]?["relationships"]
        == [
          "blog": ["data": ["type": "blogs", "lid": "graph-2"]],
          "authors": [
            "data": [["type": "people", "lid": "graph-3"], ["type": "people", "lid": "graph-4"]]
          ],
        ])
    #expect(
      operations[0]["data"] == [
        "type": "blogs", "lid": "graph-2", "attributes": ["name": "Swift notes"],
      ])
    // The root decodes with its related resources resolved from the earlier operations by lid.
    let decoded = try JSONAPIDecoder().decodeOperations(from: data)
    let root = try decoded[3].decode(GraphEntry.self)
    #expect(root.blog?.name == "Swift notes")
    #expect(root.authors?.map(\.name) == ["Dan", "Eve"])
  }

  @Test func valuesWithTheSameLidAreOneResourceTheFirstCopyWithMembersWins() throws {
    // Dan is the entry's second author and, under another name, the blog's owner. Resources are
    // met breadth first from the root, in member order: the entry's authors (a bare reference,
    // then Dan) come before the blog's owner, so Dan's members win.
    let dan = GraphPerson(lid: "dan", name: "Dan")
    let draft = GraphEntry(
      headline: "Shared",
      blog: GraphBlog(name: "B", owner: GraphPerson(lid: "dan", name: "Daniel")),
      authors: [GraphPerson(lid: "dan"), dan])
    let operations = try checkedGraph(
      try encoder.encode(graph: draft), name: "graph-shared-lid")
    let people = operations.filter { $0.summary == "add people" }
    #expect(people.count == 1)
    #expect(people.first?["data"]?["attributes"] == ["name": "Dan"])
    let entry = try #require(operations.last)
    #expect(
      entry["data"]?["relationships"]?["authors"]
        == ["data": [["type": "people", "lid": "dan"], ["type": "people", "lid": "dan"]]])
  }

  @Test func aBareReferenceMetFirstDoesNotReplaceTheMembersOfALaterCopy() throws {
    let draft = GraphEntry(
      headline: "Ref first",
      authors: [GraphPerson(lid: "p"), GraphPerson(lid: "p", name: "Full")])
    let operations = try checkedGraph(try encoder.encode(graph: draft), name: "graph-bare-first")
    #expect(operations.map(\.summary) == ["add people", "add entries"])
    #expect(operations[0]["data"]?["attributes"] == ["name": "Full"])
  }

  @Test func aLidOnlyEverReferencedIsAddedWithoutMembers() throws {
    let draft = GraphEntry(headline: "Dangling", authors: [GraphPerson(lid: "ghost")])
    let operations = try checkedGraph(try encoder.encode(graph: draft), name: "graph-lid-only")
    #expect(operations[0]["data"] == ["type": "people", "lid": "ghost"])
  }

  @Test func newResourcesWithoutLidGetUniqueOnesThatSkipTheUsersLids() throws {
    // The user took graph-1 and graph-3: the made-up ones skip them.
    let draft = GraphEntry(
      lid: "graph-1", headline: "Mine",
      blog: GraphBlog(name: "Anonymous", owner: GraphPerson(lid: "graph-3", name: "Named")),
      authors: [GraphPerson(name: "A"), GraphPerson(name: "B"), GraphPerson(name: "A")])
    let operations = try checkedGraph(try encoder.encode(graph: draft), name: "graph-no-lid")
    let lids = operations.compactMap(\.lid)
    #expect(Set(lids).count == lids.count)
    #expect(Set(lids) == ["graph-1", "graph-2", "graph-3", "graph-4", "graph-5", "graph-6"])
    // Two equal values without lid are two resources.
    #expect(operations.filter { $0.summary == "add people" }.count == 4)
  }

  @Test func existingResourcesAreReferencedNeverAddedOrFollowed() throws {
    // The blog exists (id 7): referenced by type and id; its members and its new owner are not
    // sent (changing an existing resource is not a create).
    let draft = GraphEntry(
      headline: "On an old blog",
      blog: GraphBlog(id: "7", name: "Renamed?", owner: GraphPerson(name: "Nobody")),
      authors: [GraphPerson(id: "3", lid: "ignored"), GraphPerson(name: "New")])
    let operations = try checkedGraph(try encoder.encode(graph: draft), name: "graph-existing")
    #expect(operations.map(\.summary) == ["add people", "add entries"])
    let relationships = try #require(operations.last?["data"]?["relationships"])
    #expect(relationships["blog"] == ["data": ["type": "blogs", "id": "7"]])
    #expect(
      relationships["authors"]
        == ["data": [["type": "people", "id": "3"], ["type": "people", "lid": "graph-2"]]])
  }

  @Test func threeLevelsDeepAreAddedDeepestFirst() throws {
    let draft = GraphEntry(
      headline: "Deep",
      blog: GraphBlog(
        name: "Level 1",
        owner: GraphPerson(name: "Level 2", employer: GraphOrg(name: "Level 3"))))
    let operations = try checkedGraph(try encoder.encode(graph: draft), name: "graph-deep")
    #expect(
      operations.map(\.summary) == ["add orgs", "add people", "add blogs", "add entries"])
    #expect(
      operations[1]["data"]?["relationships"]
        == ["employer": ["data": ["type": "orgs", "lid": "graph-4"]]])
  }

  @Test func aToManyOfNewResourcesAddsEachInOrder() throws {
    let names = (1...5).map { "Author \($0)" }
    let draft = GraphEntry(headline: "Many", authors: names.map { GraphPerson(name: $0) })
    let operations = try checkedGraph(try encoder.encode(graph: draft), name: "graph-to-many")
    #expect(operations.count == 6)
    #expect(operations.dropLast().map { $0["data"]?["attributes"]?["name"]?.stringValue } == names)
    #expect(operations.last?["data"]?["relationships"]?["authors"]?["data"]?.arrayValue?.count == 5)
  }

  @Test func aCycleBetweenTwoNewResourcesIsClosedByALaterRelationshipUpdate() throws {
    // The entry's blog features the entry: the blog is added first without `featuredEntry`, then
    // the entry with its blog, then the blog's featured entry is set (R107).
    let draft = GraphEntry(
      lid: "e", headline: "Cyclic",
      blog: GraphBlog(
        lid: "b", name: "Loop", featuredEntry: JSONAPIResourceIdentifier(type: "entries", lid: "e"))
    )
    let data = try encoder.encode(graph: draft)
    let operations = try checkedGraph(data, name: "graph-cycle")
    #expect(operations.map(\.summary) == ["add blogs", "add entries", "update blogs"])
    #expect(operations[0]["data"]?["relationships"] == nil)
    #expect(
      operations[2]
        == [
          "op": "update", "ref": ["type": "blogs", "lid": "b", "relationship": "featuredEntry"],
          "data": ["type": "entries", "lid": "e"],
        ])
    let decoded = try JSONAPIDecoder().decodeOperations(from: data)
    #expect(decoded[2].ref?.relationship == "featuredEntry")
    #expect(try decoded[2].decode(JSONAPIResourceIdentifier.self).lid == "e")
  }

  @Test func aResourcePointingAtItselfIsSetAfterItsAdd() throws {
    let draft = GraphBlog(
      lid: "self", name: "Me", featuredEntry: JSONAPIResourceIdentifier(type: "blogs", lid: "self"))
    let operations = try checkedGraph(try encoder.encode(graph: draft), name: "graph-self")
    #expect(operations.map(\.summary) == ["add blogs", "update blogs"])
  }

  @Test func theKeyStrategyAppliesToMembersAndToTheRelationshipOfAnUpdate() throws {
    let encoder = JSONAPIEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let draft = GraphEntry(
      lid: "e", headline: "Snake",
      blog: GraphBlog(
        lid: "b", name: "S", featuredEntry: JSONAPIResourceIdentifier(type: "entries", lid: "e")))
    let operations = try checkedGraph(try encoder.encode(graph: draft), name: "graph-snake")
    #expect(operations.last?["ref"]?["relationship"] == "featured_entry")
  }

  @Test func aTypedNestedValueIsAResourceInAGraphOnlyAndAnAttributeTypeStaysOne() throws {
    let note = GraphNote(text: "n", tag: GraphStoredType(type: "tags", label: "swift"))
    let graph = try checkedGraph(try encoder.encode(graph: note), name: "graph-stored-type")
    #expect(graph.map(\.summary) == ["add tags", "add notes"])
    #expect(graph[0]["data"]?["attributes"] == ["label": "swift"])
    // Outside a graph the same value keeps being an attribute (no id, no lid).
    let plain = try JSONDecoder().decode(JSONAPIValue.self, from: encoder.encode(note))
    #expect(plain["data"]?["attributes"]?["tag"] == ["type": "tags", "label": "swift"])
    // JSONAPIAttributeExpressible wins over `type` in a graph.
    let priced = GraphEntry(headline: "Priced", price: GraphMoney(type: "EUR", cents: 150))
    let operations = try checkedGraph(try encoder.encode(graph: priced), name: "graph-attribute")
    #expect(operations.count == 1)
    #expect(operations[0]["data"]?["attributes"]?["price"] == ["type": "EUR", "cents": 150])
  }

  @Test func theSameGraphGivesTheSameBytes() throws {
    let draft = GraphEntry(
      headline: "Stable", blog: GraphBlog(name: "B", owner: GraphPerson(name: "O")),
      authors: [GraphPerson(name: "A"), GraphPerson(lid: "x", name: "X")])
    let first = try encoder.encode(graph: draft)
    for _ in 0..<5 { #expect(try encoder.encode(graph: draft) == first) }
  }

  @Test func theRootMustBeANewResource() throws {
    #expect(throws: JSONAPIError.self) {
      try encoder.encode(graph: GraphEntry(id: "1", headline: "Exists"))
    }
    #expect(throws: JSONAPIError.self) { try encoder.encode(graph: ["not", "a", "resource"]) }
    #expect(throws: JSONAPIError.self) { try encoder.encode(graph: ["type": "untyped"]) }
  }

  @Test func manyNewResourcesArePlannedWithoutRecursionEachAfterWhatItPointsAt() throws {
    // A to-many of 150 new people each employed by a new org: 301 operations, each org before
    // its person, the entry last (within the decoder's limit of 1,000 operations).
    let authors = (0..<150).map { GraphPerson(name: "P\($0)", employer: GraphOrg(name: "O\($0)")) }
    let operations = try checkedGraph(
      try encoder.encode(graph: GraphEntry(headline: "Big", authors: authors)), name: "graph-big")
    #expect(operations.count == 301)
    #expect(operations.last?.summary == "add entries")
  }
}

extension JSONAPIValue {
  /// `op` and the type it adds or updates, such as `add people`.
  fileprivate var summary: String {
    let type = self["ref"]?["type"]?.stringValue ?? self["data"]?["type"]?.stringValue ?? "?"
    return "\(self["op"]?.stringValue ?? "?") \(type)"
  }

  /// The `lid` an `add` gives its resource.
  fileprivate var lid: String? { self["op"] == "add" ? self["data"]?["lid"]?.stringValue : nil }
}

/// Checks a graph document and returns its operations, parsed by Foundation:
/// - the Atomic Operations rules (``checkedAtomic(_:name:sourceLocation:)``, which also checks
///   every resource object as a create or update body);
/// - it decodes with `JSONAPIDecoder().decodeOperations(from:)`, one operation per element;
/// - each `add` has `type` and `lid` and no `id`, its body passes
///   `JSONAPIRequestRules().checkCreate`, and no `lid` is added twice;
/// - attributes hold no identity, relationships hold only `data` of identifiers with exactly one
///   of `id` and `lid`, and every `lid` named (in an `add`'s relationships, in a `ref`, in an
///   `update`'s data) was added by an earlier operation (R102).
func checkedGraph(
  _ data: Data, name: String, sourceLocation: SourceLocation = #_sourceLocation
) throws -> [JSONAPIValue] {
  let document = try checkedAtomic(data, name: name, sourceLocation: sourceLocation)
  let operations = try #require(
    document["atomic:operations"]?.arrayValue, sourceLocation: sourceLocation)
  let decoded = try JSONAPIDecoder().decodeOperations(from: data)
  #expect(decoded.count == operations.count, sourceLocation: sourceLocation)
  var added: Set<String> = []
  func mustExist(_ identifier: JSONAPIValue?, _ what: String) {
    guard let identifier = identifier?.objectValue else {
      Issue.record("\(name): \(what) is no identifier", sourceLocation: sourceLocation)
      return
    }
    #expect(
      Set(identifier.keys).isSubset(of: ["type", "id", "lid", "meta"]),
      "\(name): \(what) holds more than an identifier", sourceLocation: sourceLocation)
    #expect(
      (identifier["id"] == nil) != (identifier["lid"] == nil),
      "\(name): \(what) needs exactly one of id and lid", sourceLocation: sourceLocation)
    if let lid = identifier["lid"]?.stringValue, let type = identifier["type"]?.stringValue {
      #expect(
        added.contains("\(type)/\(lid)"), "\(name): \(what) names \(type)/\(lid) before its add",
        sourceLocation: sourceLocation)
    }
  }
  func identifiers(_ linkage: JSONAPIValue?) -> [JSONAPIValue] {
    guard let linkage, linkage != .null else { return [] }
    return linkage.arrayValue ?? [linkage]
  }
  for (index, operation) in operations.enumerated() {
    let data = operation["data"]
    switch operation["op"]?.stringValue {
    case "add":
      let type = try #require(data?["type"]?.stringValue, sourceLocation: sourceLocation)
      let lid = try #require(data?["lid"]?.stringValue, sourceLocation: sourceLocation)
      #expect(data?["id"] == nil, sourceLocation: sourceLocation)
      #expect(decoded[index].op == .add && decoded[index].ref == nil)
      let body = try JSONEncoder().encode(JSONAPIValue.object(["data": data ?? .null]))
      let identifier = try JSONAPIRequestRules().checkCreate(body, type: type)
      #expect(identifier.lid == lid, sourceLocation: sourceLocation)
      for key in data?["attributes"]?.objectValue?.keys.sorted() ?? [] {
        #expect(
          !["type", "id", "lid", "relationships", "links"].contains(key),
          "\(name): attribute \(key)", sourceLocation: sourceLocation)
      }
      for (relationship, object) in data?["relationships"]?.objectValue ?? [:] {
        #expect(
          object.objectValue.map { Array($0.keys) } == ["data"],
          "\(name): relationship \(relationship) holds more than data",
          sourceLocation: sourceLocation)
        for identifier in identifiers(object["data"]) {
          mustExist(identifier, "\(type)/\(lid).\(relationship)")
        }
      }
      #expect(
        added.insert("\(type)/\(lid)").inserted, "\(name): \(type)/\(lid) added twice",
        sourceLocation: sourceLocation)
    case "update":
      let ref = operation["ref"]
      #expect(ref?["relationship"]?.stringValue != nil, sourceLocation: sourceLocation)
      #expect(decoded[index].ref?.relationship != nil, sourceLocation: sourceLocation)
      mustExist(
        ref.map { .object(($0.objectValue ?? [:]).filter { $0.key != "relationship" }) }, "ref")
      for identifier in identifiers(data) { mustExist(identifier, "update data") }
    default:
      Issue.record("\(name): operation \(index) is neither add nor update")
    }
  }
  return operations
}
