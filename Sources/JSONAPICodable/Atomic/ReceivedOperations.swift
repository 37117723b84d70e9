/// The operations of an `atomic:operations` document, as ``JSONAPIDecoder/decodeOperations(from:)``
/// asks the decoding pipeline for them.
struct ReceivedOperations: Decodable, AtomicDocumentDecodable {
  let operations: [JSONAPIOperation]

  init(operations: [JSONAPIOperation]) {
    self.operations = operations
  }

  /// Only ``JSONAPIDecoder`` reads operations documents.
  init(from decoder: any Decoder) throws {
    throw DecodingError.typeMismatch(
      ReceivedOperations.self,
      DecodingError.Context(
        codingPath: decoder.codingPath,
        debugDescription: "An atomic:operations document is read by JSONAPIDecoder"))
  }

  static func read(from decoder: DecoderImpl, options: DecodingOptions) throws -> Self {
    ReceivedOperations(
      operations: try AtomicDocumentReader(decoder: decoder, options: options).operations())
  }
}
