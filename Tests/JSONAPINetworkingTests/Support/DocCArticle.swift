import Foundation
import Testing

/// The DocC articles of JSONAPICodable and JSONAPIServer, for snippet tests that check an
/// article's JSON against what the code writes.
enum DocCArticle {
  /// The lines of the first ```json block of the article `name` (such as `ServingPages.md`), each
  /// without its indentation.
  static func jsonBlock(of name: String) throws -> [String] {
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent()  // Support
      .deletingLastPathComponent()  // JSONAPINetworkingTests
      .deletingLastPathComponent()  // Tests
      .deletingLastPathComponent()  // package root
    let candidates = ["JSONAPICodable", "JSONAPIServer"].map {
      root.appendingPathComponent("Sources/\($0)/\($0).docc/\(name)")
    }
    let article = try #require(
      candidates.first { FileManager.default.fileExists(atPath: $0.path) }, "no article \(name)")
    let lines = try String(contentsOf: article, encoding: .utf8).components(separatedBy: "\n")
    let start = try #require(lines.firstIndex(of: "```json"))
    let end = try #require(lines[(start + 1)...].firstIndex(of: "```"))
    return lines[(start + 1)..<end].map { $0.trimmingCharacters(in: .whitespaces) }
  }
}
