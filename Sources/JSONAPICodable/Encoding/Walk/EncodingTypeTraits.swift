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
  /// An array whose element type never encodes as a resource: a scalar, a Foundation value, a
  /// ``JSONAPIAttributeExpressible``, ``JSONAPIValue``, dictionary or array type.
  static let arrayOfNonResources = EncodingTypeTraits(rawValue: 1 << 13)
  /// A ``JSONAPIRelationshipExpressible`` type: its values are related resources.
  static let relationshipExpressible = EncodingTypeTraits(rawValue: 1 << 11)
  /// A type the encoder stands in for a nested container or a super encoder (`Never`, `[Never]`,
  /// `[String: Never]`): no model type, so objects of it are keyed to no model
  /// (``EncodedObject/modelSlot``).
  static let standIn = EncodingTypeTraits(rawValue: 1 << 12)

  /// A type whose values are always related resources (``JSONAPIResource`` or
  /// ``JSONAPIRelationshipExpressible``), so that a value of it in a relationship position must
  /// identify one.
  static let declaredRelated: EncodingTypeTraits = [
    .declaresResourceType, .relationshipExpressible,
  ]

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
      if neverEncodesResources(array.elementType) { traits.insert(.arrayOfNonResources) }
    }
    if let optional = type as? any OptionalMarker.Type {
      traits.insert(.standardOptional)
      if optional.wrappedIsRelationshipExpressible { traits.insert(.optionalOfRelated) }
    }
    if type is any StringKeyedDictionaryMarker.Type { traits.insert(.stringKeyedDictionary) }
    if type is any JSONAPIResource.Type { traits.insert(.declaresResourceType) }
    if type is any JSONAPIRelationshipExpressible.Type { traits.insert(.relationshipExpressible) }
    if type == Never.self || type == [Never].self || type == [String: Never].self {
      traits.insert(.standIn)
    }
    if type == Date.self || type == Data.self || type == URL.self || type == Decimal.self {
      traits.insert(.foundationValue)
    }
    return traits
  }

  /// Types whose values encode as JSON scalars.
  private static let scalarTypes: [Any.Type] = [
    String.self, Bool.self, Int.self, Int8.self, Int16.self, Int32.self, Int64.self, UInt.self,
    UInt8.self, UInt16.self, UInt32.self, UInt64.self, Double.self, Float.self, Date.self,
    Data.self, URL.self, Decimal.self, UUID.self,
  ]

  /// Whether values of `type` never encode as a resource-shaped object: scalars, and values that
  /// encode as arrays, dictionaries or attributes. (An empty array of them is an attribute, with
  /// nothing to settle.)
  private static func neverEncodesResources(_ type: Any.Type) -> Bool {
    scalarTypes.contains { $0 == type } || type == JSONAPIValue.self
      || type is any JSONAPIAttributeExpressible.Type || type is any EncodableArrayMarker.Type
      || type is any StringKeyedDictionaryMarker.Type
  }
}
