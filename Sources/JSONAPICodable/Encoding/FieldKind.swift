/// What a member of a resource's encoded object became when the resource was taken apart.
enum FieldKind: UInt8 {
  /// Not a field: an identity member, the resource's own `meta` or `links`, a field a sparse
  /// fieldset leaves out, or a member of an object that is no resource.
  case none
  /// An attribute: written in `attributes`.
  case attribute
  /// A relationship: its relationship object is in ``ResourceParts/relationships``, and its
  /// encoded value is let go of.
  case relationship
}
