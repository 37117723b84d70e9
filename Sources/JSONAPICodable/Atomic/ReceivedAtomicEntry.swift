/// One operation or result as read from a document: the bytes of its `data`, and the resource
/// objects in them that other entries may resolve relationships against.
struct ReceivedAtomicEntry: Sendable {
  /// The JSON text of `data`; `nil` when the entry has no `data` member.
  let data: [UInt8]?
  /// Resource objects in `data` that other entries may link to.
  let resources: [ReceivedResource]
}
