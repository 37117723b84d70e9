/// Something the writer writes as a JSON object straight from its parts, without building one.
protocol MemberSource {
  /// The members, in the order they are written.
  func forEachMember<E: Error>(_ body: (String, EncodedNode) throws(E) -> Void) throws(E)
}

extension MemberSource {
  /// The members as an ordinary object, for `.sortedKeys` (rare: the writer sorts its members).
  func object() -> EncodedObject {
    let object = EncodedObject(role: .dictionary)
    forEachMember { name, value in object.append(value, for: name) }
    return object
  }
}
