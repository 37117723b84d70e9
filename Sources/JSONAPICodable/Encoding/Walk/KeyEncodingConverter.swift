/// Applies the key encoding strategy to coding keys, converting each distinct name once per call
/// (a model's keys repeat for every value encoded). The decoder's counterpart is `KeyConverter`.
package final class KeyEncodingConverter {
  let strategy: JSONAPIEncoder.KeyEncodingStrategy
  // Confined to one encode call on one thread: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) private var cache: [String: String] = [:]

  package init(strategy: JSONAPIEncoder.KeyEncodingStrategy) {
    self.strategy = strategy
  }

  /// The member name for `key` under the strategy. Names that JSON:API gives a fixed meaning
  /// (``ResourceMemberName/isExemptFromKeyStrategies``) are never converted.
  package func memberName(for key: any CodingKey, at path: @autoclosure () -> EncodingPath)
    -> String
  {
    let name = key.stringValue
    switch strategy {
    case .useDefaultKeys:
      return name
    case .convertToSnakeCase:
      if Self.isExempt(name) { return name }
      return cached(name) { KeyConversion.snakeCase($0) }
    case .convertToKebabCase:
      if Self.isExempt(name) { return name }
      return cached(name) { KeyConversion.kebabCase($0) }
    case .custom(let convert):
      if Self.isExempt(name) { return name }
      return convert(path().appending(key).codingPath).stringValue
    }
  }

  @inline(__always)
  private static func isExempt(_ name: String) -> Bool {
    ResourceMemberName(name)?.isExemptFromKeyStrategies ?? false
  }

  private func cached(_ name: String, _ convert: (String) -> String) -> String {
    if let known = cache[name] { return known }
    let converted = convert(name)
    cache[name] = converted
    return converted
  }
}
