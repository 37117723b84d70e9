/// Writes an ``EncodedNode`` tree as UTF-8 JSON text, laid out as `JSONEncoder` lays it out.
struct JSONWriter {
  /// What has been written; ``OutputBuffer/takeData()`` gives it as `Data`.
  let bytes: OutputBuffer
  private let prettyPrinted: Bool
  private let sortedKeys: Bool
  private let escapesSlashes: Bool
  /// How deep containers may nest in the document: the user's limit on values, plus the levels the
  /// document wraps them in (`data`, `attributes`, …).
  private let depthLimit: Int
  /// The limit errors report: the one the user set.
  private let userDepthLimit: Int

  /// Levels a document adds around the values of a model: `data`, `attributes` or `relationships`,
  /// a relationship's `data`, arrays of them, `included`.
  static let documentLevels = 8

  /// A writer that writes into a new buffer.
  init(formatting: JSONAPIEncoder.OutputFormatting, limits: JSONAPIEncoder.Limits) {
    bytes = OutputBuffer()
    prettyPrinted = formatting.contains(.prettyPrinted)
    sortedKeys = formatting.contains(.sortedKeys)
    escapesSlashes = !formatting.contains(.withoutEscapingSlashes)
    userDepthLimit = limits.maxNestingDepth
    depthLimit = limits.maxNestingDepth + Self.documentLevels
  }

  /// Writes `node` as a whole JSON text.
  ///
  /// - Throws: ``JSONAPIError/encodingNestingTooDeep(limit:codingPath:)`` with the user's
  ///   ``JSONAPIEncoder/Limits/maxNestingDepth`` when containers nest deeper than the document allows
  ///   (nested containers can be built without going through `encode`, which checks the limit).
  mutating func write(_ node: EncodedNode) throws(JSONAPIError) {
    do {
      try write(node, level: 0)
    } catch {
      throw tooDeep(error)
    }
  }

  /// Writes element `index` of a document's primary data array, opening the document
  /// (`{"data":[`) before the first: the elements come before anything else the document has.
  ///
  /// - Throws: ``JSONAPIError/encodingNestingTooDeep(limit:codingPath:)`` as ``write(_:)``.
  mutating func writeStreamedElement(_ node: EncodedNode, index: Int) throws(JSONAPIError) {
    var steps: [EncodingPath.Step] = []
    do {
      if index == 0 {
        try checkDepth(0)
        bytes.append(UInt8(ascii: "{"))
        writeKey("data", level: 0)
        steps.append(.member("data"))
        try checkDepth(1)
        bytes.append(UInt8(ascii: "["))
      } else {
        bytes.append(UInt8(ascii: ","))
      }
      steps = [.member("data"), .index(index)]
      if prettyPrinted { newline(level: 2) }
      try write(node, level: 2)
    } catch {
      throw tooDeep(error, below: steps)
    }
  }

  /// Closes the primary data array ``writeStreamedElement(_:index:)`` wrote, then writes the
  /// document's other members, `rest`, and closes the document. `data` sorts before every other
  /// top-level member, so `.sortedKeys` keeps it first.
  mutating func finishStreamedDocument(_ rest: EncodedObject) throws(JSONAPIError) {
    if prettyPrinted { newline(level: 1) }
    bytes.append(UInt8(ascii: "]"))
    do {
      for member in sortedKeys ? Self.sorted(rest.members) : rest.members {
        try writeMember(member, first: false, level: 0)
      }
    } catch {
      throw tooDeep(error)
    }
    if prettyPrinted { newline(level: 0) }
    bytes.append(UInt8(ascii: "}"))
  }

  /// Thrown where containers nest too deep; each level it unwinds through adds its step, so the
  /// path is built only for the error.
  private struct TooDeep: Error {
    /// The steps from the place outwards, innermost first.
    var steps: [EncodingPath.Step] = []

    func adding(_ step: EncodingPath.Step) -> TooDeep {
      var copy = self
      copy.steps.append(step)
      return copy
    }
  }

  /// The error users see for `error`: the limit they set, and the path from the document down,
  /// `outer` steps first.
  private func tooDeep(_ error: TooDeep, below outer: [EncodingPath.Step] = []) -> JSONAPIError {
    .encodingNestingTooDeep(
      limit: userDepthLimit, codingPath: EncodingPath(outer + error.steps.reversed()).text)
  }

  private mutating func write(_ node: EncodedNode, level: Int) throws(TooDeep) {
    switch node {
    case .null, .nullRelated: bytes.append("null")
    case .bool(true): bytes.append("true")
    case .bool(false): bytes.append("false")
    case .number(let text): bytes.append(utf8: text)
    case .integer(let value): bytes.append(decimal: value)
    case .string(let text): writeString(text)
    case .array(let array): try writeArray(array, level: level)
    case .object(let object): try writeObject(object, level: level)
    case .resource(let parts): try writeParts(parts, level: level)
    case .linkage(let linkage): try writeParts(linkage, level: level)
    case .toOneRelationship(let linkage): try writeRelationship(.linkage(linkage), level: level)
    case .toManyRelationship(let array): try writeRelationship(.array(array), level: level)
    case .nullRelationship: try writeRelationship(.null, level: level)
    case .fields(let object, let kind): try writeFields(of: object, kind, level: level)
    }
  }

  /// Opens an array at `level`; an empty one is closed too, and `false` returned.
  @inline(__always)
  private mutating func openArray(isEmpty: Bool, level: Int) throws(TooDeep) -> Bool {
    try checkDepth(level)
    bytes.append(UInt8(ascii: "["))
    guard isEmpty else { return true }
    if prettyPrinted { emptyContainerBody(level: level) }
    bytes.append(UInt8(ascii: "]"))
    return false
  }

  /// Starts element `index` of an array at `level`.
  @inline(__always)
  private mutating func startElement(_ index: Int, level: Int) {
    if index > 0 { bytes.append(UInt8(ascii: ",")) }
    if prettyPrinted { newline(level: level + 1) }
  }

  /// Closes an array at `level` that has elements.
  @inline(__always)
  private mutating func closeArray(level: Int) {
    if prettyPrinted { newline(level: level) }
    bytes.append(UInt8(ascii: "]"))
  }

  /// A resource's `attributes` or `relationships`: the members of its object marked `kind`; the
  /// resource writes it only when there is one.
  private mutating func writeFields(
    of object: EncodedObject, _ kind: FieldKind, level: Int
  ) throws(TooDeep) {
    try checkDepth(level)
    bytes.append(UInt8(ascii: "{"))
    if sortedKeys {
      try writeMembers(object.members.filter { $0.kind == kind }, level: level)
    } else {
      // Filtered in place: a lazy filter handed to `writeMembers` runs generic code per member,
      // which shows on small resources. By position, so that members of the other kind are not
      // copied (retaining their values) only to be skipped.
      var first = true
      for position in 0..<object.count where object.members[position].kind == kind {
        try writeMember(object.members[position], first: first, level: level)
        first = false
      }
    }
    if prettyPrinted { newline(level: level) }
    bytes.append(UInt8(ascii: "}"))
  }

  /// A relationship object with `data` as its one member (sorting one member changes nothing).
  private mutating func writeRelationship(_ data: EncodedNode, level: Int) throws(TooDeep) {
    try checkDepth(level)
    bytes.append(UInt8(ascii: "{"))
    try writeMember(key: "data", value: data, first: true, level: level)
    if prettyPrinted { newline(level: level) }
    bytes.append(UInt8(ascii: "}"))
  }

  private func checkDepth(_ level: Int) throws(TooDeep) {
    guard level < depthLimit else { throw TooDeep() }
  }

  private mutating func writeArray(_ array: EncodedArray, level: Int) throws(TooDeep) {
    guard try openArray(isEmpty: array.elements.isEmpty, level: level) else { return }
    // By index: iterating would hold the array, and letting go of an element would copy it.
    for index in array.elements.indices {
      startElement(index, level: level)
      let element = array.elements[index]
      if array.releasesElementsWhenWritten { array.elements[index] = .null }
      do {
        try write(element, level: level + 1)
      } catch {
        throw error.adding(.index(index))
      }
    }
    closeArray(level: level)
  }

  private mutating func writeObject(_ object: EncodedObject, level: Int) throws(TooDeep) {
    try checkDepth(level)
    bytes.append(UInt8(ascii: "{"))
    if object.isEmpty {
      if prettyPrinted { emptyContainerBody(level: level) }
      bytes.append(UInt8(ascii: "}"))
      return
    }
    try writeMembers(object.members, level: level)
    if prettyPrinted { newline(level: level) }
    bytes.append(UInt8(ascii: "}"))
  }

  /// The members of an object between its braces: in place, or ordered by their names' UTF-8
  /// bytes when sorting is asked for, as JSONEncoder does.
  private mutating func writeMembers(
    _ members: some Sequence<EncodedObject.Member>, level: Int
  ) throws(TooDeep) {
    if sortedKeys {
      for (count, member) in Self.sorted(members).enumerated() {
        try writeMember(member, first: count == 0, level: level)
      }
      return
    }
    // The common case walks the members in place: no array per object.
    var first = true
    for member in members {
      try writeMember(member, first: first, level: level)
      first = false
    }
  }

  private static func sorted(_ members: some Sequence<EncodedObject.Member>)
    -> [EncodedObject.Member]
  {
    members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
  }

  /// A resource object or resource identifier written from its parts; it always has a `type`, so
  /// is never empty.
  private mutating func writeParts(_ source: some MemberSource, level: Int) throws(TooDeep) {
    if sortedKeys {
      // Rare: the object gives the members to sort.
      try writeObject(source.object(), level: level)
      return
    }
    try checkDepth(level)
    bytes.append(UInt8(ascii: "{"))
    var first = true
    try source.forEachMember { (key, value) throws(TooDeep) in
      try writeMember(key: key, value: value, first: first, level: level)
      first = false
    }
    if prettyPrinted { newline(level: level) }
    bytes.append(UInt8(ascii: "}"))
  }

  @inline(__always)
  private mutating func writeMember(
    _ member: EncodedObject.Member, first: Bool, level: Int
  ) throws(TooDeep) {
    try writeMember(key: member.key, value: member.value, first: first, level: level)
  }

  @inline(__always)
  private mutating func writeMember(
    key: String, value: EncodedNode, first: Bool, level: Int
  ) throws(TooDeep) {
    if !first { bytes.append(UInt8(ascii: ",")) }
    writeKey(key, level: level)
    do {
      try write(value, level: level + 1)
    } catch {
      throw error.adding(.member(key))
    }
  }

  /// A member's name and colon, on a new line when pretty-printing, in an object at `level`.
  @inline(__always)
  private mutating func writeKey(_ key: String, level: Int) {
    if prettyPrinted { newline(level: level + 1) }
    writeString(key)
    if prettyPrinted {
      bytes.append(" : ")
    } else {
      bytes.append(UInt8(ascii: ":"))
    }
  }

  // JSONEncoder writes an empty container as an empty line between its brackets.
  private mutating func emptyContainerBody(level: Int) {
    bytes.append(UInt8(ascii: "\n"))
    newline(level: level)
  }

  private mutating func newline(level: Int) {
    bytes.append(UInt8(ascii: "\n"))
    bytes.append(0x20, repeating: 2 * level)
  }

  /// Writes a string literal; runs of bytes that need no escaping are copied in one go.
  private func writeString(_ text: String) {
    let bytes = bytes
    let escapesSlashes = escapesSlashes
    bytes.append(UInt8(ascii: "\""))
    // Read where it lies: `withUTF8` needs a mutable copy, which retains the storage of a long
    // string, and an included resource's strings are cold by the time it is written.
    let written: Void? = text.utf8.withContiguousStorageIfAvailable {
      Self.writeEscaped($0, to: bytes, escapingSlashes: escapesSlashes)
    }
    if written == nil {
      var text = text
      text.withUTF8 { Self.writeEscaped($0, to: bytes, escapingSlashes: escapesSlashes) }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// The string body of `utf8`: escapes where JSON needs them, the runs between copied as they are.
  @inline(__always)
  private static func writeEscaped(
    _ utf8: UnsafeBufferPointer<UInt8>, to bytes: OutputBuffer, escapingSlashes: Bool
  ) {
    guard let base = utf8.baseAddress else { return }
    var runStart = 0
    var index = 0
    let count = utf8.count
    while index < count {
      var end = count
      // Longer text (bodies, not names) is tested eight bytes at once; a word with a byte that
      // needs escaping is gone through byte by byte.
      if count >= 16 && count - index >= 8 {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        if !needsEscaping(word, escapingSlashes: escapingSlashes) {
          index += 8
          continue
        }
        end = index + 8
      }
      while index < end {
        let byte = base[index]
        index += 1
        // Letters and digits (0x30 and up, but for the backslash) are most bytes: one test.
        if byte >= 0x30 && byte != 0x5C { continue }
        guard byte < 0x20 || byte == 0x22 || byte == 0x5C || (byte == 0x2F && escapingSlashes)
        else { continue }
        let escaped = index - 1
        if runStart < escaped {
          bytes.append(UnsafeBufferPointer(start: base + runStart, count: escaped - runStart))
        }
        appendEscape(for: byte, to: bytes)
        runStart = index
      }
    }
    if runStart < count {
      bytes.append(UnsafeBufferPointer(start: base + runStart, count: count - runStart))
    }
  }

  /// Whether any of the eight bytes of `word` needs escaping: a control byte, a quote, a
  /// backslash, or a slash when slashes are escaped.
  @inline(__always) private static func needsEscaping(_ word: UInt64, escapingSlashes: Bool)
    -> Bool
  {
    var found =
      ByteWord.controlBytes(word) | ByteWord.bytes(word, equalTo: UInt8(ascii: "\""))
      | ByteWord.bytes(word, equalTo: UInt8(ascii: "\\"))
    if escapingSlashes { found |= ByteWord.bytes(word, equalTo: UInt8(ascii: "/")) }
    return found != 0
  }

  private static func appendEscape(for byte: UInt8, to bytes: OutputBuffer) {
    bytes.append(UInt8(ascii: "\\"))
    switch byte {
    case 0x22: bytes.append(UInt8(ascii: "\""))
    case 0x5C: bytes.append(UInt8(ascii: "\\"))
    case 0x2F: bytes.append(UInt8(ascii: "/"))
    case 0x08: bytes.append(UInt8(ascii: "b"))
    case 0x0C: bytes.append(UInt8(ascii: "f"))
    case 0x0A: bytes.append(UInt8(ascii: "n"))
    case 0x0D: bytes.append(UInt8(ascii: "r"))
    case 0x09: bytes.append(UInt8(ascii: "t"))
    default:
      let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
      bytes.append("u00")
      bytes.append(hexDigits[Int(byte >> 4)])
      bytes.append(hexDigits[Int(byte & 0x0F)])
    }
  }
}
