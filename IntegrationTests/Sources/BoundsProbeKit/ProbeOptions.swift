import Foundation

/// The cases of the bounds probe; the raw value is the `--case` name.
enum ProbeCase: String, CaseIterable {
  case honest, chunked, close, lying, gzip, baseline, smuggle
  case lyingHuge = "lying-huge"
}

/// The command line of one probe run.
struct ProbeOptions {
  struct Problem: Error {
    var message: String
  }

  static let usage = """
    usage: --case NAME --base URL [--limit BYTES] [--id N] [--transport LABEL]
      NAME: \(ProbeCase.allCases.map(\.rawValue).joined(separator: ", "))
      URL: the hostile server (Scripts/hostile-server.py), such as http://127.0.0.1:8080/
      BYTES: maxResponseBytes, default 1048576
    """

  var probeCase: ProbeCase
  var base: URL
  var limit = 1024 * 1024
  var id = 1
  var transport = "custom"

  static func parse(_ arguments: [String]) -> Result<ProbeOptions, Problem> {
    var values: [String: String] = [:]
    var index = arguments.startIndex
    while index < arguments.endIndex {
      let name = arguments[index]
      guard ["--case", "--base", "--limit", "--id", "--transport"].contains(name) else {
        return .failure(Problem(message: "unknown argument \(name)"))
      }
      let valueIndex = arguments.index(after: index)
      guard valueIndex < arguments.endIndex else {
        return .failure(Problem(message: "\(name) needs a value"))
      }
      values[name] = arguments[valueIndex]
      index = arguments.index(after: valueIndex)
    }
    guard let caseName = values["--case"], let probeCase = ProbeCase(rawValue: caseName) else {
      return .failure(Problem(message: "--case is missing or unknown"))
    }
    guard let address = values["--base"], let base = URL(string: address), base.host != nil
    else { return .failure(Problem(message: "--base is missing or not a URL")) }
    var options = ProbeOptions(probeCase: probeCase, base: base)
    if let text = values["--limit"] {
      // A positive limit, and one whose KiB count and sum with the allowance cannot overflow.
      guard let limit = Int(text), limit > 0, limit <= Int(Int32.max) else {
        return .failure(Problem(message: "--limit must be a positive number of bytes"))
      }
      options.limit = limit
    }
    if let text = values["--id"] {
      guard let id = Int(text), id >= 0, id <= 1_000_000 else {
        return .failure(Problem(message: "--id must be a number from 0 to 1000000"))
      }
      options.id = id
    }
    if let transport = values["--transport"] { options.transport = transport }
    return .success(options)
  }
}
