/// Identity of a resource within one document: `type` with `id`, or with `lid` for a resource the
/// client is creating. Two copies with one identity are one resource.
struct EncodedResourceIdentity: Hashable {
  let type: String
  let id: String
  let isLocal: Bool

  // Hashes the id alone: a document has few types and many ids, so the type adds little to tell
  // identities apart and costs a second string hash per look-up (every primary resource is
  // looked up once). Equality still compares all three.
  func hash(into hasher: inout Hasher) {
    hasher.combine(id)
  }
}
