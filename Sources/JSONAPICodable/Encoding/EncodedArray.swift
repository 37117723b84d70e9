/// A JSON array under construction.
final class EncodedArray {
  /// Whether the array's Swift element type is ``JSONAPIRelationshipExpressible``, so that even an
  /// empty array is a to-many relationship.
  @exclusivity(unchecked) var holdsRelatedResources: Bool
  // Confined to one encode call on one thread: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) var elements: [EncodedNode] = []

  init(holdsRelatedResources: Bool = false) {
    self.holdsRelatedResources = holdsRelatedResources
  }
}
