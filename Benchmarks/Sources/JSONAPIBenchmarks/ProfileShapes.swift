import Foundation
import JSONAPICodable

/// Kept out of line with a distinctive name so callgrind can collect just the coding
/// (`--toggle-collect='*profiled*'`), not the generation of the input.
@inline(never) func profiledDecode<T: Decodable>(
  _ type: T.Type, _ input: Data, repeats: Int, decode: (Data) throws -> T
) rethrows -> Int {
  var total = 0
  for _ in 0..<repeats {
    blackHole(try decode(input))
    total += 1
  }
  return total
}

@inline(never) func profiledEncode<T: Encodable>(
  _ value: T, repeats: Int, encode: (T) throws -> Data
) rethrows -> Int {
  var total = 0
  for _ in 0..<repeats { total += try encode(value).count }
  return total
}

/// The matrix shapes for `Scripts/profile-decoder.sh` (SHAPE=…). The coders are created outside
/// the collected functions except where the shape measures per-call costs (small: the coders are
/// reused, as an app would).
enum ProfileShapes {
  static func run(shape: String, encoding: Bool, jsonapi: Bool, count: Int, repeats: Int) throws
    -> Int
  {
    switch shape {
    case "articles":
      let corpus = ArticleCorpus(articleCount: count)
      return try profile(
        MatrixInput(
          models: corpus.articles, document: corpus.document, flat: corpus.flat,
          resourceCount: corpus.resourceCount), .plain, encoding, jsonapi, repeats)
    case "wide":
      return try profile(
        MatrixCoders.plain.input(MatrixCorpora.wide(count: count), resourceCount: count), .plain,
        encoding, jsonapi, repeats)
    case "tiny":
      return try profile(
        MatrixCoders.plain.input(MatrixCorpora.tiny(count: count), resourceCount: count), .plain,
        encoding, jsonapi, repeats)
    case "strings":
      return try profile(
        MatrixCoders.plain.input(MatrixCorpora.texts(count: count), resourceCount: count), .plain,
        encoding, jsonapi, repeats)
    case "iso8601", "seconds":
      let coders = MatrixCoders.dates(shape)
      return try profile(
        coders.input(MatrixCorpora.events(count: count), resourceCount: count), coders, encoding,
        jsonapi, repeats)
    case "sharing":
      let corpus = ManyReferencesCorpus(articleCount: count)
      return try profile(
        MatrixInput(
          models: corpus.articles, document: corpus.document, flat: corpus.flat,
          resourceCount: corpus.resourceCount), .plain, encoding, jsonapi, repeats)
    case "chains":
      let corpus = DeepChainCorpus(chainCount: max(1, count / 60), depth: 60)
      return try profile(
        MatrixInput(
          models: corpus.heads, document: corpus.document, flat: corpus.flat,
          resourceCount: corpus.resourceCount), .plain, encoding, jsonapi, repeats)
    case "one":
      return try profile(
        MatrixCoders.plain.input(
          MatrixCorpora.pageArticles(count: 1, withAuthors: false)[0], resourceCount: 1), .plain,
        encoding, jsonapi, repeats)
    case "article":
      return try profile(
        MatrixCoders.plain.input(MatrixCorpora.articleWithComments(), resourceCount: 6), .plain,
        encoding, jsonapi, repeats)
    case "page":
      return try profile(
        MatrixCoders.plain.input(
          MatrixCorpora.pageArticles(count: 20, withAuthors: true), resourceCount: 25), .plain,
        encoding, jsonapi, repeats)
    default:
      fail(
        "unknown profile shape \(shape): articles, wide, tiny, strings, iso8601, seconds, sharing, chains, one, article, page"
      )
    }
  }

  private static func profile<Model: Codable & Equatable & Sendable>(
    _ input: MatrixInput<Model>, _ coders: MatrixCoders, _ encoding: Bool, _ jsonapi: Bool,
    _ repeats: Int
  ) throws -> Int {
    switch (encoding, jsonapi) {
    case (false, true):
      let decoder = coders.jsonapiDecoder
      return try profiledDecode(Model.self, input.document, repeats: repeats) {
        try decoder.decode(Model.self, from: $0)
      }
    case (false, false):
      let decoder = coders.foundationDecoder
      return try profiledDecode(Model.self, input.flat, repeats: repeats) {
        try decoder.decode(Model.self, from: $0)
      }
    case (true, true):
      let encoder = coders.jsonapiEncoder
      return try profiledEncode(input.models, repeats: repeats) { try encoder.encode($0) }
    case (true, false):
      let encoder = coders.foundationEncoder
      return try profiledEncode(input.models, repeats: repeats) { try encoder.encode($0) }
    }
  }
}
