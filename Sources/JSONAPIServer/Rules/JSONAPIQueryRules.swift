/// What an endpoint supports of the query parameters: the `include` paths, `sort` fields,
/// sparse fieldsets, `page` and `filter` members and other parameters it understands. Anything
/// else a client sends is answered with `400 Bad Request`, as JSON:API requires.
///
/// ```swift
/// let rules = JSONAPIQueryRules(
///   includePaths: ["author", "comments.author"], sortFields: ["title", "publishedAt"],
///   fieldsets: ["articles": ["title", "author", "comments"], "people": ["name"]],
///   filterMembers: ["tag"])
/// let query = try JSONAPIQuery(parsing: url.query ?? "")
/// try rules.validate(query)   // JSONAPIQueryError names the parameter
/// ```
public struct JSONAPIQueryRules: Sendable, Hashable {
  /// The relationship paths that may be included; every leading part of a path is allowed too
  /// (`comments.author` allows `comments`). `nil`: the endpoint does not support `include` and
  /// refuses any `include` parameter; empty: only `include=` (no related resources) is accepted.
  public var includePaths: Set<String>?
  /// The fields `sort` may name (without `-`). Empty: the endpoint does not support `sort`.
  public var sortFields: Set<String>
  /// For each resource type, the fields `fields[TYPE]` may name. `nil` accepts any type and field.
  public var fieldsets: [String: Set<String>]?
  /// The `page[…]` members the endpoint understands. Default `number` and `size`. Empty: no
  /// pagination. `number`, `size`, `offset` and `limit` must be whole numbers (see
  /// ``maxPageSize``); other members (a cursor) are taken as they are.
  public var pageMembers: Set<String>
  /// The largest `page[size]` or `page[limit]` accepted. Default 100.
  public var maxPageSize: Int
  /// The `filter[…]` members the endpoint understands. `nil` accepts any; empty refuses all.
  public var filterMembers: Set<String>?
  /// Names of other parameters the endpoint understands, exactly as written: implementation-specific
  /// ones (`camelCase`), extension ones (`ext:param`), nested families (`filter[a][b]`).
  public var additionalParameters: Set<String>
  /// Set by ``JSONAPIPaging/rules(_:)``: the strategy checks the `page` members, with its errors,
  /// as long as ``pageMembers`` and ``maxPageSize`` are still its own (rules copied for an
  /// endpoint that does not page, with `pageMembers = []`, check as plain rules do).
  var paging: JSONAPIPaging?

  /// Creates rules; by default the endpoint supports no `include`, no `sort`, any sparse
  /// fieldset, `page[number]` and `page[size]` up to 100, any filter and nothing else.
  public init(
    includePaths: Set<String>? = nil, sortFields: Set<String> = [],
    fieldsets: [String: Set<String>]? = nil, pageMembers: Set<String> = ["number", "size"],
    maxPageSize: Int = 100, filterMembers: Set<String>? = nil,
    additionalParameters: Set<String> = []
  ) {
    self.includePaths = includePaths
    self.sortFields = sortFields
    self.fieldsets = fieldsets
    self.pageMembers = pageMembers
    self.maxPageSize = maxPageSize
    self.filterMembers = filterMembers
    self.additionalParameters = additionalParameters
  }

  /// Checks `query` against the rules, in the order of the query's parts.
  ///
  /// ```swift
  /// try JSONAPIQueryRules(sortFields: ["title"]).validate(JSONAPIQuery(parsing: "sort=-age"))
  /// // throws JSONAPIQueryError.sortNotAllowed(field: "age")
  /// ```
  ///
  /// - Throws: `JSONAPIQueryError.includeNotAllowed(path:)`,
  ///   `JSONAPIQueryError.sortNotAllowed(field:)`, `JSONAPIQueryError.unknownField(type:field:)`,
  ///   `JSONAPIQueryError.invalidPageValue(name:value:reason:)`, or
  ///   `JSONAPIQueryError.unsupportedParameter(name:reason:)` for `include` or `sort` on an
  ///   endpoint without them, an unknown `page` or `filter` member, or any other parameter not in
  ///   ``additionalParameters``; on rules made by ``JSONAPIPaging/rules(_:)``, the errors of
  ///   ``JSONAPIPaging/page(for:)`` for the `page` members.
  public func validate(_ query: JSONAPIQuery) throws {
    if let include = query.include {
      guard let includePaths else {
        throw JSONAPIQueryError.unsupportedParameter(
          name: "include", reason: "this endpoint does not include related resources")
      }
      for path in include where !Self.allows(path, in: includePaths) {
        throw JSONAPIQueryError.includeNotAllowed(path: path)
      }
    }
    if let fieldsets {
      for type in query.fields.keys.sorted() {
        guard let known = fieldsets[type] else {
          throw JSONAPIQueryError.unknownField(type: type, field: nil)
        }
        for field in query.fields[type] ?? [] where !known.contains(field) {
          throw JSONAPIQueryError.unknownField(type: type, field: field)
        }
      }
    }
    if !query.sort.isEmpty, sortFields.isEmpty {
      throw JSONAPIQueryError.unsupportedParameter(
        name: "sort", reason: "this endpoint does not sort")
    }
    for field in query.sort where !sortFields.contains(field.field) {
      throw JSONAPIQueryError.sortNotAllowed(field: field.field)
    }
    if let paging, pageMembers == paging.pageMembers, maxPageSize == paging.maxSize {
      _ = try paging.page(for: query)
    } else {
      for member in query.page.keys.sorted() {
        try validatePage(member, query.page[member] ?? "")
      }
    }
    if let filterMembers {
      for member in query.filter.keys.sorted() where !filterMembers.contains(member) {
        throw JSONAPIQueryError.unsupportedParameter(
          name: "filter[\(member)]", reason: "this endpoint cannot filter by `\(member)`")
      }
    }
    for item in query.additionalParameters where !additionalParameters.contains(item.name) {
      let base = item.name.prefix { $0 != "[" }
      let reserved = !base.isEmpty && base.allSatisfy { ("a"..."z").contains($0) }
      throw JSONAPIQueryError.unsupportedParameter(
        name: item.name,
        reason: reserved
          ? "all-lowercase names are reserved for JSON:API, which defines no `\(base)`"
          : "this endpoint does not understand it")
    }
  }

  /// Whether `path` is an allowed path or a leading part of one.
  private static func allows(_ path: String, in allowed: Set<String>) -> Bool {
    if allowed.contains(path) { return true }
    let prefix = path + "."
    return allowed.contains { $0.hasPrefix(prefix) }
  }

  private func validatePage(_ member: String, _ value: String) throws {
    let name = "page[\(member)]"
    guard pageMembers.contains(member) else {
      throw JSONAPIQueryError.unsupportedParameter(
        name: name, reason: "this endpoint does not page by `\(member)`")
    }
    let smallest: Int
    var largest = Int.max
    switch member {
    case "number": smallest = 1
    case "offset": smallest = 0
    case "size", "limit":
      smallest = 1
      largest = maxPageSize
    default: return
    }
    // At most 18 digits: a whole number that fits in Int64, read without overflow. Compared in
    // Int64 so that a number past a 32-bit `Int` (arm64_32) is out of range, not "not a number".
    guard !value.isEmpty, value.utf8.count <= 18, value.utf8.allSatisfy({ (48...57).contains($0) }),
      let number = Int64(value)
    else {
      throw JSONAPIQueryError.invalidPageValue(
        name: name, value: value, reason: "it must be a whole number")
    }
    guard number >= Int64(smallest), number <= Int64(largest) else {
      let range =
        largest == Int.max && number < Int64(smallest)
        ? "at least \(smallest)" : "from \(smallest) to \(largest)"
      throw JSONAPIQueryError.invalidPageValue(
        name: name, value: value, reason: "it must be \(range)")
    }
  }
}
