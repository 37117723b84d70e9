/// One value of the tree the encoder builds before it writes JSON.
///
/// Objects and arrays are classes so that nested containers can keep filling them after they
/// have been attached to their parent, as `Encoder` containers require.
enum EncodedNode {
  case null
  /// A `nil` of an optional whose wrapped type is ``JSONAPIRelationshipExpressible``: written as
  /// `null`, and as `"data": null` when it is a resource's field.
  case nullRelated
  case bool(Bool)
  /// The number's JSON text, already formatted.
  case number(String)
  case string(String)
  case object(EncodedObject)
  case array(EncodedArray)
  /// A resource object of the assembled document, kept in parts: the writer writes its members
  /// straight from them instead of from one more object per resource.
  case resource(ResourceParts)
  /// A resource identifier object of the assembled document: one allocation where an object
  /// would take two; the writer writes its members directly.
  case linkage(ResourceLinkage)
}

/// A JSON object under construction; members keep the order in which they were encoded.
final class EncodedObject {
  /// What the Swift value behind the object was, as far as classification cares.
  enum Role {
    /// A struct, class or enum with its own coding keys.
    case plain
    /// A `[String: Value]` dictionary or a container keyed by run-time names: never a resource.
    case dictionary
    /// A ``JSONAPIAttributeExpressible`` value: always an attribute.
    case attribute
    /// A ``JSONAPIRelationship``: a relationship object whatever its data.
    case relationship
    /// A ``JSONAPIDocument``: the top-level members.
    case document
  }

  // Nodes belong to one encode call on one thread, so the dynamic exclusivity checks that class
  // properties otherwise pay on every access are left out.
  @exclusivity(unchecked) var role: Role
  /// The Swift type that encoded this object, for error messages.
  @exclusivity(unchecked) var swiftType: Any.Type?
  // One array of pairs rather than parallel key and value arrays: half the allocations.
  @exclusivity(unchecked) private(set) var members: [Member] = []
  // Built only for large objects: small ones are searched linearly, which is faster.
  @exclusivity(unchecked) private var positions: [String: Int]?

  /// One member: its name and value.
  struct Member {
    let key: String
    var value: EncodedNode
  }

  init(role: Role = .plain, swiftType: Any.Type? = nil) {
    self.role = role
    self.swiftType = swiftType
  }

  /// The members as `(name, value)` pairs, in order.
  var pairs: LazyMapSequence<[Member], (String, EncodedNode)> {
    members.lazy.map { ($0.key, $0.value) }
  }

  var count: Int { members.count }
  var isEmpty: Bool { members.isEmpty }

  /// Sets `key` to `value`, replacing an earlier value of the same key (as `JSONEncoder` does).
  func set(_ value: EncodedNode, for key: String) {
    if let position = position(of: key) {
      members[position].value = value
    } else {
      append(value, for: key)
    }
  }

  /// Room for `count` members, for a caller that knows how many are coming (else 8 are reserved).
  func reserveCapacity(_ count: Int) {
    members.reserveCapacity(count)
  }

  /// Appends a member the caller knows to be new.
  func append(_ value: EncodedNode, for key: String) {
    // Most objects have a handful of members: one allocation up front instead of regrowing.
    if members.capacity == 0 { members.reserveCapacity(8) }
    positions?[key] = members.count
    members.append(Member(key: key, value: value))
  }

  /// Adds `value` only when there is no member `key` yet; returns whether it was added.
  @discardableResult
  func addIfAbsent(_ value: EncodedNode, for key: String) -> Bool {
    if position(of: key) != nil { return false }
    append(value, for: key)
    return true
  }

  subscript(key: String) -> EncodedNode? {
    position(of: key).map { members[$0].value }
  }

  func position(of key: String) -> Int? {
    if let positions { return positions[key] }
    if members.count < 16 {
      // Comparing lengths first skips most string comparisons, which are slow when they differ.
      let length = key.utf8.count
      return members.firstIndex { $0.key.utf8.count == length && $0.key == key }
    }
    var built: [String: Int] = [:]
    built.reserveCapacity(members.count * 2)
    for (offset, member) in members.enumerated() { built[member.key] = offset }
    positions = built
    return built[key]
  }
}

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
