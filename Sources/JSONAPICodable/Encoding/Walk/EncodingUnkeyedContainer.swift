/// The unkeyed container of ``EncoderImpl``: appends elements to an ``EncodedArray``, or hands
/// them to the ``PrimaryDataStream`` that adopted the array while it streams.
struct EncodingUnkeyedContainer: UnkeyedEncodingContainer {
  let encoder: EncoderImpl
  let array: EncodedArray
  /// The stream that adopted ``array``, if one did.
  let stream: PrimaryDataStream?

  var codingPath: [any CodingKey] { encoder.codingPath }
  var count: Int { (stream?.count ?? 0) + array.elements.count }

  private var nextKey: AnyCodingKey { AnyCodingKey(index: count) }

  private func append(_ element: EncodedNode) throws {
    if let stream, stream.isOpen {
      try stream.element(element)
    } else {
      array.elements.append(element)
    }
  }

  mutating func encodeNil() throws { try append(.null) }
  mutating func encode(_ value: Bool) throws { try append(.bool(value)) }
  mutating func encode(_ value: String) throws { try append(.string(value)) }
  mutating func encode(_ value: Double) throws {
    try append(try encoder.number(value, key: nextKey))
  }
  mutating func encode(_ value: Float) throws {
    try append(try encoder.number(value, key: nextKey))
  }
  mutating func encode(_ value: Int) throws { try integer(value) }
  mutating func encode(_ value: Int8) throws { try integer(value) }
  mutating func encode(_ value: Int16) throws { try integer(value) }
  mutating func encode(_ value: Int32) throws { try integer(value) }
  mutating func encode(_ value: Int64) throws { try integer(value) }
  mutating func encode(_ value: UInt) throws { try integer(value) }
  mutating func encode(_ value: UInt8) throws { try integer(value) }
  mutating func encode(_ value: UInt16) throws { try integer(value) }
  mutating func encode(_ value: UInt32) throws { try integer(value) }
  mutating func encode(_ value: UInt64) throws { try integer(value) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let element: EncodedNode
    do {
      element = try encoder.wrap(value, key: nextKey)
    } catch {
      // The elements before this one come first.
      throw stream?.failing(with: error) ?? error
    }
    try append(element)
  }

  private func integer<I: BinaryInteger>(_ value: I) throws {
    try append(.integer(value))
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
    stream?.end()
    let index = array.elements.count
    let key = nextKey
    array.elements.append(.object(EncodedObject()))
    return encoder.child(for: type, key: key) { [array] in array.elements[index] = $0 }
  }
}
