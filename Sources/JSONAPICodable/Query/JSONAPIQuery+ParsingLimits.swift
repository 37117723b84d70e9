extension JSONAPIQuery {
  /// Bounds on a query string from a client, so that parsing and everything done with the result
  /// (building include trees, sorting) stays proportional to what a real client sends.
  ///
  /// Going over a bound throws ``JSONAPIQueryError/limitExceeded(name:limit:)``.
  ///
  /// ```swift
  /// var limits = JSONAPIQuery.ParsingLimits()
  /// limits.maxIncludeDepth = 3
  /// let query = try JSONAPIQuery(parsing: request.url.query ?? "", limits: limits)
  /// ```
  public struct ParsingLimits: Sendable, Hashable {
    /// Bytes of the whole query string, or of all names and values together. Default 8192.
    public var maxQueryLength: Int
    /// Parameters in the query. Default 100.
    public var maxParameters: Int
    /// Relationship paths in `include`. Default 20.
    public var maxIncludePaths: Int
    /// Relationship names in one `include` path (`comments.author` has 2). Default 5.
    public var maxIncludeDepth: Int
    /// Fields in `sort`. Default 10.
    public var maxSortFields: Int
    /// Field names in one `fields[TYPE]` list. Default 100.
    public var maxFieldsPerType: Int

    /// Creates limits; every argument has the documented default.
    public init(
      maxQueryLength: Int = 8192, maxParameters: Int = 100, maxIncludePaths: Int = 20,
      maxIncludeDepth: Int = 5, maxSortFields: Int = 10, maxFieldsPerType: Int = 100
    ) {
      self.maxQueryLength = maxQueryLength
      self.maxParameters = maxParameters
      self.maxIncludePaths = maxIncludePaths
      self.maxIncludeDepth = maxIncludeDepth
      self.maxSortFields = maxSortFields
      self.maxFieldsPerType = maxFieldsPerType
    }
  }
}
