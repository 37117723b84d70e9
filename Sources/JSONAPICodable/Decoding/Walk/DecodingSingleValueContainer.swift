import Foundation

/// The single-value container: the decoder's current node, read as one value.
struct DecodingSingleValueContainer: SingleValueDecodingContainer {
  let decoder: DecoderImpl
  let depth: Int
  // The node as a 32-bit tape index (``JSONScanner/maxByteCount`` allows it) and its role, so that
  // the container fits the three words of an existential's inline buffer: returned as
  // `any SingleValueDecodingContainer` (every `String` or other scalar of an array decodes through
  // it), it would otherwise be boxed, one allocation per value.
  private let index: Int32
  private let role: DecodingNode.Role

  var node: DecodingNode { DecodingNode(index: Int(index), role: role) }

  init(node: DecodingNode, decoder: DecoderImpl, depth: Int) {
    self.decoder = decoder
    self.depth = depth
    index = Int32(truncatingIfNeeded: node.index)
    role = node.role
  }

  var codingPath: [any CodingKey] { decoder.codingPath(depth: depth) }

  func decodeNil() -> Bool { decoder.tape[node.index].kind == .null }

  func decode(_ type: Bool.Type) throws -> Bool { try decoder.scalar(type, at: node, depth: depth) }
  func decode(_ type: String.Type) throws -> String {
    try decoder.scalar(type, at: node, depth: depth)
  }
  func decode(_ type: Double.Type) throws -> Double {
    try decoder.scalar(type, at: node, depth: depth)
  }
  func decode(_ type: Float.Type) throws -> Float {
    try decoder.scalar(type, at: node, depth: depth)
  }
  func decode(_ type: Int.Type) throws -> Int { try decoder.scalar(type, at: node, depth: depth) }
  func decode(_ type: Int8.Type) throws -> Int8 { try decoder.scalar(type, at: node, depth: depth) }
  func decode(_ type: Int16.Type) throws -> Int16 {
    try decoder.scalar(type, at: node, depth: depth)
  }
  func decode(_ type: Int32.Type) throws -> Int32 {
    try decoder.scalar(type, at: node, depth: depth)
  }
  func decode(_ type: Int64.Type) throws -> Int64 {
    try decoder.scalar(type, at: node, depth: depth)
  }
  func decode(_ type: UInt.Type) throws -> UInt { try decoder.scalar(type, at: node, depth: depth) }
  func decode(_ type: UInt8.Type) throws -> UInt8 {
    try decoder.scalar(type, at: node, depth: depth)
  }
  func decode(_ type: UInt16.Type) throws -> UInt16 {
    try decoder.scalar(type, at: node, depth: depth)
  }
  func decode(_ type: UInt32.Type) throws -> UInt32 {
    try decoder.scalar(type, at: node, depth: depth)
  }
  func decode(_ type: UInt64.Type) throws -> UInt64 {
    try decoder.scalar(type, at: node, depth: depth)
  }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try decoder.with(node) { try decoder.unwrap(type) }
  }
}
