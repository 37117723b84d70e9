extension Dictionary where Key == String {
  /// The ``StringKeyedDictionaryMarker`` requirement: the entries, sorted by key (a dictionary's own
  /// order changes from run to run, the output should not), each encoded at its key.
  func encodeMembers(into object: EncodedObject, encoder: EncoderImpl) throws {
    // Only an Encodable dictionary reaches the encoder, so its values are Encodable.
    guard let valueType = Value.self as? any Encodable.Type else { return }
    try encodeMembers(as: valueType, into: object, encoder: encoder)
  }

  private func encodeMembers<V: Encodable>(
    as _: V.Type, into object: EncodedObject, encoder: EncoderImpl
  ) throws {
    // `V` is `Value` itself: the cast copies the dictionary.
    guard let typed = self as? [String: V] else { return }
    for key in typed.keys.sorted() {
      guard let value = typed[key] else { continue }
      object.append(try encoder.wrap(value, key: AnyCodingKey(key)), for: key)
    }
  }
}
