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

extension AtomicPayload {
  /// Whether there is a `data` member (`null` included).
  var hasData: Bool {
    switch self {
    case .none: return false
    case .value, .identifier, .identifiers: return true
    case .received(let document, let index): return document.entries[index].data != nil
    }
  }

  /// The data as `T`: received data through its document; built data through `reread`, which writes
  /// the operation or result and reads it back as the other side would (nil when nothing comes back).
  func decode<T: Decodable>(_ type: T.Type, entry label: String, reread: () throws -> T?) throws
    -> T
  {
    switch self {
    case .received(let document, let index):
      return try document.decode(type, entry: index)
    case .none:
      return try ReceivedAtomicDocument.noData(type, at: label)
    case .value, .identifier, .identifiers:
      guard let value = try reread() else {
        return try ReceivedAtomicDocument.noData(type, at: label)
      }
      return value
    }
  }
}
