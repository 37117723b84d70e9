/// A resource identifier object (`type`, `id`, `lid`, `meta`) in a relationship's `data`.
final class ResourceLinkage: MemberSource {
  let identifier: EncodedResourceIdentifier
  let meta: EncodedObject?

  init(identifier: EncodedResourceIdentifier, meta: EncodedObject?) {
    self.identifier = identifier
    self.meta = meta
  }

  func forEachMember<E: Error>(_ body: (String, PlannedNode) throws(E) -> Void) throws(E) {
    try identifier.forEachMember(body)
    if let meta { try body(ResourceMemberName.meta.text, .value(.object(meta))) }
  }
}
