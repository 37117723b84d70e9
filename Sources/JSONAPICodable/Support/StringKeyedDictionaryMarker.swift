/// A `[String: Value]` dictionary of any value type, recognised by its metatype: its keys are data,
/// so key strategies leave them alone (as with `JSONEncoder` and `JSONDecoder`).
protocol StringKeyedDictionaryMarker {
  /// Writes the entries into `object`, sorted by key (the encoder's half, in
  /// `Encoding/Dictionary+EncodeMembers.swift`).
  func encodeMembers(into object: EncodedObject, encoder: EncoderImpl) throws
}

extension Dictionary: StringKeyedDictionaryMarker where Key == String {}
