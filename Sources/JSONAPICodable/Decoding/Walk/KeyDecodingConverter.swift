import Foundation

/// Applies the key decoding strategy to member names, converting each distinct name once per call
/// (JSON:API documents repeat the same few attribute names thousands of times).
final class KeyDecodingConverter {
  let strategy: JSONAPIDecoder.KeyDecodingStrategy
  private var cache: [String: String] = [:]

  init(strategy: JSONAPIDecoder.KeyDecodingStrategy) {
    self.strategy = strategy
  }

  var usesDefaultKeys: Bool {
    if case .useDefaultKeys = strategy { return true }
    return false
  }

  /// The model-side name of a member name in the document.
  func convert(_ name: String, codingPath: @autoclosure () -> [any CodingKey]) -> String {
    switch strategy {
    case .useDefaultKeys:
      return name
    case .convertFromSnakeCase:
      return cached(name) { Self.camelCased($0, separator: "_") }
    case .convertFromKebabCase:
      return cached(name) { Self.camelCased($0, separator: "-") }
    case .custom(let convert):
      return convert(codingPath() + [AnyCodingKey(name)]).stringValue
    }
  }

  private func cached(_ name: String, _ convert: (String) -> String) -> String {
    if let known = cache[name] { return known }
    let converted = convert(name)
    cache[name] = converted
    return converted
  }

  /// `first_name` → `firstName`, the way `JSONDecoder.convertFromSnakeCase` does it: leading and trailing
  /// separators stay, a name without inner separators is left as it is, the first word is lowercased and
  /// every later word capitalised.
  static func camelCased(_ name: String, separator: Character) -> String {
    guard let first = name.firstIndex(where: { $0 != separator }) else { return name }
    guard let last = name.lastIndex(where: { $0 != separator }) else { return name }
    let core = name[first...last]
    let words = core.split(separator: separator)
    guard words.count > 1 else { return name }
    var result = String(name[..<first])
    result += words[0].lowercased()
    for word in words.dropFirst() {
      result += word.prefix(1).uppercased() + word.dropFirst().lowercased()
    }
    result += name[name.index(after: last)...]
    return result
  }
}
