import Foundation

/// One decode call: scan the bytes into a tape, index the document, read what was asked for.
///
/// Each entry point takes the ``DecodingTypeMemos`` of the decoder it serves and leaves in them what
/// the call learnt, also when it throws: every answer is about a type alone.
enum DocumentDecoding {
  /// Decodes `T` from the primary data (or the whole document, for a ``JSONAPIDocument``).
  static func decode<T: Decodable>(
    _ type: T.Type, from bytes: UnsafeRawBufferPointer, options: DecodingOptions,
    memos: inout DecodingTypeMemos
  ) throws -> T {
    let (readsDocument, readsAtomic) = memos.topLevelReadings.value(for: T.self) {
      (T.self is any JSONAPIDocumentMarker.Type, T.self is any AtomicDocumentDecodable.Type)
    }
    // The decoder starts where it reads: the document, or its primary data. A decoder a model keeps
    // stands there again once the call is over.
    return try withDecoder(bytes, options, &memos, startsAtPrimaryData: !readsDocument) {
      decoder in
      try throwIfErrorDocument(decoder)
      // `[JSONAPIOperationResult]` and operations read the whole Atomic Operations document.
      if readsAtomic,
        let atomic = try AtomicDocumentReader.read(type, from: decoder, options: options)
      {
        return atomic
      }
      if readsDocument || decoder.node.role == .primaryData {
        return try decoder.unwrap(type)
      }
      if let none = (T.self as? any OptionalMarker.Type)?.noneValue as? T { return none }
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: [],
          debugDescription:
            "No member \"data\" in the document (at /), so there is no primary data; decode "
            + "JSONAPIDocument to read its meta",
          underlyingError: DecodingFailureLocation(pointer: "", missingMember: "/data")))
    }
  }

  /// Decodes every resource of `resourceType` in `included`, in document order.
  static func decodeIncluded<T: Decodable>(
    _ type: T.Type, ofType resourceType: String, from bytes: UnsafeRawBufferPointer,
    options: DecodingOptions, memos: inout DecodingTypeMemos
  ) throws -> [T] {
    try withDecoder(bytes, options, &memos, startsAtPrimaryData: false) { decoder in
      try throwIfErrorDocument(decoder)
      guard let included = decoder.index.included else { return [] }
      let tape = decoder.tape
      var resourceType = resourceType
      var result: [T] = []
      try decoder.with(
        DecodingNode(index: included, role: .json), appending: .key(AnyCodingKey("included"))
      ) {
        var position = 0
        var element = included + 1
        while element < tape[included].containerEnd {
          defer {
            element = tape.next(after: element)
            position += 1
          }
          guard let typeValue = tape.memberValue(ofObjectAt: element, named: "type"),
            resourceType.withUTF8({ TapeStrings.equals(tape, tape[typeValue], $0) })
          else { continue }
          result.append(
            try decoder.decode(
              type, at: DecodingNode(index: element, role: .primaryData),
              component: .index(position)))
        }
      }
      return result
    }
  }

  /// Decodes the error objects of an error document as `T`; none when the document has no errors.
  static func decodeErrors<T: Decodable>(
    _ type: T.Type, from bytes: UnsafeRawBufferPointer, options: DecodingOptions,
    memos: inout DecodingTypeMemos
  ) throws -> [T] {
    try withDecoder(bytes, options, &memos, startsAtPrimaryData: false) { decoder in
      guard let errors = decoder.index.errors else { return [] }
      return try decoder.decode(
        [T].self, at: DecodingNode(index: errors, role: .json),
        component: .key(AnyCodingKey("errors")))
    }
  }

  private static func throwIfErrorDocument(_ decoder: DecoderImpl) throws {
    guard decoder.index.errors != nil else { return }
    throw JSONAPIError.errorDocument(
      try decoder.with(DecodingNode(index: 0, role: .document)) {
        try decoder.unwrap(JSONAPIErrorDocument.self)
      })
  }

  /// Scans and indexes `bytes` (valid only during this call) and runs `body` with a decoder standing
  /// on the primary data (when asked and there is some, and no `errors`) or on the document.
  private static func withDecoder<R>(
    _ bytes: UnsafeRawBufferPointer, _ options: DecodingOptions, _ memos: inout DecodingTypeMemos,
    startsAtPrimaryData: Bool, _ body: (DecoderImpl) throws -> R
  ) throws -> R {
    var tape = try JSONScanner.scan(bytes, maxDepth: options.limits.maxNestingDepth)
    defer {
      // The decoder, a container or a superDecoder() kept by a model holds the tape: it must not
      // read `bytes` after this call returns. Only then pay for a copy (issue 11).
      if !isKnownUniquelyReferenced(&tape) { tape.takeOwnershipOfBytes() }
    }
    return try run(tape, options, &memos, startsAtPrimaryData: startsAtPrimaryData, body)
  }

  /// Kept apart from ``withDecoder`` so that its references to the tape are gone when that one
  /// checks whether anything else still holds it.
  private static func run<R>(
    _ tape: Tape, _ options: DecodingOptions, _ memos: inout DecodingTypeMemos,
    startsAtPrimaryData: Bool, _ body: (DecoderImpl) throws -> R
  ) throws -> R {
    let index = try DocumentIndex(tape: tape)
    let primaryData =
      startsAtPrimaryData && index.errors == nil
      ? index.data.map { DecodingNode(index: $0, role: .primaryData) } : nil
    let decoder = DecoderImpl(
      tape: tape, index: index, options: options,
      node: primaryData ?? DecodingNode(index: 0, role: .document), memos: memos)
    defer {
      // A remembered value that holds a kept decoder would otherwise keep the resolver (and
      // itself) alive through the decoder: drop what the call no longer needs.
      decoder.resolver.finishCall()
      memos = decoder.memos
    }
    return try body(decoder)
  }
}
