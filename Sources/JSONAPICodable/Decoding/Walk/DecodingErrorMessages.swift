import Foundation

/// The words of the `DecodingError`s ``JSONAPIDecoder`` throws for a document that does not fit the
/// model, and the hints for the commonest causes. Everything here runs only once an error is being
/// thrown: it reads the tape and the decoder's live coding path and relationship chain, which are
/// still those of the failing value at that point.
///
/// Shape of a message (the context's `debugDescription`): what was expected, the member by the
/// model's key, `(at <JSON Pointer>)`, then hint sentences, and no final period. Swift 6.2 and later
/// print a `DecodingError` as "… Debug description: <message>. Underlying error: <location>", adding
/// that period themselves; earlier runtimes print the enum's default dump, in which the message
/// stands alone between quotes. The cases and coding paths are those `JSONDecoder` would give.
extension DecoderImpl {
  /// The context of an error about the value at tape entry `index`: `message`, " (at /pointer)",
  /// and the same pointer as a ``DecodingFailureLocation`` in `underlyingError`. The pointer is
  /// walked once, only when an error is made.
  func errorContext(
    _ message: String, depth: Int, component: PathComponent?, at index: Int
  ) -> DecodingError.Context {
    let pointer = JSONPointer.pointer(to: index, in: tape)
    return DecodingError.Context(
      codingPath: codingPath(depth: depth, appending: component),
      debugDescription: message + " (at \(Self.shown(pointer)))",
      underlyingError: DecodingFailureLocation(pointer: pointer))
  }

  /// ` for "age"`, or ` for "tags"[2]` for an element: the member a value belongs to, by the
  /// model's key (the pointer gives the document's spelling); empty when no key leads there.
  func memberPhrase(depth: Int, component: PathComponent?) -> String {
    var components = Array(path.prefix(depth))
    if let component { components.append(component) }
    var indices = ""
    for component in components.reversed() {
      switch component {
      case .index(let index): indices = "[\(index)]" + indices
      case .key(let key): return " for \"\(key.stringValue)\"" + indices
      }
    }
    return ""
  }

  /// A JSON Pointer as messages show it: the whole document as "/", like ``JSONAPIError``'s.
  static func shown(_ pointer: String) -> String { pointer.isEmpty ? "/" : pointer }

  /// `text` cut to about 40 characters, for values quoted in messages.
  static func clipped(_ text: String) -> String {
    text.count <= 40 ? text : text.prefix(39) + "…"
  }

  // MARK: - Missing members

  /// The message of a `keyNotFound` for `name` in a container reading `source`, with the hints
  /// that are true for it: the resource is not included (or is cut in a cycle), or the key
  /// decoding strategy does not map a member that another strategy would.
  func missingMemberMessage(_ name: String, in source: KeyedContainerSource, depth: Int) -> String {
    switch source {
    case .object(let lookup, let dataRole):
      var message =
        "No member \"\(name)\" in the object (at "
        + "\(Self.shown(JSONPointer.pointer(to: lookup.object, in: tape))))"
      // Structural objects (the document, a relationship) and dictionaries keep their names.
      if dataRole == nil, keys.usesDefaultKeys || lookup.convertsKeys,
        let hint = keyStrategyHint(
          for: name, in: [lookup.object], owner: "object", depth: depth, skipsNonFields: false)
      {
        message += ". " + hint
      }
      return message
    case .resource(let members):
      if let relationship = source.find(name, in: self), relationship.role == .relationshipObject {
        return
          "The relationship \"\(name)\" has no data, only links or meta (at "
          + "\(Self.shown(JSONPointer.pointer(to: relationship.index, in: tape))))"
      }
      let identity = identityText(ofObjectAt: members.object)
      let isIdentity = ResourceMemberName(name)?.isIdentity ?? false
      let missing = isIdentity ? "No \"\(name)\"" : "No attribute or relationship \"\(name)\""
      let pointer = Self.shown(JSONPointer.pointer(to: members.object, in: tape))
      if !isIdentity, let standIn = standInHint(forIdentifierAt: members.object, depth: depth) {
        return "\(missing) in the resource identifier \(identity ?? "") (at \(pointer)). \(standIn)"
      }
      var message =
        "\(missing) in the resource\(identity.map { " " + $0 } ?? "") (at \(pointer))"
      let fields = [members.attributes?.object, members.relationships?.object].compactMap { $0 }
      if !isIdentity,
        let hint = keyStrategyHint(
          for: name, in: fields, owner: "resource", depth: depth, skipsNonFields: true)
      {
        message += ". " + hint
      }
      return message
    }
  }

  /// `people/9`, `people with lid "tmp-1"`, or `of type people` without either: the identity of the
  /// resource object or identifier at `object`, nil when it has no readable type.
  private func identityText(ofObjectAt object: Int) -> String? {
    guard let identity = try? ResourceIdentity(tape: tape, object: object, pointer: { "" }) else {
      return nil
    }
    let type = Self.clipped(TapeStrings.string(tape, tape[identity.type]))
    if let id = identity.id { return "\(type)/\(Self.clipped(TapeStrings.string(tape, tape[id])))" }
    if let lid = identity.lid {
      return "\(type) with lid \"\(Self.clipped(TapeStrings.string(tape, tape[lid])))\""
    }
    return "of type \(type)"
  }

  /// For a container reading an identifier in place of its resource: why only `type`, `id` and
  /// `meta` can be read there. Either the document does not include the resource (R33: legal), and
  /// then which `include` path (R67) would bring it, or the resource is being decoded further up
  /// and the linkage closes a cycle (R42). Nil when `object` is a resource object of the document.
  private func standInHint(forIdentifierAt object: Int, depth: Int) -> String? {
    // Indexed resources are those with an id or a lid: one of them without an index entry is an
    // identifier (a resource object without either, a create body's, is not).
    guard index.ordinal(ofResourceAt: object) == nil,
      let identity = try? ResourceIdentity(tape: tape, object: object, pointer: { "" }),
      identity.id != nil || identity.lid != nil, let text = identityText(ofObjectAt: object)
    else { return nil }
    let found =
      identity.id.flatMap { index.resource(type: identity.type, value: $0, isLocal: false) }
      ?? identity.lid.flatMap { index.resource(type: identity.type, value: $0, isLocal: true) }
    if let found {
      guard resolver.isActive(found.ordinal) else { return nil }
      return
        "\(text) is being decoded further up this chain of relationships (a cycle), so here it "
        + "has only its identifier; declare the member optional to accept that"
    }
    var hint = "\(text) is not in \"included\", so only its type, id and meta can be read"
    if identity.id != nil, let path = includePath(toIdentifierAt: depth) {
      hint += "; request it with include=\(path) (see \(SpecSection.includes))"
    } else {
      hint += " (see \(SpecSection.compoundDocuments))"
    }
    return hint
  }

  /// The relationship path from the primary data to the identifier read by a container at
  /// `depth`, as the `include` query parameter spells it (`comments.author`, R67): the relationship
  /// names of each resource being decoded, in the document's spelling. Nil when the chain does not
  /// start at the primary data or a step cannot be named.
  func includePath(toIdentifierAt depth: Int) -> String? {
    let chain = resolver.activeChain.filter { $0.depth <= depth }
    guard let first = chain.first else { return nil }
    let start = JSONPointer.pointer(to: resourceObject(first.ordinal), in: tape)
    guard start == "/data" || start.hasPrefix("/data/") else { return nil }
    var names: [String] = []
    for (position, step) in chain.enumerated() {
      let end = position + 1 < chain.count ? chain[position + 1].depth : depth
      // A decoder kept past its call (see `superDecoder`) can see a chain out of order.
      guard step.depth <= end,
        let name = relationshipName(
          of: resourceObject(step.ordinal), reachedThrough: step.depth..<end)
      else { return nil }
      names.append(name)
    }
    return names.joined(separator: ".")
  }

  private func resourceObject(_ ordinal: Int32) -> Int {
    Int(index.resourceObjects[Int(ordinal)])
  }

  /// The document's name of the relationship of the resource at `object` whose model key is the
  /// last key in the coding path over `steps` (a to-many adds an index after it).
  private func relationshipName(of object: Int, reachedThrough steps: Range<Int>) -> String? {
    guard steps.lowerBound >= 0, steps.upperBound <= path.count else { return nil }
    var key: String?
    for component in path[steps].reversed() {
      if case .key(let found) = component {
        key = found.stringValue
        break
      }
    }
    guard let key, let relationships = tape.memberValue(ofObjectAt: object, named: "relationships"),
      tape[relationships].kind == .object
    else { return nil }
    var name: String?
    tape.forEachMember(ofObjectAt: relationships) { member in
      guard name == nil else { return }
      let raw = TapeStrings.string(tape, tape[member])
      if keys.convert(raw, codingPath: codingPath(depth: steps.lowerBound)) == key { name = raw }
    }
    return name
  }

  /// When a member of the objects at `objects` is not mapped to `key` by the key decoding
  /// strategy in use but would be by another built-in one: a sentence naming the member and that
  /// strategy. Nil otherwise.
  private func keyStrategyHint(
    for key: String, in objects: [Int], owner: String, depth: Int, skipsNonFields: Bool
  ) -> String? {
    let current = Self.name(of: keys.strategy)
    for object in objects {
      var hint: String?
      tape.forEachMember(ofObjectAt: object) { member in
        guard hint == nil else { return }
        let raw = TapeStrings.string(tape, tape[member])
        if skipsNonFields && MemberLookup.isNonField(raw) { return }
        let candidates = [
          (".useDefaultKeys", raw),
          (".convertFromSnakeCase", KeyDecodingConverter.camelCased(raw, separator: "_")),
          (".convertFromKebabCase", KeyDecodingConverter.camelCased(raw, separator: "-")),
        ]
        guard let match = candidates.first(where: { $0.1 == key && $0.0 != current }),
          keys.convert(raw, codingPath: codingPath(depth: depth)) != key
        else { return }
        hint =
          "The \(owner) has the member \"\(raw)\", which \(match.0) reads as \"\(key)\"; the key "
          + "decoding strategy is \(current)"
      }
      if let hint { return hint }
    }
    return nil
  }

  private static func name(of strategy: JSONAPIDecoder.KeyDecodingStrategy) -> String {
    switch strategy {
    case .useDefaultKeys: return ".useDefaultKeys"
    case .convertFromSnakeCase: return ".convertFromSnakeCase"
    case .convertFromKebabCase: return ".convertFromKebabCase"
    case .custom: return ".custom"
    }
  }

  // MARK: - Dates

  /// `date()`, with a hint on its errors when the value is a string or number that the date
  /// decoding strategy does not read. The case and coding path stay as thrown.
  func dateWithHint() throws -> Date {
    do {
      return try date()
    } catch let error as DecodingError {
      throw dateHinted(error)
    }
  }

  private func dateHinted(_ error: DecodingError) -> DecodingError {
    let entry = tape[node.index]
    guard entry.kind == .string || entry.kind == .number, node.role == .json,
      let hint = dateHint(for: entry)
    else { return error }
    // Only errors about this very value: a custom strategy's own errors, or ones from elsewhere,
    // keep their words.
    func hinted(_ context: DecodingError.Context) -> DecodingError.Context? {
      guard let location = context.underlyingError as? DecodingFailureLocation,
        location.missingMember == nil,
        location.pointer == JSONPointer.pointer(to: node.index, in: tape)
      else { return nil }
      return DecodingError.Context(
        codingPath: context.codingPath, debugDescription: context.debugDescription + ". " + hint,
        underlyingError: context.underlyingError)
    }
    switch error {
    case .typeMismatch(let type, let context):
      return hinted(context).map { .typeMismatch(type, $0) } ?? error
    case .dataCorrupted(let context):
      return hinted(context).map { .dataCorrupted($0) } ?? error
    default:
      return error
    }
  }

  /// "The date decoding strategy is .secondsSince1970, which reads …; the value is "…", which
  /// .iso8601 reads". Nil for a custom strategy, whose reading this cannot know.
  private func dateHint(for entry: TapeEntry) -> String? {
    let strategy: String
    let reads: String
    switch options.dateDecodingStrategy {
    case .deferredToDate:
      strategy = ".deferredToDate"
      reads = "a number of seconds since 2001-01-01"
    case .secondsSince1970:
      strategy = ".secondsSince1970"
      reads = "a number of seconds since 1970-01-01"
    case .millisecondsSince1970:
      strategy = ".millisecondsSince1970"
      reads = "a number of milliseconds since 1970-01-01"
    case .iso8601:
      strategy = ".iso8601"
      reads = "ISO 8601 text such as \"2024-05-01T12:30:00Z\""
    case .formatted(let formatter):
      strategy = ".formatted"
      reads = "text in the formatter's format \"\(Self.clipped(formatter.dateFormat ?? ""))\""
    case .custom:
      return nil
    }
    var hint = "The date decoding strategy is \(strategy), which reads \(reads); the value is "
    if entry.kind == .string {
      let text = TapeStrings.string(tape, entry)
      hint += String(reflecting: Self.clipped(text))
      if strategy != ".iso8601", (try? Date.ISO8601FormatStyle().parse(text)) != nil {
        hint += ", ISO 8601 text, which .iso8601 reads"
      } else if Double(text) != nil {
        hint += ", a number inside a string, which no date strategy reads but .custom"
      }
    } else {
      let text = String(decoding: tape.rawBytes(entry), as: UTF8.self)
      hint += "the number \(Self.clipped(text))"
      if let value = Double(text), strategy == ".iso8601" || strategy == ".formatted" {
        // Seconds since 1970 reach 10^11 only after the year 5000; milliseconds passed it in 1973.
        hint +=
          abs(value) < 1e11
          ? ", which .secondsSince1970 reads (.millisecondsSince1970 if it counts milliseconds)"
          : ", which .millisecondsSince1970 reads (.secondsSince1970 if it counts seconds)"
      }
    }
    return hint
  }
}
