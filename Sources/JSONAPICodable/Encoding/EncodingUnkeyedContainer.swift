/// The unkeyed container of ``EncoderImpl``: appends elements to an ``EncodedArray``.
struct EncodingUnkeyedContainer: UnkeyedEncodingContainer {
  let encoder: EncoderImpl
  let array: EncodedArray

  var codingPath: [any CodingKey] { encoder.codingPath }
  var count: Int { array.count }

  private var nextKey: AnyCodingKey { AnyCodingKey(index: array.count) }

  mutating func encodeNil() throws { array.append(.null) }
  mutating func encode(_ value: Bool) throws { array.append(.bool(value)) }
  mutating func encode(_ value: String) throws { array.append(.string(value)) }
  mutating func encode(_ value: Double) throws {
    array.append(try encoder.number(value, key: nextKey))
  }
  mutating func encode(_ value: Float) throws {
    array.append(try encoder.number(value, key: nextKey))
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
    array.append(try encoder.wrap(value, key: nextKey))
  }

  private func integer<I: BinaryInteger>(_ value: I) {
    array.append(.integer(value))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    nestedEncoder(for: [String: Never].self).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    nestedEncoder(for: [Never].self).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    nestedEncoder(for: Never.self)
  }

  /// An encoder whose value lands in a slot reserved now (an empty object until it writes).
  private func nestedEncoder(for type: Any.Type) -> EncoderImpl {
    // The slot is filled after this returns: it cannot be written yet.
    array.endStream()
    let index = array.elements.count
    let key = nextKey
    array.elements.append(.object(EncodedObject()))
    return encoder.child(for: type, key: key) { [array] in array.elements[index] = $0 }
  }
}
