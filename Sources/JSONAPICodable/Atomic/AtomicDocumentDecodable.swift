/// A type ``JSONAPIDecoder`` reads from a whole Atomic Operations document rather than from primary
/// data: `[JSONAPIOperationResult]` and the operations ``JSONAPIDecoder/decodeOperations(from:)``
/// returns.
protocol AtomicDocumentDecodable {
  /// Reads the document `decoder` stands on (already checked not to be an error document).
  static func read(from decoder: DecoderImpl, options: DecodingOptions) throws -> Self
}

extension Array: AtomicDocumentDecodable where Element == JSONAPIOperationResult {
  static func read(from decoder: DecoderImpl, options: DecodingOptions) throws -> Self {
    try AtomicDocumentReader(decoder: decoder, options: options).results()
  }
}
