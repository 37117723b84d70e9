/// A resource reached at a node of the requested include paths (see ``IncludedCollector``).
struct IncludeVisit: Hashable {
  let identity: EncodedResourceIdentity
  let node: Int
}
