import Foundation

/// State shared by every encoder of one `encode` call: the settings snapshot and caches.
final class EncodingContext {
  let options: EncodingOptions
  let userInfo: [CodingUserInfoKey: Any]
  let traitsCache = EncodingTypeTraitsCache()
  // Confined to one encode call on one thread: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) private var convertedKeys: [String: String] = [:]

  init(options: EncodingOptions) {
    self.options = options
    self.userInfo = options.userInfo
  }

  /// The member name for `key` under the key strategy. Names that JSON:API gives a fixed meaning
  /// (`id`, `type`, `lid`, `meta`, `links`) are never converted.
  func memberName(for key: any CodingKey, at path: CodingPathNode?) -> String {
    let name = key.stringValue
    switch options.keyEncodingStrategy {
    case .useDefaultKeys:
      return name
    case .convertToSnakeCase:
      if KeyConversion.isReservedMemberName(name) { return name }
      return cached(name) { KeyConversion.snakeCase($0) }
    case .convertToKebabCase:
      if KeyConversion.isReservedMemberName(name) { return name }
      return cached(name) { KeyConversion.kebabCase($0) }
    case .custom(let convert):
      if KeyConversion.isReservedMemberName(name) { return name }
      return convert(CodingPathNode.path(of: path) + [key]).stringValue
    }
  }

  private func cached(_ name: String, _ convert: (String) -> String) -> String {
    if let known = convertedKeys[name] { return known }
    let converted = convert(name)
    convertedKeys[name] = converted
    return converted
  }
}

/// The coding path as a linked list, so that nesting allocates one small node instead of copying
/// an array; `[CodingKey]` is built only when someone asks.
final class CodingPathNode {
  let key: any CodingKey
  let parent: CodingPathNode?

  init(key: any CodingKey, parent: CodingPathNode?) {
    self.key = key
    self.parent = parent
  }

  static func path(of node: CodingPathNode?) -> [any CodingKey] {
    var keys: [any CodingKey] = []
    var current = node
    while let step = current {
      keys.append(step.key)
      current = step.parent
    }
    return keys.reversed()
  }

  /// A readable path such as `comments[0].author`.
  static func describe(_ keys: [any CodingKey]) -> String {
    var text = ""
    for key in keys {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return text
  }
}
