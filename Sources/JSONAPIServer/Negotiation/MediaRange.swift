/// One entry of an `Accept` header, or a `Content-Type` value: the media type (lower-cased), its
/// parameters in order (names lower-cased, values unquoted; `nil` for a part without `=`, which is
/// no `name=value` parameter of RFC 9110 §5.6.6), and, in `Accept`, the `q` weight, which ends the
/// media type's own parameters (RFC 9110 §12.5.1).
struct MediaRange {
  let mediaType: String
  let parameters: [(name: String, value: String?)]
  let quality: Double

  /// Reads `text`; `isAcceptEntry` is false for a `Content-Type`, where `q` is a parameter like
  /// any other (and so one JSON:API refuses, R61) rather than a weight that hides what follows.
  init(_ text: Substring, isAcceptEntry: Bool = true) {
    var parts = HeaderParameters.split(String(text))
    mediaType = parts.isEmpty ? "" : parts.removeFirst().trimmingSpaces().lowercased()
    var parameters: [(name: String, value: String?)] = []
    var quality = 1.0
    // An empty part (`;;`, a trailing `;`) is no parameter (RFC 9110 §5.6.6).
    for part in parts where !part.trimmingSpaces().isEmpty {
      guard let equals = part.firstIndex(of: "=") else {
        parameters.append((part.trimmingSpaces().lowercased(), nil))
        continue
      }
      let name = part[..<equals].trimmingSpaces().lowercased()
      let value = HeaderParameters.unquote(part[part.index(after: equals)...].trimmingSpaces())
      if isAcceptEntry && name == "q" {
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

  /// The parameters other than `ext` and `profile`, which JSON:API does not allow, and those
  /// without a value (`;ext`), which are not well-formed parameters at all.
  var foreignParameters: [String] {
    parameters.filter { $0.value == nil || ($0.name != "ext" && $0.name != "profile") }.map(\.name)
  }

  /// The URIs listed in the parameter `name` (space-separated, R59).
  func uris(_ name: String) -> [String] {
    parameters.filter { $0.name == name }.flatMap {
      ($0.value ?? "").split(separator: " ").map(String.init)
    }
  }
}
