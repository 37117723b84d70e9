/// The small part of HTTP header syntax (RFC 9110) that media type parameters need.
package enum HeaderParameters {
  /// Splits at `;` outside quoted strings.
  package static func split(_ value: String) -> [Substring] {
    split(value, at: ";")
  }

  private static func split(_ value: String, at separator: Character) -> [Substring] {
    var parts: [Substring] = []
    var start = value.startIndex
    var inQuotes = false
    var escaped = false
    var index = value.startIndex
    while index < value.endIndex {
      let character = value[index]
      if escaped {
        escaped = false
      } else if inQuotes && character == "\\" {
        escaped = true
      } else if character == "\"" {
        inQuotes.toggle()
      } else if character == separator && !inQuotes {
        parts.append(value[start..<index])
        start = value.index(after: index)
      }
      index = value.index(after: index)
    }
    parts.append(value[start...])
    return parts
  }

  /// Splits a list header (`Accept`) at `,` outside quoted strings.
  package static func splitList(_ value: String) -> [Substring] {
    split(value, at: ",")
  }

  /// A quoted string, with `"` and `\` escaped.
  static func quote(_ text: String) -> String {
    var quoted = "\""
    for character in text {
      if character == "\"" || character == "\\" { quoted.append("\\") }
      quoted.append(character)
    }
    quoted.append("\"")
    return quoted
  }

  /// The content of a quoted string with escapes removed, or the token as it is.
  package static func unquote(_ text: Substring) -> String {
    guard text.count >= 2, text.first == "\"", text.last == "\"" else { return String(text) }
    var result = ""
    var escaped = false
    for character in text.dropFirst().dropLast() {
      if !escaped && character == "\\" {
        escaped = true
        continue
      }
      escaped = false
      result.append(character)
    }
    return result
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
  package func trimmingSpaces() -> Substring {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    let view = self[...]
    guard let first = view.firstIndex(where: { !isSpace($0) }),
      let last = view.lastIndex(where: { !isSpace($0) })
    else { return Substring() }
    return Substring(view[first...last])
  }
}
