import Foundation
import Testing

@testable import JSONAPICodable

/// A collection's primary resources are taken apart and written while the collection is still
/// being encoded (``PrimaryDataStream``). These pin down that streaming gives the bytes and the
/// errors of taking the resources apart once the whole tree is encoded, which a wrapper that hides
/// its array from the stream while it is encoded still gets.
@Suite("Streaming primary data")
struct PrimaryDataStreamTests {
  /// Encodes its array through a single-value container: the stream only takes a standard array
  /// in the primary data slot while it is encoded, so this one's resources are taken apart and
  /// written once the whole tree is encoded, with the same document.
  struct Unstreamed<Element: Encodable>: Encodable {
    var elements: [Element]
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(elements)
    }
  }

  /// Articles sharing authors and tags, with comments, over several batches of the stream.
  static func articles(_ count: Int) -> [Article] {
    (0..<count).map { index in
      Article(
        id: "\(index)", title: "Title \(index) \"quoted\"/é",
        author: Person(id: "\(index % 7)", name: index % 3 == 0 ? nil : "Person \(index % 7)"),
        comments: (0..<(index % 4)).map { Comment(id: "\(index)-\($0)", body: "c\($0)") },
        tags: (0..<(index % 3)).map { Tag(id: "\($0 + index % 5)") })
    }
  }

  static let formattings: [JSONAPIEncoder.OutputFormatting] = [
    [], .prettyPrinted, .sortedKeys, [.prettyPrinted, .sortedKeys], .withoutEscapingSlashes,
  ]

  @Test("streamed output is byte for byte the whole-tree output (R38: included once each)")
  func streamedEqualsWholeTree() throws {
    let articles = Self.articles(300)
    for formatting in Self.formattings {
      let encoder = JSONAPIEncoder()
      encoder.outputFormatting = formatting
      let streamed = try encoder.encode(articles)
      let whole = try encoder.encode(Unstreamed(elements: articles))
      #expect(text(streamed) == text(whole), "formatting \(formatting.rawValue)")
    }
    _ = try checked(
      try JSONAPIEncoder().encode(articles), name: "stream-articles", kind: .response)
  }

  @Test("with sparse fieldsets, include paths and no included, the two routes agree")
  func optionsAgree() throws {
    let articles = Self.articles(150)
    let encoder = JSONAPIEncoder()
    encoder.sparseFieldsets = ["articles": ["title", "comments"], "comments": ["body"]]
    #expect(
      text(try encoder.encode(articles))
        == text(try encoder.encode(Unstreamed(elements: articles))))
    let paths = ["comments.author", "tags"]
    #expect(
      text(try encoder.encode(articles, including: paths))
        == text(try encoder.encode(Unstreamed(elements: articles), including: paths)))
    encoder.includesRelatedResources = false
    #expect(
      text(try encoder.encode(articles))
        == text(try encoder.encode(Unstreamed(elements: articles))))
  }

  @Test("a related resource that is a later primary resource is not included (R40)")
  func relativeThatIsALaterPrimary() throws {
    struct Node: Encodable {
      var id: String
      var type = "nodes"
      var label: String
      var next: Indirect<Node>?
    }
    // Node 0 points at node 199, a primary resource in a later batch; node 199 points back.
    var nodes = (0..<200).map { Node(id: "\($0)", label: "n\($0)") }
    nodes[0].next = Indirect(Node(id: "199", label: "n199"))
    nodes[199].next = Indirect(Node(id: "0", label: "n0"))
    let data = try JSONAPIEncoder().encode(nodes)
    #expect(text(data) == text(try JSONAPIEncoder().encode(Unstreamed(elements: nodes))))
    let document = try checked(data, name: "stream-later-primary", kind: .response)
    #expect(document["included"] == nil)
  }

  @Test("a document's data streams, optional or not, with its meta and links after included")
  func documentData() throws {
    let articles = Self.articles(70)
    let document = JSONAPIDocument(
      data: articles, meta: JSONAPIValue.object(["total": .number(70)]),
      links: ["next": "https://example.com/articles?page=2"])
    let optional = JSONAPIDocument<[Article]?, JSONAPIValue>(
      data: articles, meta: JSONAPIValue.object(["total": .number(70)]),
      links: ["next": "https://example.com/articles?page=2"])
    for formatting in Self.formattings {
      let encoder = JSONAPIEncoder()
      encoder.outputFormatting = formatting
      let expected = text(
        try encoder.encode(
          JSONAPIDocument(
            data: Unstreamed(elements: articles), meta: document.meta, links: document.links)))
      #expect(text(try encoder.encode(document)) == expected)
      #expect(text(try encoder.encode(optional)) == expected)
    }
    let empty = try JSONAPIEncoder().encode(JSONAPIDocument<[Article]?, JSONAPIValue>(data: nil))
    #expect(text(empty) == #"{"data":null}"#)
    #expect(text(try JSONAPIEncoder().encode([Article]())) == #"{"data":[]}"#)
  }

  @Test("empty primary data, streamed or written once encoded, is an empty array in every format")
  func emptyData() throws {
    struct Plain: Encodable {
      var data: [String] = []
      var meta = ["total": 0]
    }
    for formatting in Self.formattings {
      let encoder = JSONAPIEncoder()
      encoder.outputFormatting = formatting
      let foundation = JSONEncoder()
      // Sorted: Foundation's member order is not the declaration's, and `data` sorts first.
      foundation.outputFormatting = JSONEncoder.OutputFormatting(rawValue: formatting.rawValue)
        .union(.sortedKeys)
      let expected = text(try foundation.encode(Plain()))
      let meta = JSONAPIValue.object(["total": .number(0)])
      for document in [
        try encoder.encode(JSONAPIDocument(data: [Article](), meta: meta)),
        try encoder.encode(JSONAPIDocument(data: Unstreamed(elements: [Article]()), meta: meta)),
      ] {
        #expect(text(document) == expected, "formatting \(formatting.rawValue)")
      }
    }
  }

  @Test("the first element that fails is reported, whatever stage it fails in")
  func errorsInDocumentOrder() throws {
    struct Failing: Error {}
    struct Item: Encodable {
      var id: String
      var type: String?
      var fails = false
      func encode(to encoder: any Encoder) throws {
        if fails { throw Failing() }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(type, forKey: .type)
      }
      enum CodingKeys: CodingKey { case id, type }
    }
    func error(_ items: [Item]) -> String {
      let result = Result { try JSONAPIEncoder().encode(items) }
      guard case .failure(let failure) = result else { return "none" }
      if case JSONAPIError.missingResourceType(_, let path) = failure {
        return "no type at \(path)"
      }
      return failure is Failing ? "Failing" : "\(failure)"
    }
    var items = (0..<150).map { Item(id: "\($0)", type: "items") }
    // Element 3 cannot be a resource and element 20, in the same batch, fails to encode; then
    // element 120, in a later batch.
    items[3].type = nil
    items[20].fails = true
    #expect(error(items) == "no type at [3]")
    items[120].fails = true
    #expect(error(items) == "no type at [3]")
    items[3].type = "items"
    #expect(error(items) == "Failing")
    items[20].fails = false
    items[130].type = nil
    #expect(error(items) == "Failing")
    items[120].fails = false
    #expect(error(items) == "no type at [130]")
  }

  @Test("an element's error comes before a later member's: the primary data ends before meta")
  func dataErrorsBeforeMeta() throws {
    struct Failing: Error {}
    struct FailingMeta: Encodable {
      func encode(to encoder: any Encoder) throws { throw Failing() }
    }
    var tags = (0..<10).map { Tag(id: "\($0)") }
    tags[9] = Tag(id: "2")
    let document = JSONAPIDocument(data: tags, meta: FailingMeta())
    #expect {
      try JSONAPIEncoder().encode(document)
    } throws: { error in
      guard case JSONAPIError.invalidValue(_, let path) = error else { return false }
      return path == "[9]"
    }
  }

  @Test("a primary resource given twice is found across batches")
  func duplicatePrimaryAcrossBatches() throws {
    var tags = (0..<130).map { Tag(id: "\($0)") }
    tags[129] = Tag(id: "2")
    #expect {
      try JSONAPIEncoder().encode(tags)
    } throws: { error in
      guard case JSONAPIError.invalidValue(_, let path) = error else { return false }
      return path == "[129]"
    }
  }

  @Test("an array whose stream ends keeps counting what streamed, so later indices go on")
  func endedStreamKeepsCounting() throws {
    let stream = PrimaryDataStream(options: EncodingOptions(), swiftType: [Tag].self)
    let array = EncodedArray()
    #expect(stream.adopt(array))
    #expect(!stream.adopt(EncodedArray()))
    let encoder = EncodingCall(options: EncodingOptions()).root(for: [Tag].self, stream: stream)
    var container = EncodingUnkeyedContainer(encoder: encoder, array: array, stream: stream)
    for index in 0..<3 { try container.encode(Tag(id: "\(index)")) }
    #expect(container.count == 3 && array.elements.isEmpty)
    // A nested container's slot must be filled later: the stream ends, and elements are kept.
    _ = container.nestedUnkeyedContainer()
    try container.encodeNil()
    #expect(container.count == 5 && array.elements.count == 2)
    #expect(!stream.isOpen)
  }

  @Test("elements that are not objects name the element and the array's type")
  func scalarElements() throws {
    #expect {
      try JSONAPIEncoder().encode(["a", "b"])
    } throws: { error in
      guard case JSONAPIError.missingResourceType(let type, let path) = error else { return false }
      return type == "Array<String>" && path == "[0]"
    }
  }
}
