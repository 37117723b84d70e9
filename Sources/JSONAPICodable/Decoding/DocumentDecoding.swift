import Foundation

/// One decode call: scan the bytes into a tape, index the document, decode the requested type.
enum DocumentDecoding {
  /// Decodes `T` from `bytes`, which are valid only during this call.
  static func decode<T: Decodable>(
    _ type: T.Type, from bytes: UnsafeRawBufferPointer, options: DecodingOptions
  ) throws -> T {
    var tape = try JSONScanner.scan(bytes, maxDepth: options.limits.maxNestingDepth)
    defer {
      // The decoder, a container or a superDecoder() kept by a model holds the tape: it must not
      // read `bytes` after this call returns. Only then pay for a copy (issue 11).
      if !isKnownUniquelyReferenced(&tape) { tape.takeOwnershipOfBytes() }
    }
    return try decode(type, tape: tape, options: options)
  }

  private static func decode<T: Decodable>(
    _ type: T.Type, tape: Tape, options: DecodingOptions
  ) throws -> T {
    let index = try DocumentIndex(tape: tape)
    let readsDocument = T.self is any JSONAPIDocumentMarker.Type
    // The decoder starts where it reads: the document, or its primary data. A decoder a model keeps
    // stands there again once the call is over.
    let primaryData =
      readsDocument || index.errors != nil
      ? nil : index.data.map { DecodingNode(index: $0, role: .primaryData) }
    let decoder = DecoderImpl(
      tape: tape, index: index, options: options,
      node: primaryData ?? DecodingNode(index: 0, role: .document))
    // A remembered value that holds a kept decoder would otherwise keep the resolver (and itself)
    // alive through the decoder: drop what the call no longer needs.
    defer { decoder.resolver.finishCall() }

    if let errors = index.errors {
      throw JSONAPIError.errorDocument(
        try decoder.decode(
          [JSONAPIErrorObject].self, at: DecodingNode(index: errors, role: .json),
          component: .key(AnyCodingKey("errors"))))
    }
    if readsDocument || primaryData != nil {
      return try decoder.unwrap(type)
    }
    if let none = (T.self as? any OptionalMarker.Type)?.noneValue as? T { return none }
    throw DecodingError.valueNotFound(
      type,
      DecodingError.Context(
        codingPath: [],
        debugDescription:
          "The document has no primary data (no data member); decode JSONAPIDocument to read its meta."
      ))
  }
}
