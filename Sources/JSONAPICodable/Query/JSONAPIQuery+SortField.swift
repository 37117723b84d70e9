extension JSONAPIQuery {
  /// One field of the `sort` parameter: a field name (or a dot-separated path such as
  /// `author.name`), ascending unless marked descending.
  ///
  /// A string literal reads like the parameter itself: `"-publishedAt"` is descending.
  ///
  /// ```swift
  /// let query = JSONAPIQuery().sorted(by: "-publishedAt", .ascending("title"))
  /// query.percentEncodedQuery   // sort=-publishedAt,title
  /// ```
  public struct SortField: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The field name or dot-separated path, without the `-` prefix.
    public var field: String
    /// Whether the order is descending (written with a leading `-`).
    public var isDescending: Bool

    /// Creates a sort field.
    public init(field: String, isDescending: Bool = false) {
      self.field = field
      self.isDescending = isDescending
    }

    /// Parses the parameter's syntax: a leading `-` means descending.
    public init(stringLiteral value: String) {
      if value.hasPrefix("-") {
        self.init(field: String(value.dropFirst()), isDescending: true)
      } else {
        self.init(field: value)
      }
    }

    /// Sorts by `field`, smallest first.
    public static func ascending(_ field: String) -> SortField {
      SortField(field: field)
    }

    /// Sorts by `field`, largest first.
    public static func descending(_ field: String) -> SortField {
      SortField(field: field, isDescending: true)
    }

    /// The field as written in the `sort` parameter.
    var parameterValue: String { isDescending ? "-" + field : field }
  }
}
