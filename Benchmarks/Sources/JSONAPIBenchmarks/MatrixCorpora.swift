import Foundation
import JSONAPICodable

/// One shape's input: the models, the JSON:API document and the equivalent plain JSON.
///
/// The new shapes (wide, tiny, strings, Foundation types, small documents) write their inputs
/// with the two encoders under test (JSONAPIEncoder for the document, JSONEncoder with
/// `.withoutEscapingSlashes` for the plain JSON), configured as the contenders are. Both inputs
/// are checked against the models before anything is timed (a decoder must give back the models;
/// an encoder's output must decode back to them), so an encoder bug cannot go unnoticed.
struct MatrixInput<Model: Codable & Equatable & Sendable> {
  var models: Model
  var document: Data
  var flat: Data
  var resourceCount: Int
}

/// The coders of one shape, configured alike on both sides.
struct MatrixCoders {
  var jsonapiDecoder = JSONAPIDecoder()
  var foundationDecoder = JSONDecoder()
  var jsonapiEncoder = JSONAPIEncoder()
  var foundationEncoder = JSONEncoder()

  static let plain = MatrixCoders()

  static func dates(_ strategy: String) -> MatrixCoders {
    let coders = MatrixCoders()
    if strategy == "iso8601" {
      coders.jsonapiDecoder.dateDecodingStrategy = .iso8601
      coders.foundationDecoder.dateDecodingStrategy = .iso8601
      coders.jsonapiEncoder.dateEncodingStrategy = .iso8601
      coders.foundationEncoder.dateEncodingStrategy = .iso8601
    } else {
      coders.jsonapiDecoder.dateDecodingStrategy = .secondsSince1970
      coders.foundationDecoder.dateDecodingStrategy = .secondsSince1970
      coders.jsonapiEncoder.dateEncodingStrategy = .secondsSince1970
      coders.foundationEncoder.dateEncodingStrategy = .secondsSince1970
    }
    return coders
  }

  /// Writes the two inputs for `models` (not timed).
  func input<Model: Codable & Equatable & Sendable>(_ models: Model, resourceCount: Int) throws
    -> MatrixInput<Model>
  {
    let writer = JSONEncoder()
    writer.outputFormatting = [.withoutEscapingSlashes]
    writer.dateEncodingStrategy = foundationEncoder.dateEncodingStrategy
    return MatrixInput(
      models: models, document: try jsonapiEncoder.encode(models),
      flat: try writer.encode(models), resourceCount: resourceCount)
  }
}

enum MatrixCorpora {
  static func wide(count: Int) -> [WideRecord] {
    var random = SeededGenerator(seed: 0x5EED_0101)
    let statuses = ["draft", "active", "paused", "retired", "pending review"]
    let categories = ["hardware", "software", "services", "café supplies", "books", "日本"]
    let currencies = ["EUR", "USD", "JPY", "GBP", "CHF"]
    return (0..<count).map { number in
      let price = Double(random.int(in: 1...10_000_000)) / 100
      return WideRecord(
        id: "r\(number)", name: TextGenerator.title(using: &random),
        code: "SKU-\(random.int(in: 100_000...999_999))", status: random.pick(statuses),
        category: random.pick(categories), region: random.pick(["eu-west", "us-east", "ap-south"]),
        currency: random.pick(currencies),
        note: random.chance(30) ? TextGenerator.sentence(minLength: 30, using: &random) : nil,
        label: random.chance(50) ? "label \(random.int(in: 1...99))" : nil,
        quantity: random.int(in: 0...10_000), rank: random.int(in: 1...1_000_000),
        year: random.int(in: 1990...2026), score: random.int(in: -500...500),
        stock: random.chance(80) ? random.int(in: 0...5_000) : nil,
        parent: random.chance(20) ? random.int(in: 1...count) : nil,
        small: Int8(random.int(in: -128...127)),
        medium: Int32(random.int(in: -2_000_000...2_000_000)),
        large: Int64(random.int(in: 0...Int(Int64.max / 2))),
        unsigned: UInt32(random.int(in: 0...Int(UInt32.max))),
        price: price, weight: Double(random.int(in: 1...100_000)) / 1000,
        ratio: Double(random.int(in: 0...1_000_000)) / 1_000_000,
        latitude: Double(random.int(in: -90_000_000...90_000_000)) / 1_000_000,
        longitude: Double(random.int(in: -180_000_000...180_000_000)) / 1_000_000,
        discount: random.chance(40) ? Float(random.int(in: 0...200)) / 4 : nil,
        active: random.chance(70), verified: random.chance(50), archived: random.chance(10),
        featured: random.chance(50) ? random.chance(50) : nil)
    }
  }

  static func tiny(count: Int) -> [TinyRecord] {
    let names = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota"]
    return (0..<count).map { number in
      TinyRecord(id: String(number), name: names[number % names.count])
    }
  }

  static func texts(count: Int) -> [TextRecord] {
    var random = SeededGenerator(seed: 0x5EED_0102)
    return (0..<count).map { number in
      TextRecord(
        id: "t\(number)", title: TextGenerator.title(using: &random),
        summary: TextGenerator.sentence(minLength: 200, using: &random),
        body: TextGenerator.sentence(minLength: 1_000, using: &random))
    }
  }

  static func events(count: Int) -> [EventRecord] {
    var random = SeededGenerator(seed: 0x5EED_0103)
    let fallback = URL(fileURLWithPath: "/")
    return (0..<count).map { number in
      let start = random.int(in: 1_500_000_000...1_800_000_000)
      let cents = random.int(in: 0...99)
      return EventRecord(
        id: "e\(number)",
        startsAt: Date(timeIntervalSince1970: Double(start)),
        endsAt: Date(timeIntervalSince1970: Double(start + random.int(in: 600...86_400))),
        reference: UUID(uuid: uuidBytes(&random)),
        link: URL(string: "https://events.example.com/e/\(number)?ref=\(random.int(in: 1...999))")
          ?? fallback,
        price: Decimal(string: "\(random.int(in: 0...99_999)).\(cents < 10 ? "0" : "")\(cents)")
          ?? 0,
        name: TextGenerator.title(using: &random))
    }
  }

  private static func uuidBytes(_ random: inout SeededGenerator) -> uuid_t {
    let a = random.next()
    let b = random.next()
    func byte(_ word: UInt64, _ index: UInt64) -> UInt8 {
      UInt8(truncatingIfNeeded: word >> (index * 8))
    }
    return (
      byte(a, 0), byte(a, 1), byte(a, 2), byte(a, 3), byte(a, 4), byte(a, 5),
      (byte(a, 6) & 0x0F) | 0x40, byte(a, 7), (byte(b, 0) & 0x3F) | 0x80, byte(b, 1), byte(b, 2),
      byte(b, 3), byte(b, 4), byte(b, 5), byte(b, 6), byte(b, 7)
    )
  }

  /// The compound small document: one article (in `data`, a single resource) with its author and
  /// three comments with their authors, as an app fetches an article page
  /// (`/articles/1?include=author,comments.author`). Two people write them all: the article's
  /// author also writes the second comment, the other person the first and third, so `included`
  /// holds exactly 5 resources (3 comments, 2 people) and a person appears once in `included`
  /// though referenced from several resources, while the plain JSON repeats them.
  static func articleWithComments() -> Article {
    var random = SeededGenerator(seed: 0x5EED_0105)
    let people = (1...2).map { number in
      let name = TextGenerator.personName(using: &random)
      return Person(
        id: "p\(number)", name: name, email: TextGenerator.email(for: name, number: number),
        age: random.int(in: 18...80))
    }
    let body = TextGenerator.sentence(minLength: 120, using: &random)
    let views = random.int(in: 1...1_000_000)
    let likes = random.int(in: 0...views)
    let comments = [people[1], people[0], people[1]].enumerated().map { index, author in
      Comment(
        id: "c\(index + 1)", body: TextGenerator.sentence(minLength: 60, using: &random),
        author: author)
    }
    return Article(
      id: "1", title: TextGenerator.title(using: &random), body: body,
      publishedAt: TextGenerator.isoDate(using: &random),
      wordCount: body.split(separator: " ").count,
      readingTime: Double(random.int(in: 30...1_500)) / 100, tags: ["swift", "json", "café"],
      stats: Stats(views: views, likes: likes, ratio: Double(likes) / Double(views)),
      author: people[0], comments: comments)
  }

  /// Articles of the small-document shapes: ~1 KB of attributes each; `withAuthors` gives each
  /// a to-one author from a pool of 5 people (included once per page).
  static func pageArticles(count: Int, withAuthors: Bool) -> [PageArticle] {
    var random = SeededGenerator(seed: 0x5EED_0104)
    let people = (1...5).map { number in
      let name = TextGenerator.personName(using: &random)
      return Person(
        id: "p\(number)", name: name, email: TextGenerator.email(for: name, number: number),
        age: random.int(in: 18...80))
    }
    return (1...count).map { number in
      let body = TextGenerator.sentence(minLength: 700, using: &random)
      let views = random.int(in: 1...1_000_000)
      let likes = random.int(in: 0...views)
      return PageArticle(
        id: "\(number)", title: TextGenerator.title(using: &random), body: body,
        publishedAt: TextGenerator.isoDate(using: &random),
        wordCount: body.split(separator: " ").count,
        readingTime: Double(random.int(in: 30...1_500)) / 100,
        tags: ["swift", "json", "api", "café"].filter { _ in random.chance(50) },
        stats: Stats(views: views, likes: likes, ratio: Double(likes) / Double(views)),
        author: withAuthors ? random.pick(people) : nil)
    }
  }
}
