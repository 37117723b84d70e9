import Foundation

/// A minimal check runner: named checks, expectations that record failures, and notes where the
/// server departs from the JSON:API spec. Shared by the suites of this package (IntegrationSuite
/// against the Django server, HummingbirdSuite against Examples/HummingbirdServer).
@MainActor public final class Harness {
  /// How many checks passed.
  public private(set) var passed = 0
  /// One line per failed expectation or thrown error, naming the check.
  public private(set) var failed: [String] = []
  /// The departures from the specification noted so far.
  public private(set) var departures: [String] = []
  private var current = ""
  private var currentFailures = 0

  func begin(_ name: String) {
    current = name
    currentFailures = 0
  }

  func expect(_ condition: Bool, _ message: String, line: Int) {
    guard !condition else { return }
    currentFailures += 1
    failed.append("\(current) (line \(line)): \(message)")
  }

  func end(error: (any Error)?) {
    if let error {
      currentFailures += 1
      failed.append("\(current): threw \(error)")
    }
    if currentFailures == 0 {
      passed += 1
      print("  ok    \(current)")
    } else {
      print("  FAIL  \(current)")
    }
  }

  func departure(_ rule: String, _ text: String) {
    departures.append("\(rule): \(text)")
    print("        departure from the spec (\(rule)): \(text)")
  }
}

/// The one runner of a suite's process.
@MainActor public let harness = Harness()

/// Prints the totals and the failures, and exits with 0 when every check passed.
@MainActor public func finish(_ suite: String) -> Never {
  print("")
  print(
    "\(suite): \(harness.passed) checks passed, \(harness.failed.count) failed, "
      + "\(harness.departures.count) departures")
  for failure in harness.failed { print("  FAILED: \(failure)") }
  exit(harness.failed.isEmpty ? 0 : 1)
}

/// Runs one named check.
@MainActor public func check(_ name: String, _ body: () async throws -> Void) async {
  harness.begin(name)
  do {
    try await body()
    harness.end(error: nil)
  } catch {
    harness.end(error: error)
  }
}

/// Records a failure of the current check unless `condition` holds.
@MainActor public func expect(
  _ condition: Bool, _ message: @autoclosure () -> String = "", line: Int = #line
) async {
  harness.expect(condition, condition ? "" : message(), line: line)
}

/// Runs `body`, expecting it to throw an error of type `E`, and returns that error.
@MainActor public func expectThrows<E: Error>(
  _ type: E.Type, line: Int = #line, _ body: () async throws -> Void
) async -> E? {
  do {
    try await body()
    harness.expect(false, "expected \(E.self), nothing was thrown", line: line)
  } catch let error as E {
    return error
  } catch {
    harness.expect(false, "expected \(E.self), got \(error)", line: line)
  }
  return nil
}

/// Notes where the server departs from the spec; the check then verifies what the spec requires
/// in the client's own handling (unit tests with stubs cover the spec's answer).
@MainActor public func departure(_ rule: String, _ text: String) async {
  harness.departure(rule, text)
}

/// The value, or a failed check when it is missing.
@MainActor public func required<T>(_ value: T?, _ what: String, line: Int = #line) async throws -> T
{
  guard let value else {
    harness.expect(false, "\(what) is missing", line: line)
    throw MissingValue(what: what)
  }
  return value
}

/// Thrown by `required` to end a check whose later steps need the missing value.
public struct MissingValue: Error {
  /// What was missing.
  public let what: String

  /// Names what was missing.
  public init(what: String) {
    self.what = what
  }
}
