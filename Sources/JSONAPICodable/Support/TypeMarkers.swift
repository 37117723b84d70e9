// Types recognised by their metatypes, which generic code of both coders asks about.

/// An `Optional` of any wrapped type, recognised by its metatype: generic code that knows an optional
/// type only as a parameter can produce its `nil` and ask what it wraps.
protocol OptionalMarker {
  /// `nil` of this optional type.
  static var noneValue: Self { get }
  /// Whether the wrapped type is a related resource however deeply optional
  /// (``JSONAPIRelationshipExpressible`` or ``JSONAPIResource``): a `nil` of it then stands for an
  /// empty to-one relationship, and a `.some(nil)` of a `T??` for an explicit `"data": null`.
  static var wrappedIsRelationshipExpressible: Bool { get }
}

extension Optional: OptionalMarker {
  static var noneValue: Self { nil }

  static var wrappedIsRelationshipExpressible: Bool {
    Wrapped.self is any JSONAPIRelationshipExpressible.Type
      || Wrapped.self is any JSONAPIResource.Type
      || (Wrapped.self as? any OptionalMarker.Type)?.wrappedIsRelationshipExpressible == true
  }
}

/// A `[String: Value]` dictionary of any value type, recognised by its metatype: its keys are data,
/// so key strategies leave them alone (as with `JSONEncoder` and `JSONDecoder`).
protocol StringKeyedDictionaryMarker {
  /// Writes the entries into `object`, sorted by key (the encoder's half, in
  /// `Encoding/Walk/Dictionary+EncodeMembers.swift`).
  func encodeMembers(into object: EncodedObject, encoder: EncoderImpl) throws
}

extension Dictionary: StringKeyedDictionaryMarker where Key == String {}

/// An array type, recognised by its metatype; tells whether its elements are declared related
/// resources (so that even an empty one is a to-many relationship).
protocol EncodableArrayMarker {
  static var elementIsRelationshipExpressible: Bool { get }
  /// The element type.
  static var elementType: Any.Type { get }
  /// How many elements the array has.
  var count: Int { get }
}

extension Array: EncodableArrayMarker {
  static var elementType: Any.Type { Element.self }

  static var elementIsRelationshipExpressible: Bool {
    Element.self is any JSONAPIRelationshipExpressible.Type
      || Element.self is any JSONAPIResource.Type
  }
}

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
