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
