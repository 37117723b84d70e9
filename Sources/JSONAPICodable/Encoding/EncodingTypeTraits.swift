import Foundation

/// What classification needs to know about a Swift type, answered from its metatype.
///
/// Protocol conformance checks (`is any P.Type`) cost a runtime lookup each; a model encodes the
/// same few types thousands of times, so one call works them out once per type and keeps them in
/// ``EncodingTypeTraitsCache``.
struct EncodingTypeTraits: OptionSet {
  let rawValue: UInt16

  /// One of the library's own JSON:API member types (``VerbatimKeysEncodable``).
  static let verbatimKeys = EncodingTypeTraits(rawValue: 1 << 0)
  /// A ``JSONAPIDocument``.
  static let document = EncodingTypeTraits(rawValue: 1 << 1)
  /// A ``JSONAPIRelationship``.
  static let relationship = EncodingTypeTraits(rawValue: 1 << 2)
  /// A ``JSONAPIAttributeExpressible`` type.
  static let attribute = EncodingTypeTraits(rawValue: 1 << 3)
  /// An array whose element type is ``JSONAPIRelationshipExpressible``.
  static let arrayOfRelated = EncodingTypeTraits(rawValue: 1 << 4)
  /// An optional whose wrapped type is ``JSONAPIRelationshipExpressible``.
  static let optionalOfRelated = EncodingTypeTraits(rawValue: 1 << 5)
  /// A `[String: Encodable]` dictionary.
  static let stringKeyedDictionary = EncodingTypeTraits(rawValue: 1 << 6)
  /// `Date`, `Data`, `URL` or `Decimal`: encoded under the encoder's strategies.
  static let foundationValue = EncodingTypeTraits(rawValue: 1 << 7)
  /// A ``JSONAPIResource``: its `type` comes from the type when the value has none.
  static let declaresResourceType = EncodingTypeTraits(rawValue: 1 << 8)
  /// A standard `Array`: its `encode(to:)` encodes each element once, in order.
  static let standardArray = EncodingTypeTraits(rawValue: 1 << 9)
  /// A standard `Optional`: its `encode(to:)` encodes `nil` or its wrapped value, once.
  static let standardOptional = EncodingTypeTraits(rawValue: 1 << 10)

  /// The traits of `type`, worked out with conformance checks (slow: cache the answer).
  static func of(_ type: Any.Type) -> EncodingTypeTraits {
    var traits: EncodingTypeTraits = []
    if type is any VerbatimKeysEncodable.Type { traits.insert(.verbatimKeys) }
    if type is any JSONAPIDocumentMarker.Type { traits.insert(.document) }
    if type is any JSONAPIRelationshipMarker.Type { traits.insert(.relationship) }
    if type is any JSONAPIAttributeExpressible.Type { traits.insert(.attribute) }
    if let array = type as? any EncodableArrayMarker.Type {
      traits.insert(.standardArray)
      if array.elementIsRelationshipExpressible { traits.insert(.arrayOfRelated) }
    }
    if let optional = type as? any OptionalMarker.Type {
      traits.insert(.standardOptional)
      if optional.wrappedIsRelationshipExpressible { traits.insert(.optionalOfRelated) }
    }
    if type is any StringKeyedDictionaryMarker.Type { traits.insert(.stringKeyedDictionary) }
    if type is any JSONAPIResource.Type { traits.insert(.declaresResourceType) }
    if type == Date.self || type == Data.self || type == URL.self || type == Decimal.self {
      traits.insert(.foundationValue)
    }
    return traits
  }
}
