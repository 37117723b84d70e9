/// One entry of an `Accept` header, or a `Content-Type` value: the media type (lower-cased), its
/// parameters in order (names lower-cased, values unquoted), and the `q` weight, which ends the
/// media type's own parameters (RFC 9110 §12.5.1).
struct MediaRange {
  let mediaType: String
  let parameters: [(name: String, value: String)]
  let quality: Double

  init(_ text: Substring) {
    var parts = HeaderParameters.split(String(text))
    mediaType = parts.isEmpty ? "" : parts.removeFirst().trimmingSpaces().lowercased()
    var parameters: [(name: String, value: String)] = []
    var quality = 1.0
    for part in parts {
      guard let equals = part.firstIndex(of: "=") else {
        parameters.append((part.trimmingSpaces().lowercased(), ""))
        continue
      }
      let name = part[..<equals].trimmingSpaces().lowercased()
      let value = HeaderParameters.unquote(part[part.index(after: equals)...].trimmingSpaces())
      if name == "q" {
        quality = Double(value).map { min(max($0, 0), 1) } ?? 1
        break
      }
      parameters.append((name, value))
    }
    self.parameters = parameters
    self.quality = quality
  }

  /// Whether this is JSON:API's media type itself.
  var isJSONAPI: Bool { mediaType == JSONAPIMediaType.name }

  /// Whether this is a wildcard that covers JSON:API's media type (`*/*`, `application/*`).
  var coversJSONAPI: Bool { mediaType == "*/*" || mediaType == "application/*" }

  /// The parameters other than `ext` and `profile`, which JSON:API does not allow.
  var foreignParameters: [String] {
    parameters.map(\.name).filter { $0 != "ext" && $0 != "profile" }
  }

  /// The URIs listed in the parameter `name` (space-separated, R59).
  func uris(_ name: String) -> [String] {
    parameters.filter { $0.name == name }.flatMap {
      $0.value.split(separator: " ").map(String.init)
    }
  }
}
