import Foundation

/// One decode call: scan the bytes into a tape, index the document, decode the requested type.
enum DocumentDecoding {
  static func decode<T: Decodable>(
    _ type: T.Type, from bytes: UnsafeRawBufferPointer, options: DecodingOptions
  ) throws -> T {
    let tape = try JSONScanner.scan(bytes, maxDepth: options.limits.maxNestingDepth)
    let index = try DocumentIndex(tape: tape)
    let decoder = DecoderImpl(
      tape: tape, index: index, options: options, node: DecodingNode(index: 0, role: .document))

    if let errors = index.errors {
      throw JSONAPIError.errorDocument(
        try decoder.decode(
          [JSONAPIErrorObject].self, at: DecodingNode(index: errors, role: .json),
          component: .key(AnyCodingKey("errors"))))
    }
    if T.self is any JSONAPIDocumentMarker.Type {
      return try decoder.unwrap(type)
    }
    guard let data = index.data else {
      if let none = (T.self as? any OptionalMarker.Type)?.noneValue as? T { return none }
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: [],
          debugDescription:
            "The document has no primary data (no data member); decode JSONAPIDocument to read its meta."
        ))
    }
    decoder.node = DecodingNode(index: data, role: .primaryData)
    return try decoder.unwrap(type)
  }
}
