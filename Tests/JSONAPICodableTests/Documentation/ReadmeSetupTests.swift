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

  /// The text between `prefix` and the next `"` on each line of `text` that has `prefix`.
  static func quoted(after prefix: String, in text: String) -> [String] {
    text.components(separatedBy: "\n").compactMap { line in
      guard let start = line.range(of: prefix) else { return nil }
      return line[start.upperBound...].components(separatedBy: "\"").first
    }
  }

  // The install snippet is not compiled (it is manifest code): check what it names instead.
  @Test func installSnippetNamesTheProductsAndTheReleasedVersion() throws {
    let readme = try String(contentsOf: Self.readmeURL, encoding: .utf8)
    let root = Self.readmeURL.deletingLastPathComponent()
    let manifest = try String(
      contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    let changelog = try String(
      contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)

    // The install section names every product of the library's package, and the Integrations
    // section only products that an integration's package declares.
    let sections = readme.components(separatedBy: "\n## Integrations\n")
    #expect(sections.count == 2, "the README has one Integrations section")
    let products = Self.quoted(after: ".product(name: \"", in: sections[0])
    let libraries = Self.quoted(after: ".library(name: \"", in: manifest)
    #expect(Set(products) == Set(libraries), "README products \(products), \(libraries)")
    let integrations = try FileManager.default.contentsOfDirectory(
      atPath: root.appendingPathComponent("Integrations").path)
    let declared = try integrations.flatMap { name in
      let url = root.appendingPathComponent("Integrations/\(name)/Package.swift")
      guard FileManager.default.fileExists(atPath: url.path) else { return [String]() }
      return Self.quoted(
        after: ".library(name: \"", in: try String(contentsOf: url, encoding: .utf8))
    }
    let named = Self.quoted(after: ".product(name: \"", in: sections.last ?? "")
    #expect(!named.isEmpty && Set(named).isSubset(of: declared), "\(named), \(declared)")

    let versions = Self.quoted(after: "JSONAPICodable.git\", from: \"", in: readme)
    let newest = changelog.components(separatedBy: "\n").first { $0.hasPrefix("## ") }
    let heading = try #require(newest).dropFirst(3).components(separatedBy: " ").first
    #expect(versions.count == 1)
    #expect(
      versions.first == heading,
      "README installs \(versions), CHANGELOG's newest is \(newest ?? "")")
  }

  @Test func exampleTargetsExistWhereThePackageSays() throws {
    let root = Self.readmeURL.deletingLastPathComponent()
    for name in ["ClientExample", "ServerExample"] {
      let main = root.appendingPathComponent("Examples/\(name)/main.swift")
      #expect(FileManager.default.fileExists(atPath: main.path), "missing \(main.path)")
    }
  }
}
