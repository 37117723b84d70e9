import Foundation

extension Tape {
  /// Any JSON value, built straight from the tape (member names as written). Recursion is bounded
  /// by the scanner's nesting limit.
  package func jsonValue(at index: Int) throws -> JSONAPIValue {
    let entry = self[index]
    switch entry.kind {
    case .null: return .null
    case .true: return .bool(true)
    case .false: return .bool(false)
    case .string: return .string(TapeStrings.string(self, entry))
    case .number:
      let raw = rawBytes(entry)
      if !entry.hasFlag, let wide = NumberParsing.int64(raw), let value = Int(exactly: wide) {
        return .integer(value)
      }
      return .number(NumberParsing.double(raw))
    case .array:
      var elements: [JSONAPIValue] = []
      elements.reserveCapacity(entry.elementCount)
      var element = index + 1
      while element < entry.containerEnd {
        elements.append(try jsonValue(at: element))
        element = next(after: element)
      }
      return .array(elements)
    case .object:
      var members: [String: JSONAPIValue] = [:]
      members.reserveCapacity(entry.elementCount)
      try forEachMember(ofObjectAt: index) { name in
        members[TapeStrings.string(self, self[name])] = try jsonValue(at: name + 1)
      }
      return .object(members)
    }
  }
}
