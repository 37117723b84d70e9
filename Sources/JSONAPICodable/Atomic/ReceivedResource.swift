/// A resource object inside the `data` of a received operation or result: its identity, and where
/// its bytes lie in the entry's data.
struct ReceivedResource: Sendable {
  let type: String
  let id: String?
  let lid: String?
  /// The resource object's bytes within ``ReceivedAtomicEntry/data``.
  let range: Range<Int>
  /// Its place within the entry's `data`: `""` for the data itself, `"/2"` for an array element.
  let pointerSuffix: String

  /// The keys under which the decoder indexes the resource; two resources sharing one would be
  /// rejected as duplicates.
  var keys: [String] {
    var keys: [String] = []
    if let id { keys.append("\(type)\u{0}id\u{0}\(id)") }
    if let lid { keys.append("\(type)\u{0}lid\u{0}\(lid)") }
    return keys
  }
}
