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
//     --matrix           the shape matrix of issue 15 (see Matrix.swift); with --quick,
//                        --shape a,b (subset), --sizes N,M (override), --clock cpu
//     --profile-decode [jsonapi|foundation] [N] [repeats] [--shape S]
//                        decode the N-article document (default 10 000) a few times and exit;
//                        for callgrind, see Scripts/profile-decoder.sh
//     --profile-encode [jsonapi|foundation] [N] [repeats]   the same for the encoders
//     --write N DIR      write the N-article document.json and flat.json into DIR and exit
//     --memory-probe MODE FILE   internal: the child side of the memory measurement
// The Markdown report goes to stdout, progress to stderr.

func fail(_ message: String) -> Never {
  log("error: \(message)")
  exit(64)
}

var arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "--memory-probe" {
  guard arguments.count == 3, let mode = MemoryProbe.Mode(rawValue: arguments[1]) else {
    fail("usage: --memory-probe idle|jsonapi|foundation|encode-jsonapi|encode-foundation FILE")
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
  var rest = Array(arguments.dropFirst())
  var shape = "articles"
  if let index = rest.firstIndex(of: "--shape"), index + 1 < rest.count {
    shape = rest[index + 1]
    rest.removeSubrange(index...(index + 1))
  }
  let contender = rest.first { $0 == "jsonapi" || $0 == "foundation" } ?? "jsonapi"
  let numbers = rest.compactMap { Int($0) }
  let count = numbers.first ?? 10_000
  let repeats = numbers.dropFirst().first ?? 3
  do {
    let result = try ProfileShapes.run(
      shape: shape, encoding: encoding, jsonapi: contender == "jsonapi", count: count,
      repeats: repeats)
    let unit = encoding ? "bytes encoded" : "values decoded"
    log("\(result) \(unit) with \(contender), shape \(shape) (\(repeats) × N = \(count))")
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
var matrix = false
var shapes = MatrixShape.allCases
var matrixSizes: [Int]?
while let argument = arguments.first {
  arguments.removeFirst()
  switch argument {
  case "--quick": quick = true
  case "--no-memory": measureMemory = false
  case "--no-special": includeSpecials = false
  case "--matrix": matrix = true
  case "--shape":
    let names = (arguments.first ?? "").split(separator: ",").map(String.init)
    let picked = names.compactMap(MatrixShape.init(rawValue:))
    guard !picked.isEmpty, picked.count == names.count else {
      fail(
        "--shape needs names from: " + MatrixShape.allCases.map(\.rawValue).joined(separator: ","))
    }
    arguments.removeFirst()
    shapes = picked
    matrix = true
  case "--sizes":
    let values = (arguments.first ?? "").split(separator: ",").compactMap { Int($0) }
    guard !values.isEmpty, values.allSatisfy({ $0 > 0 }) else {
      fail("--sizes needs positive counts, comma-separated")
    }
    arguments.removeFirst()
    matrixSizes = values
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

if matrix {
  let started = ContinuousClock.now
  let runner = MatrixRunner(shapes: shapes, quick: quick, sizes: matrixSizes, time: time)
  let result = runner.run()
  let elapsed = seconds(ContinuousClock.now - started)
  print("JSONAPICodable shape matrix: \(machineDescription()).")
  print(
    "Release build; \(time.label), median (and min) of n interleaved rounds per call; ratios are"
      + " medians in the same run; load average \(loadAverage()) at the end; run took"
      + " \(format(seconds: elapsed)).")
  print("")
  print(MatrixReport.markdown(rows: result.rows, memory: result.memory))
  exit(0)
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
