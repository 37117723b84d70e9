import Foundation

/// The main benchmark input: N articles, a pool of 50 authors, 3 comments per article, as
/// models, as a JSON:API compound document and as the equivalent flat JSON.
struct ArticleCorpus {
  static let peopleCount = 50
  static let commentsPerArticle = 3

  let articles: [Article]
  let people: [Person]
  let document: Data
  let flat: Data

  /// Articles + comments + people: the resources a JSON:API client materialises.
  var resourceCount: Int { articles.count * (1 + Self.commentsPerArticle) + people.count }

  init(articleCount: Int, seed: UInt64 = 0x5EED_0001) {
    var random = SeededGenerator(seed: seed &+ UInt64(articleCount))
    let people = (1...Self.peopleCount).map { number in
      let name = TextGenerator.personName(using: &random)
      return Person(
        id: "p\(number)", name: name, email: TextGenerator.email(for: name, number: number),
        age: random.int(in: 18...80))
    }
    let tagPool = [
      "swift", "json", "api", "performance", "linux", "ios", "server", "design", "testing",
      "café", "日本", "open-source",
    ]
    var commentNumber = 0
    var articles: [Article] = []
    articles.reserveCapacity(articleCount)
    for number in 1...max(articleCount, 1) {
      let body = TextGenerator.sentence(minLength: 200, using: &random)
      let wordCount = body.split(separator: " ").count
      let views = random.int(in: 1...1_000_000)
      let likes = random.int(in: 0...views)
      var tags: [String] = []
      for _ in 0..<random.int(in: 1...4) { tags.append(random.pick(tagPool)) }
      var comments: [Comment] = []
      for _ in 0..<Self.commentsPerArticle {
        commentNumber += 1
        comments.append(
          Comment(
            id: "c\(commentNumber)",
            body: TextGenerator.sentence(minLength: 90, using: &random),
            author: random.pick(people)))
      }
      articles.append(
        Article(
          id: "\(number)", title: TextGenerator.title(using: &random), body: body,
          publishedAt: TextGenerator.isoDate(using: &random), wordCount: wordCount,
          readingTime: Double(random.int(in: 30...1_500)) / 100,
          tags: tags,
          stats: Stats(views: views, likes: likes, ratio: Double(likes) / Double(views)),
          author: random.pick(people), comments: comments))
    }
    self.articles = Array(articles.prefix(articleCount))
    self.people = people
    self.document = Self.writeDocument(articles: self.articles, people: people)
    self.flat = Self.writeFlat(articles: self.articles)
  }

  // MARK: JSON:API document

  private static func writeDocument(articles: [Article], people: [Person]) -> Data {
    var w = JSONWriter(capacity: articles.count * 1_400 + 8_192)
    w.raw("{\"data\":")
    w.array(articles) { w, article in
      w.raw("{\"type\":\"articles\",\"id\":")
      w.string(article.id)
      w.raw(",\"attributes\":{")
      w.key("title")
      w.string(article.title)
      w.comma()
      w.key("body")
      w.string(article.body)
      w.comma()
      w.key("publishedAt")
      w.string(article.publishedAt)
      w.comma()
      w.key("wordCount")
      w.int(article.wordCount)
      w.comma()
      w.key("readingTime")
      w.double(article.readingTime)
      w.comma()
      w.key("tags")
      w.array(article.tags) { w, tag in w.string(tag) }
      w.comma()
      w.key("stats")
      writeStats(article.stats, into: &w)
      w.raw("},\"relationships\":{\"author\":{\"data\":")
      writeIdentifier(type: "people", id: article.author.id, into: &w)
      w.raw("},\"comments\":{\"data\":")
      w.array(article.comments) { w, comment in
        writeIdentifier(type: "comments", id: comment.id, into: &w)
      }
      w.raw("}}}")
    }
    w.raw(",\"included\":[")
    var first = true
    for person in people {
      if !first { w.comma() }
      first = false
      w.raw("{\"type\":\"people\",\"id\":")
      w.string(person.id)
      w.raw(",\"attributes\":{")
      writePersonFields(person, into: &w)
      w.raw("}}")
    }
    for article in articles {
      for comment in article.comments {
        w.comma()
        w.raw("{\"type\":\"comments\",\"id\":")
        w.string(comment.id)
        w.raw(",\"attributes\":{\"body\":")
        w.string(comment.body)
        w.raw("},\"relationships\":{\"author\":{\"data\":")
        writeIdentifier(type: "people", id: comment.author.id, into: &w)
        w.raw("}}}")
      }
    }
    w.raw("]}")
    return Data(w.bytes)
  }

  static func writeIdentifier(type: StaticString, id: String, into w: inout JSONWriter) {
    w.raw("{\"type\":\"")
    w.raw(type)
    w.raw("\",\"id\":")
    w.string(id)
    w.raw("}")
  }

  private static func writeStats(_ stats: Stats, into w: inout JSONWriter) {
    w.raw("{\"views\":")
    w.int(stats.views)
    w.raw(",\"likes\":")
    w.int(stats.likes)
    w.raw(",\"ratio\":")
    w.double(stats.ratio)
    w.raw("}")
  }

  static func writePersonFields(_ person: Person, into w: inout JSONWriter) {
    w.key("name")
    w.string(person.name)
    w.raw(",\"email\":")
    w.string(person.email)
    w.raw(",\"age\":")
    w.int(person.age)
  }

  // MARK: Flat JSON (what a plain API would send: relatives embedded)

  private static func writeFlat(articles: [Article]) -> Data {
    var w = JSONWriter(capacity: articles.count * 1_500 + 8_192)
    w.array(articles) { w, article in
      w.raw("{\"id\":")
      w.string(article.id)
      w.raw(",\"type\":\"articles\",\"title\":")
      w.string(article.title)
      w.raw(",\"body\":")
      w.string(article.body)
      w.raw(",\"publishedAt\":")
      w.string(article.publishedAt)
      w.raw(",\"wordCount\":")
      w.int(article.wordCount)
      w.raw(",\"readingTime\":")
      w.double(article.readingTime)
      w.raw(",\"tags\":")
      w.array(article.tags) { w, tag in w.string(tag) }
      w.raw(",\"stats\":")
      writeStats(article.stats, into: &w)
      w.raw(",\"author\":")
      writeFlatPerson(article.author, into: &w)
      w.raw(",\"comments\":")
      w.array(article.comments) { w, comment in
        w.raw("{\"id\":")
        w.string(comment.id)
        w.raw(",\"type\":\"comments\",\"body\":")
        w.string(comment.body)
        w.raw(",\"author\":")
        writeFlatPerson(comment.author, into: &w)
        w.raw("}")
      }
      w.raw("}")
    }
    return Data(w.bytes)
  }

  static func writeFlatPerson(_ person: Person, into w: inout JSONWriter) {
    w.raw("{\"id\":")
    w.string(person.id)
    w.raw(",\"type\":\"people\",")
    writePersonFields(person, into: &w)
    w.raw("}")
  }
}

extension ArticleCorpus {
  /// Writes the document and the flat JSON to a temporary folder for the memory probes' fresh
  /// processes, runs `body` with their paths, and removes the folder afterwards.
  func withFiles<R>(named prefix: String, _ body: (_ document: String, _ flat: String) -> R) throws
    -> R
  {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)-\(ProcessInfo.processInfo.processIdentifier)")
    let documentPath = directory.appendingPathComponent("document.json").path
    let flatPath = directory.appendingPathComponent("flat.json").path
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try document.write(to: URL(fileURLWithPath: documentPath))
    try flat.write(to: URL(fileURLWithPath: flatPath))
    return body(documentPath, flatPath)
  }
}
