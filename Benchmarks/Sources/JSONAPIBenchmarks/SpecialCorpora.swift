import Foundation

/// Many references: every article points at the same 5 people and a few of 20 tags, so the
/// JSON:API document stores each relative once while the flat JSON repeats it every time.
struct ManyReferencesCorpus {
  let articles: [TaggedArticle]
  let document: Data
  let flat: Data
  var resourceCount: Int { articles.count + 5 + 20 }

  init(articleCount: Int) {
    var random = SeededGenerator(seed: 0x5EED_0002)
    let people = (1...5).map { number in
      let name = TextGenerator.personName(using: &random)
      return Person(
        id: "p\(number)", name: name, email: TextGenerator.email(for: name, number: number),
        age: random.int(in: 18...80))
    }
    let tags = (1...20).map { number in
      Tag(id: "t\(number)", name: TextGenerator.sentence(minLength: 8, using: &random))
    }
    articles = (1...articleCount).map { number in
      let start = random.int(in: 0...15)
      return TaggedArticle(
        id: "\(number)", title: TextGenerator.title(using: &random), author: random.pick(people),
        tags: Array(tags[start..<(start + random.int(in: 3...5))]))
    }

    var w = JSONWriter(capacity: articleCount * 400)
    w.raw("{\"data\":")
    w.array(articles) { w, article in
      w.raw("{\"type\":\"articles\",\"id\":")
      w.string(article.id)
      w.raw(",\"attributes\":{\"title\":")
      w.string(article.title)
      w.raw("},\"relationships\":{\"author\":{\"data\":")
      ArticleCorpus.writeIdentifier(type: "people", id: article.author.id, into: &w)
      w.raw("},\"tags\":{\"data\":")
      w.array(article.tags) { w, tag in
        ArticleCorpus.writeIdentifier(type: "tags", id: tag.id, into: &w)
      }
      w.raw("}}}")
    }
    w.raw(",\"included\":")
    w.array([Int](0..<(people.count + tags.count))) { w, index in
      if index < people.count {
        w.raw("{\"type\":\"people\",\"id\":")
        w.string(people[index].id)
        w.raw(",\"attributes\":{")
        ArticleCorpus.writePersonFields(people[index], into: &w)
        w.raw("}}")
      } else {
        let tag = tags[index - people.count]
        w.raw("{\"type\":\"tags\",\"id\":")
        w.string(tag.id)
        w.raw(",\"attributes\":{\"name\":")
        w.string(tag.name)
        w.raw("}}")
      }
    }
    w.raw("}")
    document = Data(w.bytes)

    var f = JSONWriter(capacity: articleCount * 900)
    f.array(articles) { w, article in
      w.raw("{\"id\":")
      w.string(article.id)
      w.raw(",\"type\":\"articles\",\"title\":")
      w.string(article.title)
      w.raw(",\"author\":")
      ArticleCorpus.writeFlatPerson(article.author, into: &w)
      w.raw(",\"tags\":")
      w.array(article.tags) { w, tag in
        w.raw("{\"id\":")
        w.string(tag.id)
        w.raw(",\"type\":\"tags\",\"name\":")
        w.string(tag.name)
        w.raw("}")
      }
      w.raw("}")
    }
    flat = Data(f.bytes)
  }
}

/// Deep chains: `chainCount` chains of `depth` resources, each pointing at the next through a
/// to-one relationship; the heads are the primary data, the rest is in `included`.
struct DeepChainCorpus {
  let heads: [ChainNode]
  let document: Data
  let flat: Data
  let depth: Int
  var resourceCount: Int { heads.count * depth }

  init(chainCount: Int, depth: Int) {
    var random = SeededGenerator(seed: 0x5EED_0003)
    self.depth = depth
    var chains: [[(id: String, name: String, value: Int)]] = []
    for chain in 0..<chainCount {
      chains.append(
        (0..<depth).map { level in
          (
            "n\(chain)-\(level)", TextGenerator.sentence(minLength: 20, using: &random),
            random.int(in: 0...1_000_000)
          )
        })
    }
    heads = chains.compactMap { chain in
      var next: ChainNode? = nil
      for node in chain.reversed() {
        next = ChainNode(id: node.id, name: node.name, value: node.value, next: next)
      }
      return next
    }

    func writeResource(
      _ chain: [(id: String, name: String, value: Int)], _ level: Int,
      into w: inout JSONWriter
    ) {
      let node = chain[level]
      w.raw("{\"type\":\"nodes\",\"id\":")
      w.string(node.id)
      w.raw(",\"attributes\":{\"name\":")
      w.string(node.name)
      w.raw(",\"value\":")
      w.int(node.value)
      w.raw("},\"relationships\":{\"next\":{\"data\":")
      if level + 1 < chain.count {
        ArticleCorpus.writeIdentifier(type: "nodes", id: chain[level + 1].id, into: &w)
      } else {
        w.raw("null")
      }
      w.raw("}}}")
    }
    var w = JSONWriter(capacity: chainCount * depth * 150)
    w.raw("{\"data\":")
    w.array(chains) { w, chain in writeResource(chain, 0, into: &w) }
    w.raw(",\"included\":")
    w.array(chains.flatMap { chain in (1..<chain.count).map { (chain, $0) } }) { w, pair in
      writeResource(pair.0, pair.1, into: &w)
    }
    w.raw("}")
    document = Data(w.bytes)

    var f = JSONWriter(capacity: chainCount * depth * 100)
    f.array(chains) { w, chain in
      for node in chain {
        w.raw("{\"id\":")
        w.string(node.id)
        w.raw(",\"type\":\"nodes\",\"name\":")
        w.string(node.name)
        w.raw(",\"value\":")
        w.int(node.value)
        w.raw(",\"next\":")
      }
      w.raw("null")
      for _ in chain { w.raw("}") }
    }
    flat = Data(f.bytes)
  }
}

/// One wide relationship: a single article with `tagCount` tags, all in `included`. The case in
/// which peers that rescan `included` for every reference go quadratic (DESIGN-NOTES: 4,000 tags).
struct WideRelationshipCorpus {
  let articles: [TaggedArticle]
  let document: Data
  let flat: Data
  var resourceCount: Int { 2 + articles[0].tags.count }

  init(tagCount: Int) {
    var random = SeededGenerator(seed: 0x5EED_0004)
    let name = TextGenerator.personName(using: &random)
    let author = Person(
      id: "p1", name: name, email: TextGenerator.email(for: name, number: 1), age: 42)
    let tags = (1...tagCount).map { number in
      Tag(id: "t\(number)", name: TextGenerator.sentence(minLength: 8, using: &random))
    }
    articles = [
      TaggedArticle(id: "1", title: TextGenerator.title(using: &random), author: author, tags: tags)
    ]
    let article = articles[0]

    var w = JSONWriter(capacity: tagCount * 120)
    w.raw("{\"data\":[{\"type\":\"articles\",\"id\":")
    w.string(article.id)
    w.raw(",\"attributes\":{\"title\":")
    w.string(article.title)
    w.raw("},\"relationships\":{\"author\":{\"data\":")
    ArticleCorpus.writeIdentifier(type: "people", id: author.id, into: &w)
    w.raw("},\"tags\":{\"data\":")
    w.array(tags) { w, tag in ArticleCorpus.writeIdentifier(type: "tags", id: tag.id, into: &w) }
    w.raw("}}}],\"included\":[{\"type\":\"people\",\"id\":")
    w.string(author.id)
    w.raw(",\"attributes\":{")
    ArticleCorpus.writePersonFields(author, into: &w)
    w.raw("}},")
    var first = true
    for tag in tags {
      if !first { w.raw(",") }
      first = false
      w.raw("{\"type\":\"tags\",\"id\":")
      w.string(tag.id)
      w.raw(",\"attributes\":{\"name\":")
      w.string(tag.name)
      w.raw("}}")
    }
    w.raw("]}")
    document = Data(w.bytes)

    var f = JSONWriter(capacity: tagCount * 80)
    f.raw("[{\"id\":")
    f.string(article.id)
    f.raw(",\"type\":\"articles\",\"title\":")
    f.string(article.title)
    f.raw(",\"author\":")
    ArticleCorpus.writeFlatPerson(author, into: &f)
    f.raw(",\"tags\":")
    f.array(tags) { w, tag in
      w.raw("{\"id\":")
      w.string(tag.id)
      w.raw(",\"type\":\"tags\",\"name\":")
      w.string(tag.name)
      w.raw("}")
    }
    f.raw("}]")
    flat = Data(f.bytes)
  }
}

/// Back-references: `articleCount` articles by one author whose `articles` relationship lists all
/// of them, as servers that write every relationship's data produce. Decoded as a tree, each
/// article holds its author holding every article, with each cycle cut at the identifier of the
/// resource already being decoded; the flat JSON spells out that same tree (count² articles).
/// The flatten-then-decode baseline is left out: it recurses forever on a cycle.
struct BackReferenceCorpus {
  let articles: [BackReferencedArticle]
  let document: Data
  let flat: Data
  var resourceCount: Int { articles.count + 1 }

  init(articleCount: Int) {
    var random = SeededGenerator(seed: 0x5EED_0005)
    let titles = (0..<articleCount).map { _ in TextGenerator.title(using: &random) }
    let ids = (0..<articleCount).map { "a\($0)" }
    let name = TextGenerator.personName(using: &random)
    let cutAuthor = ListingAuthor(id: "p1", name: nil, articles: nil)
    let insideAuthor = zip(ids, titles).map {
      BackReferencedArticle(id: $0, title: $1, author: cutAuthor)
    }
    articles = (0..<articleCount).map { index in
      var listed = insideAuthor
      listed[index] = BackReferencedArticle(id: ids[index], title: nil, author: nil)
      return BackReferencedArticle(
        id: ids[index], title: titles[index],
        author: ListingAuthor(id: "p1", name: name, articles: listed))
    }

    var w = JSONWriter(capacity: articleCount * 200)
    w.raw("{\"data\":")
    w.array(zip(ids, titles)) { w, article in
      w.raw("{\"type\":\"articles\",\"id\":")
      w.string(article.0)
      w.raw(",\"attributes\":{\"title\":")
      w.string(article.1)
      w.raw("},\"relationships\":{\"author\":{\"data\":")
      ArticleCorpus.writeIdentifier(type: "people", id: "p1", into: &w)
      w.raw("}}}")
    }
    w.raw(",\"included\":[{\"type\":\"people\",\"id\":\"p1\",\"attributes\":{\"name\":")
    w.string(name)
    w.raw("},\"relationships\":{\"articles\":{\"data\":")
    w.array(ids) { w, id in ArticleCorpus.writeIdentifier(type: "articles", id: id, into: &w) }
    w.raw("}}}]}")
    document = Data(w.bytes)

    func writeFlat(_ article: BackReferencedArticle, into w: inout JSONWriter) {
      w.raw("{\"id\":")
      w.string(article.id)
      w.raw(",\"type\":\"articles\"")
      if let title = article.title {
        w.raw(",\"title\":")
        w.string(title)
      }
      if let author = article.author {
        w.raw(",\"author\":{\"id\":")
        w.string(author.id)
        w.raw(",\"type\":\"people\"")
        if let name = author.name {
          w.raw(",\"name\":")
          w.string(name)
        }
        if let listed = author.articles {
          w.raw(",\"articles\":")
          w.array(listed) { w, inner in writeFlat(inner, into: &w) }
        }
        w.raw("}")
      }
      w.raw("}")
    }
    var f = JSONWriter(capacity: articleCount * articleCount * 90)
    f.array(articles) { w, article in writeFlat(article, into: &w) }
    flat = Data(f.bytes)
  }
}
