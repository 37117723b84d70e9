import Foundation

/// How a declared resource reads a `filter[member]` parameter: which member it compares, how, and
/// how the parameter's text becomes values.
///
/// ```swift
/// let filters: [String: JSONAPIFilter] = [
///   "title": .contains("title"),          // filter[title]=swift
///   "author": .ids("author"),             // filter[author]=1,2  (a relationship)
///   "wordCount": .equals("wordCount"),    // filter[wordCount]=100,200
///   "longerThan": .greaterThan("wordCount"),
/// ]
/// ```
///
/// A value that does not read as the member's type (`filter[wordCount]=many` on an integer
/// attribute) is refused with `400` and `source.parameter` naming the parameter.
public struct JSONAPIFilter: Sendable {
  /// The member compared: an attribute, a relationship (for ``ids(_:)``), or `id`.
  public var member: String
  /// The comparison.
  public var comparison: JSONAPIFilterCondition.Comparison
  /// Whether the parameter holds a comma-separated list of values (any of which matches).
  public var acceptsList: Bool
  /// Turns one value of the parameter into the value compared; `nil` reads it by the member's
  /// type in the model's schema. Throw `JSONAPIQueryError.invalidFilterValue(member:value:reason:)`
  /// to refuse it.
  public var read: (@Sendable (String) throws -> JSONAPIValue)?

  /// Creates a filter.
  public init(
    member: String, comparison: JSONAPIFilterCondition.Comparison, acceptsList: Bool = false,
    read: (@Sendable (String) throws -> JSONAPIValue)? = nil
  ) {
    self.member = member
    self.comparison = comparison
    self.acceptsList = acceptsList
    self.read = read
  }

  /// The member equals one of the comma-separated values.
  public static func equals(_ member: String) -> JSONAPIFilter {
    JSONAPIFilter(member: member, comparison: .equals, acceptsList: true)
  }

  /// The member, as text, contains the value (ASCII case ignored); commas are part of the value.
  public static func contains(_ member: String) -> JSONAPIFilter {
    JSONAPIFilter(member: member, comparison: .contains)
  }

  /// The relationship's linkage names one of the comma-separated ids.
  public static func ids(_ relationship: String) -> JSONAPIFilter {
    JSONAPIFilter(member: relationship, comparison: .equals, acceptsList: true)
  }

  /// The member is less than the value.
  public static func lessThan(_ member: String) -> JSONAPIFilter {
    JSONAPIFilter(member: member, comparison: .lessThan)
  }

  /// The member is greater than the value.
  public static func greaterThan(_ member: String) -> JSONAPIFilter {
    JSONAPIFilter(member: member, comparison: .greaterThan)
  }
}
