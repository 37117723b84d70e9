/// The JSON:API media type, `application/vnd.api+json`, with the `ext` and `profile` parameters of
/// JSON:API 1.1.
///
/// ```swift
/// JSONAPIMediaType().headerValue
/// // application/vnd.api+json
/// JSONAPIMediaType(extensions: ["https://jsonapi.org/ext/atomic"]).headerValue
/// // application/vnd.api+json;ext="https://jsonapi.org/ext/atomic"
/// ```
///
/// Each parameter is a space-separated list of URIs, always quoted. Servers that speak only
/// JSON:API 1.0 answer `415 Unsupported Media Type` to any parameter, so leave both lists empty
/// unless the server supports the extension or profile.
public struct JSONAPIMediaType: Sendable, Hashable, CustomStringConvertible {
  /// `application/vnd.api+json`, without parameters.
  public static let name = "application/vnd.api+json"

  /// URIs of the extensions applied (`ext`), in order.
  public var extensions: [String]
  /// URIs of the profiles applied (`profile`), in order.
  public var profiles: [String]

  /// Creates the media type with the given extension and profile URIs; both default to none.
  public init(extensions: [String] = [], profiles: [String] = []) {
    self.extensions = extensions
    self.profiles = profiles
  }

  /// Reads a `Content-Type` or one `Accept` entry, such as
  /// `application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"`.
  ///
  /// The type and parameter names are matched case-insensitively, values may be quoted or not,
  /// and parameters other than `ext` and `profile` are ignored, as JSON:API asks of clients.
  ///
  /// - Returns: `nil` when the value is another media type (such as `application/json`).
  public init?(headerValue: String) {
    var parts = HeaderParameters.split(headerValue)
    guard !parts.isEmpty,
      parts.removeFirst().trimmingSpaces().lowercased() == JSONAPIMediaType.name
    else { return nil }
    var extensions: [String] = []
    var profiles: [String] = []
    for part in parts {
      guard let equals = part.firstIndex(of: "=") else { continue }
      let key = part[..<equals].trimmingSpaces().lowercased()
      let value = HeaderParameters.unquote(part[part.index(after: equals)...].trimmingSpaces())
      let uris = value.split(separator: " ").map(String.init)
      switch key {
      case "ext": extensions += uris
      case "profile": profiles += uris
      default: continue
      }
    }
    self.init(extensions: extensions, profiles: profiles)
  }

  /// The header value: the media type followed by `;ext="…"` and `;profile="…"` when set.
  public var headerValue: String {
    var value = JSONAPIMediaType.name
    if !extensions.isEmpty {
      value += ";ext=" + HeaderParameters.quote(extensions.joined(separator: " "))
    }
    if !profiles.isEmpty {
      value += ";profile=" + HeaderParameters.quote(profiles.joined(separator: " "))
    }
    return value
  }

  /// The same text as ``headerValue``.
  public var description: String { headerValue }
}

/// The small part of HTTP header syntax (RFC 9110) that media type parameters need.
private enum HeaderParameters {
  /// Splits at `;` outside quoted strings.
  static func split(_ value: String) -> [Substring] {
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
      } else if character == ";" && !inQuotes {
        parts.append(value[start..<index])
        start = value.index(after: index)
      }
      index = value.index(after: index)
    }
    parts.append(value[start...])
    return parts
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
  static func unquote(_ text: Substring) -> String {
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
  fileprivate func trimmingSpaces() -> Substring {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    let view = self[...]
    guard let first = view.firstIndex(where: { !isSpace($0) }),
      let last = view.lastIndex(where: { !isSpace($0) })
    else { return Substring() }
    return Substring(view[first...last])
  }
}
