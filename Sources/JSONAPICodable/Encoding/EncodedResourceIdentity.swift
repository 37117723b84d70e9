/// Identity of a resource within one document: `type` with `id`, or with `lid` for a resource the
/// client is creating. Two copies with one identity are one resource.
struct EncodedResourceIdentity: Hashable {
  let type: String
  let id: String
  let isLocal: Bool
}
