/// The keyed container of ``EncoderImpl``: writes members into an ``EncodedObject``.
struct EncodingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: EncoderImpl
  let object: EncodedObject
  let convertsKeys: Bool

  var codingPath: [any CodingKey] { encoder.codingPath }

  private func name(_ key: Key) -> String {
    convertsKeys
      ? encoder.context.keys.memberName(for: key, at: encoder.path) : key.stringValue
  }

  mutating func encodeNil(forKey key: Key) throws { object.set(.null, for: name(key)) }
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    object.set(.bool(value), for: name(key))
  }
  mutating func encode(_ value: String, forKey key: Key) throws {
    object.set(.string(value), for: name(key))
  }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    object.set(try encoder.number(value, key: key), for: name(key))
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    object.set(try encoder.number(value, key: key), for: name(key))
  }
  mutating func encode(_ value: Int, forKey key: Key) throws { integer(value, key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { integer(value, key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { integer(value, key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { integer(value, key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { integer(value, key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { integer(value, key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { integer(value, key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { integer(value, key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { integer(value, key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { integer(value, key) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    object.set(try encoder.wrap(value, key: key), for: name(key))
  }

  private func integer<I: BinaryInteger>(_ value: I, _ key: Key) {
    object.set(.integer(value), for: name(key))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = encoder.child(for: [String: Never].self, key: key) { [object, name = name(key)] in
      object.set($0, for: name)
    }
    return nested.container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = encoder.child(for: [Never].self, key: key) { [object, name = name(key)] in
      object.set($0, for: name)
    }
    return nested.unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    superEncoder(named: "super", key: AnyCodingKey("super"))
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    superEncoder(named: name(key), key: key)
  }

  private func superEncoder(named name: String, key: any CodingKey) -> any Encoder {
    // Like JSONEncoder: a super encoder that writes nothing leaves an empty object.
    object.set(.object(EncodedObject()), for: name)
    return encoder.child(for: Never.self, key: key) { [object] in object.set($0, for: name) }
  }
}
