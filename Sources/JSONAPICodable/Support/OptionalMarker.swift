/// An `Optional` of any wrapped type, recognised by its metatype: generic code that knows an optional
/// type only as a parameter can produce its `nil` and ask what it wraps.
protocol OptionalMarker {
  /// `nil` of this optional type.
  static var noneValue: Self { get }
  /// Whether the wrapped type is ``JSONAPIRelationshipExpressible``: a `nil` of it then stands for an
  /// empty to-one relationship.
  static var wrappedIsRelationshipExpressible: Bool { get }
}

extension Optional: OptionalMarker {
  static var noneValue: Self { nil }

  static var wrappedIsRelationshipExpressible: Bool {
    Wrapped.self is any JSONAPIRelationshipExpressible.Type
  }
}
