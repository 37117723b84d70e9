import Foundation

/// One thing to time. `check` runs it once, timing the call, and compares its output with the
/// expected models (failure is nil when equal, else the text for the table cell); `run` is what
/// the rounds time.
struct Contender {
  struct Check {
    var failure: String?
    var seconds: Double
  }

  let name: String
  let check: (TimeSource) -> Check
  let run: () throws -> Void

  /// A decoder: its output must equal `expected`.
  static func decoding<T: Equatable>(
    _ name: String, expected: T, _ decode: @escaping () throws -> T
  ) -> Contender {
    Contender(
      name: name,
      check: { time in
        let start = time.now()
        do {
          let output = try decode()
          let elapsed = time.now() - start
          return Check(failure: output == expected ? nil : "output ≠ models", seconds: elapsed)
        } catch {
          return Check(failure: "throws: \(describe(error))", seconds: 0)
        }
      },
      run: { blackHole(try decode()) })
  }

  /// An encoder: decoding its output back with the matching decoder must give `value`.
  static func encoding<T: Equatable>(
    _ name: String, value: T, encode: @escaping () throws -> Data,
    decodeBack: @escaping (Data) throws -> T
  ) -> Contender {
    Contender(
      name: name,
      check: { time in
        let start = time.now()
        let bytes: Data
        do { bytes = try encode() } catch {
          return Check(failure: "throws: \(describe(error))", seconds: 0)
        }
        let elapsed = time.now() - start
        do {
          let failure = try decodeBack(bytes) == value ? nil : "round trip ≠ models"
          return Check(failure: failure, seconds: elapsed)
        } catch {
          return Check(failure: "round trip throws: \(describe(error))", seconds: 0)
        }
      },
      run: { blackHole(try encode()) })
  }
}

/// Outcome of one contender: its samples, or why it was not timed.
enum Measurement {
  case timed(Samples)
  case failed(String)

  var median: Double? {
    if case .timed(let samples) = self { return samples.median }
    return nil
  }

  var fastest: Double? {
    if case .timed(let samples) = self { return samples.min }
    return nil
  }

  var rounds: [Double?] {
    if case .timed(let samples) = self { return samples.rounds }
    return []
  }
}

/// A contender's time per call (seconds) in each round, in round order, `nil` for a round it sat
/// out: two contenders can then be compared round by round, and drift on a shared machine
/// cancels. The median and minimum are of the rounds it was timed in.
struct Samples {
  let rounds: [Double?]
  let median: Double
  let min: Double
  /// How many rounds it was timed in.
  let count: Int

  /// `nil` when no round timed it.
  init?(rounds: [Double?]) {
    let sorted = rounds.compactMap { $0 }.sorted()
    guard let first = sorted.first else { return nil }
    self.rounds = rounds
    median = sorted[sorted.count / 2]
    min = first
    count = sorted.count
  }
}

/// Keeps a result alive so the optimiser cannot drop the work that produced it.
@inline(never) func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

func describe(_ error: any Error) -> String {
  let text = String(describing: error).replacingOccurrences(of: "\n", with: " ")
  return text.count > 90 ? String(text.prefix(87)) + "…" : text
}

/// Which clock the rounds read. Wall time (`ContinuousClock`) is what a user waits; CPU time of
/// this process is steadier when other jobs share the cores (other processes' time slices do
/// not count), so `--clock cpu` is the better choice on a loaded machine.
enum TimeSource: String {
  case wall
  case cpu

  private static let origin = ContinuousClock.now

  /// Seconds since an arbitrary fixed point.
  func now() -> Double {
    switch self {
    case .wall:
      return seconds(ContinuousClock.now - Self.origin)
    case .cpu:
      var spec = timespec()
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
      return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
  }

  var label: String {
    switch self {
    case .wall: "wall-clock time (ContinuousClock)"
    case .cpu: "CPU time of the process (CLOCK_PROCESS_CPUTIME_ID)"
    }
  }
}

func seconds(_ duration: Duration) -> Double {
  let parts = duration.components
  return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
}

/// Checks every contender, then times the ones that passed in interleaved rounds (A, B, C, A, B,
/// C, …) so that drift on a shared machine affects all of them alike. Calls shorter than
/// `minimumSample` are repeated within a round and the time divided. A contender whose samples
/// add up to `budget` seconds sits out the remaining rounds; one whose checked call alone took
/// longer than `budget` (the flatten-then-decode baseline at N = 100 000) keeps that call as its
/// only sample, so the run stays within minutes.
///
/// With `warmShortCalls`, a contender whose calls repeat within a round makes one untimed call
/// first: its samples are then all of the steady state its repetitions measure, whatever ran
/// before it in the round (the matrix interleaves a shape's sizes, so a 100 000-resource call
/// can come just before a 1 000-resource one and leave the caches cold).
func measure(
  _ contenders: [Contender], rounds: Int, time: TimeSource, minimumSample: Double = 0.02,
  budget: Double = 15, warmShortCalls: Bool = false
) -> [Measurement] {
  var failures: [String?] = []
  var repetitions: [Int] = []
  var samples = [[Double?]](repeating: [], count: contenders.count)
  var spent = [Double](repeating: 0, count: contenders.count)
  for (index, contender) in contenders.enumerated() {
    let check = contender.check(time)
    failures.append(check.failure)
    repetitions.append(max(1, Int((minimumSample / max(check.seconds, 1e-7)).rounded(.up))))
    if check.failure == nil, check.seconds >= budget {
      samples[index].append(check.seconds)
      spent[index] = check.seconds
    } else {
      samples[index].append(nil)
    }
    log("  checked \(contender.name): \(check.failure ?? "ok") (\(format(seconds: check.seconds)))")
  }
  for _ in 0..<rounds {
    for (index, contender) in contenders.enumerated() {
      guard failures[index] == nil && spent[index] < budget else {
        samples[index].append(nil)
        continue
      }
      let start: Double
      do {
        if warmShortCalls && repetitions[index] > 1 { try contender.run() }
        start = time.now()
        for _ in 0..<repetitions[index] { try contender.run() }
      } catch {
        failures[index] = "throws: \(describe(error))"
        samples[index].append(nil)
        continue
      }
      let elapsed = time.now() - start
      spent[index] += elapsed
      samples[index].append(elapsed / Double(repetitions[index]))
    }
  }
  return contenders.indices.map { index in
    if let failure = failures[index] { return .failed(failure) }
    guard let timed = Samples(rounds: samples[index]) else { return .failed("no sample") }
    return .timed(timed)
  }
}

/// Progress goes to stderr so that stdout carries only the Markdown report.
func log(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}
