import Foundation
import JSONAPICodable

// JSONAPICodable benchmarks. Usage:
//   swift run -c release --package-path Benchmarks JSONAPIBenchmarks [options]
//     (no option)        N = 100, 1 000, 10 000, 100 000, peak memory, special documents
//     --quick            N up to 10 000, fewer rounds (fast iteration)
//     --only N           just that N (plus peak memory at N unless --no-memory)
//     --no-memory        skip the fresh-process memory probes
//     --no-special       skip the deep-chain and many-references documents
//     --clock wall|cpu   what the rounds measure (default wall; cpu resists other jobs' load)
//     --profile-decode [jsonapi|foundation] [N] [repeats]
//                        decode the N-article document (default 10 000) a few times and exit;
//                        for callgrind, see Scripts/profile-decoder.sh
//     --profile-encode [jsonapi|foundation] [N] [repeats]   the same for the encoders
//     --write N DIR      write the N-article document.json and flat.json into DIR and exit
//     --memory-probe MODE FILE   internal: the child side of the memory measurement
// The Markdown report goes to stdout, progress to stderr.

/// Kept out of line with a distinctive name so callgrind can collect just the decoding
/// (`--toggle-collect='*profiledDecode*'`), not the generation of the input.
@inline(never) func profiledDecodeJSONAPI(_ document: Data, repeats: Int) throws -> Int {
  let decoder = JSONAPIDecoder()
  var total = 0
  for _ in 0..<repeats { total += try decoder.decode([Article].self, from: document).count }
  return total
}

@inline(never) func profiledDecodeFoundation(_ flat: Data, repeats: Int) throws -> Int {
  let decoder = JSONDecoder()
  var total = 0
  for _ in 0..<repeats { total += try decoder.decode([Article].self, from: flat).count }
  return total
}

@inline(never) func profiledEncodeJSONAPI(_ articles: [Article], repeats: Int) throws -> Int {
  let encoder = JSONAPIEncoder()
  var total = 0
  for _ in 0..<repeats { total += try encoder.encode(articles).count }
  return total
}

@inline(never) func profiledEncodeFoundation(_ articles: [Article], repeats: Int) throws -> Int {
  let encoder = JSONEncoder()
  var total = 0
  for _ in 0..<repeats { total += try encoder.encode(articles).count }
  return total
}

func fail(_ message: String) -> Never {
  log("error: \(message)")
  exit(64)
}

var arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "--memory-probe" {
  guard arguments.count == 3, let mode = MemoryProbe.Mode(rawValue: arguments[1]) else {
    fail("usage: --memory-probe idle|jsonapi|foundation FILE")
  }
  exit(MemoryProbe.runChild(mode: mode, path: arguments[2]))
}

if arguments.first == "--write" {
  guard arguments.count == 3, let articleCount = Int(arguments[1]), articleCount > 0 else {
    fail("usage: --write N DIR")
  }
  let corpus = ArticleCorpus(articleCount: articleCount)
  let directory = URL(fileURLWithPath: arguments[2], isDirectory: true)
  do {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try corpus.document.write(to: directory.appendingPathComponent("document.json"))
    try corpus.flat.write(to: directory.appendingPathComponent("flat.json"))
  } catch {
    fail("cannot write: \(error)")
  }
  exit(0)
}

if arguments.first == "--profile-decode" || arguments.first == "--profile-encode" {
  let encoding = arguments.first == "--profile-encode"
  let rest = Array(arguments.dropFirst())
  let contender = rest.first { $0 == "jsonapi" || $0 == "foundation" } ?? "jsonapi"
  let numbers = rest.compactMap { Int($0) }
  let articleCount = numbers.first ?? 10_000
  let repeats = numbers.dropFirst().first ?? 3
  let corpus = ArticleCorpus(articleCount: articleCount)
  do {
    let result: Int
    switch (encoding, contender) {
    case (false, "jsonapi"): result = try profiledDecodeJSONAPI(corpus.document, repeats: repeats)
    case (false, _): result = try profiledDecodeFoundation(corpus.flat, repeats: repeats)
    case (true, "jsonapi"): result = try profiledEncodeJSONAPI(corpus.articles, repeats: repeats)
    case (true, _): result = try profiledEncodeFoundation(corpus.articles, repeats: repeats)
    }
    let unit = encoding ? "bytes encoded" : "articles decoded"
    log("\(result) \(unit) with \(contender) (\(repeats) × N = \(articleCount))")
    exit(0)
  } catch {
    fail("\(contender) threw: \(error)")
  }
}

var quick = false
var measureMemory = true
var includeSpecials = true
var only: Int?
var time = TimeSource.wall
while let argument = arguments.first {
  arguments.removeFirst()
  switch argument {
  case "--quick": quick = true
  case "--no-memory": measureMemory = false
  case "--no-special": includeSpecials = false
  case "--only":
    guard let value = arguments.first.flatMap({ Int($0) }), value > 0 else {
      fail("--only needs a positive article count")
    }
    arguments.removeFirst()
    only = value
  case "--clock":
    guard let value = arguments.first.flatMap(TimeSource.init(rawValue:)) else {
      fail("--clock needs wall or cpu")
    }
    arguments.removeFirst()
    time = value
  default: fail("unknown argument \(argument)")
  }
}

let sizes = only.map { [$0] } ?? (quick ? [100, 1_000, 10_000] : [100, 1_000, 10_000, 100_000])
let started = ContinuousClock.now
let runner = Runner(
  sizes: sizes, quick: quick, measureMemory: measureMemory, includeSpecials: includeSpecials,
  time: time)
let report = runner.run()
let elapsed = seconds(ContinuousClock.now - started)

print("JSONAPICodable benchmark: \(machineDescription()).")
print(
  "Release build; \(time.label), median (and min) of n interleaved rounds per call on the whole"
    + " document; load average \(loadAverage()) at the end; run took \(format(seconds: elapsed)).")
print("")
print(report.markdown())
