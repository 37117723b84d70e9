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
