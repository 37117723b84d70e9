import Foundation
import JSONAPICodable

/// Builds the contenders for each input and collects the report.
struct Runner {
  var sizes: [Int]
  var quick: Bool
  var measureMemory: Bool
  var includeSpecials: Bool
  var time: TimeSource

  let jsonapiDecoder = JSONAPIDecoder()
  let foundationDecoder = JSONDecoder()
  let jsonapiEncoder = JSONAPIEncoder()
  let foundationEncoder = JSONEncoder()

  func rounds(for articleCount: Int) -> Int {
    switch articleCount {
    case ..<5_000: quick ? 7 : 15
    case ..<50_000: quick ? 5 : 9
    default: 3
    }
  }

  func run() -> Report {
    var report = Report()
    for articleCount in sizes {
      log("N = \(articleCount): generating")
      let corpus = ArticleCorpus(articleCount: articleCount)
      log(
        "  document \(format(bytes: corpus.document.count)), flat \(format(bytes: corpus.flat.count))"
      )
      report.sizes.append(measureSize(corpus))
      if measureMemory, articleCount == sizes.max() {
        report.memory = measureMemory(corpus)
      }
    }
    if includeSpecials {
      report.specials.append(measureManyReferences())
      report.specials.append(measureDeepChains())
      report.specials.append(measureWideRelationship())
      report.specials.append(measureBackReferences())
    }
    return report
  }

  private func measureSize(_ corpus: ArticleCorpus) -> SizeResult {
    let articles = corpus.articles
    let document = corpus.document
    let flat = corpus.flat
    let contenders = [
      Contender.decoding("JSONAPIDecoder", expected: articles) {
        try jsonapiDecoder.decode([Article].self, from: document)
      },
      Contender.decoding("JSONDecoder (flat)", expected: articles) {
        try foundationDecoder.decode([Article].self, from: flat)
      },
      Contender.decoding("flatten-then-decode", expected: articles) {
        try FlattenThenDecode.decode([Article].self, from: document, decoder: foundationDecoder)
      },
      Contender.encoding(
        "JSONAPIEncoder", value: articles, encode: { try jsonapiEncoder.encode(articles) },
        decodeBack: { try jsonapiDecoder.decode([Article].self, from: $0) }),
      Contender.encoding(
        "JSONEncoder", value: articles, encode: { try foundationEncoder.encode(articles) },
        decodeBack: { try foundationDecoder.decode([Article].self, from: $0) }),
    ]
    let rounds = rounds(for: articles.count)
    log("  timing \(rounds) interleaved rounds")
    let results = measure(contenders, rounds: rounds, time: time, budget: quick ? 5 : 10)
    return SizeResult(
      articleCount: articles.count, resourceCount: corpus.resourceCount,
      documentBytes: document.count, flatBytes: flat.count, rounds: rounds,
      jsonapiDecode: results[0], foundationDecode: results[1], flattenDecode: results[2],
      jsonapiEncode: results[3], foundationEncode: results[4])
  }

  private func measureMemory(_ corpus: ArticleCorpus) -> MemoryResult {
    log("  peak memory: writing files and probing fresh processes")
    do {
      return try corpus.withFiles(named: "jsonapi-bench") { documentPath, flatPath in
        MemoryResult(
          articleCount: corpus.articles.count, documentBytes: corpus.document.count,
          flatBytes: corpus.flat.count,
          idleDocument: MemoryProbe.run(mode: .idle, path: documentPath),
          jsonapi: MemoryProbe.run(mode: .jsonapi, path: documentPath),
          idleFlat: MemoryProbe.run(mode: .idle, path: flatPath),
          foundation: MemoryProbe.run(mode: .foundation, path: flatPath))
      }
    } catch {
      let failure = Result<MemoryProbe.Result, MemoryProbe.ProbeError>.failure(
        .init("cannot write temp files: \(describe(error))"))
      return MemoryResult(
        articleCount: corpus.articles.count, documentBytes: corpus.document.count,
        flatBytes: corpus.flat.count, idleDocument: failure, jsonapi: failure, idleFlat: failure,
        foundation: failure)
    }
  }

  private func measureManyReferences() -> SpecialResult {
    let count = 10_000
    log("many references: \(count) articles → 5 people, 20 tags")
    let corpus = ManyReferencesCorpus(articleCount: count)
    return measureSpecial(
      "Many references (\(format(count: count)) articles → 5 people, 20 tags)",
      expected: corpus.articles, document: corpus.document, flat: corpus.flat,
      resourceCount: corpus.resourceCount)
  }

  private func measureWideRelationship() -> SpecialResult {
    let count = 4_000
    log("wide relationship: one article with \(count) tags")
    let corpus = WideRelationshipCorpus(tagCount: count)
    return measureSpecial(
      "One article, \(format(count: count)) related tags, all included",
      expected: corpus.articles, document: corpus.document, flat: corpus.flat,
      resourceCount: corpus.resourceCount)
  }

  private func measureBackReferences() -> SpecialResult {
    let count = 500
    log("back-references: \(count) articles, their author lists all of them")
    let corpus = BackReferenceCorpus(articleCount: count)
    return measureSpecial(
      "Back-references (\(format(count: count)) articles, the author lists all)",
      expected: corpus.articles, document: corpus.document, flat: corpus.flat,
      resourceCount: corpus.resourceCount, withFlattenBaseline: false)
  }

  private func measureDeepChains() -> SpecialResult {
    let chains = 200
    let depth = 60
    log("deep chains: \(chains) chains of \(depth) resources")
    let corpus = DeepChainCorpus(chainCount: chains, depth: depth)
    return measureSpecial(
      "Deep chains (\(chains) chains × \(depth) levels)", expected: corpus.heads,
      document: corpus.document, flat: corpus.flat, resourceCount: corpus.resourceCount)
  }

  /// One special document through the three decoders: `JSONAPIDecoder`, `JSONDecoder` on the flat
  /// equivalent, and (unless the document is cyclic) the flatten-then-decode baseline.
  private func measureSpecial<Model: Decodable & Equatable & Sendable>(
    _ title: String, expected: [Model], document: Data, flat: Data, resourceCount: Int,
    withFlattenBaseline: Bool = true
  ) -> SpecialResult {
    var contenders = [
      Contender.decoding("JSONAPIDecoder", expected: expected) {
        try jsonapiDecoder.decode([Model].self, from: document)
      },
      Contender.decoding("JSONDecoder (flat)", expected: expected) {
        try foundationDecoder.decode([Model].self, from: flat)
      },
    ]
    if withFlattenBaseline {
      contenders.append(
        Contender.decoding("flatten-then-decode", expected: expected) {
          try FlattenThenDecode.decode([Model].self, from: document, decoder: foundationDecoder)
        })
    }
    let results = measure(contenders, rounds: quick ? 5 : 9, time: time, budget: quick ? 5 : 10)
    return SpecialResult(
      title: title, resourceCount: resourceCount, documentBytes: document.count,
      flatBytes: flat.count, jsonapi: results[0], foundation: results[1],
      flatten: withFlattenBaseline ? results[2] : nil)
  }
}
