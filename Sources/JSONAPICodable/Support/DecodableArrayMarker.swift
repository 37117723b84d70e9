/// Arrays of decodable elements, which the decoder reads itself instead of through
/// `Array.init(from:)`: the standard library's generic version looks up the metadata of `[Element]`
/// for every element it appends and grows the array step by step; this one
/// reserves the element count and appends through the concrete container, with the same calls,
/// order and errors.
protocol DecodableArrayMarker {
  /// Decodes `Self` from the current node of `decoder` as `Array.init(from:)` would. `T` must be
  /// `Self` (the caller found `Self` as `T.self`); otherwise it throws a type mismatch.
  static func decodeArray<T>(as type: T.Type, from decoder: DecoderImpl) throws -> T
}

extension Array: DecodableArrayMarker where Element: Decodable {
  static func decodeArray<T>(as type: T.Type, from decoder: DecoderImpl) throws -> T {
    guard T.self == Self.self else {
      throw decoder.typeMismatch(T.self, depth: decoder.path.count, found: decoder.node)
    }
    var container = try decoder.concreteUnkeyedContainer()
    var elements: [Element] = []
    elements.reserveCapacity(container.count ?? 0)
    while !container.isAtEnd {
      elements.append(try container.decode(Element.self))
    }
    // `T` is `[Element]` (checked above), so this reinterpretation is the identity.
    return unsafeBitCast(elements, to: T.self)
  }
}
