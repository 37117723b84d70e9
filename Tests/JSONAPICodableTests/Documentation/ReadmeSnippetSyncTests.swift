import Foundation
import Testing

// The README's Swift snippets are compiled and run as hand copies in the snippet tests. This
// suite keeps the copies honest by construction: every code line of every ```swift block in
// README.md must appear, whitespace aside, in the snippet tests' sources. A block right after
// the marker line `<!-- not compiled: … -->` (the Package.swift manifest lines) is skipped; see
// CONTRIBUTING.md.
@Suite struct ReadmeSnippetSyncTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Documentation
    .deletingLastPathComponent()  // JSONAPICodableTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // package root

  /// The files that hold the compiled copies of the README's snippets.
  static func snippetTestSources() throws -> [URL] {
    let documentation = root.appendingPathComponent("Tests/JSONAPICodableTests/Documentation")
    let ownName = URL(fileURLWithPath: #filePath).lastPathComponent
    let here = try FileManager.default.contentsOfDirectory(atPath: documentation.path)
      .filter { $0.hasSuffix(".swift") && $0 != ownName }
      .sorted()
      .map { documentation.appendingPathComponent($0) }
    return here + [
      root.appendingPathComponent(
        "Tests/JSONAPICodableTests/Encoding/ReadmeSnippetEncodingTests.swift"),
      root.appendingPathComponent("Tests/JSONAPINetworkingTests/ReadmeRequestSnippetTests.swift"),
      root.appendingPathComponent(
        "Tests/JSONAPINetworkingTests/WritingChangesSnippetTests.swift"),
      root.appendingPathComponent("Tests/JSONAPINetworkingTests/PagingSnippetTests.swift"),
      root.appendingPathComponent(
        "Tests/JSONAPINetworkingTests/AtomicOperationsSnippetTests.swift"),
      root.appendingPathComponent(
        "Tests/JSONAPINetworkingTests/TalkingToAServerSnippetTests.swift"),
      // Framework glue, compiled in its integration packages (Scripts/hummingbird.sh in CI,
      // Scripts/vapor-glue.sh).
      root.appendingPathComponent(
        "Integrations/JSONAPIHummingbird/Sources/JSONAPIHummingbirdCoders/JSONAPIHummingbirdCoders.swift"
      ),
      root.appendingPathComponent(
        "Integrations/JSONAPIVapor/Sources/JSONAPIVapor/JSONAPIVaporContent.swift"),
    ]
  }

  static let notCompiledMarker = "<!-- not compiled:"

  /// One ```swift block of the README: where it starts and its lines.
  struct Block {
    var firstLine: Int
    var lines: [String]
  }

  /// The ```swift blocks of `markdown`, without those marked as not compiled.
  static func swiftBlocks(in markdown: String) -> [Block] {
    var blocks: [Block] = []
    var current: Block?
    var skipping = false
    var previous = ""  // the last non-blank line outside a block
    for (offset, line) in markdown.components(separatedBy: "\n").enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if current != nil || skipping {
        if trimmed.hasPrefix("```") {
          if let block = current { blocks.append(block) }
          current = nil
          skipping = false
          previous = trimmed
        } else {
          current?.lines.append(line)
        }
        continue
      }
      if trimmed.hasPrefix("```") {
        if trimmed == "```swift", !previous.hasPrefix(notCompiledMarker) {
          current = Block(firstLine: offset + 2, lines: [])  // 1-based number of its first line
        } else {
          skipping = true  // another language, or marked as not compiled
        }
      }
      if !trimmed.isEmpty { previous = trimmed }
    }
    return blocks
  }

  /// `line` without a trailing `//` comment (one outside a string literal) and without any
  /// whitespace, so that a line wrapped differently by the formatter still matches.
  static func normalized(_ line: String) -> String {
    var result = ""
    var inString = false
    var escaped = false
    var previous: Character?
    for character in line {
      if inString {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
        }
      } else if character == "\"" {
        inString = true
      } else if character == "/", previous == "/" {
        result.removeLast()
        break
      }
      result.append(character)
      previous = character
    }
    return String(result.unicodeScalars.filter { !CharacterSet.whitespaces.contains($0) })
  }

  /// The README lines of `blocks` that have no twin in `sources`, each with its line number.
  static func linesWithoutTwin(in blocks: [Block], sources: String, file: String = "README.md")
    -> [String]
  {
    let haystack = sources.components(separatedBy: "\n").map(normalized).joined()
    var missing: [String] = []
    for block in blocks {
      for (offset, line) in block.lines.enumerated() {
        let code = normalized(line)
        if code.isEmpty { continue }  // a blank line or a comment
        if !haystack.contains(code) {
          missing.append("\(file):\(block.firstLine + offset): \(line)")
        }
      }
    }
    return missing
  }

  @Test func everyReadmeSnippetLineHasACompiledTwin() throws {
    let readme = try String(
      contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let blocks = Self.swiftBlocks(in: readme)
    #expect(blocks.count >= 6, "the README's Swift snippets were not found")
    let sources = try Self.snippetTestSources()
      .map { try String(contentsOf: $0, encoding: .utf8) }
      .joined(separator: "\n")
    let missing = Self.linesWithoutTwin(in: blocks, sources: sources)
    #expect(
      missing.isEmpty, "README lines with no compiled twin:\n\(missing.joined(separator: "\n"))")
  }

  // DocC articles held to the same rule: their snippets are compiled in the snippet tests
  // (WritingChangesSnippetTests, PagingSnippetTests, AtomicOperationsSnippetTests,
  // TalkingToAServerSnippetTests) or are lines of the framework glue files.
  @Test(arguments: [
    "JSONAPICodable.docc/WritingChanges.md", "JSONAPIServer.docc/ServingPages.md",
    "JSONAPIServer.docc/ServerFrameworks.md", "JSONAPICodable.docc/AtomicOperations.md",
    "JSONAPINetworking.docc/TalkingToAServer.md", "JSONAPIServer.docc/ServingResources.md",
  ])
  func everyArticleSnippetLineHasACompiledTwin(_ name: String) throws {
    let module = String(name.prefix { $0 != "." })
    let article = try String(
      contentsOf: Self.root.appendingPathComponent("Sources/\(module)/\(name)"), encoding: .utf8)
    let blocks = Self.swiftBlocks(in: article)
    #expect(blocks.count >= 3, "the Swift snippets of \(name) were not found")
    let sources = try Self.snippetTestSources()
      .map { try String(contentsOf: $0, encoding: .utf8) }
      .joined(separator: "\n")
    let missing = Self.linesWithoutTwin(in: blocks, sources: sources, file: name)
    #expect(
      missing.isEmpty, "\(name) lines with no compiled twin:\n\(missing.joined(separator: "\n"))")
  }

  // The checker itself: a line that is missing is reported, a reflowed or commented one is not,
  // and a marked block is skipped.
  @Test func checkerReportsOnlyLinesWithoutTwin() {
    let markdown = """
      Text.

      ```swift
      let a = f(x,
        y)  // a comment that the copy does not have
      // a comment line
      let b = "// not a comment"
      let c = 3
      ```

      <!-- not compiled: manifest -->
      ```swift
      .package(url: "https://example.com/x.git", from: "1.0.0"),
      ```

      ```sh
      swift test
      ```
      """
    let blocks = Self.swiftBlocks(in: markdown)
    #expect(blocks.count == 1)
    let sources = """
      let a = f(
        x, y)
      let b = "// not a comment"  // its own comment
      """
    #expect(Self.linesWithoutTwin(in: blocks, sources: sources) == ["README.md:8: let c = 3"])
  }
}
