/// What a decoded query parameter name means to JSON:API (R66-R71): one of the parameters the
/// specification defines, a family name that misses its member, or anything else.
package enum QueryParameterName: Equatable {
  case include
  case fields(type: String)
  case sort
  case page(member: String)
  case filter(member: String)
  /// `fields`, `fields[]`, `page[]`, `include[x]`, `sort[x]`: a JSON:API name used wrongly.
  case malformedFamily(reason: String)
  /// Implementation-specific, extension, nested-family (`filter[a][b]`) or bare `filter`/`page`.
  case other

  package init(_ name: String) {
    switch name {
    case "include": self = .include
    case "sort": self = .sort
    case "fields": self = .malformedFamily(reason: "`fields` needs a type: `fields[TYPE]`")
    default:
      guard let open = name.firstIndex(of: "["), name.last == "]" else {
        self = .other
        return
      }
      let base = name[..<open]
      let member = name[name.index(after: open)..<name.index(before: name.endIndex)]
      // One bracketed member only; nested groups (`filter[a][b]`) are the server's own business.
      guard !member.contains("["), !member.contains("]") else {
        self =
          base == "fields" || base == "include" || base == "sort"
          ? .malformedFamily(reason: "`\(base)` takes exactly one `[…]` group") : .other
        return
      }
      switch base {
      case "include", "sort":
        self = .malformedFamily(reason: "`\(base)` takes no `[…]` member")
      case "fields", "page", "filter":
        if member.isEmpty {
          // `page[]` and `filter[]` belong to their families (R66), with a meaning of the
          // server's own; `fields[]` names no type.
          self =
            base == "fields"
            ? .malformedFamily(reason: "`fields[]` needs a type inside the brackets") : .other
        } else if base == "fields" {
          self = .fields(type: String(member))
        } else if base == "page" {
          self = .page(member: String(member))
        } else {
          self = .filter(member: String(member))
        }
      default:
        self = .other
      }
    }
  }

  /// Whether JSON:API defines the parameter to appear once.
  var isJSONAPIDefined: Bool {
    switch self {
    case .include, .fields, .sort, .page, .filter: return true
    case .malformedFamily, .other: return false
    }
  }
}
