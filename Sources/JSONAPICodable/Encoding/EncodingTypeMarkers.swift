import Foundation

// Metatype hooks: classification asks the static type, once per value, instead of casting values.

/// An array type; tells whether its elements are declared related resources.
protocol EncodableArrayMarker {
  static var elementIsRelationshipExpressible: Bool { get }
}

extension Array: EncodableArrayMarker {
  static var elementIsRelationshipExpressible: Bool {
    Element.self is any JSONAPIRelationshipExpressible.Type
  }
}

/// An optional type; tells whether a `nil` of it stands for an empty to-one relationship.
protocol EncodableOptionalMarker {
  static var wrappedIsRelationshipExpressible: Bool { get }
}

extension Optional: EncodableOptionalMarker {
  static var wrappedIsRelationshipExpressible: Bool {
    Wrapped.self is any JSONAPIRelationshipExpressible.Type
  }
}

/// A dictionary keyed by strings: its keys are data, written as they are (as `JSONEncoder` does).
protocol StringKeyedDictionaryMarker {
  func encodeMembers(into object: EncodedObject, encoder: EncoderImpl) throws
}

extension Dictionary: StringKeyedDictionaryMarker where Key == String, Value: Encodable {
  func encodeMembers(into object: EncodedObject, encoder: EncoderImpl) throws {
    // Sorted: a dictionary's own order changes from run to run, the output should not.
    for key in keys.sorted() {
      guard let value = self[key] else { continue }
      object.append(try encoder.wrap(value, key: AnyCodingKey(key)), for: key)
    }
  }
}

/// The library's own JSON:API member types: their member names are fixed by the specification, so
/// key strategies never touch them or anything inside them.
protocol VerbatimKeysEncodable {}

extension JSONAPIErrorObject: VerbatimKeysEncodable {}
extension JSONAPIErrorObject.Source: VerbatimKeysEncodable {}
extension JSONAPIObject: VerbatimKeysEncodable {}
extension JSONAPILinks: VerbatimKeysEncodable {}
extension JSONAPILink: VerbatimKeysEncodable {}
extension JSONAPIValue: VerbatimKeysEncodable {}
