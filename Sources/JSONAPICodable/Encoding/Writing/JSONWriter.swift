/// Writes JSON text, laid out as `JSONEncoder` lays it out: whole values (``EncodedNode``), and the
/// pieces of containers (open, member name, element, close) for a caller that produces members as
/// it goes. It knows JSON only; what a JSON:API document holds is ``DocumentWriter``'s business.
///
/// Depth is checked as containers open: past the limit, ``TooDeep`` is thrown, and each level it
/// unwinds through adds its step, so the path is built only for the error.
package struct JSONWriter {
  /// What has been written; ``OutputBuffer/takeData()`` gives it as `Data`.
  package let bytes: OutputBuffer
  private let prettyPrinted: Bool
  /// Whether object members are written ordered by their names' UTF-8 bytes (``keyPrecedes(_:_:)``).
  let sortsKeys: Bool
  private let escapesSlashes: Bool
  /// How deep containers may nest.
  private let depthLimit: Int
  /// The limit errors report, which may be smaller than ``depthLimit`` when the caller's own
  /// levels are not counted against the user's limit.
  private let reportedDepthLimit: Int

  /// A writer into a new buffer that lets containers nest `depthLimit` levels deep and reports
  /// `reportedDepthLimit` when they nest deeper.
  package init(
    formatting: JSONAPIEncoder.OutputFormatting, depthLimit: Int, reportedDepthLimit: Int
  ) {
    bytes = OutputBuffer()
    prettyPrinted = formatting.contains(.prettyPrinted)
    sortsKeys = formatting.contains(.sortedKeys)
    escapesSlashes = !formatting.contains(.withoutEscapingSlashes)
    self.depthLimit = depthLimit
    self.reportedDepthLimit = reportedDepthLimit
  }

  /// Thrown where containers nest too deep.
  package struct TooDeep: Error {
    /// The steps from the place outwards, innermost first.
    var steps: [EncodingPath.Step] = []

    /// The error with one more step, the level it is unwinding through.
    func adding(_ step: EncodingPath.Step) -> TooDeep {
      var copy = self
      copy.steps.append(step)
      return copy
    }
  }

  /// The error users see for `error`: the reported limit, and the path from the top down, `outer`
  /// steps first.
  func tooDeep(_ error: TooDeep, below outer: [EncodingPath.Step] = []) -> JSONAPIError {
    .encodingNestingTooDeep(
      limit: reportedDepthLimit, codingPath: EncodingPath(outer + error.steps.reversed()).text)
  }

  /// Whether `first` comes before `second` when keys are sorted: by UTF-8 bytes, as JSONEncoder.
  package static func keyPrecedes(_ first: String, _ second: String) -> Bool {
    first.utf8.lexicographicallyPrecedes(second.utf8)
  }

  // MARK: - Values

  /// Writes `node` as a whole JSON text.
  ///
  /// - Throws: ``JSONAPIError/encodingNestingTooDeep(limit:codingPath:)`` with the reported limit
  ///   when containers nest deeper than the depth limit.
  mutating func write(_ node: EncodedNode) throws(JSONAPIError) {
    do {
      try write(node, level: 0)
    } catch {
      throw tooDeep(error)
    }
  }

  /// Writes `node` as a value in a container at `level - 1` (0: the whole text).
  package mutating func write(_ node: EncodedNode, level: Int) throws(TooDeep) {
    switch node {
    case .null, .nullRelated: bytes.append("null")
    case .bool(true): bytes.append("true")
    case .bool(false): bytes.append("false")
    case .number(let text): bytes.append(utf8: text)
    case .integer(let value): bytes.append(decimal: value)
    case .string(let text): writeString(text)
    case .array(let array): try writeArray(array, level: level)
    case .object(let object): try writeObject(object, level: level)
    }
  }

  private mutating func writeArray(_ array: EncodedArray, level: Int) throws(TooDeep) {
    try openArray(level: level)
    // By index: iterating would hold the array.
    for index in array.elements.indices {
      startElement(index, level: level)
      do {
        try write(array.elements[index], level: level + 1)
      } catch {
        throw error.adding(.index(index))
      }
    }
    closeArray(isEmpty: array.elements.isEmpty, level: level)
  }

  private mutating func writeObject(_ object: EncodedObject, level: Int) throws(TooDeep) {
    try openObject(level: level)
    if sortsKeys {
      let sorted = object.members.sorted { Self.keyPrecedes($0.key, $1.key) }
      for (count, member) in sorted.enumerated() {
        try writeMember(member.key, member.value, first: count == 0, level: level)
      }
    } else {
      // The common case walks the members in place: no array per object.
      var first = true
      for member in object.members {
        try writeMember(member.key, member.value, first: first, level: level)
        first = false
      }
    }
    closeObject(isEmpty: object.isEmpty, level: level)
  }

  /// A member `key: value` of an object at `level`.
  @inline(__always)
  mutating func writeMember(_ key: String, _ value: EncodedNode, first: Bool, level: Int)
    throws(TooDeep)
  {
    writeKey(key, first: first, level: level)
    do {
      try write(value, level: level + 1)
    } catch {
      throw error.adding(.member(key))
    }
  }

  // MARK: - Containers piece by piece

  /// Opens an object at `level`.
  @inline(__always)
  package mutating func openObject(level: Int) throws(TooDeep) {
    try checkDepth(level)
    bytes.append(UInt8(ascii: "{"))
  }

  /// A member's name and colon (after a comma unless `first`), on a new line when pretty-printing,
  /// in an object at `level`; its value follows at `level + 1`.
  @inline(__always)
  package mutating func writeKey(_ key: String, first: Bool, level: Int) {
    if !first { bytes.append(UInt8(ascii: ",")) }
    if prettyPrinted { newline(level: level + 1) }
    writeString(key)
    if prettyPrinted {
      bytes.append(" : ")
    } else {
      bytes.append(UInt8(ascii: ":"))
    }
  }

  /// Closes an object at `level`.
  @inline(__always)
  package mutating func closeObject(isEmpty: Bool, level: Int) {
    if prettyPrinted { isEmpty ? emptyContainerBody(level: level) : newline(level: level) }
    bytes.append(UInt8(ascii: "}"))
  }

  /// Opens an array at `level`.
  @inline(__always)
  package mutating func openArray(level: Int) throws(TooDeep) {
    try checkDepth(level)
    bytes.append(UInt8(ascii: "["))
  }

  /// Starts element `index` of an array at `level`; the element follows at `level + 1`.
  @inline(__always)
  package mutating func startElement(_ index: Int, level: Int) {
    if index > 0 { bytes.append(UInt8(ascii: ",")) }
    if prettyPrinted { newline(level: level + 1) }
  }

  /// Closes an array at `level`.
  @inline(__always)
  package mutating func closeArray(isEmpty: Bool, level: Int) {
    if prettyPrinted { isEmpty ? emptyContainerBody(level: level) : newline(level: level) }
    bytes.append(UInt8(ascii: "]"))
  }

  private func checkDepth(_ level: Int) throws(TooDeep) {
    guard level < depthLimit else { throw TooDeep() }
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
