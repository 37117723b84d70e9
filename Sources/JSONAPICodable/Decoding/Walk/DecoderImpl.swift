import Foundation

/// The one `Decoder` of a decode call. It stands on one ``DecodingNode`` at a time: decoding a nested
/// value moves it there, runs `T.init(from:)` and moves it back, so nesting allocates no decoders.
///
/// The coding path is a stack of components; containers remember only its depth, and `[CodingKey]`
/// arrays are built only when an error or the model asks for them.
final class DecoderImpl: Decoder {
  let tape: Tape
  let index: DocumentIndex
  let options: DecodingOptions
  let resolver: RelationshipResolver
  let keys: KeyDecodingConverter
  // One decode call runs on one thread and these never escape it; the dynamic exclusivity checks
  // the compiler would add would run on every access of a class property, throughout decoding.
  @exclusivity(unchecked) var node: DecodingNode
  @exclusivity(unchecked) var path: [PathComponent] = []
  /// What this call, and the earlier calls of its ``JSONAPIDecoder``, worked out about types.
  @exclusivity(unchecked) private(set) var memos: DecodingTypeMemos

  init(
    tape: Tape, index: DocumentIndex, options: DecodingOptions, node: DecodingNode,
    memos: DecodingTypeMemos = DecodingTypeMemos()
  ) {
    self.tape = tape
    self.index = index
    self.options = options
    self.node = node
    self.memos = memos
    resolver = RelationshipResolver(
      resourceCount: index.resourceCount, valueCount: tape.count, limits: options.limits,
      memoises: options.memoisesResources)
    keys = KeyDecodingConverter(strategy: options.keyDecodingStrategy)
    path.reserveCapacity(16)
  }

  /// A decoder for `superDecoder()`: same document and resolution state, its own position and path.
  private init(sharingStateWith parent: DecoderImpl, node: DecodingNode, path: [PathComponent]) {
    tape = parent.tape
    index = parent.index
    options = parent.options
    resolver = parent.resolver
    keys = parent.keys
    memos = parent.memos
    self.node = node
    self.path = path
  }

  /// The one route to a nested decoder (every container's `superDecoder`): it stands on `node`,
  /// reached through `component` from a container at `depth`, and may outlive the call (the tape
  /// then keeps its bytes, see ``Tape``).
  func superDecoder(at node: DecodingNode, depth: Int, component: PathComponent) -> DecoderImpl {
    DecoderImpl(sharingStateWith: self, node: node, path: Array(path.prefix(depth)) + [component])
  }

  var codingPath: [any CodingKey] { path.map(\.codingKey) }

  func codingPath(depth: Int, appending component: PathComponent? = nil) -> [any CodingKey] {
    var result = path.prefix(depth).map(\.codingKey)
    if let component { result.append(component.codingKey) }
    return result
  }

  var userInfo: [CodingUserInfoKey: Any] {
    var result: [CodingUserInfoKey: Any] = [:]
    for (key, value) in options.userInfo { result[key] = value }
    return result
  }

  /// Whether `type` reads a relationship member as the attribute of the same name
  /// (``JSONAPIAttributeExpressible``) and whether it reads the relationship object itself
  /// (``JSONAPIRelationship``). Each conformance check is a runtime cache look-up (two per
  /// relationship member decoded); the few types of a call are remembered.
  func relationshipReading<T>(of type: T.Type) -> (readsAttribute: Bool, readsObject: Bool) {
    memos.relationshipReadings.value(for: T.self) {
      (
        T.self is any JSONAPIAttributeExpressible.Type,
        T.self is any JSONAPIRelationshipMarker.Type
      )
    }
  }

  /// The ``JSONAPIResource/jsonAPIType`` `model` declares, if any. A conformance check costs a
  /// runtime cache look-up, too costly to do per resource; the few model types are
  /// remembered instead.
  @inline(__always) func declaredType(of model: Any.Type) -> String? {
    memos.declaredTypes.value(for: model) { (model as? any JSONAPIResource.Type)?.jsonAPIType }
  }

  // MARK: - Containers

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    let entry = tape[node.index]
    switch node.role {
    case .resource, .identifier:
      return KeyedDecodingContainer(
        try DecodingKeyedContainer<Key>(
          resourceAt: node.index, decoder: self, depth: path.count,
          identifierOnly: node.role == .identifier))
    case .primaryData where entry.kind == .object, .linkage where entry.kind == .object:
      // A container asked for straight on a relationship (`superDecoder(forKey:)`,
      // `nestedContainer(keyedBy:forKey:)`): the resolver opens the resource under the same cycle,
      // depth and budget rules as `decode(_:forKey:)`.
      let opened = try resolver.open(node, in: self)
      return KeyedDecodingContainer(
        try DecodingKeyedContainer<Key>(
          resourceAt: opened.object, decoder: self, depth: path.count,
          identifierOnly: opened.identifierOnly))
    default:
      guard entry.kind == .object else {
        throw mismatchOrNull(
          [String: Any].self, at: node, depth: path.count, container: "keyed decoding container")
      }
      return KeyedDecodingContainer(
        DecodingKeyedContainer<Key>(
          objectAt: node.index, role: node.role, decoder: self, depth: path.count)
      )
    }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try concreteUnkeyedContainer()
  }

  /// ``unkeyedContainer()`` as its concrete type, for ``DecodableArrayMarker``.
  func concreteUnkeyedContainer() throws -> DecodingUnkeyedContainer {
    guard tape[node.index].kind == .array, node.role != .resource, node.role != .identifier,
      node.role != .identityString
    else {
      throw mismatchOrNull(
        [Any].self, at: node, depth: path.count, container: "unkeyed decoding container")
    }
    let elementRole: DecodingNode.Role
    switch node.role {
    case .primaryData, .linkage:
      elementRole = node.role
      resolver.reach(depth: path.count)
    default: elementRole = .json
    }
    return DecodingUnkeyedContainer(
      arrayAt: node.index, elementRole: elementRole, decoder: self, depth: path.count)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    DecodingSingleValueContainer(node: node, decoder: self, depth: path.count)
  }

  // MARK: - Nested values

  /// Runs `body` with the decoder standing on `node` (the same place read another way, or a
  /// resource a linkage leads to) and moves it back afterwards, also when `body` throws.
  @inline(__always) func with<R>(_ node: DecodingNode, _ body: () throws -> R) rethrows -> R {
    let saved = self.node
    self.node = node
    defer { self.node = saved }
    return try body()
  }

  /// Runs `body` with the decoder standing on `child`, reached through `component`: the one place a
  /// nested value's position and coding path are pushed and popped.
  @inline(__always) func with<R>(
    _ child: DecodingNode, appending component: PathComponent, _ body: () throws -> R
  ) rethrows -> R {
    let saved = node
    node = child
    path.append(component)
    defer {
      node = saved
      path.removeLast()
    }
    return try body()
  }

  /// Decodes `T` from `child`, reached from the current node through `component`.
  @inline(__always) func decode<T: Decodable>(
    _ type: T.Type, at child: DecodingNode, component: PathComponent
  ) throws -> T {
    try with(child, appending: component) { try unwrap(type) }
  }

  /// Decodes `T` from the current node: special Foundation types by metatype, resources through the
  /// resolver, everything else through `T.init(from:)`.
  func unwrap<T: Decodable>(_ type: T.Type) throws -> T {
    if isSpecialType(T.self) { return try decodeSpecialType(type) }
    switch node.role {
    case .primaryData where tape[node.index].kind == .object,
      .linkage where tape[node.index].kind == .object:
      if T.self == JSONAPIResourceIdentifier.self {
        // An identifier property reads the linkage itself (with its own meta), never the resource.
        return try with(DecodingNode(index: node.index, role: .identifier)) {
          try T(from: self)
        }
      }
      return try resolver.decodeResource(type, from: node, in: self)
    case .primaryData, .linkage:
      resolver.reach(depth: path.count)
      return try decodeValue(type)
    case .json
    where !keys.usesDefaultKeys && tape[node.index].kind == .object
      && (T.self is any StringKeyedDictionaryMarker.Type || T.self == JSONAPILinks.self):
      // Dictionary keys and link names are data, kept as written whatever the key strategy.
      return try with(DecodingNode(index: node.index, role: .dictionary)) {
        try T(from: self)
      }
    default:
      return try decodeValue(type)
    }
  }

  /// `T(from: self)`, but arrays of decodable elements through ``DecodableArrayMarker``.
  @inline(__always) private func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
    if tape[node.index].kind == .array, let array = arrayType(of: T.self) {
      return try decodeArray(type, as: array)
    }
    return try T(from: self)
  }

  /// Out of line, and without a `T?`: its metadata would be a runtime lookup on every `unwrap`.
  @inline(never)
  private func decodeArray<T>(_ type: T.Type, as array: any DecodableArrayMarker.Type) throws -> T {
    try array.decodeArray(as: type, from: self)
  }

  /// `type` as a ``DecodableArrayMarker`` if it is one. The conformance check is a runtime cache
  /// look-up; the few array types are remembered.
  private func arrayType(of type: Any.Type) -> (any DecodableArrayMarker.Type)? {
    memos.arrayTypes.value(for: type) { type as? any DecodableArrayMarker.Type }
  }

  // MARK: - Errors

  func typeMismatch(
    _ expected: Any.Type, depth: Int, component: PathComponent? = nil, found: DecodingNode
  )
    -> DecodingError
  {
    .typeMismatch(
      expected,
      errorContext(
        "Expected to decode \(expected)\(memberPhrase(depth: depth, component: component)) but "
          + "found \(describe(found))", depth: depth, component: component, at: found.index))
  }

  /// `valueNotFound` for null (as `JSONDecoder` reports it), `typeMismatch` for anything else.
  /// `container` names what was asked for when it was a container rather than a value.
  func mismatchOrNull(
    _ expected: Any.Type, at found: DecodingNode, depth: Int, component: PathComponent? = nil,
    container: String? = nil
  ) -> DecodingError {
    guard tape[found.index].kind == .null else {
      return typeMismatch(expected, depth: depth, component: component, found: found)
    }
    let wanted = container.map { "a \($0)" } ?? "\(expected)"
    return .valueNotFound(
      expected,
      errorContext(
        "Expected \(wanted)\(memberPhrase(depth: depth, component: component)) but found null",
        depth: depth, component: component, at: found.index))
  }

  func dataCorrupted(_ message: String, depth: Int, component: PathComponent? = nil, at index: Int)
    -> DecodingError
  {
    .dataCorrupted(errorContext(message, depth: depth, component: component, at: index))
  }

  func describe(_ node: DecodingNode) -> String {
    let kind = tape[node.index].kind
    switch (node.role, kind) {
    case (.resource, _), (.primaryData, .object), (.linkage, .object): return "a resource object"
    case (.identifier, _): return "a resource identifier object"
    case (_, .object): return "a dictionary"
    case (_, .array): return "an array"
    case (_, .string): return "a string"
    case (_, .number): return "a number"
    case (_, .true), (_, .false): return "a boolean"
    case (_, .null): return "null"
    }
  }
}
