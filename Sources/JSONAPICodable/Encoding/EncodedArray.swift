/// A JSON array under construction.
final class EncodedArray {
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
