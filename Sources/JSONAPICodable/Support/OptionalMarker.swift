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
