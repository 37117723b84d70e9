/// Something ``DocumentWriter`` writes as a JSON object straight from its parts, without building
/// one: a resource object or a resource identifier object.
protocol MemberSource {
  /// The members, in the order they are written.
  func forEachMember<E: Error>(_ body: (String, PlannedNode) throws(E) -> Void) throws(E)
}

extension MemberSource {
  /// The members in a list, for `.sortedKeys` (rare: the writer sorts them).
  var members: [PlannedMember] {
    var members: [PlannedMember] = []
    forEachMember { name, value in members.append(PlannedMember(name, value)) }
    return members
  }
}
