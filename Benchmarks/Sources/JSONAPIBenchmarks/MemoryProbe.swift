import Foundation
import JSONAPICodable

/// Peak memory is measured in fresh processes (this same binary with `--memory-probe`), so that
/// neither document generation nor earlier benchmarks count. The files are written beforehand.
enum MemoryProbe {
  enum Mode: String {
    case idle  // only read the file: the floor every decoder pays
    case jsonapi  // JSONAPIDecoder on the JSON:API document
    case foundation  // JSONDecoder on the flat JSON
    // Encoders: the models are decoded from the flat JSON first, then the peak is reset
    // (/proc/self/clear_refs) and the encoding alone raises it again.
    case encodeJSONAPI = "encode-jsonapi"
    case encodeFoundation = "encode-foundation"
  }

  struct Result {
    var peakBytes: Int
    var decodedCount: Int
    /// Resident memory just before encoding (the models), for the encode probes.
    var baseBytes: Int? = nil
  }

  /// Child side: read, decode, report `peak_bytes=… count=…` on stdout.
  static func runChild(mode: Mode, path: String) -> Int32 {
    guard let data = FileManager.default.contents(atPath: path) else {
      print("error=cannot read \(path)")
      return 2
    }
    var count = 0
    var base: Int?
    do {
      switch mode {
      case .idle:
        count = data.count > 0 ? 1 : 0
      case .jsonapi:
        let articles = try JSONAPIDecoder().decode([Article].self, from: data)
        count = articles.count
        blackHole(articles)
      case .foundation:
        let articles = try JSONDecoder().decode([Article].self, from: data)
        count = articles.count
        blackHole(articles)
      case .encodeJSONAPI, .encodeFoundation:
        let articles = try JSONDecoder().decode([Article].self, from: data)
        base = resetPeak()
        let bytes =
          mode == .encodeJSONAPI
          ? try JSONAPIEncoder().encode(articles) : try JSONEncoder().encode(articles)
        count = bytes.count
        blackHole(bytes)
        blackHole(articles)
      }
    } catch {
      print("error=\(describe(error))")
      return 3
    }
    blackHole(data)
    print(
      "peak_bytes=\(peakResidentBytes()) count=\(count)" + (base.map { " base_bytes=\($0)" } ?? ""))
    return 0
  }

  /// Parent side: run the child and parse its answer.
  static func run(mode: Mode, path: String) -> Swift.Result<Result, ProbeError> {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executablePath())
    process.arguments = ["--memory-probe", mode.rawValue, path]
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch { return .failure(ProbeError(describe(error))) }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    var fields: [String: String] = [:]
    for part in output.split(whereSeparator: \.isWhitespace) {
      let pair = part.split(separator: "=", maxSplits: 1)
      if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
    }
    if let peak = fields["peak_bytes"].flatMap(Int.init),
      let count = fields["count"].flatMap(Int.init)
    {
      return .success(
        Result(
          peakBytes: peak, decodedCount: count, baseBytes: fields["base_bytes"].flatMap(Int.init)))
    }
    let reason = output.split(separator: "\n").first { $0.hasPrefix("error=") }
    return .failure(
      ProbeError(
        reason.map { "throws: " + $0.dropFirst(6) }
          ?? "probe exited with \(process.terminationStatus)"))
  }

  struct ProbeError: Error {
    var message: String
    init(_ message: String) { self.message = message }
  }

  /// Resets the kernel's high-water mark to the current resident set (Linux ≥ 4.0) and returns
  /// that resident set (VmRSS).
  static func resetPeak() -> Int? {
    guard
      (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil,
      let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      if let kib = Int(line.filter(\.isNumber)) { return kib * 1024 }
    }
    return nil
  }

  /// VmHWM (the high-water mark of resident memory) from /proc; getrusage elsewhere.
  static func peakResidentBytes() -> Int {
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) {
      for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let digits = line.filter(\.isNumber)
        if let kib = Int(digits) { return kib * 1024 }
      }
    }
    var usage = rusage()
    #if os(Linux)
      getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
      getrusage(RUSAGE_SELF, &usage)
    #endif
    #if os(Linux)
      return usage.ru_maxrss * 1024
    #else
      return usage.ru_maxrss
    #endif
  }

  private static func executablePath() -> String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
  }
}
