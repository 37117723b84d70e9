/// An `atomic:operations` or `atomic:results` document as read, shared by the operations or results
/// taken from it: its tape, where each entry's `data` is, the resources of all entries by identity,
/// and the decoder settings of the call that read it.
///
/// Decoding one entry's data runs the normal decoder on that value where it lies in the shared
/// tape: the entry's own resources are indexed as a document's primary data would be, and a
/// relationship naming a resource the entry does not hold is looked up in the one
/// ``AtomicResourceTable``, among the entries this one may see. Nothing is copied or parsed again,
/// so decoding an entry costs in proportion to its data and the resources it reaches, and decoding
/// every entry in proportion to the document; error pointers point into the document as received
/// (`/atomic:operations/3/data/...`) since the tape is the received document.
///
/// `@unchecked Sendable`: nothing changes once the reading call has built it. The tape owns its
/// bytes from then on (see the initializer) and is only read, and each decode builds its own index
/// and decoder.
final class ReceivedAtomicDocument: @unchecked Sendable {
  /// `atomic:operations` or `atomic:results`, for pointers and messages.
  let member: String
  let options: DecodingOptions
  let entries: [ReceivedAtomicEntry]
  /// Results resolve against every other result; an operation only against earlier operations
  /// (a `lid` names a resource an earlier operation created).
  let resolvesLaterEntries: Bool
  private let tape: Tape
  private let resources: AtomicResourceTable

  /// Made during the decode call that scanned `tape`.
  init(
    member: String, options: DecodingOptions, tape: Tape, entries: [ReceivedAtomicEntry],
    resources: AtomicResourceTable, resolvesLaterEntries: Bool
  ) {
    // Entries are decoded after the call that read the document, when the buffer the tape
    // borrowed is gone: the tape must read a copy of its own from now on.
    tape.takeOwnershipOfBytes()
    self.member = member
    self.options = options
    self.tape = tape
    self.entries = entries
    self.resources = resources
    self.resolvesLaterEntries = resolvesLaterEntries
  }

  /// The data of entry `index` as a JSON value, read from the tape as received; `nil` when the
  /// entry has no `data` member. For a server that reads the operations once and the data as
  /// values.
  func dataValue(entry index: Int) throws -> JSONAPIValue? {
    guard entries.indices.contains(index), let data = entries[index].data else { return nil }
    return try tape.jsonValue(at: data)
  }

  /// Decodes the data of entry `index` as `T`.
  func decode<T: Decodable>(_ type: T.Type, entry index: Int) throws -> T {
    guard entries.indices.contains(index), let data = entries[index].data else {
      return try Self.noData(type, at: "\(member)/\(index)")
    }
    if T.self is any JSONAPIDocumentMarker.Type {
      // The entry's data is primary data without a document around it: no included, meta or links.
      throw DecodingError.typeMismatch(
        type,
        DecodingError.Context(
          codingPath: [],
          debugDescription: SpecSection.cite(
            "The data of \(member)/\(index) decodes as a model, not as a JSONAPIDocument",
            SpecSection.atomicOperations)))
    }
    let documentIndex = try DocumentIndex(
      tape: tape, entryData: data, member: "\(member)/\(index)/data"
    ) { [self] type, value, isLocal in
      resource(visibleTo: index, type: type, value: value, isLocal: isLocal)
    }
    // Entries decode after the call that read the document, with no decoder to keep memos in.
    let decoder = DecoderImpl(
      tape: tape, index: documentIndex, options: options,
      node: DecodingNode(index: data, role: .primaryData))
    // As at the end of every decode call: a remembered value holding a kept decoder would
    // otherwise keep the resolver alive through it.
    defer { decoder.resolver.finishCall() }
    return try decoder.unwrap(type)
  }

  /// The data of entry `index` as a ``JSONAPIValue``, read from the tape by this library's decoder;
  /// `nil` when the entry has no `data`.
  func jsonValue(entry index: Int) throws -> JSONAPIValue? {
    guard entries.indices.contains(index), let data = entries[index].data else { return nil }
    // The index of the whole document: the reading call built the same one, so it does not throw.
    let decoder = DecoderImpl(
      tape: tape, index: try DocumentIndex(tape: tape), options: options,
      node: DecodingNode(index: data, role: .json))
    return try decoder.jsonValue(at: data)
  }

  /// The tape index of the resource object with this identity that entry `entry` may resolve a
  /// relationship to: one of another entry, an earlier one for an operation.
  private func resource(visibleTo entry: Int, type: Int, value: Int, isLocal: Bool) -> Int? {
    guard let found = resources.resource(tape, type: type, value: value, isLocal: isLocal) else {
      return nil
    }
    let owner = Int(found.entry)
    guard owner != entry, resolvesLaterEntries || owner < entry else { return nil }
    return Int(found.object)
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
}

/// One operation or result as read from a document: where its `data` is in the document's tape.
struct ReceivedAtomicEntry: Sendable {
  /// The tape index of the `data` value; `nil` when the entry has no `data` member.
  let data: Int?
}
