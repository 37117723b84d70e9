/// A coding key for names known only at run time (links, meta, dictionary members) and for array
/// indices.
package struct AnyCodingKey: CodingKey, Hashable, Sendable {
  /// The name; `nil` for an index, whose name is spelled only when asked: coders make an index key
  /// for every array element, and almost nobody reads its name.
  private let name: String?
  package let intValue: Int?

  package var stringValue: String { name ?? "Index \(intValue ?? 0)" }

  package init(_ string: String) {
    name = string
    intValue = nil
  }

  package init(index: Int) {
    name = nil
    intValue = index
  }

  package init?(stringValue: String) { self.init(stringValue) }

  package init?(intValue: Int) { self.init(index: intValue) }

  package static func == (lhs: AnyCodingKey, rhs: AnyCodingKey) -> Bool {
    lhs.intValue == rhs.intValue && lhs.stringValue == rhs.stringValue
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(stringValue)
    hasher.combine(intValue)
  }
}
