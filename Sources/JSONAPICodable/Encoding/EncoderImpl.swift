import Foundation

/// The `Encoder` handed to models' `encode(to:)`: one per nested value, producing one
/// ``EncodedNode``. Classification into JSON:API members happens afterwards, on the finished tree.
final class EncoderImpl: Encoder {
  let context: EncodingContext
  let pathNode: CodingPathNode?
  let depth: Int
  /// Whether this value's own keyed container applies the key strategy.
  let convertsOwnKeys: Bool
  /// Whether values nested inside this one may apply the key strategy.
  let convertsNestedKeys: Bool
  /// The Swift type being encoded; an array of related resources is recognised by it.
  let valueType: Any.Type
  private(set) var node: EncodedNode?
  /// Where a super-encoder delivers its value in the parent container.
  private let deliver: ((EncodedNode) -> Void)?

  init(
    context: EncodingContext, pathNode: CodingPathNode?, depth: Int, valueType: Any.Type,
    convertsOwnKeys: Bool, convertsNestedKeys: Bool, deliver: ((EncodedNode) -> Void)? = nil
  ) {
    self.context = context
    self.pathNode = pathNode
    self.depth = depth
    self.valueType = valueType
    self.convertsOwnKeys = convertsOwnKeys
    self.convertsNestedKeys = convertsNestedKeys
    self.deliver = deliver
  }

  var codingPath: [any CodingKey] { CodingPathNode.path(of: pathNode) }
  var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

  func setNode(_ newNode: EncodedNode) {
    node = newNode
    deliver?(newNode)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let object: EncodedObject
    if case .object(let existing)? = node {
      object = existing
    } else {
      object = EncodedObject(role: Key.self == AnyCodingKey.self ? .dictionary : .plain)
      object.swiftType = valueType
      setNode(.object(object))
    }
    let converts: Bool
    switch context.options.keyEncodingStrategy {
    case .useDefaultKeys: converts = false
    default: converts = convertsOwnKeys && Key.self != AnyCodingKey.self
    }
    return KeyedEncodingContainer(
      EncodingKeyedContainer<Key>(encoder: self, object: object, convertsKeys: converts))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let array: EncodedArray
    if case .array(let existing)? = node {
      array = existing
    } else {
      let related = (valueType as? any EncodableArrayMarker.Type)?.elementIsRelationshipExpressible
      array = EncodedArray(holdsRelatedResources: related ?? false)
      setNode(.array(array))
    }
    return EncodingUnkeyedContainer(encoder: self, array: array)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    EncodingSingleValueContainer(encoder: self)
  }

  /// An encoder for a value nested in this one at `key` (`nil`: the same path, as in a
  /// single-value container).
  func child(
    for type: Any.Type, key: (any CodingKey)?, deliver: ((EncodedNode) -> Void)? = nil
  ) -> EncoderImpl {
    let verbatim = type is any VerbatimKeysEncodable.Type
    let structural =
      type is any JSONAPIDocumentMarker.Type || type is any JSONAPIRelationshipMarker.Type
    return EncoderImpl(
      context: context, pathNode: key.map { CodingPathNode(key: $0, parent: pathNode) } ?? pathNode,
      depth: depth + 1, valueType: type,
      convertsOwnKeys: convertsNestedKeys && !verbatim && !structural,
      convertsNestedKeys: convertsNestedKeys && !verbatim, deliver: deliver)
  }

  func describePath(appending key: (any CodingKey)?) -> String {
    CodingPathNode.describe(codingPath + (key.map { [$0] } ?? []))
  }

  /// Encodes `value`, nested at `key`, into a node.
  ///
  /// - Throws: ``JSONAPIError/encodingNestingTooDeep(limit:codingPath:)`` past the depth limit,
  ///   `EncodingError` for non-finite floats under `.throw`, and whatever `value` throws.
  func wrap<T: Encodable>(_ value: T, key: (any CodingKey)?) throws -> EncodedNode {
    if let primitive = try wrapPrimitive(value, key: key) { return primitive }
    let limit = context.options.limits.maxNestingDepth
    guard depth < limit else {
      throw JSONAPIError.encodingNestingTooDeep(
        limit: limit, codingPath: describePath(appending: key))
    }
    if let special = try wrapFoundationValue(value, key: key) { return special }
    if let dictionary = value as? any StringKeyedDictionaryMarker {
      let object = EncodedObject(role: .dictionary, swiftType: T.self)
      try dictionary.encodeMembers(into: object, encoder: child(for: T.self, key: key))
      return .object(object)
    }
    let encoder = child(for: T.self, key: key)
    try value.encode(to: encoder)
    return classify(encoder.node, of: T.self)
  }

  /// Marks what the static type tells about the value's node.
  private func classify(_ node: EncodedNode?, of type: Any.Type) -> EncodedNode {
    guard let node else {
      // A value that encodes nothing is an empty object, as with JSONEncoder.
      return .object(EncodedObject(swiftType: type))
    }
    switch node {
    case .object(let object):
      if type is any JSONAPIDocumentMarker.Type {
        object.role = .document
      } else if type is any JSONAPIRelationshipMarker.Type {
        object.role = .relationship
      } else if type is any JSONAPIAttributeExpressible.Type {
        object.role = .attribute
      }
    case .null:
      if (type as? any EncodableOptionalMarker.Type)?.wrappedIsRelationshipExpressible == true {
        return .nullRelated
      }
    default:
      break
    }
    return node
  }

  private func wrapPrimitive<T: Encodable>(_ value: T, key: (any CodingKey)?) throws
    -> EncodedNode?
  {
    // Generic code (Array, Optional, Dictionary) reaches here with concrete scalars: answer them
    // without creating an encoder.
    switch value {
    case let string as String: return .string(string)
    case let bool as Bool: return .bool(bool)
    case let int as Int: return .number(String(int))
    case let double as Double: return try number(double, key: key)
    case let float as Float: return try number(float, key: key)
    case let int as Int64: return .number(String(int))
    case let int as Int32: return .number(String(int))
    case let int as Int16: return .number(String(int))
    case let int as Int8: return .number(String(int))
    case let int as UInt: return .number(String(int))
    case let int as UInt64: return .number(String(int))
    case let int as UInt32: return .number(String(int))
    case let int as UInt16: return .number(String(int))
    case let int as UInt8: return .number(String(int))
    default: return nil
    }
  }

  /// A floating-point number as JSONEncoder writes it: shortest round-trip digits, no `.0`.
  func number<F: BinaryFloatingPoint & LosslessStringConvertible>(
    _ value: F, key: (any CodingKey)?
  ) throws -> EncodedNode {
    guard value.isFinite else {
      guard
        case .convertToString(let positiveInfinity, let negativeInfinity, let nan) = context.options
          .nonConformingFloatEncodingStrategy
      else {
        throw EncodingError.invalidValue(
          value,
          EncodingError.Context(
            codingPath: codingPath + (key.map { [$0] } ?? []),
            debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
      }
      if value.isNaN { return .string(nan) }
      return .string(value > 0 ? positiveInfinity : negativeInfinity)
    }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    return .number(text)
  }
}

extension EncoderImpl {
  /// The encoder above the top-level value: `wrap` on it encodes the value itself.
  static func root(for type: Any.Type, options: EncodingOptions) -> EncoderImpl {
    EncoderImpl(
      context: EncodingContext(options: options), pathNode: nil, depth: 0, valueType: type,
      convertsOwnKeys: true, convertsNestedKeys: true)
  }
}
