/// One value of the tree the Codable walk builds: JSON values as the models encoded them. Assembly
/// reads it to plan the document (``PlannedNode``).
///
/// Objects and arrays are classes so that nested containers can keep filling them after they
/// have been attached to their parent, as `Encoder` containers require.
package enum EncodedNode {
  case null
  /// A `nil` of an optional whose wrapped type is ``JSONAPIRelationshipExpressible``: written as
  /// `null`, and as `"data": null` when it is a resource's field.
  case nullRelated
  case bool(Bool)
  /// The number's JSON text, already formatted.
  case number(String)
  /// An integer, written in decimal when the document is written: no `String` per number.
  case integer(Int64)
  case string(String)
  case object(EncodedObject)
  case array(EncodedArray)

  /// Whether the value is a JSON scalar (`null`, a boolean, a number or a string): always an
  /// attribute when it is a resource's field. Asked without binding the payload, so the caller
  /// copies (and retains) nothing, such as a model's string storage that is cold by then.
  var isScalar: Bool {
    switch self {
    case .null, .bool, .number, .integer, .string: return true
    default: return false
    }
  }

  /// An integer of any type: ``integer(_:)`` when `Int64` holds it, its text otherwise.
  @inline(__always)
  package static func integer<I: BinaryInteger>(_ value: I) -> EncodedNode {
    if let small = Int64(exactly: value) { return .integer(small) }
    return .number(String(value))
  }
}

/// A JSON array under construction.
package final class EncodedArray {
  /// Whether the array's Swift element type is ``JSONAPIRelationshipExpressible`` or
  /// ``JSONAPIResource``, so that even an empty array is a to-many relationship.
  @exclusivity(unchecked) var holdsRelatedResources: Bool
  /// Whether the array's Swift element type never encodes as a resource (`[String]`, …), so that
  /// an empty one is an attribute without waiting for the rest of the document
  /// (``ToManyLedger``).
  @exclusivity(unchecked) var holdsNoResources: Bool
  // Confined to one encode call on one thread: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) var elements: [EncodedNode] = []

  init(holdsRelatedResources: Bool = false, holdsNoResources: Bool = false) {
    self.holdsRelatedResources = holdsRelatedResources
    self.holdsNoResources = holdsNoResources
  }
}
