import Foundation
import JSONAPICodable

/// The shape matrix of issue 15: every shape decoded and encoded by JSONAPICodable and by
/// Foundation (JSONDecoder / JSONEncoder on the same data as plain nested JSON), in interleaved
/// rounds, models checked equal before timing.
///
///   --matrix                     every shape at N = 10 000 and 100 000 (tiny: up to 1 000 000)
///   --matrix --quick             N = 1 000 and 10 000 (tiny: 10 000 and 100 000), fewer rounds
///   --matrix --shape wide,small  only those shapes (names below); --sizes 5000,20000 overrides N
enum MatrixShape: String, CaseIterable {
  case articles  // the existing articles document (50 authors, 3 comments each)
  case wide  // 30 mixed scalar attributes, a few nil, no relationships
  case tiny  // id, type, one attribute
  case sharing  // N articles → 5 people, 20 tags
  case chains  // N / 60 chains of 60 resources
  case strings  // long bodies with escapes, non-ASCII, astral
  case iso8601  // Date (.iso8601), UUID, URL, Decimal
  case seconds  // Date (.secondsSince1970), UUID, URL, Decimal
  case small  // one resource (~1 KB), an article with author and 3 comments (~1.3 KB, 5 included),
  // and a page of 20 articles with authors (~20 KB), per call
  case memory  // peak RSS of decoding and encoding the 100 000-article document

  var title: String {
    switch self {
    case .articles: "Articles (50 authors, 3 comments each)"
    case .wide: "Wide (30 mixed attributes, some nil)"
    case .tiny: "Tiny (id, type, one attribute)"
    case .sharing: "Heavy sharing (→ 5 people, 20 tags)"
    case .chains: "Deep chains (60 levels)"
    case .strings: "String-heavy (~1.3 kB text, escapes, astral)"
    case .iso8601: "Foundation types, Date .iso8601"
    case .seconds: "Foundation types, Date .secondsSince1970"
    case .small: "Small documents"
    case .memory: "Peak RSS"
    }
  }
}

struct MatrixRow {
  var shape: MatrixShape
  var label: String
  var resourceCount: Int
  var documentBytes: Int
  var flatBytes: Int
  var perCall: Bool
  var decode: (ours: Measurement, theirs: Measurement)
  var encode: (ours: Measurement, theirs: Measurement)
}

struct MatrixMemory {
  var articleCount: Int
  var documentBytes: Int
  var flatBytes: Int
  var decode:
    (
      ours: Result<MemoryProbe.Result, MemoryProbe.ProbeError>,
      theirs: Result<MemoryProbe.Result, MemoryProbe.ProbeError>
    )
  var encode:
    (
      ours: Result<MemoryProbe.Result, MemoryProbe.ProbeError>,
      theirs: Result<MemoryProbe.Result, MemoryProbe.ProbeError>
    )
}

struct MatrixRunner {
  var shapes: [MatrixShape]
  var quick: Bool
  var sizes: [Int]?
  var time: TimeSource

  static let maxDecodeRatio = 0.5
  static let maxEncodeRatio = 1.0
  static let maxMemoryRatio = 4.0
  static let maxDrift = 0.15

  func sizes(for shape: MatrixShape) -> [Int] {
    if let sizes { return sizes }
    switch shape {
    case .tiny: return quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000]
    case .chains: return quick ? [1_200, 12_000] : [12_000, 120_000]
    default: return quick ? [1_000, 10_000] : [10_000, 100_000]
    }
  }

  func rounds(for resourceCount: Int) -> Int {
    switch resourceCount {
    case ..<50_000: quick ? 5 : 9
    case ..<500_000: quick ? 3 : 5
    default: 3
    }
  }

  func run() -> (rows: [MatrixRow], memory: MatrixMemory?) {
    var rows: [MatrixRow] = []
    var memory: MatrixMemory?
    for shape in shapes {
      if shape == .memory {
        memory = measureMemory(articleCount: sizes?.max() ?? 100_000)
        continue
      }
      if shape == .small {
        rows.append(contentsOf: measureSmall())
        continue
      }
      rows.append(contentsOf: measureSizes(of: shape))
    }
    return (rows, memory)
  }

  /// Every size of `shape`, timed in the same interleaved rounds: the per-resource cost from the
  /// smallest to the largest size is then compared round by round, so the machine's drift between
  /// rounds (other jobs, minutes apart) does not count as growth.
  private func measureSizes(of shape: MatrixShape) -> [MatrixRow] {
    let sizes = sizes(for: shape)
    /// Generates the input of each size with `make`, then times them all; rows are labelled by
    /// size, or by resource count where the generator rounds the size (chains of 60).
    func time<Model: Codable & Equatable & Sendable>(
      _ coders: MatrixCoders = .plain, labelByResources: Bool = false,
      _ make: (Int) throws -> MatrixInput<Model>
    ) throws -> [MatrixRow] {
      let inputs = try sizes.map { size in
        log("\(shape.rawValue), N = \(size): generating")
        let input = try make(size)
        return (format(count: labelByResources ? input.resourceCount : size), input)
      }
      return timeShape(shape, inputs, coders)
    }
    do {
      switch shape {
      case .articles:
        return try time { size in
          let corpus = ArticleCorpus(articleCount: size)
          return MatrixInput(
            models: corpus.articles, document: corpus.document, flat: corpus.flat,
            resourceCount: corpus.resourceCount)
        }
      case .wide:
        return try time {
          try MatrixCoders.plain.input(MatrixCorpora.wide(count: $0), resourceCount: $0)
        }
      case .tiny:
        return try time {
          try MatrixCoders.plain.input(MatrixCorpora.tiny(count: $0), resourceCount: $0)
        }
      case .strings:
        return try time {
          try MatrixCoders.plain.input(MatrixCorpora.texts(count: $0), resourceCount: $0)
        }
      case .iso8601, .seconds:
        let coders = MatrixCoders.dates(shape.rawValue)
        return try time(coders) {
          try coders.input(MatrixCorpora.events(count: $0), resourceCount: $0)
        }
      case .sharing:
        return try time { size in
          let corpus = ManyReferencesCorpus(articleCount: size)
          return MatrixInput(
            models: corpus.articles, document: corpus.document, flat: corpus.flat,
            resourceCount: corpus.resourceCount)
        }
      case .chains:
        return try time(labelByResources: true) { size in
          let corpus = DeepChainCorpus(chainCount: max(1, size / 60), depth: 60)
          return MatrixInput(
            models: corpus.heads, document: corpus.document, flat: corpus.flat,
            resourceCount: corpus.resourceCount)
        }
      case .small, .memory:
        return []
      }
    } catch {
      log("  cannot write the inputs: \(describe(error))")
      return []
    }
  }

  private func measureSmall() -> [MatrixRow] {
    var rows: [MatrixRow] = []
    do {
      log("small: one resource")
      let one = try MatrixCoders.plain.input(
        MatrixCorpora.pageArticles(count: 1, withAuthors: false)[0], resourceCount: 1)
      rows.append(contentsOf: timeShape(.small, [("one resource", one)], .plain, perCall: true))
      log("small: article with author and 3 comments")
      let article = try MatrixCoders.plain.input(
        MatrixCorpora.articleWithComments(), resourceCount: 6)
      rows.append(
        contentsOf: timeShape(
          .small, [("article + 3 comments, 5 included", article)], .plain, perCall: true))
      // As apps often write it, `try JSONAPIDecoder().decode(…)`: a coder made for each call, so
      // nothing an earlier call learnt is kept (Foundation's coders made per call too).
      log("small: article with author and 3 comments, new coders per call")
      rows.append(
        contentsOf: timeShape(
          .small, [("article + 3 comments, new coders per call", article)], .plain,
          perCall: true, newCodersPerCall: true))
      log("small: page of 20 with authors")
      let page = try MatrixCoders.plain.input(
        MatrixCorpora.pageArticles(count: 20, withAuthors: true), resourceCount: 25)
      rows.append(
        contentsOf: timeShape(.small, [("page of 20 + authors", page)], .plain, perCall: true))
    } catch {
      log("  cannot write the inputs: \(describe(error))")
    }
    return rows
  }

  /// Checks the four contenders of each input, then times all of them in interleaved rounds: a
  /// row per input.
  private func timeShape<Model: Codable & Equatable & Sendable>(
    _ shape: MatrixShape, _ inputs: [(label: String, input: MatrixInput<Model>)],
    _ coders: MatrixCoders, perCall: Bool = false, newCodersPerCall: Bool = false
  ) -> [MatrixRow] {
    let shared = coders
    // The coders of one call: the shape's own, or new ones with default settings (only for
    // shapes whose coders have them, `.plain`).
    let ourDecoder = { newCodersPerCall ? JSONAPIDecoder() : shared.jsonapiDecoder }
    let theirDecoder = { newCodersPerCall ? JSONDecoder() : shared.foundationDecoder }
    let ourEncoder = { newCodersPerCall ? JSONAPIEncoder() : shared.jsonapiEncoder }
    let theirEncoder = { newCodersPerCall ? JSONEncoder() : shared.foundationEncoder }
    var contenders: [Contender] = []
    for (label, input) in inputs {
      let document = input.document
      let flat = input.flat
      let models = input.models
      log(
        "  \(label): document \(format(bytes: document.count)), flat \(format(bytes: flat.count)),"
          + " \(format(count: input.resourceCount)) resources")
      contenders += [
        Contender.decoding("JSONAPIDecoder", expected: models) {
          try ourDecoder().decode(Model.self, from: document)
        },
        Contender.decoding("JSONDecoder", expected: models) {
          try theirDecoder().decode(Model.self, from: flat)
        },
        Contender.encoding(
          "JSONAPIEncoder", value: models, encode: { try ourEncoder().encode(models) },
          decodeBack: { try ourDecoder().decode(Model.self, from: $0) }),
        Contender.encoding(
          "JSONEncoder", value: models, encode: { try theirEncoder().encode(models) },
          decodeBack: { try theirDecoder().decode(Model.self, from: $0) }),
      ]
    }
    let roundCount =
      perCall
      ? (quick ? 9 : 21) : inputs.map { rounds(for: $0.input.resourceCount) }.max() ?? 1
    log("  timing \(roundCount) interleaved rounds")
    let results = measure(
      contenders, rounds: roundCount, time: time, minimumSample: perCall ? 0.05 : 0.02,
      budget: quick ? 5 : 10, warmShortCalls: !perCall)
    return inputs.enumerated().map { position, item in
      let at = position * 4
      return MatrixRow(
        shape: shape, label: item.label, resourceCount: item.input.resourceCount,
        documentBytes: item.input.document.count, flatBytes: item.input.flat.count,
        perCall: perCall, decode: (results[at], results[at + 1]),
        encode: (results[at + 2], results[at + 3]))
    }
  }

  private func measureMemory(articleCount: Int) -> MatrixMemory? {
    log("memory: \(format(count: articleCount)) articles, fresh processes")
    let corpus = ArticleCorpus(articleCount: articleCount)
    do {
      return try corpus.withFiles(named: "jsonapi-matrix") { documentPath, flatPath in
        MatrixMemory(
          articleCount: articleCount, documentBytes: corpus.document.count,
          flatBytes: corpus.flat.count,
          decode: (
            MemoryProbe.run(mode: .jsonapi, path: documentPath),
            MemoryProbe.run(mode: .foundation, path: flatPath)
          ),
          encode: (
            MemoryProbe.run(mode: .encodeJSONAPI, path: flatPath),
            MemoryProbe.run(mode: .encodeFoundation, path: flatPath)
          ))
      }
    } catch {
      log("  cannot write temp files: \(describe(error))")
      return nil
    }
  }
}

// MARK: Report

enum MatrixReport {
  static func markdown(rows: [MatrixRow], memory: MatrixMemory?) -> String {
    var lines = [
      "| Shape | N | Input (JSON:API / plain) | | JSONAPICodable | Foundation | Ratio | Target |",
      "|---|---|---|---|---|---|---|---|",
    ]
    func add(_ cells: String...) { lines.append("| " + cells.joined(separator: " | ") + " |") }
    for row in rows {
      let input = "\(format(bytes: row.documentBytes)) / \(format(bytes: row.flatBytes))"
      let decodeRatio = quotient(row.decode.ours, row.decode.theirs)
      let encodeRatio = quotient(row.encode.ours, row.encode.theirs)
      // Small documents per call meet the same marks as large ones (issue 28).
      let decodeLimit = MatrixRunner.maxDecodeRatio
      let encodeLimit = MatrixRunner.maxEncodeRatio
      let judged = row.perCall || row.resourceCount >= 10_000
      add(
        row.shape.title, row.label, input, "decode", cell(row.decode.ours, row.perCall),
        cell(row.decode.theirs, row.perCall), decodeRatio.map(format(ratio:)) ?? "—",
        judged ? mark(decodeRatio.map { $0 <= decodeLimit }, "≤ \(format(ratio: decodeLimit))") : ""
      )
      add(
        "", "", "", "encode", cell(row.encode.ours, row.perCall),
        cell(row.encode.theirs, row.perCall), encodeRatio.map(format(ratio:)) ?? "—",
        judged ? mark(encodeRatio.map { $0 <= encodeLimit }, "≤ \(format(ratio: encodeLimit))") : ""
      )
    }
    // Per-resource cost from the smallest to the largest N of each shape: judged on the median of
    // the same-round ratios (both sizes timed in each round), the ratio of minimums beside it.
    for shape in MatrixShape.allCases {
      let sized = rows.filter { $0.shape == shape && !$0.perCall }
      guard let first = sized.first, let last = sized.last, last.resourceCount > first.resourceCount
      else { continue }
      for (direction, pick) in [
        ("decode", { (row: MatrixRow) in row.decode }),
        ("encode", { (row: MatrixRow) in row.encode }),
      ] {
        let ours = growth(pick(first).ours, first, pick(last).ours, last)
        let theirs = growth(pick(first).theirs, first, pick(last).theirs, last)
        add(
          shape.title, "\(first.label) → \(last.label)",
          "per-resource cost: median of same-round ratios (of minimums)", direction,
          growthCell(ours), growthCell(theirs), "—",
          mark(
            ours.sameRound.map { abs($0) <= MatrixRunner.maxDrift },
            "±\(Int(MatrixRunner.maxDrift * 100))%"))
      }
    }
    if let memory {
      let input = "\(format(bytes: memory.documentBytes)) / \(format(bytes: memory.flatBytes))"
      let decodeRatio = (try? memory.decode.ours.get()).map {
        Double($0.peakBytes) / Double(memory.documentBytes)
      }
      add(
        "Peak RSS, fresh process", format(count: memory.articleCount), input, "decode",
        memoryCell(memory.decode.ours), memoryCell(memory.decode.theirs),
        decodeRatio.map { "\(format(ratio: $0)) doc size" } ?? "—",
        mark(
          decodeRatio.map { $0 < MatrixRunner.maxMemoryRatio },
          "< \(format(ratio: MatrixRunner.maxMemoryRatio)) doc size"))
      var encodeRatio: Double?
      if let ours = try? memory.encode.ours.get(), let theirs = try? memory.encode.theirs.get() {
        encodeRatio = Double(ours.peakBytes) / Double(theirs.peakBytes)
      }
      add(
        "", "", "models decoded first", "encode", memoryCell(memory.encode.ours),
        memoryCell(memory.encode.theirs), encodeRatio.map(format(ratio:)) ?? "—",
        mark(encodeRatio.map { $0 <= 1 }, "≤ 1.00×"))
    }
    return lines.joined(separator: "\n")
  }

  private static func cell(_ measurement: Measurement, _ perCall: Bool) -> String {
    switch measurement {
    case .timed(let samples):
      let rate = perCall ? ", \(formatRate(1 / samples.median))" : ""
      let times = "\(format(seconds: samples.median)) (min \(format(seconds: samples.min))"
      return "\(times), n=\(samples.count)\(rate))"
    case .failed(let reason): return reason.replacingOccurrences(of: "|", with: "\\|")
    }
  }

  private static func formatRate(_ rate: Double) -> String {
    rate >= 1_000 ? "\(significant(rate / 1_000)) k calls/s" : "\(significant(rate)) calls/s"
  }

  private static func quotient(_ top: Measurement, _ bottom: Measurement) -> Double? {
    guard let a = top.median, let b = bottom.median, b > 0 else { return nil }
    return a / b
  }

  /// Growth of the per-resource cost from `smallRow` to `largeRow`: the median over the rounds
  /// that timed both sizes of (large time per resource) / (small time per resource), minus one;
  /// and the same ratio of the two minimums.
  private static func growth(
    _ small: Measurement, _ smallRow: MatrixRow, _ large: Measurement, _ largeRow: MatrixRow
  ) -> (sameRound: Double?, minimums: Double?) {
    let scale = Double(smallRow.resourceCount) / Double(largeRow.resourceCount)
    var minimums: Double?
    if let a = small.fastest, let b = large.fastest { minimums = b / a * scale - 1 }
    let ratios = zip(small.rounds, large.rounds).compactMap { pair -> Double? in
      guard let a = pair.0, let b = pair.1, a > 0 else { return nil }
      return b / a * scale - 1
    }.sorted()
    guard !ratios.isEmpty else { return (nil, minimums) }
    // The median; of an even count, the mean of the middle two.
    let middle = ratios.count / 2
    let median =
      ratios.count % 2 == 1 ? ratios[middle] : (ratios[middle - 1] + ratios[middle]) / 2
    return (median, minimums)
  }

  private static func growthCell(_ growth: (sameRound: Double?, minimums: Double?)) -> String {
    guard let sameRound = growth.sameRound else { return "—" }
    return percent(sameRound) + (growth.minimums.map { " (\(percent($0)))" } ?? "")
  }

  private static func percent(_ value: Double) -> String { String(format: "%+.1f%%", value * 100) }

  private static func mark(_ met: Bool?, _ text: String) -> String {
    switch met {
    case .some(true): "\(text) ✅"
    case .some(false): "\(text) ❌"
    case .none: "\(text) (not measured)"
    }
  }

  private static func memoryCell(_ result: Result<MemoryProbe.Result, MemoryProbe.ProbeError>)
    -> String
  {
    switch result {
    case .success(let probe):
      var text = "\(format(bytes: probe.peakBytes)) peak"
      if let base = probe.baseBytes {
        text += " (+\(format(bytes: probe.peakBytes - base)) over the models)"
      }
      return text
    case .failure(let error): return error.message.replacingOccurrences(of: "|", with: "\\|")
    }
  }
}
