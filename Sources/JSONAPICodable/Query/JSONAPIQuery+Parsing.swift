import Foundation

extension JSONAPIQuery {
  /// Parses a request's percent-encoded query string, the exact inverse of
  /// ``percentEncodedQuery``: `JSONAPIQuery(parsing: query.percentEncodedQuery) == query`.
  ///
  /// Names and values are decoded as WHATWG's `application/x-www-form-urlencoded` parser does
  /// (`+` is a space), and `fields[articles]` and `fields%5Barticles%5D` are the same parameter.
  /// `include`, `fields[TYPE]` and `sort` are split at commas; `page[…]` and `filter[…]` keep
  /// their values as they are. Every other parameter (including `filter` without a member and
  /// nested families such as `filter[a][b]`) goes to ``additionalParameters``, in order.
  /// Parsing checks syntax only; check what the endpoint supports with
  /// `JSONAPIQueryRules.validate(_:)`.
  ///
  /// ```swift
  /// let query = try JSONAPIQuery(parsing: "?include=author&fields%5Barticles%5D=title")
  /// query.include            // ["author"]
  /// query.fields["articles"] // ["title"]
  /// ```
  ///
  /// - Parameters:
  ///   - query: The query string, with or without its leading `?`.
  ///   - limits: Bounds on size; see ``ParsingLimits``.
  /// - Throws: ``JSONAPIQueryError/malformedParameter(name:reason:)`` for an empty relationship path
  ///   or sort field, or a family name without its member (`fields`, `page[]`);
  ///   ``JSONAPIQueryError/duplicateParameter(name:)`` when a JSON:API parameter appears twice;
  ///   ``JSONAPIQueryError/limitExceeded(name:limit:)`` past `limits`.
  public init(parsing query: String, limits: ParsingLimits = ParsingLimits()) throws {
    guard query.utf8.count <= limits.maxQueryLength else {
      throw JSONAPIQueryError.limitExceeded(name: nil, limit: limits.maxQueryLength)
    }
    // Split at the bytes `?`, `&` and `=` (R72), never at Characters: a combining mark after `=`
    // (`a=\u{301}b`) makes one Character with it, which would hide the separator in the raw text
    // and not in its percent-encoded form.
    var text = Substring(query).utf8
    if text.first == UInt8(ascii: "?") { text = text.dropFirst() }
    var parameters: [(name: String, value: String?)] = []
    for pair in text.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
      guard parameters.count < limits.maxParameters else {
        throw JSONAPIQueryError.limitExceeded(name: nil, limit: limits.maxParameters)
      }
      if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
        parameters.append(
          (
            QueryPercentEncoding.decode(Substring(pair[..<equals])),
            QueryPercentEncoding.decode(Substring(pair[pair.index(after: equals)...]))
          ))
      } else {
        parameters.append((QueryPercentEncoding.decode(Substring(pair)), nil))
      }
    }
    try self.init(parameters: parameters, limits: limits)
  }

  /// Parses the query of a whole request target or URL, such as a server framework's raw
  /// target (`/articles?page%5Bsize%5D=2`) or a link (`https://api.example.com/articles?sort=-id`):
  /// the path and any fragment are ignored, and the text between the first `?` and the first `#`
  /// is read as ``init(parsing:limits:)-(String,_)`` reads a query. A target without `?` is an
  /// empty query.
  ///
  /// ```swift
  /// let query = try JSONAPIQuery(parsingTarget: "/articles?page%5Bsize%5D=2&include=author")
  /// query.page["size"]   // "2"
  /// query.include        // ["author"]
  /// ```
  ///
  /// - Throws: The errors of ``init(parsing:limits:)-(String,_)``.
  public init(parsingTarget target: String, limits: ParsingLimits = ParsingLimits()) throws {
    // RFC 3986 section 3: the query starts after the first `?` and ends at the first `#`; both are
    // ASCII bytes, so the split never cuts a character's encoding.
    var text = Substring(target).utf8
    if let hash = text.firstIndex(of: UInt8(ascii: "#")) { text = text[..<hash] }
    guard let question = text.firstIndex(of: UInt8(ascii: "?")) else {
      try self.init(parsing: "", limits: limits)
      return
    }
    try self.init(parsing: String(Substring(text[text.index(after: question)...])), limits: limits)
  }

  /// Parses query items whose names and values are already decoded, as `URLComponents.queryItems`
  /// and most server frameworks give them (`fields[articles]`, not `fields%5Barticles%5D`).
  ///
  /// ```swift
  /// let query = try JSONAPIQuery(parsing: [URLQueryItem(name: "include", value: "author")])
  /// ```
  ///
  /// - Throws: The errors of ``init(parsing:limits:)-(String,_)``.
  public init(parsing items: [URLQueryItem], limits: ParsingLimits = ParsingLimits()) throws {
    guard items.count <= limits.maxParameters else {
      throw JSONAPIQueryError.limitExceeded(name: nil, limit: limits.maxParameters)
    }
    // Stops as soon as the limit is passed, so the running total stays within any `Int`.
    var length = 0
    for item in items {
      length += item.name.utf8.count + 2
      if length <= limits.maxQueryLength { length += item.value?.utf8.count ?? 0 }
      guard length <= limits.maxQueryLength else {
        throw JSONAPIQueryError.limitExceeded(name: nil, limit: limits.maxQueryLength)
      }
    }
    try self.init(parameters: items.map { ($0.name, $0.value) }, limits: limits)
  }

  /// Parses the query of `components` from its percent-encoded form, so that `+` and encoded
  /// brackets are read as ``init(parsing:limits:)-(String,_)`` reads them. No query is an empty
  /// query.
  ///
  /// ```swift
  /// let components = URLComponents(string: "https://api.example.com/articles?sort=-title")!
  /// let query = try JSONAPIQuery(parsing: components)   // sort: [.descending("title")]
  /// ```
  ///
  /// - Throws: The errors of ``init(parsing:limits:)-(String,_)``.
  public init(parsing components: URLComponents, limits: ParsingLimits = ParsingLimits()) throws {
    try self.init(parsing: components.percentEncodedQuery ?? "", limits: limits)
  }

  /// Sorts decoded parameters into the query's parts.
  private init(parameters: [(name: String, value: String?)], limits: ParsingLimits) throws {
    self.init()
    var seen: Set<String> = []
    for (name, value) in parameters {
      let family = QueryParameterName(name)
      if family.isJSONAPIDefined {
        guard seen.insert(name).inserted else {
          throw JSONAPIQueryError.duplicateParameter(name: name)
        }
      }
      switch family {
      case .include:
        include = try Self.includePaths(value ?? "", limits: limits)
      case .fields(let type):
        let names = Self.list(value ?? "")
        guard names.count <= limits.maxFieldsPerType else {
          throw JSONAPIQueryError.limitExceeded(name: name, limit: limits.maxFieldsPerType)
        }
        if names.contains(where: \.isEmpty) {
          throw JSONAPIQueryError.malformedParameter(name: name, reason: "a field name is empty")
        }
        fields[type] = names
      case .sort:
        sort = try Self.sortFields(value ?? "", limits: limits)
      case .page(let member):
        page[member] = value ?? ""
      case .filter(let member):
        filter[member] = value ?? ""
      case .malformedFamily(let reason):
        throw JSONAPIQueryError.malformedParameter(name: name, reason: reason)
      case .other:
        additionalParameters.append(URLQueryItem(name: name, value: value))
      }
    }
  }

  /// Comma-separated items; an empty value is an empty list (JSON:API 1.1: "none").
  private static func list(_ value: String) -> [String] {
    value.isEmpty
      ? [] : value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
  }

  private static func includePaths(_ value: String, limits: ParsingLimits) throws -> [String] {
    let paths = list(value)
    guard paths.count <= limits.maxIncludePaths else {
      throw JSONAPIQueryError.limitExceeded(name: "include", limit: limits.maxIncludePaths)
    }
    for path in paths {
      let names = path.split(separator: ".", omittingEmptySubsequences: false)
      guard names.count <= limits.maxIncludeDepth else {
        throw JSONAPIQueryError.limitExceeded(name: "include", limit: limits.maxIncludeDepth)
      }
      if names.contains(where: \.isEmpty) {
        throw JSONAPIQueryError.malformedParameter(
          name: "include", reason: "`\(path)` has an empty relationship name")
      }
    }
    return paths
  }

  private static func sortFields(_ value: String, limits: ParsingLimits) throws -> [SortField] {
    let items = list(value)
    guard items.count <= limits.maxSortFields else {
      throw JSONAPIQueryError.limitExceeded(name: "sort", limit: limits.maxSortFields)
    }
    return try items.map { item in
      let field = SortField(stringLiteral: item)
      if field.field.isEmpty
        || field.field.split(separator: ".", omittingEmptySubsequences: false)
          .contains(where: \.isEmpty)
      {
        throw JSONAPIQueryError.malformedParameter(
          name: "sort", reason: "`\(item)` is not a field name")
      }
      return field
    }
  }
}
