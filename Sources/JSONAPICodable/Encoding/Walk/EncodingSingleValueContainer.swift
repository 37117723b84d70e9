/// The single-value container of ``EncoderImpl``: sets the encoder's node.
struct EncodingSingleValueContainer: SingleValueEncodingContainer {
  let encoder: EncoderImpl

  var codingPath: [any CodingKey] { encoder.codingPath }

  mutating func encodeNil() throws { encoder.setNode(.null) }
  mutating func encode(_ value: Bool) throws { encoder.setNode(.bool(value)) }
  mutating func encode(_ value: String) throws { encoder.setNode(.string(value)) }
  mutating func encode(_ value: Double) throws {
    encoder.setNode(try encoder.number(value, key: nil))
  }
  mutating func encode(_ value: Float) throws {
    encoder.setNode(try encoder.number(value, key: nil))
  }
  mutating func encode(_ value: Int) throws { integer(value) }
  mutating func encode(_ value: Int8) throws { integer(value) }
  mutating func encode(_ value: Int16) throws { integer(value) }
  mutating func encode(_ value: Int32) throws { integer(value) }
  mutating func encode(_ value: Int64) throws { integer(value) }
  mutating func encode(_ value: UInt) throws { integer(value) }
  mutating func encode(_ value: UInt8) throws { integer(value) }
  mutating func encode(_ value: UInt16) throws { integer(value) }
  mutating func encode(_ value: UInt32) throws { integer(value) }
  mutating func encode(_ value: UInt64) throws { integer(value) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    encoder.setNode(try encoder.wrap(value, key: nil))
  }

  private func integer<I: BinaryInteger>(_ value: I) {
    encoder.setNode(.integer(value))
  }
}
