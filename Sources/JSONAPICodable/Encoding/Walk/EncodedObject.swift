/// A JSON object under construction; members keep the order in which they were encoded.
package final class EncodedObject {
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
  /// Whether the value is of a type whose values are always related resources
  /// (``JSONAPIResource``, ``JSONAPIRelationshipExpressible``): where a relationship goes, it must
  /// identify one, never fall back to an attribute. (Declared next to `role`: it takes a byte of
  /// the padding before `swiftType`, not more memory.)
  @exclusivity(unchecked) var isDeclaredRelated = false
  /// The slot, in the call's ``EncodingTypeTraitsCache``, of the model type whose keyed container
  /// made this object; -1 for none (a dictionary, a nested container): the key of its members in
  /// ``ToManyLedger``. Also in the padding before `swiftType`.
  @exclusivity(unchecked) var modelSlot: Int32 = -1
  /// The Swift type that encoded this object, for error messages.
  @exclusivity(unchecked) var swiftType: Any.Type?
  // One array of pairs rather than parallel key and value arrays: half the allocations.
  @exclusivity(unchecked) private(set) var members: [Member] = []
  // Built only for large objects: small ones are searched linearly, which is faster.
  @exclusivity(unchecked) private var positions: [String: Int]?
  // One bit per member key (see `keyBit`): a clear bit proves a key absent, so `set`, which
  // Codable calls once per property, appends without searching. Keys are never removed.
  @exclusivity(unchecked) private var keyBits: UInt64 = 0

  /// One member: its name and value, and for a resource's object, which field it is (the byte
  /// fits in the member's padding, so resources are taken apart without new objects).
  struct Member {
    let key: String
    var value: EncodedNode
    var kind = FieldKind.none
  }

  /// An empty object; `capacity` members are reserved up front when the caller knows how many are
  /// coming (else 8 are, at the first member).
  init(role: Role = .plain, swiftType: Any.Type? = nil, modelSlot: Int32 = -1, capacity: Int = 0) {
    self.role = role
    self.modelSlot = modelSlot
    self.swiftType = swiftType
    if capacity > 0 { members.reserveCapacity(capacity) }
  }

  /// The members as `(name, value)` pairs, in order.
  var pairs: LazyMapSequence<[Member], (String, EncodedNode)> {
    members.lazy.map { ($0.key, $0.value) }
  }

  var count: Int { members.count }
  var isEmpty: Bool { members.isEmpty }

  /// Sets `key` to `value`, replacing an earlier value of the same key (as `JSONEncoder` does).
  func set(_ value: EncodedNode, for key: String) {
    if keyBits & Self.keyBit(key) == 0 {
      append(value, for: key)
    } else if let position = position(of: key) {
      members[position].value = value
    } else {
      append(value, for: key)
    }
  }

  /// Marks member `position` as field `kind` of the resource this object is, with `value` in place
  /// of the encoded one when given (`null`, to let go of a relationship's related model).
  func classify(_ position: Int, as kind: FieldKind, value: EncodedNode? = nil) {
    members[position].kind = kind
    if let value { members[position].value = value }
  }

  /// Appends a field the caller knows to be new.
  func append(_ value: EncodedNode, for key: String, kind: FieldKind) {
    append(value, for: key)
    members[members.count - 1].kind = kind
  }

  /// Whether member `key` is a field (attribute or relationship).
  func hasField(_ key: String) -> Bool {
    guard keyBits & Self.keyBit(key) != 0, let position = position(of: key) else { return false }
    if members[position].kind != .none { return true }
    // A merge may have added a field under the name of a member that is none (a `meta` that is an
    // object here and an attribute in another copy): look further.
    return members.contains { $0.kind != .none && $0.key == key }
  }

  /// Appends a member the caller knows to be new.
  func append(_ value: EncodedNode, for key: String) {
    // Most objects have a handful of members: one allocation up front instead of regrowing.
    if members.capacity == 0 { members.reserveCapacity(8) }
    positions?[key] = members.count
    keyBits |= Self.keyBit(key)
    members.append(Member(key: key, value: value))
  }

  /// A bit chosen by the key's UTF-8 length, which Swift strings store (reading bytes of the
  /// key would cost more than the search it saves).
  @inline(__always) private static func keyBit(_ key: String) -> UInt64 {
    1 << UInt64(truncatingIfNeeded: key.utf8.count & 63)
  }

  /// Adds `value` only when there is no member `key` yet; returns whether it was added.
  @discardableResult
  func addIfAbsent(_ value: EncodedNode, for key: String) -> Bool {
    if keyBits & Self.keyBit(key) != 0, position(of: key) != nil { return false }
    append(value, for: key)
    return true
  }

  subscript(key: String) -> EncodedNode? {
    guard keyBits & Self.keyBit(key) != 0 else { return nil }
    return position(of: key).map { members[$0].value }
  }

  func position(of key: String) -> Int? {
    if let positions { return positions[key] }
    if members.count < 32 {
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
