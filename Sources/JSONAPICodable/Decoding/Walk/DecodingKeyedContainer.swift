import Foundation

/// The state of a ``DecodingKeyedContainer``.
final class DecodingKeyedContainerState {
  let decoder: DecoderImpl
  let depth: Int
  let source: KeyedContainerSource
  init(decoder: DecoderImpl, depth: Int, source: KeyedContainerSource) {
    self.decoder = decoder
    self.depth = depth
    self.source = source
  }
}

/// The keyed container for every object: plain JSON objects, the top-level document, relationship
/// objects and resource objects. Lookup differs by source; decoding is shared.
struct DecodingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  private typealias Source = KeyedContainerSource

  // One reference instead of the decoder, depth and source inline: the standard library's
  // container box and the unspecialized generic code copy the container through value
  // witnesses (one retain per reference in it, through generic code); a class copies with
  // one retain. Declared outside the generic type: nested, it would be generic too, and its
  // metadata a runtime lookup per container.
  private typealias State = DecodingKeyedContainerState
  private let state: State
  @inline(__always) private var decoder: DecoderImpl { state.decoder }
  @inline(__always) private var depth: Int { state.depth }
  @inline(__always) private var source: Source { state.source }

  init(objectAt object: Int, role: DecodingNode.Role, decoder: DecoderImpl, depth: Int) {
    let dataRole: DecodingNode.Role?
    switch role {
    case .document: dataRole = .primaryData
    case .relationshipObject: dataRole = .linkage
    default: dataRole = nil
    }
    // Structural objects (document, relationship) keep their member names as the spec spells them.
    let lookup = MemberLookup(
      object: object, decoder: decoder, depth: depth,
      convertsKeys: dataRole == nil && role != .dictionary)
    state = State(decoder: decoder, depth: depth, source: .object(lookup, dataRole: dataRole))
  }

  init(resourceAt object: Int, decoder: DecoderImpl, depth: Int, identifierOnly: Bool = false)
    throws
  {
    state = State(
      decoder: decoder, depth: depth,
      source: .resource(
        try ResourceMembers(
          object: object, decoder: decoder, depth: depth, identifierOnly: identifierOnly)))
  }

  var codingPath: [any CodingKey] { decoder.codingPath(depth: depth) }

  var allKeys: [Key] {
    let tape = decoder.tape
    switch source {
    case .object(let lookup, _):
      return lookup.names(in: tape, skipsNonFields: false).compactMap(Key.init(stringValue:))
    case .resource(let members):
      var names: [String] = []
      let own: [(ResourceMemberName, Int?)] = [
        (.id, members.id), (.type, members.type), (.lid, members.lid), (.meta, members.meta),
        (.links, members.links),
      ]
      for (name, member) in own where member != nil { names.append(name.text) }
      names += members.relationships?.names(in: tape, skipsNonFields: true) ?? []
      names += members.attributes?.names(in: tape, skipsNonFields: true) ?? []
      return names.compactMap(Key.init(stringValue:))
    }
  }

  func contains(_ key: Key) -> Bool {
    find(key) != nil
  }

  // MARK: - Lookup

  /// The node for `key` (see ``KeyedContainerSource/find(_:in:)``).
  @inline(__always) private func find(_ key: Key) -> DecodingNode? {
    source.find(key.stringValue, in: decoder)
  }

  /// The attribute named like `key`, for a relationship name that is also an attribute name.
  private func attribute(_ key: Key) -> DecodingNode? {
    guard case .resource(let members) = source else { return nil }
    return members.attributes?.value(for: key.stringValue, in: decoder.tape).map {
      DecodingNode(index: $0, role: .json)
    }
  }

  /// Like `find`, but a relationship object becomes its linkage unless `T` reads the relationship
  /// object itself; `nil` when the key is absent or the relationship has no `data`.
  private func node<T>(for key: Key, as type: T.Type) throws -> DecodingNode? {
    guard var node = find(key) else { return nil }
    guard node.role == .relationshipObject else { return node }
    // Type checks only here, off the path of ordinary attributes.
    let reading = decoder.relationshipReading(of: T.self)
    if reading.readsAttribute, let attribute = attribute(key) {
      return attribute
    }
    let tape = decoder.tape
    guard tape[node.index].kind == .object else {
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite(
          "a relationship must be an object, found \(tape[node.index].kind.phrase)",
          SpecSection.relationships),
        pointer: JSONPointer.pointer(to: node.index, in: tape))
    }
    if reading.readsObject {
      // A relationship object needs one of data, links and meta (R26); without, there is no
      // relationship to read (a JSONAPIRelationship could not write it back either).
      // (`"data": null` is an empty to-one; `"links": null` and `"meta": null` are nothing.)
      let hasData = tape.memberValue(ofObjectAt: node.index, named: "data") != nil
      let hasMember = { (name: StaticString) in
        tape.memberValue(ofObjectAt: node.index, named: name).map { tape[$0].kind != .null }
          ?? false
      }
      return hasData || hasMember("links") || hasMember("meta") ? node : nil
    }
    guard let data = tape.memberValue(ofObjectAt: node.index, named: "data") else { return nil }
    switch tape[data].kind {
    case .object, .array, .null: break
    default:
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite(
          "relationship data must be an identifier, an array of identifiers or null, found "
            + tape[data].kind.phrase, SpecSection.linkage),
        pointer: JSONPointer.pointer(to: data, in: tape))
    }
    node = DecodingNode(index: data, role: .linkage)
    return node
  }

  private func keyNotFound(_ key: any CodingKey) -> DecodingError {
    .keyNotFound(
      key,
      DecodingError.Context(
        codingPath: codingPath,
        debugDescription: decoder.missingMemberMessage(key.stringValue, in: source, depth: depth),
        underlyingError: missing(key.stringValue)))
  }

  /// Where the member `name` is missing (see ``DecodingFailureLocation``); built only when the
  /// error is thrown.
  private func missing(_ name: String) -> DecodingFailureLocation {
    let tape = decoder.tape
    let escaped = JSONPointer.escape(name)
    switch source {
    case .object(let lookup, _):
      let pointer = JSONPointer.pointer(to: lookup.object, in: tape)
      return DecodingFailureLocation(pointer: pointer, missingMember: pointer + "/" + escaped)
    case .resource(let members):
      if let relationship = source.find(name, in: decoder),
        relationship.role == .relationshipObject
      {
        // A relationship object without `data`: it exists, its `data` does not.
        let pointer = JSONPointer.pointer(to: relationship.index, in: tape)
        return DecodingFailureLocation(pointer: pointer, missingMember: pointer + "/data")
      }
      let pointer = JSONPointer.pointer(to: members.object, in: tape)
      let isIdentity = ResourceMemberName(name)?.isIdentity ?? false
      return DecodingFailureLocation(
        pointer: pointer, missingMember: pointer + (isIdentity ? "/" : "/attributes/") + escaped)
    }
  }

  private func required<T>(_ key: Key, _ type: T.Type) throws -> DecodingNode {
    guard let node = try node(for: key, as: type) else { throw keyNotFound(key) }
    return node
  }

  // MARK: - Decoding

  func decodeNil(forKey key: Key) throws -> Bool {
    guard let found = find(key) else { throw keyNotFound(key) }
    if found.role == .relationshipObject {
      guard let linkage = try node(for: key, as: Never.self) else { return true }
      return decoder.tape[linkage.index].kind == .null
    }
    return decoder.tape[found.index].kind == .null
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try decoder.scalar(Bool.self, at: required(key, type), depth: depth, component: .key(key))
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try decoder.scalar(String.self, at: required(key, type), depth: depth, component: .key(key))
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try decoder.scalar(Double.self, at: required(key, type), depth: depth, component: .key(key))
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try decoder.scalar(Float.self, at: required(key, type), depth: depth, component: .key(key))
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try decoder.scalar(Int.self, at: required(key, type), depth: depth, component: .key(key))
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try decoder.scalar(Int8.self, at: required(key, type), depth: depth, component: .key(key))
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try decoder.scalar(Int16.self, at: required(key, type), depth: depth, component: .key(key))
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try decoder.scalar(Int32.self, at: required(key, type), depth: depth, component: .key(key))
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try decoder.scalar(Int64.self, at: required(key, type), depth: depth, component: .key(key))
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try decoder.scalar(UInt.self, at: required(key, type), depth: depth, component: .key(key))
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try decoder.scalar(UInt8.self, at: required(key, type), depth: depth, component: .key(key))
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try decoder.scalar(UInt16.self, at: required(key, type), depth: depth, component: .key(key))
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try decoder.scalar(UInt32.self, at: required(key, type), depth: depth, component: .key(key))
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try decoder.scalar(UInt64.self, at: required(key, type), depth: depth, component: .key(key))
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decoder.decode(type, at: required(key, type), component: .key(key))
  }

  // decodeIfPresent: absent, null, and relationships without data all give nil (but see the generic
  // overload for `T??`).

  private func present<T>(_ key: Key, _ type: T.Type) throws -> DecodingNode? {
    guard let node = try node(for: key, as: type), decoder.tape[node.index].kind != .null else {
      return nil
    }
    return node
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try present(key, type).map {
      try decoder.scalar(type, at: $0, depth: depth, component: .key(key))
    }
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try present(key, type).map {
      try decoder.scalar(type, at: $0, depth: depth, component: .key(key))
    }
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try present(key, type).map {
      try decoder.scalar(type, at: $0, depth: depth, component: .key(key))
    }
  }
  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    try present(key, type).map {
      try decoder.scalar(type, at: $0, depth: depth, component: .key(key))
    }
  }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try present(key, type).map {
      try decoder.scalar(type, at: $0, depth: depth, component: .key(key))
    }
  }
  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    try present(key, type).map {
      try decoder.scalar(type, at: $0, depth: depth, component: .key(key))
    }
  }
  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    try present(key, type).map {
      try decoder.scalar(type, at: $0, depth: depth, component: .key(key))
    }
  }
  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    try present(key, type).map {
      try decoder.scalar(type, at: $0, depth: depth, component: .key(key))
    }
  }
  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    try present(key, type).map {
      try decoder.scalar(type, at: $0, depth: depth, component: .key(key))
    }
  }
  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    try present(key, type).map {
      try decoder.scalar(type, at: $0, depth: depth, component: .key(key))
    }
  }
  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    try present(key, type).map {
      try decoder.scalar(type, at: $0, depth: depth, component: .key(key))
    }
  }
  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    try present(key, type).map {
      try decoder.scalar(type, at: $0, depth: depth, component: .key(key))
    }
  }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    try present(key, type).map {
      try decoder.scalar(type, at: $0, depth: depth, component: .key(key))
    }
  }
  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    try present(key, type).map {
      try decoder.scalar(type, at: $0, depth: depth, component: .key(key))
    }
  }
  /// For `T??` properties, an explicit `null` is `.some(nil)` and an absent member `nil`: the two
  /// mean "clear" and "leave unchanged" in a PATCH, and the encoder writes them back that way.
  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let node = try node(for: key, as: type) else { return nil }
    guard decoder.tape[node.index].kind != .null else {
      // `nil as? T` succeeds exactly when T is itself an Optional: then null is `.some(nil)`.
      return (T.self as? any OptionalMarker.Type)?.noneValue as? T
    }
    return try decoder.decode(type, at: node, component: .key(key))
  }

  // MARK: - Nesting

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try superDecoder(forKey: key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try superDecoder(forKey: key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    try superDecoder(key: AnyCodingKey("super"), node: find(Key(stringValue: "super")))
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    try superDecoder(key: key, node: node(for: key, as: Any.self))
  }

  private func find(_ key: Key?) -> DecodingNode? {
    key.flatMap { find($0) }
  }

  private func superDecoder(key: any CodingKey, node: DecodingNode?) throws -> any Decoder {
    guard let node else { throw keyNotFound(key) }
    return decoder.superDecoder(at: node, depth: depth, component: .key(key))
  }
}
