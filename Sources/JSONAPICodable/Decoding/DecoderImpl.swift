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
  let keys: KeyConverter
  // One decode call runs on one thread and these never escape it; the dynamic exclusivity checks
  // the compiler would add to every access of a class property cost ~4% of decoding.
  @exclusivity(unchecked) var node: DecodingNode
  @exclusivity(unchecked) var path: [PathComponent] = []

  init(tape: Tape, index: DocumentIndex, options: DecodingOptions, node: DecodingNode) {
    self.tape = tape
    self.index = index
    self.options = options
    self.node = node
    resolver = RelationshipResolver(
      resourceCount: index.resourceCount, valueCount: tape.count, limits: options.limits,
      memoises: options.memoisesResources)
    keys = KeyConverter(strategy: options.keyDecodingStrategy)
    path.reserveCapacity(16)
  }

  /// A decoder for `superDecoder()`: same document and resolution state, its own position and path.
  init(sharingStateWith parent: DecoderImpl, node: DecodingNode, path: [PathComponent]) {
    tape = parent.tape
    index = parent.index
    options = parent.options
    resolver = parent.resolver
    keys = parent.keys
    self.node = node
    self.path = path
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

  // MARK: - Containers

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    let entry = tape[node.index]
    switch node.role {
    case .resource, .identifier:
      return KeyedDecodingContainer(
        try KeyedContainer<Key>(
          resourceAt: node.index, decoder: self, depth: path.count,
          identifierOnly: node.role == .identifier))
    case .primaryData where entry.kind == .object, .linkage where entry.kind == .object:
      // Reached without `decode(_:)` (a `superDecoder(forKey:)` on a relationship): resolve directly.
      // The resolver's cycle and depth tracking is bypassed here, so bound the recursion such code
      // could build through a cyclic document by the coding path's length.
      let limits = options.limits
      guard path.count <= limits.maxNestingDepth + 8 * limits.maxRelationshipDepth else {
        throw JSONAPIError.relationshipDepthExceeded(
          limit: limits.maxRelationshipDepth, pointer: JSONPointer.pointer(to: node.index, in: tape)
        )
      }
      let target = try resolver.target(of: node, in: self)
      return KeyedDecodingContainer(
        try KeyedContainer<Key>(
          resourceAt: target.object, decoder: self, depth: path.count,
          identifierOnly: target.ordinal == nil && node.standInRole == .identifier))
    default:
      guard entry.kind == .object else {
        throw mismatchOrNull(
          [String: Any].self, at: node, depth: path.count, container: "keyed decoding container")
      }
      return KeyedDecodingContainer(
        KeyedContainer<Key>(objectAt: node.index, role: node.role, decoder: self, depth: path.count)
      )
    }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard tape[node.index].kind == .array, node.role != .resource, node.role != .identifier,
      node.role != .identityString
    else {
      throw mismatchOrNull(
        [Any].self, at: node, depth: path.count, container: "unkeyed decoding container")
    }
    let elementRole: DecodingNode.Role
    switch node.role {
    case .primaryData, .linkage: elementRole = node.role
    default: elementRole = .json
    }
    return ArrayContainer(
      arrayAt: node.index, elementRole: elementRole, decoder: self, depth: path.count)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueContainer(node: node, decoder: self, depth: path.count)
  }

  // MARK: - Nested values

  /// Decodes `T` from `child`, reached from the current node through `component`.
  @inline(__always) func decode<T: Decodable>(
    _ type: T.Type, at child: DecodingNode, component: PathComponent
  ) throws -> T {
    let saved = node
    node = child
    path.append(component)
    defer {
      node = saved
      path.removeLast()
    }
    return try unwrap(type)
  }

  /// Decodes `T` from the current node: special Foundation types by metatype, resources through the
  /// resolver, everything else through `T.init(from:)`.
  func unwrap<T: Decodable>(_ type: T.Type) throws -> T {
    if isSpecialType(T.self) { return try decodeSpecialType(type) }
    switch node.role {
    case .primaryData where tape[node.index].kind == .object,
      .linkage where tape[node.index].kind == .object:
      return try resolver.decodeResource(type, from: node, in: self)
    case .json
    where !keys.usesDefaultKeys && tape[node.index].kind == .object
      && T.self is any StringKeyedDictionaryMarker.Type:
      node.role = .dictionary  // restored by the caller, which saved the node
      return try T(from: self)
    default:
      return try T(from: self)
    }
  }

  // MARK: - Errors

  func typeMismatch(
    _ expected: Any.Type, depth: Int, component: PathComponent? = nil, found: DecodingNode
  )
    -> DecodingError
  {
    .typeMismatch(
      expected,
      DecodingError.Context(
        codingPath: codingPath(depth: depth, appending: component),
        debugDescription:
          "Expected to decode \(expected) but found \(describe(found)) instead.\(location(of: found.index))"
      ))
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
    let wanted = container ?? "value of type \(expected)"
    return .valueNotFound(
      expected,
      DecodingError.Context(
        codingPath: codingPath(depth: depth, appending: component),
        debugDescription: "Cannot get \(wanted) -- found null value instead."
          + location(of: found.index)))
  }

  func dataCorrupted(_ message: String, depth: Int, component: PathComponent? = nil, at index: Int)
    -> DecodingError
  {
    .dataCorrupted(
      DecodingError.Context(
        codingPath: codingPath(depth: depth, appending: component),
        debugDescription: message + location(of: index)))
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

  /// " (at /included/3/attributes/age)", computed only for error messages.
  func location(of tapeIndex: Int) -> String {
    let pointer = JSONPointer.pointer(to: tapeIndex, in: tape)
    return " (at \(pointer.isEmpty ? "/" : pointer))"
  }
}
