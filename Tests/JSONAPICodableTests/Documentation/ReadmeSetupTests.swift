import Foundation
import Testing

// The README's first two commands are the project's contract with a new user: run the example,
// run the tests. Guard them against accidental edits.
@Suite struct ReadmeSetupTests {
  static let readmeURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Documentation
    .deletingLastPathComponent()  // JSONAPICodableTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // package root
    .appendingPathComponent("README.md")

  @Test func firstCommandsRunTheExampleThenTheTests() throws {
    let readme = try String(contentsOf: Self.readmeURL, encoding: .utf8)
    let commands = readme.components(separatedBy: "\n")
      .filter { $0.hasPrefix("swift ") }
      .map { $0.components(separatedBy: "#")[0].trimmingCharacters(in: .whitespaces) }
    #expect(Array(commands.prefix(2)) == ["swift run ClientExample", "swift test"])
  }

  @Test func exampleTargetsExistWhereThePackageSays() throws {
    let root = Self.readmeURL.deletingLastPathComponent()
    for name in ["ClientExample", "ServerExample"] {
      let main = root.appendingPathComponent("Examples/\(name)/main.swift")
      #expect(FileManager.default.fileExists(atPath: main.path), "missing \(main.path)")
    }
  }
}
