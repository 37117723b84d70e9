import Foundation

/// Where in the input bytes a problem was found.
public struct JSONAPISourceLocation: Sendable, Hashable, CustomStringConvertible {
  /// Zero-based byte offset into the input.
  public var offset: Int
  /// One-based line number.
  public var line: Int
  /// One-based column, counted in bytes.
  public var column: Int

  /// Creates a location.
  public init(offset: Int, line: Int, column: Int) {
    self.offset = offset
    self.line = line
    self.column = column
  }

  /// "line L, column C (byte O)".
  public var description: String { "line \(line), column \(column) (byte \(offset))" }
}
