/// A query string a JSON:API server must refuse with `400 Bad Request`: thrown by
/// ``JSONAPIQuery/init(parsing:limits:)-(String,_)`` for syntax and size, and by
/// `JSONAPIQueryRules.validate(_:)` for what the server does not support.
///
/// Every case names the offending parameter in ``parameter``, which
/// ``JSONAPIErrorObject/init(describing:)`` puts into `source.parameter`:
///
/// ```swift
/// do {
///   let query = try JSONAPIQuery(parsing: "page%5Bsize%5D=ten")
///   try rules.validate(query)
/// } catch {
///   let body = try JSONAPIEncoder().encode(errors: [JSONAPIErrorObject(describing: error)])
///   // 400, "source": {"parameter": "page[size]"}
/// }
/// ```
public enum JSONAPIQueryError: Error, Sendable, Hashable {
  /// The parameter's name or value breaks the syntax JSON:API gives it (an empty relationship
  /// path, an empty sort field, a family name without its member).
  case malformedParameter(name: String, reason: String)
  /// A parameter JSON:API defines once (`include`, `sort`, `fields[TYPE]`, `page[…]`,
  /// `filter[…]`) appears twice.
  case duplicateParameter(name: String)
  /// The server does not support this parameter: a reserved all-lowercase name JSON:API does not
  /// define, a family member the server does not know, or `include`/`sort` on an endpoint that
  /// supports neither.
  case unsupportedParameter(name: String, reason: String)
  /// An `include` path the server does not allow for this endpoint.
  case includeNotAllowed(path: String)
  /// A `sort` field the server cannot sort by.
  case sortNotAllowed(field: String)
  /// A `fields[TYPE]` list names a type or field the server does not have.
  case unknownField(type: String, field: String?)
  /// A `page[…]` value that is not a number in the range the server accepts.
  case invalidPageValue(name: String, value: String, reason: String)
  /// A `filter[member]` value the server cannot read as the member's values: text where a
  /// number is compared, a value outside an enumeration.
  case invalidFilterValue(member: String, value: String, reason: String)
  /// The query is larger than ``JSONAPIQuery/ParsingLimits`` allow; `name` is the parameter that
  /// went over, or `nil` for the query as a whole.
  case limitExceeded(name: String?, limit: Int)

  /// The name of the offending parameter as the client wrote it, unencoded (`page[size]`);
  /// `nil` only for a query that is too long as a whole.
  public var parameter: String? {
    switch self {
    case .malformedParameter(let name, _), .duplicateParameter(let name),
      .unsupportedParameter(let name, _), .invalidPageValue(let name, _, _):
      return name
    case .includeNotAllowed: return "include"
    case .sortNotAllowed: return "sort"
    case .unknownField(let type, _): return "fields[\(type)]"
    case .limitExceeded(let name, _): return name
    case .invalidFilterValue(let member, _, _): return "filter[\(member)]"
    }
  }

  /// A stable, machine-readable code for the case, used as the error object's `code`.
  public var code: String {
    switch self {
    case .malformedParameter: return "malformed-parameter"
    case .duplicateParameter: return "duplicate-parameter"
    case .unsupportedParameter: return "unsupported-parameter"
    case .includeNotAllowed: return "include-not-allowed"
    case .sortNotAllowed: return "sort-not-allowed"
    case .unknownField: return "unknown-field"
    case .invalidPageValue: return "invalid-page-value"
    case .limitExceeded: return "query-too-large"
    case .invalidFilterValue: return "invalid-filter-value"
    }
  }
}

extension JSONAPIQueryError: CustomStringConvertible {
  /// A sentence users can be shown, citing the section of the specification.
  public var description: String {
    switch self {
    case .malformedParameter(let name, let reason):
      return SpecSection.cite("The parameter `\(name)` is malformed: \(reason)", section)
    case .duplicateParameter(let name):
      return SpecSection.cite("The parameter `\(name)` appears more than once", section)
    case .unsupportedParameter(let name, let reason):
      return SpecSection.cite("The parameter `\(name)` is not supported: \(reason)", section)
    case .includeNotAllowed(let path):
      return SpecSection.cite("The relationship path `\(path)` cannot be included", section)
    case .sortNotAllowed(let field):
      return SpecSection.cite("The resources cannot be sorted by `\(field)`", section)
    case .unknownField(let type, let field?):
      return SpecSection.cite("The type `\(type)` has no field `\(field)`", section)
    case .unknownField(let type, nil):
      return SpecSection.cite("There is no resource type `\(type)`", section)
    case .invalidPageValue(let name, let value, let reason):
      return SpecSection.cite("`\(name)=\(value)` is not a valid page: \(reason)", section)
    case .limitExceeded(let name?, let limit):
      return SpecSection.cite(
        "The parameter `\(name)` is larger than this server accepts (limit \(limit))", section)
    case .limitExceeded(nil, let limit):
      return SpecSection.cite(
        "The query is larger than this server accepts (limit \(limit))", section)
    case .invalidFilterValue(let member, let value, let reason):
      return SpecSection.cite(
        "`filter[\(member)]=\(value)` cannot be used: \(reason)", section)
    }
  }

  /// The section of the specification the case breaks.
  private var section: String {
    switch self {
    case .includeNotAllowed: return SpecSection.includes
    case .sortNotAllowed: return SpecSection.sorting
    case .unknownField: return SpecSection.sparseFieldsets
    case .invalidPageValue: return SpecSection.pagination
    case .invalidFilterValue: return SpecSection.filtering
    case .malformedParameter(let name, _), .duplicateParameter(let name):
      if name == "include" { return SpecSection.includes }
      if name == "sort" { return SpecSection.sorting }
      if name.hasPrefix("fields") { return SpecSection.sparseFieldsets }
      return SpecSection.queryParameters
    default: return SpecSection.queryParameters
    }
  }
}
