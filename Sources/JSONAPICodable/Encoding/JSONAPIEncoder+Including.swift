import Foundation

extension JSONAPIEncoder {
  /// Encodes a response to a request with `include`: `included` holds exactly the resources on the
  /// requested relationship paths, once each, and nothing else.
  ///
  /// A path is a chain of relationship names as they appear in the document (`comments.author`);
  /// the resources on the way (`comments`) are included too, so every included resource is linked
  /// from the primary data. Relationships are still written with full linkage whether or not their
  /// resources are included. `included` is written even when empty, as JSON:API 1.1 asks of a
  /// response to `include`; an empty `paths` includes nothing. A related resource the model holds
  /// only as an identifier cannot be included. ``sparseFieldsets`` still apply, and a relationship
  /// they remove is not followed.
  ///
  /// ```swift
  /// // GET /articles/1?include=author,comments.author
  /// let body = try encoder.encode(article, including: ["author", "comments.author"])
  /// ```
  ///
  /// Check client-supplied paths first with `JSONAPIQueryRules.validate(_:)`: a path the
  /// model does not have includes nothing rather than failing.
  ///
  /// - Throws: The errors of ``encode(_:)``.
  public func encode<T: Encodable>(_ value: T, including paths: [String]) throws -> Data {
    try withCall { call in
      try encode(value, call: call.adjusted { $0.includeTree = IncludeTree(paths: paths) })
    }
  }

  /// Encodes a response shaped by a parsed request query: its `include` paths (as
  /// ``encode(_:including:)``, or this encoder's usual behaviour when the query has no `include`)
  /// and its `fields[TYPE]` sparse fieldsets, added to ``sparseFieldsets``.
  ///
  /// ```swift
  /// let query = try JSONAPIQuery(parsing: "include=author&fields%5Barticles%5D=title,author")
  /// try rules.validate(query)
  /// let body = try encoder.encode(articles, for: query)
  /// ```
  ///
  /// `sort`, `page` and `filter` choose which resources to encode and are the server's to apply.
  ///
  /// - Throws: The errors of ``encode(_:)``.
  public func encode<T: Encodable>(_ value: T, for query: JSONAPIQuery) throws -> Data {
    try withCall { call in
      let call = call.adjusted { options in
        if let include = query.include { options.includeTree = IncludeTree(paths: include) }
        for (type, names) in query.fields { options.sparseFieldsets[type] = Set(names) }
      }
      return try encode(value, call: call)
    }
  }
}
