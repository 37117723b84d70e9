/// Lets test models refer to themselves (article → author → article) while staying value types.
@dynamicMemberLookup
struct Indirect<Value> {
  private final class Box {
    let value: Value
    init(_ value: Value) { self.value = value }
  }
  private let box: Box

  init(_ value: Value) { box = Box(value) }

  var value: Value { box.value }

  subscript<T>(dynamicMember keyPath: KeyPath<Value, T>) -> T { box.value[keyPath: keyPath] }
}

extension Indirect: Decodable where Value: Decodable {
  init(from decoder: any Decoder) throws { self.init(try Value(from: decoder)) }
}

extension Indirect: Encodable where Value: Encodable {
  func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

extension Indirect: Equatable where Value: Equatable {
  static func == (lhs: Indirect, rhs: Indirect) -> Bool { lhs.value == rhs.value }
}

extension Indirect: @unchecked Sendable where Value: Sendable {}
