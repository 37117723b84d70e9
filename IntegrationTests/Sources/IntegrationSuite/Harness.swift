import Foundation

/// A minimal check runner: named checks, expectations that record failures, and notes where the
/// server departs from the JSON:API spec.
@MainActor final class Harness {
  private(set) var passed = 0
  private(set) var failed: [String] = []
  private(set) var departures: [String] = []
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

@MainActor let harness = Harness()

/// Runs one named check.
@MainActor func check(_ name: String, _ body: () async throws -> Void) async {
  harness.begin(name)
  do {
    try await body()
    harness.end(error: nil)
  } catch {
    harness.end(error: error)
  }
}

/// Records a failure of the current check unless `condition` holds.
@MainActor func expect(
  _ condition: Bool, _ message: @autoclosure () -> String = "", line: Int = #line
) async {
  harness.expect(condition, condition ? "" : message(), line: line)
}

/// Runs `body`, expecting it to throw an error of type `E`, and returns that error.
@MainActor func expectThrows<E: Error>(
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
@MainActor func departure(_ rule: String, _ text: String) async {
  harness.departure(rule, text)
}

/// The value, or a failed check when it is missing.
@MainActor func required<T>(_ value: T?, _ what: String, line: Int = #line) async throws -> T {
  guard let value else {
    harness.expect(false, "\(what) is missing", line: line)
    throw MissingValue(what: what)
  }
  return value
}

/// Thrown by `required` to end a check whose later steps need the missing value.
struct MissingValue: Error {
  let what: String
}
