import Foundation
import JSONAPICodable
import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Runs one case of the bounds probe of issue 27 against `Scripts/hostile-server.py` and prints
/// one `RESULT` line; returns the process's exit status.
///
/// One process runs one case, so that no other case's memory, connections or queued callbacks
/// blur the reading. `arguments` are the command line after the executable's name:
///
/// ```
/// --case NAME --base URL [--limit BYTES] [--id N] [--transport LABEL]
/// ```
///
/// - `--case`: `honest`, `chunked`, `close`, `lying-huge` and `gzip` send a body larger than the
///   limit and expect ``JSONAPIClientError/responseTooLarge(limit:)``; `lying` announces 1 KiB,
///   sends a complete 1 KiB document and then 64 MiB more, and expects the next request to get its
///   own answer; `baseline` sends a body of exactly the limit through the transport alone and
///   expects it accepted within the same bound (its growth is what the allowance is chosen from,
///   and it shows that the allowance fits the transport's own buffers); `smuggle` checks that
///   an unasked-for answer, or a body cut short, never becomes the answer to the next request.
/// - `--base`: the server's URL, such as `http://127.0.0.1:8080/`.
/// - `--limit`: `maxResponseBytes`, default 1 MiB.
/// - `--id`: the id the first answer carries (later requests count up from it), default 1.
/// - `--transport`: a name for the `RESULT` line only; the caller chooses `transport`.
///
/// Every case but `smuggle` measures peak memory: a warm-up request, then `malloc_trim(0)` and a
/// reset of `VmHWM`, then the case, then `VmHWM` again; it passes when the growth is at most the
/// limit plus ``allowanceBytes``. Requests carry `Authorization: Bearer secret`, set in
/// `prepareRequest` as an app would.
///
/// ```swift
/// let status = await runBoundsProbe(
///   transport: URLSessionTransport.shared, arguments: Array(CommandLine.arguments.dropFirst()))
/// exit(status)
/// ```
///
/// - Returns: 0 when the case held its bounds, 1 when it did not, 2 for a usage error or when
///   peak memory cannot be measured (it is read from Linux's `/proc`).
public func runBoundsProbe(transport: any JSONAPITransport, arguments: [String]) async -> Int32 {
  let options: ProbeOptions
  switch ProbeOptions.parse(arguments) {
  case .success(let parsed): options = parsed
  case .failure(let problem):
    printError("\(problem.message)\n\(ProbeOptions.usage)")
    return 2
  }
  let probe = Probe(options: options, transport: transport)
  return await probe.run()
}

/// How much peak memory may grow beyond the limit while a case runs.
///
/// The probe's process holds more than the body while it receives one: the transport's socket and
/// decompression buffers, the async runtime's task allocations, the `Data` that grows by doubling
/// (briefly holding old and new storage), and the heap the allocator keeps per thread. A
/// within-limit baseline (`--case baseline`, a body of exactly the limit, accepted) measures
/// that overhead; the allowance leaves room for it with a margin, while staying far below what an
/// unbounded read of the 64 MiB and 200 MiB cases shows.
public let allowanceBytes = 8 * 1024 * 1024

/// A document of the hostile server's `/ok` and `/smuggle` answers.
private struct Answer: Decodable {
  var id: String
}

private struct Probe {
  let options: ProbeOptions
  let transport: any JSONAPITransport
  let client: JSONAPIClient

  init(options: ProbeOptions, transport: any JSONAPITransport) {
    self.options = options
    self.transport = transport
    let configuration = JSONAPIClient.Configuration(
      maxResponseBytes: options.limit,
      prepareRequest: { request in
        // A credential, as an app sets one: a transport must not carry it anywhere else.
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
      })
    client = JSONAPIClient(
      baseURL: options.base, configuration: configuration, transport: transport)
  }

  func run() async -> Int32 {
    var fields = ["case=\(options.probeCase.rawValue)", "transport=\(options.transport)"]
    fields.append("limit_kib=\(options.limit / 1024)")
    if options.probeCase == .smuggle {
      let passed = await smuggle(&fields)
      return finish(fields, passed: passed)
    }
    if let reason = PeakMemory.unavailableReason {
      printError("cannot measure peak memory: \(reason)")
      return 2
    }
    // The warm-up loads the runtime, the transport and the decoder, and opens the connection
    // the case may reuse, so that what the case measures is its own.
    let warmUp = await fetch("ok?id=0")
    guard case .success(let answer) = warmUp, answer.id == "0" else {
      fields.append("error=warm-up:\(outcome(warmUp))")
      return finish(fields, passed: false)
    }
    guard PeakMemory.reset(), let before = PeakMemory.read() else {
      printError("cannot reset or read peak memory through /proc/self")
      return 2
    }
    var passed = await measuredCase(&fields)
    guard let after = PeakMemory.read() else {
      printError("cannot read /proc/self/status")
      return 2
    }
    let growth = after.peakKiB - before.peakKiB
    let bound = (options.limit + allowanceBytes) / 1024
    fields += [
      "growth_kib=\(growth)", "bound_kib=\(bound)", "peak_before_kib=\(before.peakKiB)",
      "rss_after_kib=\(after.residentKiB)",
    ]
    // The baseline too: a body within the limit must fit the same bound, or the allowance is too
    // small for this transport's own buffers and the other cases would measure nothing.
    if growth > bound { passed = false }
    return finish(fields, passed: passed)
  }

  /// Runs the case between the two readings; `true` when its outcome is the expected one.
  private func measuredCase(_ fields: inout [String]) async -> Bool {
    let id = options.id
    switch options.probeCase {
    case .honest, .chunked, .close:
      return expectTooLarge(await fetch("\(options.probeCase.rawValue)?mib=64&id=\(id)"), &fields)
    case .lyingHuge:
      return expectTooLarge(await fetch("lying-huge?kib=64&id=\(id)"), &fields)
    case .gzip:
      // Counted after decoding and refused past the limit, or refused unread by a transport that
      // takes no compressed bodies at all: both keep memory bounded. A body handed on still
      // compressed, or decoded in full, is not a refusal.
      let result = await fetch("gzip?mib=200")
      fields.append("error=\(errorLabel(result))")
      return isTooLarge(result) || isTransportRefusal(result)
    case .lying:
      // The announced 1 KiB is a complete document: taking it, or refusing the answer, are both
      // sound. What must not happen is memory growing with the excess, or the excess being read
      // as the next answer.
      let first = await fetch("lying?mib=64&id=\(id)")
      fields.append("error=\(errorLabel(first))")
      var passed = true
      if case .success(let answer) = first, answer.id != "\(id)" { passed = false }
      if case .success(let answer) = first { fields.append("first_id=\(token(answer.id))") }
      let next = await fetch("ok?id=\(id + 1)")
      fields.append("next=\(outcome(next))")
      if case .success(let answer) = next, answer.id == "\(id + 1)" {} else { passed = false }
      return passed
    case .baseline:
      return await baseline(&fields)
    case .smuggle:
      return false
    }
  }

  /// A body of exactly the limit, sent through the transport alone (no decoding), so that its
  /// growth is the limit plus what the stack itself holds.
  private func baseline(_ fields: inout [String]) async -> Bool {
    guard
      let url = URL(
        string: "honest?bytes=\(options.limit)&id=\(options.id)", relativeTo: options.base)
    else { return false }
    var request = URLRequest(url: url.absoluteURL)
    request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
    do {
      let (body, response) = try await transport.send(request, maxResponseBytes: options.limit)
      fields += ["error=none", "status=\(response.statusCode)", "body_bytes=\(body.count)"]
      return response.statusCode == 200 && body.count == options.limit
    } catch {
      printError("baseline: \(error)")
      fields.append("error=\(label(error))")
      return false
    }
  }

  /// One answer per request (issue 27, part 2): an unasked-for answer on an idle kept-alive
  /// connection, and a body cut short at the limit, must never reach the next request.
  private func smuggle(_ fields: inout [String]) async -> Bool {
    let id = options.id
    var passed = true
    let warmUp = await fetch("ok?id=0")
    fields.append("warm_up=\(outcome(warmUp))")
    let first = await fetch("smuggle?id=\(id)")
    fields.append("first=\(outcome(first))")
    if case .success(let answer) = first, answer.id == "\(id)" {} else { passed = false }
    // The server sends its unasked-for answer 0.1 s after the real one: it is waiting on the
    // idle connection when the next request goes out.
    try? await Task.sleep(nanoseconds: 300_000_000)
    let second = await fetch("ok?id=\(id + 1)")
    fields.append("second=\(outcome(second))")
    if case .success(let answer) = second, answer.id == "\(id + 1)" {} else { passed = false }
    var next = id + 2
    for cut in ["honest", "chunked"] {
      let oversized = await fetch("\(cut)?mib=8&id=\(next)")
      fields.append("\(cut)=\(outcome(oversized))")
      if !isTooLarge(oversized) { passed = false }
      next += 1
      let after = await fetch("ok?id=\(next)")
      fields.append("after_\(cut)=\(outcome(after))")
      if case .success(let answer) = after, answer.id == "\(next)" {} else { passed = false }
      next += 1
    }
    return passed
  }

  /// Fetches `reference` (a path and query relative to the base URL) as an ``Answer``.
  private func fetch(_ reference: String) async -> Result<Answer, any Error> {
    guard let url = URL(string: reference, relativeTo: options.base) else {
      return .failure(JSONAPIClientError.invalidURL(reference))
    }
    do {
      return .success(try await client.get(Answer.self, from: url.absoluteURL))
    } catch {
      printError("\(reference): \(error)")
      return .failure(error)
    }
  }

  private func expectTooLarge(_ result: Result<Answer, any Error>, _ fields: inout [String])
    -> Bool
  {
    fields.append("error=\(errorLabel(result))")
    return isTooLarge(result)
  }

  private func isTooLarge(_ result: Result<Answer, any Error>) -> Bool {
    if case .failure(JSONAPIClientError.responseTooLarge) = result { return true }
    return false
  }

  /// A failure the transport itself raised: not the client's, the decoder's or the library's.
  private func isTransportRefusal(_ result: Result<Answer, any Error>) -> Bool {
    guard case .failure(let error) = result else { return false }
    return
      !(error is JSONAPIClientError || error is DecodingError || error is JSONAPIError
      || error is JSONAPIResponseError || error is URLError || error is CancellationError)
  }

  private func finish(_ fields: [String], passed: Bool) -> Int32 {
    print((["RESULT"] + fields + ["verdict=\(passed ? "pass" : "fail")"]).joined(separator: " "))
    return passed ? 0 : 1
  }
}

/// `id:N` for an answer, or the error's label.
private func outcome(_ result: Result<Answer, any Error>) -> String {
  switch result {
  case .success(let answer): return "id:\(token(answer.id))"
  case .failure(let error): return label(error)
  }
}

/// `none` for an answer, or the error's label.
private func errorLabel(_ result: Result<Answer, any Error>) -> String {
  switch result {
  case .success: return "none"
  case .failure(let error): return label(error)
  }
}

/// A short name for an error, without spaces, for the `RESULT` line (the whole error goes to
/// standard error).
private func label(_ error: any Error) -> String {
  switch error {
  case let error as JSONAPIClientError:
    switch error {
    case .responseTooLarge: return "responseTooLarge"
    case .invalidURL: return "invalidURL"
    case .originNotAllowed: return "originNotAllowed"
    case .tooManyPages: return "tooManyPages"
    case .paginationCycle: return "paginationCycle"
    case .missingDocument(let status): return "missingDocument(\(status))"
    case .unexpectedContentType: return "unexpectedContentType"
    case .atomicResultsMismatch: return "atomicResultsMismatch"
    }
  case let error as URLError: return "URLError(\(error.code.rawValue))"
  case let error as JSONAPIResponseError: return "JSONAPIResponseError(\(error.statusCode))"
  case is DecodingError: return "DecodingError"
  case is CancellationError: return "CancellationError"
  default: return token(String(describing: type(of: error)))
  }
}

/// `text` with anything that would split a `RESULT` field replaced.
private func token(_ text: String) -> String {
  String(text.map { $0.isWhitespace || $0 == "=" ? "_" : $0 })
}

private func printError(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}
