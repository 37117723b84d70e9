/// One operation or result as read from a document: the bytes of its `data`, and the resource
/// objects in them that other entries may resolve relationships against.
struct ReceivedAtomicEntry: Sendable {
  /// The JSON text of `data`; `nil` when the entry has no `data` member.
  let data: [UInt8]?
  /// The objects in `data` that name a resource: their identities, so that no other entry's copy
  /// joins them in one document.
  let resources: [ReceivedResource]
  /// Whether other entries may link to ``resources``: not when they are a relationship operation's
  /// identifiers.
  let sharesResources: Bool
}
