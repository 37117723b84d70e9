/// A coding key for names known only at run time (links, meta, dictionary members).
struct AnyCodingKey: CodingKey, Hashable, Sendable {
  let stringValue: String
  let intValue: Int?

  init(_ string: String) {
    stringValue = string
    intValue = nil
  }

  init(index: Int) {
    stringValue = "Index \(index)"
    intValue = index
  }

  init?(stringValue: String) { self.init(stringValue) }

  init?(intValue: Int) { self.init(index: intValue) }
}
