/// One value of the document that assembly plans and ``DocumentWriter`` writes.
///
/// Assembly turns the encoded value tree (``EncodedNode``) into these: resources taken apart into
/// their members, linkage where related resources were, the document's top-level members. What
/// JSON:API writes as it was encoded (attributes, `meta`, `links`, error objects) stays an
/// ``EncodedNode`` inside ``value(_:)``.
enum PlannedNode {
  /// A value written as it was encoded.
  case value(EncodedNode)
  /// An object that assembly built, its members in order.
  case object([PlannedMember])
  /// An array that assembly built.
  case array([PlannedNode])
  /// A document's `included`: each resource is let go of as soon as it is written, while its
  /// memory is still in the cache (freeing a large list afterwards walks it all again, cold).
  case included(IncludedResources)
  /// A resource object, written from its parts.
  case resource(ResourceParts)
  /// A resource identifier object in a relationship's `data`.
  case linkage(ResourceLinkage)
  /// A relationship object whose one member is `data` holding this linkage (most relationships).
  case toOneRelationship(ResourceLinkage)
  /// A relationship object whose one member is `data` holding this array of linkage.
  case toManyRelationship([ResourceLinkage])
  /// A relationship object whose one member is `"data": null`.
  case nullRelationship
  /// A resource's `attributes`: the members of its encoded object marked as attributes, in order.
  case attributes(ResourceParts)
  /// A resource's `relationships`, in order.
  case relationships(ResourceParts)
}

/// A member of an object that assembly built. A struct, not a tuple: an array of tuples looks up
/// its element type's metadata at run time each time one is allocated.
struct PlannedMember {
  let key: String
  let value: PlannedNode

  init(_ key: String, _ value: PlannedNode) {
    self.key = key
    self.value = value
  }
}

/// The resources of a document's `included`, handed over for writing: each is let go of as it is
/// written.
final class IncludedResources {
  /// The resources still to write, the next one last (so taking one moves nothing).
  // Confined to one encode call on one thread: no dynamic exclusivity checks needed.
  @exclusivity(unchecked) private var remaining: [ResourceParts]

  init(_ resources: [ResourceParts]) {
    remaining = resources
    remaining.reverse()
  }

  var isEmpty: Bool { remaining.isEmpty }

  /// The next resource to write, which the list lets go of; `nil` when all have been taken.
  func next() -> ResourceParts? {
    remaining.popLast()
  }
}
