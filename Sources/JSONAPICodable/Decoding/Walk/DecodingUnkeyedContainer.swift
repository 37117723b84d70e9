import Foundation

/// The unkeyed container over an array entry: walks elements by their `end` links, no allocation.
/// Elements of primary data and of to-many linkage keep that role, so each one resolves as a resource.
struct DecodingUnkeyedContainer: UnkeyedDecodingContainer {
  private let decoder: DecoderImpl
  private let depth: Int
  private let elementRole: DecodingNode.Role
  /// The array's tape index, for the pointer of an error past its end.
  private let array: Int
  private let end: Int
  private var position: Int
  private(set) var currentIndex = 0
  let count: Int?

  init(arrayAt array: Int, elementRole: DecodingNode.Role, decoder: DecoderImpl, depth: Int) {
    self.decoder = decoder
    self.depth = depth
    self.elementRole = elementRole
    self.array = array
    let entry = decoder.tape[array]
    end = entry.containerEnd
    position = array + 1
    count = entry.isCountSaturated ? nil : entry.elementCount
  }

  var codingPath: [any CodingKey] { decoder.codingPath(depth: depth) }
  var isAtEnd: Bool { position >= end }

  private var current: DecodingNode { DecodingNode(index: position, role: elementRole) }

  private func ensureNotAtEnd<T>(_ type: T.Type) throws {
    guard isAtEnd else { return }
    throw DecodingError.valueNotFound(
      type,
      decoder.errorContext(
        "Expected \(type) but the array has no element \(currentIndex)", depth: depth,
        component: .index(currentIndex), at: array))
  }

  private mutating func advance() {
    position = decoder.tape.next(after: position)
    currentIndex += 1
  }

  mutating func decodeNil() throws -> Bool {
    try ensureNotAtEnd(Never.self)
    guard decoder.tape[position].kind == .null else { return false }
    advance()
    return true
  }

  /// The current element, or `valueNotFound` at the end. Advancing happens only after a successful
  /// decode, so a caller may retry the same element as another type.
  private func peek<T>(_ type: T.Type) throws -> DecodingNode {
    try ensureNotAtEnd(type)
    return current
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    let value = try decoder.scalar(
      type, at: peek(type), depth: depth, component: .index(currentIndex))
    advance()
    return value
  }
  mutating func decode(_ type: String.Type) throws -> String {
    let value = try decoder.scalar(
      type, at: peek(type), depth: depth, component: .index(currentIndex))
    advance()
    return value
  }
  mutating func decode(_ type: Double.Type) throws -> Double {
    let value = try decoder.scalar(
      type, at: peek(type), depth: depth, component: .index(currentIndex))
    advance()
    return value
  }
  mutating func decode(_ type: Float.Type) throws -> Float {
    let value = try decoder.scalar(
      type, at: peek(type), depth: depth, component: .index(currentIndex))
    advance()
    return value
  }
  mutating func decode(_ type: Int.Type) throws -> Int {
    let value = try decoder.scalar(
      type, at: peek(type), depth: depth, component: .index(currentIndex))
    advance()
    return value
  }
  mutating func decode(_ type: Int8.Type) throws -> Int8 {
    let value = try decoder.scalar(
      type, at: peek(type), depth: depth, component: .index(currentIndex))
    advance()
    return value
  }
  mutating func decode(_ type: Int16.Type) throws -> Int16 {
    let value = try decoder.scalar(
      type, at: peek(type), depth: depth, component: .index(currentIndex))
    advance()
    return value
  }
  mutating func decode(_ type: Int32.Type) throws -> Int32 {
    let value = try decoder.scalar(
      type, at: peek(type), depth: depth, component: .index(currentIndex))
    advance()
    return value
  }
  mutating func decode(_ type: Int64.Type) throws -> Int64 {
    let value = try decoder.scalar(
      type, at: peek(type), depth: depth, component: .index(currentIndex))
    advance()
    return value
  }
  mutating func decode(_ type: UInt.Type) throws -> UInt {
    let value = try decoder.scalar(
      type, at: peek(type), depth: depth, component: .index(currentIndex))
    advance()
    return value
  }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
    let value = try decoder.scalar(
      type, at: peek(type), depth: depth, component: .index(currentIndex))
    advance()
    return value
  }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
    let value = try decoder.scalar(
      type, at: peek(type), depth: depth, component: .index(currentIndex))
    advance()
    return value
  }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
    let value = try decoder.scalar(
      type, at: peek(type), depth: depth, component: .index(currentIndex))
    advance()
    return value
  }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
    let value = try decoder.scalar(
      type, at: peek(type), depth: depth, component: .index(currentIndex))
    advance()
    return value
  }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let value = try decoder.decode(type, at: peek(type), component: .index(currentIndex))
    advance()
    return value
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try superDecoder().container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try superDecoder().unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    let element = decoder.superDecoder(
      at: try peek((any Decoder).self), depth: depth, component: .index(currentIndex))
    advance()
    return element
  }
}
