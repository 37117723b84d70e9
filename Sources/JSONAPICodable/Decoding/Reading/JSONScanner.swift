import Foundation

/// Reads UTF-8 JSON (RFC 8259) once, front to back, into a ``Tape``.
///
/// Everything that makes the text invalid is found here, with its location: syntax, escapes, lone
/// surrogates, invalid UTF-8, control characters, number grammar, duplicate member names, nesting depth.
/// Nothing is converted: strings and numbers become Swift values only when a model asks for them.
/// The scan is iterative (an explicit stack of open containers), so no input can exhaust the call stack.
package struct JSONScanner {
  private var tape: TapeBuilder
  private let p: UnsafePointer<UInt8>
  private let n: Int
  private let maxDepth: Int
  private var i = 0

  /// The largest input the tape can index: 2 GiB - 1 bytes. Every tape entry spends at least one
  /// byte of input, so entry indices stay below the byte count and fit the `Int32` the resource
  /// table and resource ordinals store them in; byte offsets and lengths fit the entries' `UInt32`.
  static let maxByteCount = Int(Int32.max)

  package static func scan(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) throws -> Tape {
    guard let raw = bytes.baseAddress, bytes.count > 0 else {
      throw JSONAPIError.invalidJSON(
        reason: "the input is empty, expected a JSON object",
        location: JSONAPISourceLocation(offset: 0, line: 1, column: 1))
    }
    guard bytes.count <= maxByteCount else {
      throw JSONAPIError.documentTooLarge(byteCount: bytes.count, limit: maxByteCount)
    }
    let builder = TapeBuilder(base: raw.assumingMemoryBound(to: UInt8.self), byteCount: bytes.count)
    var scanner = JSONScanner(tape: builder, maxDepth: maxDepth)
    do {
      try scanner.run()
    } catch {
      scanner.tape.discard()
      throw error
    }
    return scanner.tape.finish()
  }

  private init(tape: TapeBuilder, maxDepth: Int) {
    self.tape = tape
    p = tape.base
    n = tape.byteCount
    self.maxDepth = max(1, maxDepth)
  }

  private struct OpenContainer {
    var index: Int
    var count: UInt32
    var isObject: Bool
    /// The bits (``nameBit(of:)``) of the object's member names so far.
    var nameBits: UInt64 = 0
    /// The bits two or more of those names share: only names with one of these can be repeated, and
    /// an object without any is never searched.
    var sharedNameBits: UInt64 = 0
  }

  // MARK: - Structure

  private mutating func run() throws {
    try skipByteOrderMark()
    var stack: [OpenContainer] = []
    stack.reserveCapacity(32)
    value: while true {
      skipWhitespace()
      guard i < n else { throw failure(at: i, "unexpected end of input, expected a value") }
      switch p[i] {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        let isObject = p[i] == UInt8(ascii: "{")
        guard stack.count < maxDepth else {
          throw JSONAPIError.nestingTooDeep(limit: maxDepth, location: tape.location(ofByte: i))
        }
        let index = tape.count
        tape.append(
          TapeEntry(
            tag: UInt32((isObject ? ValueKind.object : ValueKind.array).rawValue),
            offset: UInt32(truncatingIfNeeded: i), extent: 0))
        i += 1
        skipWhitespace()
        if i < n, p[i] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
          i += 1
          tape.close(index, elementCount: 0)
        } else {
          var container = OpenContainer(index: index, count: 0, isObject: isObject)
          if isObject { try scanMemberName(into: &container) }
          stack.append(container)
          continue value
        }
      case UInt8(ascii: "\""):
        try scanString()
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        try scanNumber()
      case UInt8(ascii: "t"):
        try scanLiteral("true", kind: .true)
      case UInt8(ascii: "f"):
        try scanLiteral("false", kind: .false)
      case UInt8(ascii: "n"):
        try scanLiteral("null", kind: .null)
      default:
        throw unexpectedValueStart()
      }

      // A value is complete: continue its container, close containers, or finish.
      while var top = stack.last {
        skipWhitespace()
        guard i < n else {
          throw failure(
            at: i, "unexpected end of input, expected ',' or '\(top.isObject ? "}" : "]")'")
        }
        top.count += 1
        let byte = p[i]
        if byte == UInt8(ascii: ",") {
          i += 1
          if top.isObject {
            skipWhitespace()
            try scanMemberName(into: &top)
          }
          stack[stack.count - 1] = top
          continue value
        }
        guard byte == (top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
          throw failure(
            at: i,
            "expected ',' or '\(top.isObject ? "}" : "]")' but found \(describe(i))")
        }
        i += 1
        tape.close(top.index, elementCount: top.count)
        if top.sharedNameBits != 0 {
          try checkDuplicateMemberNames(objectAt: top.index, suspects: top.sharedNameBits)
        }
        stack.removeLast()
      }
      break value
    }
    skipWhitespace()
    guard i == n else {
      throw failure(at: i, "unexpected \(describe(i)) after the end of the top-level value")
    }
  }

  private mutating func skipByteOrderMark() throws {
    if n >= 3, p[0] == 0xEF, p[1] == 0xBB, p[2] == 0xBF {
      i = 3  // RFC 8259 §8.1 lets parsers ignore a UTF-8 byte order mark.
    } else if n >= 2, (p[0] == 0xFE && p[1] == 0xFF) || (p[0] == 0xFF && p[1] == 0xFE) {
      throw failure(at: 0, "UTF-16 byte order mark: JSON:API documents must be UTF-8")
    } else if n >= 4, p[0] == 0, p[1] == 0, p[2] == 0xFE, p[3] == 0xFF {
      throw failure(at: 0, "UTF-32 byte order mark: JSON:API documents must be UTF-8")
    }
  }

  @inline(__always) private mutating func skipWhitespace() {
    while i < n {
      switch p[i] {
      case 0x20, 0x0A, 0x0D, 0x09: i += 1
      default: return
      }
    }
  }

  /// Scans a member name of `object` and notes it in the object's name bits.
  private mutating func scanMemberName(into object: inout OpenContainer) throws {
    guard i < n, p[i] == UInt8(ascii: "\"") else {
      if i < n, p[i] == UInt8(ascii: "}") {
        throw failure(at: i, "expected a member name but found '}' (trailing comma?)")
      }
      throw failure(at: i, "expected a member name in double quotes but found \(describe(i))")
    }
    let bit = nameBit(of: try scanString())
    object.sharedNameBits |= object.nameBits & bit
    object.nameBits |= bit
    skipWhitespace()
    guard i < n, p[i] == UInt8(ascii: ":") else {
      throw failure(at: i, "expected ':' after the member name but found \(describe(i))")
    }
    i += 1
  }

  private func unexpectedValueStart() -> JSONAPIError {
    switch p[i] {
    case UInt8(ascii: "]"), UInt8(ascii: "}"):
      return failure(at: i, "expected a value but found \(describe(i)) (trailing comma?)")
    case UInt8(ascii: "N"), UInt8(ascii: "I"):
      return failure(at: i, "NaN and Infinity are not JSON numbers")
    case UInt8(ascii: "+"):
      return failure(at: i, "a number may not start with '+'")
    case UInt8(ascii: "."):
      return failure(at: i, "a number must start with a digit, not '.'")
    case UInt8(ascii: "'"):
      return failure(at: i, "strings must be in double quotes, not single quotes")
    default:
      return failure(at: i, "expected a value but found \(describe(i))")
    }
  }

  // MARK: - Scalars

  private mutating func scanLiteral(_ word: StaticString, kind: ValueKind) throws {
    let length = word.utf8CodeUnitCount
    guard i + length <= n, memcmp(p + i, word.utf8Start, length) == 0 else {
      throw failure(at: i, "expected '\(word)' but found \(describe(i))")
    }
    append(kind, flagged: false, offset: i, length: length)
    i += length
  }

  private mutating func scanNumber() throws {
    let start = i
    var j = i
    var isInteger = true
    if p[j] == UInt8(ascii: "-") {
      j += 1
      guard j < n, isDigit(p[j]) else {
        if j < n, p[j] == UInt8(ascii: "I") {
          throw failure(at: start, "NaN and Infinity are not JSON numbers")
        }
        throw failure(at: j, "expected a digit after '-' but found \(describe(j))")
      }
    }
    if p[j] == UInt8(ascii: "0") {
      j += 1
      if j < n, isDigit(p[j]) { throw failure(at: start, "leading zeros are not allowed") }
    } else {
      while j < n, isDigit(p[j]) { j += 1 }
    }
    if j < n, p[j] == UInt8(ascii: ".") {
      isInteger = false
      j += 1
      guard j < n, isDigit(p[j]) else {
        throw failure(at: j, "expected a digit after the decimal point but found \(describe(j))")
      }
      while j < n, isDigit(p[j]) { j += 1 }
    }
    if j < n, p[j] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      j += 1
      if j < n, p[j] == UInt8(ascii: "+") || p[j] == UInt8(ascii: "-") { j += 1 }
      guard j < n, isDigit(p[j]) else {
        throw failure(at: j, "expected a digit in the exponent but found \(describe(j))")
      }
      while j < n, isDigit(p[j]) { j += 1 }
    }
    append(.number, flagged: !isInteger, offset: start, length: j - start)
    i = j
  }

  @inline(__always) private func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  /// Scans the string at `i` into the tape; returns its entry.
  @discardableResult
  @inline(__always) private mutating func scanString() throws -> TapeEntry {
    let start = i + 1
    var j = start
    var hasEscapes = false
    // Whether the decoded string has a non-ASCII scalar: lets `TapeStrings` mark the String ASCII.
    var isNonASCII = false
    while true {
      // Eight bytes at a time: skip straight to the first quote, backslash, control or non-ASCII byte.
      while j + 8 <= n {
        // Byte k of the input becomes bits 8k..8k+7 whatever the machine's byte order.
        let word = UInt64(littleEndian: UnsafeRawPointer(p + j).loadUnaligned(as: UInt64.self))
        let mask = Self.attentionMask(word)
        if mask == 0 {
          j += 8
        } else {
          // Borrows only run towards higher bytes, so the lowest flagged byte is exact.
          j += mask.trailingZeroBitCount >> 3
          break
        }
      }
      guard j < n else { throw failure(at: start - 1, "unterminated string") }
      let byte = p[j]
      if byte == UInt8(ascii: "\"") { break }
      if byte == UInt8(ascii: "\\") {
        hasEscapes = true
        j = try scanEscape(at: j, nonASCII: &isNonASCII)
      } else if byte < 0x20 {
        throw failure(
          at: j, "control character \(codePointName(byte)) must be escaped inside a string")
      } else if byte >= 0x80 {
        isNonASCII = true
        let length = Self.validSequenceLength(p, n, at: j)
        j = length > 0 ? j + length : try invalidUTF8(at: j)
      } else {
        j += 1
      }
    }
    let entry = TapeEntry(
      tag: UInt32(ValueKind.string.rawValue) | (hasEscapes ? TapeEntry.flag : 0)
        | (isNonASCII ? TapeEntry.nonASCII : 0),
      offset: UInt32(truncatingIfNeeded: start), extent: UInt32(truncatingIfNeeded: j - start))
    tape.append(entry)
    i = j + 1
    return entry
  }

  /// The high bit of each byte of `word` that is a quote, a backslash, a control character or
  /// non-ASCII; exact for the lowest such byte.
  @inline(__always) private static func attentionMask(_ word: UInt64) -> UInt64 {
    ByteWord.bytes(word, equalTo: UInt8(ascii: "\""))
      | ByteWord.bytes(word, equalTo: UInt8(ascii: "\\"))
      | ByteWord.controlBytes(word) | ByteWord.nonASCIIBytes(word)
  }

  private func scanEscape(at j: Int, nonASCII: inout Bool) throws -> Int {
    guard j + 1 < n else { throw failure(at: j, "unterminated escape sequence") }
    switch p[j + 1] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      return j + 2
    case UInt8(ascii: "u"):
      let unit = try hexQuad(at: j + 2)
      if unit >= 0x80 { nonASCII = true }
      switch unit {
      case 0xD800...0xDBFF:
        guard j + 7 < n, p[j + 6] == UInt8(ascii: "\\"), p[j + 7] == UInt8(ascii: "u"),
          let low = try? hexQuad(at: j + 8), (0xDC00...0xDFFF).contains(low)
        else {
          throw failure(at: j, "lone surrogate \\u\(hex(unit)): a high surrogate needs a low one")
        }
        return j + 12
      case 0xDC00...0xDFFF:
        throw failure(at: j, "lone surrogate \\u\(hex(unit)): a low surrogate without a high one")
      default:
        return j + 6
      }
    default:
      throw failure(at: j, "invalid escape sequence '\\\(describeRaw(j + 1))'")
    }
  }

  private func hexQuad(at j: Int) throws -> UInt16 {
    switch Hexadecimal.value(p, count: n, at: j) {
    case .success(let value): return value
    case .failure(let invalid) where invalid.offset >= n:
      throw failure(at: j, "unterminated \\u escape")
    case .failure(let invalid):
      throw failure(
        at: invalid.offset,
        "invalid hexadecimal digit \(describe(invalid.offset)) in a \\u escape")
    }
  }

  /// The length of the valid multi-byte UTF-8 sequence at `j`, or 0 when it is invalid: the one
  /// home of the scanner's UTF-8 rules (RFC 3629: no overlongs, no surrogates, at most U+10FFFF),
  /// inlined without a call or a throw on the path of text with many non-ASCII characters
  /// (``invalidUTF8(at:)`` says what is wrong).
  @inline(__always) private static func validSequenceLength(
    _ p: UnsafePointer<UInt8>, _ n: Int, at j: Int
  ) -> Int {
    let lead = p[j]
    @inline(__always) func isContinuation(_ k: Int) -> Bool { p[k] & 0xC0 == 0x80 }
    if lead < 0xE0 {
      return lead >= 0xC2 && j + 1 < n && isContinuation(j + 1) ? 2 : 0
    }
    if lead < 0xF0 {
      guard j + 2 < n, isContinuation(j + 1), isContinuation(j + 2) else { return 0 }
      let second = p[j + 1]
      // E0 would be an overlong below A0; ED an encoded surrogate from A0.
      if lead == 0xE0 && second < 0xA0 || lead == 0xED && second >= 0xA0 { return 0 }
      return 3
    }
    guard lead <= 0xF4, j + 3 < n, isContinuation(j + 1), isContinuation(j + 2),
      isContinuation(j + 3)
    else { return 0 }
    let second = p[j + 1]
    // F0 would be an overlong below 90; F4 beyond U+10FFFF from 90.
    if lead == 0xF0 && second < 0x90 || lead == 0xF4 && second >= 0x90 { return 0 }
    return 4
  }

  /// The error for the bytes at `j`, which ``validSequenceLength(_:_:at:)`` found to be no valid
  /// UTF-8: a byte that cannot lead a sequence, or a sequence that breaks off, is overlong, encodes
  /// a surrogate or goes past U+10FFFF. Always throws; shaped as an expression for its call site.
  private func invalidUTF8(at j: Int) throws -> Int {
    let lead = p[j]
    guard (0xC2...0xF4).contains(lead) else {
      throw failure(at: j, "invalid UTF-8 byte 0x\(hex(UInt16(lead)))")
    }
    throw failure(at: j, "invalid UTF-8 sequence starting with byte 0x\(hex(UInt16(lead)))")
  }

  @inline(__always) private mutating func append(
    _ kind: ValueKind, flagged: Bool, offset: Int, length: Int
  ) {
    tape.append(
      TapeEntry(
        tag: UInt32(kind.rawValue) | (flagged ? TapeEntry.flag : 0),
        offset: UInt32(truncatingIfNeeded: offset), extent: UInt32(truncatingIfNeeded: length)))
  }

  // MARK: - Duplicate member names

  // An object that repeats a member name is rejected (RFC 8259 §4 leaves such objects' meaning
  // open); names are compared decoded and exactly, case included (SPEC-DIGEST R44: member names are
  // case-sensitive). The scan proves most objects free of repeats as it goes, by their name bits,
  // and searches the others only among the names whose bits collide.

  /// The bit of a member name in ``OpenContainer/nameBits``, chosen by its raw length and first
  /// byte: equal raw names share a bit, and names with different bits differ. A name with escapes
  /// may equal a name of any raw length, so it takes every bit: it collides with every other name.
  /// The multiplier gives distinct bits to the member names JSON:API defines for documents,
  /// resources, relationships, links and error objects (only `status` and `source` share one).
  @inline(__always) private func nameBit(of name: TapeEntry) -> UInt64 {
    if name.hasFlag { return ~0 }
    // An empty name's first byte is its closing quote: still in the input.
    let first = UInt64(p[Int(name.offset)])
    return 1 << ((first &+ UInt64(name.extent) &* 19) & 63)
  }

  /// Throws for the first repeated member name of the object at `objectIndex`, looking only at the
  /// names whose bit is in `suspects` (the others are each the only name with their bit).
  private func checkDuplicateMemberNames(objectAt objectIndex: Int, suspects: UInt64) throws {
    let end = tape[objectIndex].containerEnd
    // Typical JSON:API objects are small, and few names of a larger one share a bit: compare each
    // suspect with the earlier ones, kept on the stack.
    let isChecked = try withUnsafeTemporaryAllocation(of: Int.self, capacity: 16) { names in
      var count = 0
      var k = objectIndex + 1
      while k < end {
        if nameBit(of: tape[k]) & suspects != 0 {
          guard count < names.count else { return false }
          names[count] = k
          for earlier in 0..<count where TapeStrings.equal(tape, k, names[earlier]) {
            throw duplicate(k)
          }
          count += 1
        }
        k = tape.next(after: k + 1)
      }
      return true
    }
    if isChecked { return }
    // Many suspects: sort them by hash, compare neighbours with equal hashes.
    var hashed: [(hash: Int, index: Int)] = []
    var k = objectIndex + 1
    while k < end {
      if nameBit(of: tape[k]) & suspects != 0 { hashed.append((TapeStrings.hash(tape, k), k)) }
      k = tape.next(after: k + 1)
    }
    hashed.sort { $0.hash < $1.hash || ($0.hash == $1.hash && $0.index < $1.index) }
    var run = 0
    for b in hashed.indices.dropFirst() {
      if hashed[b].hash != hashed[run].hash {
        run = b
        continue
      }
      for a in run..<b where TapeStrings.equal(tape, hashed[a].index, hashed[b].index) {
        throw duplicate(max(hashed[a].index, hashed[b].index))
      }
    }
  }

  private func duplicate(_ nameIndex: Int) -> JSONAPIError {
    let entry = tape[nameIndex]
    return .duplicateKey(
      TapeStrings.string(tape, entry), location: tape.location(ofByte: Int(entry.offset) - 1))
  }

  // MARK: - Messages

  private func failure(at offset: Int, _ reason: String) -> JSONAPIError {
    .invalidJSON(reason: reason, location: tape.location(ofByte: offset))
  }

  private func describe(_ offset: Int) -> String {
    guard offset < n else { return "the end of input" }
    return "'\(describeRaw(offset))'"
  }

  private func describeRaw(_ offset: Int) -> String {
    let byte = p[offset]
    if byte >= 0x20 && byte < 0x7F { return String(UnicodeScalar(byte)) }
    return "byte 0x\(hex(UInt16(byte)))"
  }

  private func codePointName(_ byte: UInt8) -> String { "U+00\(hex(UInt16(byte)).suffix(2))" }

  private func hex(_ value: UInt16) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, (value > 0xFF ? 4 : 2) - digits.count)) + digits
  }
}
