/// An `atomic:operations` or `atomic:results` document as read, shared by the operations or results
/// taken from it: each entry's `data` bytes and the decoder settings of the call that read it.
///
/// Decoding one entry's data assembles an ordinary JSON:API document, `{"data": <this entry's
/// data>, "included": [<the resources of the other entries>]}`, and decodes it with the normal
/// pipeline, so relationships resolve across entries by `id` and `lid`. That costs O(size of the
/// document) per call, which is what one more parse of the request costs anyway.
final class ReceivedAtomicDocument: Sendable {
  /// `atomic:operations` or `atomic:results`, for pointers and messages.
  let member: String
  let options: DecodingOptions
  let entries: [ReceivedAtomicEntry]
  /// Results resolve against every other result; an operation only against earlier operations
  /// (a `lid` names a resource an earlier operation created).
  let resolvesLaterEntries: Bool

  init(
    member: String, options: DecodingOptions, entries: [ReceivedAtomicEntry],
    resolvesLaterEntries: Bool
  ) {
    self.member = member
    self.options = options
    self.entries = entries
    self.resolvesLaterEntries = resolvesLaterEntries
  }

  /// Decodes the data of entry `index` as `T`.
  func decode<T: Decodable>(_ type: T.Type, entry index: Int) throws -> T {
    guard entries.indices.contains(index), let data = entries[index].data else {
      return try Self.noData(type, at: "\(member)/\(index)")
    }
    var bytes = Array(#"{"data":"#.utf8)
    bytes.reserveCapacity(data.count + 32)
    bytes.append(contentsOf: data)
    var seen = Set(entries[index].resources.flatMap(\.keys))
    // Where each included resource came from, to point errors into this document.
    var includedPointers: [String] = []
    let others = resolvesLaterEntries ? entries.indices : entries.indices.prefix(index)
    for other in others where other != index {
      let entry = entries[other]
      guard entry.sharesResources, let otherData = entry.data else { continue }
      for resource in entry.resources {
        let keys = resource.keys
        // The decoder rejects two resources with one identity: the first one met wins.
        if keys.isEmpty || keys.contains(where: seen.contains) { continue }
        seen.formUnion(keys)
        bytes.append(contentsOf: includedPointers.isEmpty ? Array(#","included":["#.utf8) : [44])
        bytes.append(contentsOf: otherData[resource.range])
        includedPointers.append("/\(member)/\(other)/data\(resource.pointerSuffix)")
      }
    }
    if !includedPointers.isEmpty { bytes.append(UInt8(ascii: "]")) }
    bytes.append(UInt8(ascii: "}"))
    do {
      // Entries decode after the call that read the document, with no decoder to keep memos in.
      var memos = DecodingTypeMemos()
      return try bytes.withUnsafeBytes {
        try DocumentDecoding.decode(type, from: $0, options: options, memos: &memos)
      }
    } catch let error as JSONAPIError {
      throw Self.pointingInto(
        error, data: "/\(member)/\(index)/data", included: includedPointers)
    }
  }

  /// `nil` for an optional `T`; otherwise the error for an entry without `data`.
  static func noData<T>(_ type: T.Type, at place: String) throws -> T {
    if let none = (T.self as? any OptionalMarker.Type)?.noneValue as? T { return none }
    throw DecodingError.valueNotFound(
      type,
      DecodingError.Context(
        codingPath: [],
        debugDescription: SpecSection.cite(
          "The \(place) has no data member; decode an optional to accept that",
          SpecSection.atomicOperations)))
  }

  /// `error` with its pointer moved from the assembled document into the received one.
  private static func pointingInto(_ error: JSONAPIError, data: String, included: [String])
    -> JSONAPIError
  {
    func moved(_ pointer: String) -> String {
      if pointer.hasPrefix("/data") { return data + pointer.dropFirst("/data".count) }
      let prefix = "/included/"
      guard pointer.hasPrefix(prefix) else { return pointer }
      let rest = pointer.dropFirst(prefix.count)
      let digits = rest.prefix { $0.isASCII && $0.isNumber }
      guard let position = Int(digits), included.indices.contains(position) else { return pointer }
      return included[position] + rest.dropFirst(digits.count)
    }
    switch error {
    case .invalidDocument(let reason, let pointer):
      return .invalidDocument(reason: reason, pointer: moved(pointer))
    case .duplicateResource(let type, let id, let pointer):
      return .duplicateResource(type: type, id: id, pointer: moved(pointer))
    case .relationshipDepthExceeded(let limit, let pointer):
      return .relationshipDepthExceeded(limit: limit, pointer: moved(pointer))
    case .resourceTypeMismatch(let expected, let found, let pointer):
      return .resourceTypeMismatch(expected: expected, found: found, pointer: moved(pointer))
    default:
      return error
    }
  }
}
