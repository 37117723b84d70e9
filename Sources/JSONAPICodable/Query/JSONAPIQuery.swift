import Foundation

/// The query parameters JSON:API defines for fetching data: `include`, `fields[TYPE]`, `sort`,
/// `page[…]` and `filter[…]`, percent-encoded the way the specification asks.
///
/// Build a query with the chainable methods, then take its ``url(relativeTo:)`` or its
/// ``percentEncodedQueryItems``:
///
/// ```swift
/// let query = JSONAPIQuery()
///   .including("author", "comments.author")
///   .fields("articles", ["title", "author"])
///   .sorted(by: .descending("publishedAt"), .ascending("title"))
///   .page(number: 2, size: 20)
///   .filter("tag", "swift")
/// let url = query.url(relativeTo: URL(string: "https://api.example.com/articles")!)
/// // https://api.example.com/articles?include=author,comments.author
/// //   &fields%5Barticles%5D=title,author&sort=-publishedAt,title
/// //   &page%5Bnumber%5D=2&page%5Bsize%5D=20&filter%5Btag%5D=swift
/// ```
///
/// Square brackets in parameter names are written `%5B` and `%5D`; commas and dots stay as the
/// separators of lists and relationship paths. Parameters come out in a fixed order (`include`,
/// `fields` by type, `sort`, `page` and `filter` by member name, then ``additionalParameters``) so
/// that equal queries give equal URLs, which keeps HTTP caches effective.
public struct JSONAPIQuery: Sendable, Hashable {
  /// Relationship paths to include (`comments.author`). `nil` sends no `include` parameter; an
  /// empty array sends `include=`, which asks JSON:API 1.1 servers for no related resources.
  public var include: [String]?
  /// Sparse fieldsets: for each resource type, the only fields (attributes and relationships) the
  /// server should return. An empty list asks for no fields of that type.
  public var fields: [String: [String]]
  /// Sort fields, most significant first. Empty sends no `sort` parameter.
  public var sort: [SortField]
  /// Members of the `page` family: `["number": "2", "size": "20"]` → `page[number]=2&page[size]=20`.
  public var page: [String: String]
  /// Members of the `filter` family: `["author.name": "Dana"]` → `filter[author.name]=Dana`.
  public var filter: [String: String]
  /// Any other parameters (implementation-specific ones such as `camelCase`, or `filter` without a
  /// member), appended last in their order. Names and values are given unencoded.
  public var additionalParameters: [URLQueryItem]

  /// Creates a query; every part defaults to "not sent".
  public init(
    include: [String]? = nil, fields: [String: [String]] = [:], sort: [SortField] = [],
    page: [String: String] = [:], filter: [String: String] = [:],
    additionalParameters: [URLQueryItem] = []
  ) {
    self.include = include
    self.fields = fields
    self.sort = sort
    self.page = page
    self.filter = filter
    self.additionalParameters = additionalParameters
  }

  /// A copy that also includes these relationship paths, such as `"author"` or `"comments.author"`.
  public func including(_ paths: String...) -> JSONAPIQuery {
    including(paths)
  }

  /// A copy that also includes these relationship paths. An empty array on a query with no
  /// `include` yet sends `include=` (no related resources, JSON:API 1.1).
  public func including(_ paths: [String]) -> JSONAPIQuery {
    var copy = self
    copy.include = (include ?? []) + paths
    return copy
  }

  /// A copy with a sparse fieldset for `type`: only `names` (attributes and relationships).
  ///
  /// List a relationship's name too if you need its linkage: the server leaves out every field
  /// that is not named.
  public func fields(_ type: String, _ names: [String]) -> JSONAPIQuery {
    var copy = self
    copy.fields[type] = names
    return copy
  }

  /// A copy sorted by these fields, most significant first, after any sort fields already set.
  public func sorted(by fields: SortField...) -> JSONAPIQuery {
    var copy = self
    copy.sort += fields
    return copy
  }

  /// A copy with the `page[member]` parameter set to `value`.
  public func page(_ member: String, _ value: String) -> JSONAPIQuery {
    var copy = self
    copy.page[member] = value
    return copy
  }

  /// A copy asking for page `number` (`page[number]`), with `size` resources per page
  /// (`page[size]`) when given: the page-based strategy.
  public func page(number: Int, size: Int? = nil) -> JSONAPIQuery {
    var copy = page("number", String(number))
    if let size { copy.page["size"] = String(size) }
    return copy
  }

  /// A copy asking for `limit` resources from `offset` on (`page[offset]`, `page[limit]`): the
  /// offset-based strategy.
  public func page(offset: Int, limit: Int) -> JSONAPIQuery {
    page("offset", String(offset)).page("limit", String(limit))
  }

  /// A copy with the `filter[member]` parameter set to `value`.
  public func filter(_ member: String, _ value: String) -> JSONAPIQuery {
    var copy = self
    copy.filter[member] = value
    return copy
  }

  /// A copy with `filter[member]` set to the values joined by commas, the list convention most
  /// servers use (`filter[id]=1,2,3`).
  public func filter(_ member: String, _ values: [String]) -> JSONAPIQuery {
    filter(member, values.joined(separator: ","))
  }

  /// A copy with one more parameter appended as it is, such as an implementation-specific one.
  public func adding(_ name: String, _ value: String?) -> JSONAPIQuery {
    var copy = self
    copy.additionalParameters.append(URLQueryItem(name: name, value: value))
    return copy
  }

  /// Whether the query sends no parameter at all.
  public var isEmpty: Bool { parameters.isEmpty }

  /// The parameters with their names and values unencoded, such as `fields[articles]` and
  /// `title,author`, for display or for frameworks that encode them themselves.
  ///
  /// To build a URL, prefer ``url(relativeTo:)`` or ``percentEncodedQueryItems``: Foundation's
  /// `URLComponents.queryItems` leaves `+` and, on some platforms, brackets as they are.
  public var queryItems: [URLQueryItem] {
    parameters.map { URLQueryItem(name: $0.name, value: $0.value) }
  }

  /// The parameters with names and values percent-encoded (`fields%5Barticles%5D`), ready for
  /// `URLComponents.percentEncodedQueryItems`.
  public var percentEncodedQueryItems: [URLQueryItem] {
    parameters.map { parameter in
      URLQueryItem(
        name: QueryPercentEncoding.encode(parameter.name, keeping: .name),
        value: parameter.value.map { QueryPercentEncoding.encode($0, keeping: .value) })
    }
  }

  /// The whole query string without the leading `?`, such as
  /// `include=author&page%5Bnumber%5D=2`; empty when there is no parameter.
  public var percentEncodedQuery: String {
    percentEncodedQueryItems.map { item in
      item.value.map { "\(item.name)=\($0)" } ?? item.name
    }.joined(separator: "&")
  }

  /// `base` with this query appended to any query it already has.
  ///
  /// ```swift
  /// JSONAPIQuery().page(number: 2).url(relativeTo: URL(string: "https://example.com/articles")!)
  /// // https://example.com/articles?page%5Bnumber%5D=2
  /// ```
  ///
  /// - Returns: `nil` only when Foundation cannot split `base` into URL components.
  public func url(relativeTo base: URL) -> URL? {
    guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else {
      return nil
    }
    let query = percentEncodedQuery
    guard !query.isEmpty else { return base }
    if let existing = components.percentEncodedQuery, !existing.isEmpty {
      components.percentEncodedQuery = existing + "&" + query
    } else {
      components.percentEncodedQuery = query
    }
    return components.url
  }

  /// Every parameter in output order, unencoded.
  private var parameters: [(name: String, value: String?)] {
    var result: [(name: String, value: String?)] = []
    if let include {
      result.append(("include", include.joined(separator: ",")))
    }
    for type in fields.keys.sorted() {
      result.append(("fields[\(type)]", (fields[type] ?? []).joined(separator: ",")))
    }
    if !sort.isEmpty {
      result.append(("sort", sort.map(\.parameterValue).joined(separator: ",")))
    }
    for member in page.keys.sorted() {
      result.append(("page[\(member)]", page[member]))
    }
    for member in filter.keys.sorted() {
      result.append(("filter[\(member)]", filter[member]))
    }
    for item in additionalParameters {
      result.append((item.name, item.value))
    }
    return result
  }
}
