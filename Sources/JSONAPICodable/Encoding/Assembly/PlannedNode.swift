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
  /// A relationship object as a ``JSONAPIRelationship`` gives it: `data` when it has one, `links`,
  /// `meta`.
  indirect case relationship(PlannedRelationship)
}

/// A relationship object planned from a ``JSONAPIRelationship``: its `data` as a value, apart from
/// its other members, so that whoever reads the linkage (change sets, the graph planner, a
/// relationship endpoint's body) takes it without looking it up by name.
struct PlannedRelationship {
  /// The relationship's `data`: `null`, one identifier or an array of them; `nil` when the
  /// relationship has only `links` or `meta`.
  var data: PlannedNode?
  /// The members after `data`, in order: `links`, then `meta`.
  var others: [PlannedMember]

  /// Whether the relationship has no member at all (it is then left out).
  var isEmpty: Bool { data == nil && others.isEmpty }
}

/// A document as assembly plans it: its primary data apart, as a value, and its other top-level
/// members. ``DocumentWriter`` writes it; the atomic writer takes the primary data of a value it
/// places inside an operation.
struct PlannedDocument {
  /// The primary data; `nil` when the document has none (an error document, a relationship body
  /// without `data`, an atomic document) or its primary data streamed (``PrimaryDataStream``).
  var data: PlannedNode?
  /// The members after `data`, in order: `included`, or `errors`; then `meta`, `links`,
  /// `jsonapi` (or a relationship body's `links` and `meta`, an atomic document's array).
  var others: [PlannedMember]

  init(data: PlannedNode?, others: [PlannedMember] = []) {
    self.data = data
    self.others = others
  }
}

/// What a planned relationship object's `data` says: one resource or none, or a list.
enum PlannedLinkage {
  case toOne(ResourceLinkage?)
  case toMany([ResourceLinkage])
}

extension PlannedNode {
  /// The linkage of a relationship object as the classifier plans it, for the graph planner and
  /// change sets, which read relationships rather than write them; `nil` for a relationship object
  /// without `data` (only `links` or `meta`) and for nodes that are no relationship object.
  var relationshipLinkage: PlannedLinkage? {
    switch self {
    case .toOneRelationship(let linkage): return .toOne(linkage)
    case .toManyRelationship(let linkage): return .toMany(linkage)
    case .nullRelationship: return .toOne(nil)
    case .relationship(let relationship):
      // A JSONAPIRelationship: its `data` is `null`, one linkage, or an array of linkage.
      guard let data = relationship.data else { return nil }
      switch data {
      case .linkage(let linkage):
        return .toOne(linkage)
      case .array(let elements):
        var linkage: [ResourceLinkage] = []
        linkage.reserveCapacity(elements.count)
        for case .linkage(let element) in elements { linkage.append(element) }
        return .toMany(linkage)
      default:
        return .toOne(nil)
      }
    default:
      return nil
    }
  }
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
