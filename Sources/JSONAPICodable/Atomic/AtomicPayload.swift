/// What an operation or result carries as its `data`.
enum AtomicPayload: Sendable {
  /// No `data` member.
  case none
  /// A value built by the caller, encoded as ``JSONAPIEncoder`` encodes primary data.
  case value(any AtomicValue)
  /// To-one linkage: an identifier, or `null` for `nil`.
  case identifier(JSONAPIResourceIdentifier?)
  /// To-many linkage.
  case identifiers([JSONAPIResourceIdentifier])
  /// Read from a document: entry `index` of `document`.
  case received(ReceivedAtomicDocument, index: Int)
}
