import Foundation

/// Loads the JSON documents shipped in `Fixtures/`.
enum Fixture {
  static func corpus(_ name: String) throws -> Data {
    guard
      let url = Bundle.module.url(
        forResource: name, withExtension: "json", subdirectory: "Fixtures/corpus")
    else {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
    }
    return try Data(contentsOf: url)
  }

  /// Names (without extension) of every corpus document.
  static func corpusNames() -> [String] {
    guard let folder = Bundle.module.resourceURL?.appendingPathComponent("Fixtures/corpus"),
      let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
    else { return [] }
    return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
  }
}

/// Runs `body` and returns the error it threw, or nil. Tests that look inside an error use this:
/// `#expect(throws:)` returns the error only from Swift Testing 6.1 (Xcode 16.3), and the package
/// admits Xcode 16.0 (tools 6.0).
func thrownError<T>(_ body: () throws -> T) -> (any Error)? {
  do {
    _ = try body()
    return nil
  } catch {
    return error
  }
}
