import Foundation

/// The `Encoder` handed to models' `encode(to:)`: one per nested value, producing one
/// ``EncodedNode``. Classification into JSON:API members happens afterwards, on a finished value's
/// tree: the whole document's, or each primary resource's as a collection streams
/// (``PrimaryDataStream``).
final class EncoderImpl: Encoder {
  let context: EncodingContext
  /// The encoder of the value this one is nested in; `nil` at the root.
  private let parent: EncoderImpl?
  /// Where this value sits in its parent; `nil` for the same place (a single-value container).
  private let key: (any CodingKey)?
  let depth: Int
  /// Whether this value's own keyed container applies the key strategy.
  let convertsOwnKeys: Bool
  /// Whether values nested inside this one may apply the key strategy.
  let convertsNestedKeys: Bool
  /// Whether this value is the document's primary data (or an `Optional` around it), whose
  /// array elements may stream (see ``PrimaryDataStream``).
  let isPrimaryData: Bool
  /// The Swift type being encoded; an array of related resources is recognised by it.
  let valueType: Any.Type
  /// What classification needs to know about `valueType`.
  let traits: EncodingTypeTraits
  /// `valueType`'s slot in the context's ``EncodingTypeTraitsCache``.
  let typeSlot: Int
  // Confined to one encode call on one thread: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) private(set) var node: EncodedNode?
  /// Where a super-encoder delivers its value in the parent container.
  private let deliver: ((EncodedNode) -> Void)?

  init(
    context: EncodingContext, parent: EncoderImpl?, key: (any CodingKey)?, depth: Int,
    valueType: Any.Type,
    type: EncodingTypeTraitsCache.Entry, convertsOwnKeys: Bool, convertsNestedKeys: Bool,
    isPrimaryData: Bool = false, deliver: ((EncodedNode) -> Void)? = nil
  ) {
    self.isPrimaryData = isPrimaryData
    self.context = context
    self.parent = parent
    self.key = key
    self.depth = depth
    self.valueType = valueType
    self.traits = type.traits
    self.typeSlot = type.slot
    self.convertsOwnKeys = convertsOwnKeys
    self.convertsNestedKeys = convertsNestedKeys
    self.deliver = deliver
  }

  /// Where this value sits: its `codingPath`, and the place errors name. Built from the chain of
  /// encoders only when asked (a model, a custom key strategy, an error), so going one level down
  /// allocates nothing for it.
  var path: EncodingPath {
    var keys: [any CodingKey] = []
    var encoder: EncoderImpl? = self
    while let current = encoder {
      if let key = current.key { keys.append(key) }
      encoder = current.parent
    }
    return EncodingPath(keys.reversed().map { .key($0) })
  }

  var codingPath: [any CodingKey] { path.codingPath }
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
      let role: EncodedObject.Role = Key.self == AnyCodingKey.self ? .dictionary : .plain
      // Only a model's own members are reconciled across the document (ToManyLedger).
      let isModel = role == .plain && !traits.contains(.standIn)
      object = EncodedObject(
        role: role, swiftType: valueType,
        modelSlot: isModel ? Int32(exactly: typeSlot) ?? -1 : -1,
        capacity: context.traitsCache.memberCount(slot: typeSlot))
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
    if case .array(let existing)? = node {
      let stream = context.stream.flatMap { $0.array === existing ? $0 : nil }
      return EncodingUnkeyedContainer(encoder: self, array: existing, stream: stream)
    }
    let array = EncodedArray(
      holdsRelatedResources: traits.contains(.arrayOfRelated),
      holdsNoResources: traits.contains(.arrayOfNonResources))
    var stream: PrimaryDataStream?
    if isPrimaryData, traits.contains(.standardArray), let primary = context.stream,
      primary.adopt(array)
    {
      stream = primary
    } else {
      // As long as the type's arrays have been, up to a few: short arrays (an article's
      // comments) then take one allocation, not one per doubling, and a long one does not make
      // every later array of its type as long.
      let expected = min(context.traitsCache.memberCount(slot: typeSlot), 16)
      if expected > 1 { array.elements.reserveCapacity(expected) }
    }
    setNode(.array(array))
    return EncodingUnkeyedContainer(encoder: self, array: array, stream: stream)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    EncodingSingleValueContainer(encoder: self)
  }

  /// An encoder for a value nested in this one at `key` (`nil`: the same path, as in a
  /// single-value container).
  func child(
    for type: Any.Type, key: (any CodingKey)?, deliver: ((EncodedNode) -> Void)? = nil
  ) -> EncoderImpl {
    child(for: type, entry: context.traitsCache.entry(of: type), key: key, deliver: deliver)
  }

  /// ``child(for:key:deliver:)`` for a caller that already has the type's cache entry.
  func child(
    for type: Any.Type, entry: EncodingTypeTraitsCache.Entry, key: (any CodingKey)?,
    deliver: ((EncodedNode) -> Void)? = nil
  ) -> EncoderImpl {
    let verbatim = entry.traits.contains(.verbatimKeys)
    let structural = !entry.traits.isDisjoint(with: [.document, .relationship])
    return EncoderImpl(
      context: context, parent: self, key: key, depth: depth + 1, valueType: type, type: entry,
      convertsOwnKeys: convertsNestedKeys && !verbatim && !structural,
      convertsNestedKeys: convertsNestedKeys && !verbatim,
      isPrimaryData: deliver == nil && holdsPrimaryData(at: key, childTraits: entry.traits),
      deliver: deliver)
  }

  /// Whether a value nested at `key` is the primary data: the top-level value unless it is a
  /// document or relationship, a top-level document's `data`, or what an `Optional` there wraps.
  private func holdsPrimaryData(at key: (any CodingKey)?, childTraits: EncodingTypeTraits) -> Bool {
    guard context.stream != nil else { return false }
    if depth == 0 { return childTraits.isDisjoint(with: [.document, .relationship]) }
    if isPrimaryData { return key == nil && traits.contains(.standardOptional) }
    return depth == 1 && traits.contains(.document)
      && key?.stringValue == JSONAPIDocumentCodingKeys.data.stringValue
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
        limit: limit, codingPath: path.appending(key).text)
    }
    let entry = context.traitsCache.entry(of: T.self)
    let traits = entry.traits
    if traits.contains(.foundationValue),
      let special = try wrapFoundationValue(value, key: key)
    {
      return special
    }
    if traits.contains(.stringKeyedDictionary),
      let dictionary = value as? any StringKeyedDictionaryMarker
    {
      let object = EncodedObject(role: .dictionary, swiftType: T.self)
      try dictionary.encodeMembers(
        into: object, encoder: child(for: T.self, entry: entry, key: key))
      return .object(object)
    }
    let encoder = child(for: T.self, entry: entry, key: key)
    if encoder.isPrimaryData, traits.contains(.standardArray),
      let array = value as? any EncodableArrayMarker
    {
      context.stream?.assembler.expectPrimaryResources(array.count)
    }
    try value.encode(to: encoder)
    switch encoder.node {
    case .object(let object)?: context.traitsCache.noteMemberCount(object.count, slot: entry.slot)
    case .array(let array)?:
      if let stream = context.stream, stream.array === array {
        try stream.completeData()
      } else {
        context.traitsCache.noteMemberCount(array.elements.count, slot: entry.slot)
      }
    default: break
    }
    return ResourceClassifier.marked(encoder.node, of: T.self, traits: traits)
  }

  private func wrapPrimitive<T: Encodable>(_ value: T, key: (any CodingKey)?) throws
    -> EncodedNode?
  {
    // Generic code (Array, Optional, Dictionary) reaches here with concrete scalars: answer them
    // without creating an encoder. Metatype comparisons are pointer compares, where `as?` casts
    // would each ask the runtime; a matching metatype makes the reinterpretation exact.
    let type: any Any.Type = T.self
    if type == String.self { return .string(Self.reinterpret(value, as: String.self)) }
    if type == Int.self { return .integer(Self.reinterpret(value, as: Int.self)) }
    if type == Bool.self { return .bool(Self.reinterpret(value, as: Bool.self)) }
    if type == Double.self { return try number(Self.reinterpret(value, as: Double.self), key: key) }
    if type == Float.self { return try number(Self.reinterpret(value, as: Float.self), key: key) }
    if type == Int64.self { return .integer(Self.reinterpret(value, as: Int64.self)) }
    if type == Int32.self { return .integer(Self.reinterpret(value, as: Int32.self)) }
    if type == Int16.self { return .integer(Self.reinterpret(value, as: Int16.self)) }
    if type == Int8.self { return .integer(Self.reinterpret(value, as: Int8.self)) }
    if type == UInt.self { return .integer(Self.reinterpret(value, as: UInt.self)) }
    if type == UInt64.self { return .integer(Self.reinterpret(value, as: UInt64.self)) }
    if type == UInt32.self { return .integer(Self.reinterpret(value, as: UInt32.self)) }
    if type == UInt16.self { return .integer(Self.reinterpret(value, as: UInt16.self)) }
    if type == UInt8.self { return .integer(Self.reinterpret(value, as: UInt8.self)) }
    return nil
  }

  /// `value` as `U`; only for a `T` the caller has checked to be `U` itself.
  @inline(__always)
  private static func reinterpret<T, U>(_ value: T, as _: U.Type) -> U {
    unsafeBitCast(value, to: U.self)
  }

  /// A floating-point number as JSONEncoder writes it: shortest round-trip digits, no `.0`.
  /// `key` is an autoclosure: only the error for a non-finite value needs it as an existential.
  func number<F: BinaryFloatingPoint & LosslessStringConvertible>(
    _ value: F, key: @autoclosure () -> (any CodingKey)?
  ) throws -> EncodedNode {
    guard value.isFinite else {
      guard
        case .convertToString(let positiveInfinity, let negativeInfinity, let nan) = context.options
          .nonConformingFloatEncodingStrategy
      else {
        throw EncodingError.invalidValue(
          value,
          EncodingError.Context(
            codingPath: path.appending(key()).codingPath,
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
  static func root(for type: Any.Type, context: EncodingContext) -> EncoderImpl {
    EncoderImpl(
      context: context, parent: nil, key: nil, depth: 0, valueType: type,
      type: context.traitsCache.entry(of: type), convertsOwnKeys: true,
      convertsNestedKeys: true)
  }
}

/// State shared by every encoder of one `encode` call: the settings snapshot and caches.
final class EncodingContext {
  let options: EncodingOptions
  let userInfo: [CodingUserInfoKey: Any]
  let traitsCache: EncodingTypeTraitsCache
  let keys: KeyEncodingConverter
  /// Where the primary data's elements go as they are encoded; `nil` where a caller assembles the
  /// tree itself (atomic operations).
  let stream: PrimaryDataStream?

  init(options: EncodingOptions, stream: PrimaryDataStream?, traits: EncodingTypeTraitsCache) {
    self.options = options
    traitsCache = traits
    self.stream = stream
    self.userInfo = options.userInfo
    keys = KeyEncodingConverter(strategy: options.keyEncodingStrategy)
  }
}
