import Foundation
import Testing

@testable import JSONAPICodable

/// Reusing resources decoded before (R42 resolution through `included`): reuse must never change a
/// value, and back-references inside cycles must not turn a page into quadratic work.
@Suite struct MemoisationTests {
  struct Person: Decodable, Equatable {
    var id: String
    var name: String?
    var articles: [Indirect<Article>]?
  }
  struct Article: Decodable, Equatable {
    var id: String
    var title: String?
    var author: Indirect<Person>?
  }

  /// `count` articles by one author whose `articles` relationship lists every one of them, as
  /// servers that write all relationship data by default produce.
  static func authorListingAllArticles(_ count: Int) -> String {
    let articles = (0..<count).map {
      #"{"type":"articles","id":"\#($0)","attributes":{"title":"T\#($0)"},"relationships":{"author":{"data":{"type":"people","id":"9"}}}}"#
    }
    let linkage = (0..<count).map { #"{"type":"articles","id":"\#($0)"}"# }
    let author =
      #"{"type":"people","id":"9","attributes":{"name":"Dan"},"relationships":{"articles":{"data":[\#(linkage.joined(separator: ","))]}}}"#
    return #"{"data":[\#(articles.joined(separator: ","))],"included":[\#(author)]}"#
  }

  @Test func anAuthorListingAThousandArticlesDecodesInLinearWork() throws {
    // Without reuse of the articles cut at their author this takes about count² = 1,000,000
    // resource decodes; with it, about 9 per article (the first two articles expand the author in
    // full, every later one reuses all but two of its articles). The budget shows which happened.
    let count = 1_000
    let json = Self.authorListingAllArticles(count)
    var limits = JSONAPIDecoder.Limits()
    limits.maxResolvedResources = 12 * count
    #expect(throws: JSONAPIError.resourceBudgetExceeded(limit: 12 * count)) {
      try decode([Article].self, json, memoising: false, limits: limits)
    }
    let articles = try decode([Article].self, json, memoising: true, limits: limits)
    #expect(articles.count == count)
    for index in [0, 1, 2, 500, 999] {
      let author = try #require(articles[index].author?.value)
      #expect(author.name == "Dan")
      #expect(author.articles?.count == count)
      // The article being decoded is cut at its identifier inside its own author...
      #expect(author.articles?[index].value == Article(id: "\(index)", title: nil, author: nil))
      // ...and every other one is complete, with the author (being decoded) cut in turn.
      let other = (index + 1) % count
      #expect(author.articles?[other].title == "T\(other)")
      #expect(author.articles?[other].author?.value == Person(id: "9", name: nil, articles: nil))
    }
  }

  @Test func reuseGivesWhatDecodingAfreshGivesForTheListingAuthor() throws {
    let json = Self.authorListingAllArticles(40)
    #expect(
      try decode([Article].self, json, memoising: true)
        == decode([Article].self, json, memoising: false))
  }

  // MARK: Reuse never changes a value: random graphs, decoded with and without reuse

  struct Node: Decodable, Equatable {
    var id: String
    var name: String?
    var children: [Indirect<Node>]?
    var parent: Indirect<Node>?
    var label: Indirect<Label>?
  }
  /// A second Swift type over the same resources: memo entries are per type.
  struct Label: Decodable, Equatable {
    var id: String
    var name: String?
    var parent: Indirect<Label>?
  }

  /// A random graph of 2...7 resources: random children (repeats and self-references allowed),
  /// parents and labels, some pointing at a resource that is not included.
  static func randomGraph(seed: UInt64) -> String {
    var generator = Generator(seed: seed)
    let count = generator.int(2...7)
    func reference(_ generator: inout Generator) -> String {
      let id = generator.bool(0.1) ? "missing" : String(generator.int(0...(count - 1)))
      return #"{"type":"n","id":"\#(id)"}"#
    }
    let resources = (0..<count).map { id in
      var relationships: [String] = []
      if generator.bool(0.8) {
        let children = generator.array(0...3, reference)
        relationships.append(#""children":{"data":[\#(children.joined(separator: ","))]}"#)
      }
      if generator.bool(0.6) {
        relationships.append(#""parent":{"data":\#(reference(&generator))}"#)
      }
      if generator.bool(0.4) {
        relationships.append(#""label":{"data":\#(reference(&generator))}"#)
      }
      return
        #"{"type":"n","id":"\#(id)","attributes":{"name":"N\#(id)"},"relationships":{\#(relationships.joined(separator: ","))}}"#
    }
    let primaryCount = generator.int(1...count)
    return
      #"{"data":[\#(resources.prefix(primaryCount).joined(separator: ","))],"included":[\#(resources.dropFirst(primaryCount).joined(separator: ","))]}"#
  }

  @Test func reuseGivesWhatDecodingAfreshGivesOnRandomGraphs() throws {
    var failures: [String] = []
    for index in 0..<1_000 {
      let seed = 0x5EED_0000 &+ UInt64(index)
      let json = Self.randomGraph(seed: seed)
      do {
        let reused = try decode([Node].self, json, memoising: true)
        let afresh = try decode([Node].self, json, memoising: false)
        if reused != afresh { failures.append("seed \(seed): values differ\n  doc: \(json)") }
      } catch {
        failures.append("seed \(seed): threw \(error)\n  doc: \(json)")
      }
    }
    #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.first ?? "")")
  }

  private func decode<T: Decodable>(
    _ type: T.Type, _ json: String, memoising: Bool, limits: JSONAPIDecoder.Limits = .init()
  ) throws -> T {
    var options = DecodingOptions()
    options.memoisesResources = memoising
    options.limits = limits
    var memos = DecodingTypeMemos()
    return try Array(json.utf8).withUnsafeBytes {
      try DocumentDecoding.decode(type, from: $0, options: options, memos: &memos)
    }
  }
}
