import Foundation

/// Reads a request body into `JSONAPIValue`s with the library's own scanner: one pass, its
/// nesting limit, and errors with a location.
enum ServedJSON {
  /// The JSON value of `data`, nested at most `maxDepth` levels.
  ///
  /// - Throws: `JSONAPIError.invalidJSON(reason:location:)` and the scanner's other errors.
  static func parse(_ data: Data, maxDepth: Int) throws -> JSONAPIValue {
    try data.withUnsafeBytes { bytes in
      let tape = try JSONScanner.scan(bytes, maxDepth: maxDepth)
      return try tape.jsonValue(at: 0)
    }
  }
}
