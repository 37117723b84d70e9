/// One operation or result as read from a document: where its `data` is in the document's tape.
struct ReceivedAtomicEntry: Sendable {
  /// The tape index of the `data` value; `nil` when the entry has no `data` member.
  let data: Int?
}
