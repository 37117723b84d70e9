import Foundation
import Testing

@testable import JSONAPICodable

/// The byte reader on its own (RFC 8259): what it accepts, what it rejects, and where it says so.
@Suite struct JSONScannerTests {
  /// Scans a copy of `text` that outlives the tape (test documents are small; the copy is never freed).
  func scan(_ text: String, maxDepth: Int = 512) throws -> Tape {
    let bytes = UnsafeMutableRawBufferPointer.allocate(
      byteCount: max(1, text.utf8.count), alignment: 1)
    bytes.copyBytes(from: text.utf8)
    return try JSONScanner.scan(
      UnsafeRawBufferPointer(rebasing: bytes[0..<text.utf8.count]), maxDepth: maxDepth)
  }

  func failure(_ text: String) -> (reason: String, location: JSONAPISourceLocation)? {
    guard
      case .invalidJSON(let reason, let location)? = thrownError({ try scan(text) })
        as? JSONAPIError
    else { return nil }
    return (reason, location)
  }

  @Test func tapeRecordsKindsCountsAndSkips() throws {
    let tape = try scan(#"{"a": [1, "x", true, false, null, {}], "b": -2.5e3}"#)
    #expect(tape[0].kind == .object)
    #expect(tape[0].elementCount == 2)
    #expect(tape[0].containerEnd == tape.count)
    #expect(tape[2].kind == .array)
    #expect(tape[2].elementCount == 6)
    let afterArray = tape[2].containerEnd
    #expect(TapeStrings.string(tape, tape[afterArray]) == "b")
    #expect(tape[afterArray + 1].kind == .number && tape[afterArray + 1].hasFlag)
    #expect(tape[3].kind == .number && !tape[3].hasFlag)
  }

  @Test("a large tape, grown several times past its first guess, keeps every entry")
  func largeTapeGrows() throws {
    // 1.5 M values of two bytes each: the tape's first guess (a value per 8 bytes: 375 000
    // entries, 6 MB) grows three times, each time moving every entry to new memory.
    let count = 1_500_000
    var bytes: [UInt8] = [UInt8(ascii: "[")]
    bytes.reserveCapacity(count * 2 + 1)
    for value in 0..<count {
      if value > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
    bytes.append(UInt8(ascii: "]"))
    try bytes.withUnsafeBytes { raw in
      // The tape reads the bytes it was scanned from: it is used only inside this closure.
      let tape = try JSONScanner.scan(raw, maxDepth: 512)
      #expect(tape.count == count + 1)
      #expect(tape[0].elementCount == count)
      #expect(tape[0].containerEnd == count + 1)
      for index in [1, 2, 1_000, 375_001, 750_001, count] {
        #expect(tape[index].kind == .number)
        #expect(tape.rawBytes(tape[index]).first == UInt8(ascii: "0") + UInt8((index - 1) % 10))
      }
    }
  }

  @Test func stringsDecodeEscapesAndUnicode() throws {
    let text =
      #"["plain", "tab\tquote\"slash\/back\\", "\u00e9\u20ac\ud83d\ude00", "é€😀", "\u0000"]"#
    let tape = try scan(text)
    var strings: [String] = []
    var element = 1
    while element < tape[0].containerEnd {
      strings.append(TapeStrings.string(tape, tape[element]))
      element = tape.next(after: element)
    }
    #expect(strings == ["plain", "tab\tquote\"slash/back\\", "é€😀", "é€😀", "\u{0}"])
  }

  @Test(arguments: [
    "0", "-0", "1.5", "-1.25e-10", "1E+2", "123456789012345678", "0.1", "2.2250738585072014e-308",
    "1.7976931348623157e308", "5e-324", "0.30000000000000004", "123.456e7",
  ])
  func numbersParseLikeTheStandardLibrary(literal: String) throws {
    let tape = try scan(literal)
    #expect(NumberParsing.double(tape.rawBytes(tape[0])) == Double(literal))
  }

  @Test func integersKeepFullPrecision() throws {
    let tape = try scan(
      "[9223372036854775807, -9223372036854775808, 9223372036854775808, 18446744073709551615]")
    #expect(NumberParsing.int64(tape.rawBytes(tape[1])) == .max)
    #expect(NumberParsing.int64(tape.rawBytes(tape[2])) == .min)
    #expect(NumberParsing.int64(tape.rawBytes(tape[3])) == nil)
    #expect(NumberParsing.uint64(tape.rawBytes(tape[4])) == .max)
  }

  @Test(arguments: [
    ("", "empty"), ("{", "end of input"), (#"{"a" 1}"#, "expected ':'"),
    (#"{"a": 1,}"#, "trailing comma"),
    ("[1,]", "trailing comma"), ("[1 2]", "expected ','"), ("01", "leading zeros"), ("+1", "'+'"),
    (".5", "digit"), ("1.", "decimal point"), ("1e", "exponent"), ("-", "digit after '-'"),
    ("NaN", "NaN"), ("-Infinity", "NaN and Infinity"), ("'a'", "single quotes"),
    ("{a: 1}", "double quotes"),
    (#""abc"#, "unterminated"), (#""\x""#, "invalid escape"), (#""\u12G4""#, "hexadecimal"),
    (#""\ud800""#, "lone surrogate"), (#""\udc00x""#, "lone surrogate"), ("tru", "'true'"),
    ("{} x", "after the end"), ("nul", "'null'"), ("\"a\u{1}b\"", "control character U+0001"),
  ])
  func malformedInputIsRejectedWithAReason(text: String, needle: String) {
    guard let failure = failure(text) else {
      Issue.record("\(text) was accepted")
      return
    }
    #expect(failure.reason.contains(needle), "\(text): \(failure.reason)")
  }

  @Test func locationsAreLineAndColumnOfTheOffendingByte() {
    let failure = failure("{\n  \"a\": 1,\n  \"b\": tru\n}")
    #expect(failure?.location == JSONAPISourceLocation(offset: 19, line: 3, column: 8))
  }

  @Test func invalidUTF8IsRejectedWhereItStarts() throws {
    for bytes: [UInt8] in [
      [0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
      [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22],
    ] {
      let error = thrownError {
        try bytes.withUnsafeBytes { try JSONScanner.scan($0, maxDepth: 10) }
      }
      guard case .invalidJSON(let reason, let location)? = error as? JSONAPIError else {
        Issue.record("\(bytes) was accepted")
        continue
      }
      #expect(reason.contains("UTF-8"), "\(bytes)")
      #expect(location.offset == 1)
    }
  }

  /// The scanner's inline UTF-8 check agrees with the standard library's validation on every lead
  /// byte, the boundary values of the following bytes and every truncation, and the strings it
  /// makes without validating again equal the validated ones.
  @Test func utf8AcceptedExactlyWhereTheStandardLibraryAcceptsIt() throws {
    let boundaries: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
    for lead in UInt8(0x80)...0xFF {
      for second in boundaries {
        for third in boundaries.filter({ $0 != 0x00 }) {
          for fourth: UInt8 in [0x41, 0x80, 0xBF] {
            for count in 1...4 {
              let body = Array([lead, second, third, fourth].prefix(count))
              // Control characters are rejected for another reason; leave them out.
              guard !body.contains(where: { $0 < 0x20 }) else { continue }
              // Decoding repairs ill-formed UTF-8 with U+FFFD, so the bytes come back unchanged
              // exactly when they were valid (`String(validating:as:)` is macOS 15 / iOS 18).
              let repaired = String(decoding: body, as: UTF8.self)
              let expected = Array(repaired.utf8) == body ? repaired : nil
              let bytes = [0x22] + body + [0x22]
              let scanned = try? bytes.withUnsafeBytes { raw in
                let tape = try JSONScanner.scan(raw, maxDepth: 10)
                return TapeStrings.string(tape, tape[0])
              }
              #expect(scanned == expected, "\(body)")
            }
          }
        }
      }
    }
  }

  @Test func byteOrderMarks() throws {
    let utf8 = [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)
    #expect(throws: Never.self) {
      try utf8.withUnsafeBytes { try JSONScanner.scan($0, maxDepth: 10) }
    }
    for bom: [UInt8] in [[0xFE, 0xFF], [0xFF, 0xFE]] {
      let error = thrownError {
        try (bom + [0, 0x5B]).withUnsafeBytes { try JSONScanner.scan($0, maxDepth: 10) }
      }
      guard case .invalidJSON(let reason, _)? = error as? JSONAPIError else {
        Issue.record("UTF-16 was accepted")
        continue
      }
      #expect(reason.contains("UTF-16"))
    }
  }

  @Test func duplicateMemberNamesAreRejectedSmallAndLarge() throws {
    #expect(
      thrownError({ try scan(#"{"a": 1, "b": 2, "a": 3}"#) }) as? JSONAPIError
        == .duplicateKey("a", location: JSONAPISourceLocation(offset: 17, line: 1, column: 18)))
    // An escaped spelling of the same name is the same name.
    #expect(thrownError({ try scan(#"{"ab": 1, "\u0061b": 2}"#) }) is JSONAPIError)
    let many = (0..<40).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
    #expect(throws: Never.self) { try scan("{\(many)}") }
    guard
      case .duplicateKey("k7", _)? = thrownError({ try scan("{\(many), \"k7\": 0}") })
        as? JSONAPIError
    else {
      Issue.record("duplicate in a large object was accepted")
      return
    }
  }

  // The scanner searches an object only among names that share a bit of its name mask (raw length
  // and first byte; a name with escapes takes every bit): these pin that the shortcut misses nothing.

  func duplicateKey(in text: String) -> (name: String, offset: Int)? {
    guard
      case .duplicateKey(let name, let location)? = thrownError({ try scan(text) }) as? JSONAPIError
    else { return nil }
    return (name, location.offset)
  }

  @Test func duplicateNamesAreFoundWhenIdentical() {
    let found = duplicateKey(in: #"{"type": 1, "id": 2, "meta": 3, "id": 4}"#)
    #expect(found?.name == "id")
    #expect(found?.offset == 32)
    #expect(duplicateKey(in: #"{"": 1, "": 2}"#)?.name == "")
  }

  @Test func duplicateNamesAreFoundWhenOnlyEscapesMakeThemEqual() {
    // Different raw lengths, so different mask bits: only the escape flag sends these to the check.
    let found = duplicateKey(in: #"{"a": 1, "\u0061": 2}"#)
    #expect(found?.name == "a")
    #expect(found?.offset == 9)
    #expect(duplicateKey(in: #"{"\u0061": 1, "a": 2}"#)?.name == "a")
    #expect(duplicateKey(in: #"{"\u0061": 1, "b": 2, "c": 3, "a": 4}"#)?.name == "a")
    #expect(duplicateKey(in: #"{"x\/y": 1, "x/y": 2}"#)?.name == "x/y")
  }

  @Test func duplicateNamesAreFoundInLargeObjects() {
    // "member0" … share two bits: every name is a suspect, and past 16 suspects the check sorts
    // them by hash. Past 64 names every bit is taken.
    for size in [17, 40, 100] {
      let names = (0..<size).map { #""member\#($0)": \#($0)"# }.joined(separator: ", ")
      #expect(throws: Never.self) { try scan("{\(names)}") }
      #expect(duplicateKey(in: "{\(names), \"member3\": 0}")?.name == "member3")
      #expect(duplicateKey(in: "{\(names), \"\\u006dember5\": 0}")?.name == "member5")
    }
    // Varied names: a few share bits, and only those few are compared.
    let fields = """
      name code status category region currency note label quantity rank year score stock parent \
      small medium large unsigned price weight ratio latitude longitude discount active verified
      """.split(separator: " ").map { #""\#($0)": 0"# }.joined(separator: ", ")
    #expect(throws: Never.self) { try scan("{\(fields)}") }
    #expect(duplicateKey(in: "{\(fields), \"rank\": 1}")?.name == "rank")
    #expect(duplicateKey(in: "{\"price\": 1, \(fields)}")?.name == "price")
  }

  @Test func duplicateNamesAreFoundInNestedObjects() {
    #expect(duplicateKey(in: #"{"a": {"b": {"c": 1, "c": 2}}, "d": 3}"#)?.name == "c")
    // The outer object's names are checked after its inner object closed.
    #expect(duplicateKey(in: #"{"a": {"b": 1}, "b": {"a": 2}, "a": 3}"#)?.name == "a")
    // Names of the inner object do not count against the outer one.
    #expect(throws: Never.self) { try scan(#"{"a": {"a": {"a": 1}, "b": [{"a": 2}]}, "b": 3}"#) }
  }

  @Test func distinctNamesSharingAMaskBitAreNoDuplicates() throws {
    // Same raw length and first byte: same bit, so the exact check runs and must find nothing.
    let tape = try scan(#"{"ab": 1, "ac": 2, "ad": 3, "status": 4, "source": 5}"#)
    #expect(tape[0].elementCount == 5)
    #expect(throws: Never.self) { try scan(#"{"a": 1, "\u0062": 2, "\u0063": 3}"#) }
    #expect(duplicateKey(in: #"{"ab": 1, "ac": 2, "ab": 3}"#)?.name == "ab")
  }

  @Test func entriesAreTwelveBytes() {
    // The tape's size is most of the decoder's memory beyond the input (issue 4: < 4x the input).
    #expect(MemoryLayout<TapeEntry>.stride == 12)
  }

  @Test func depthLimitCountsContainers() throws {
    #expect(throws: Never.self) { try scan("[[[1]]]", maxDepth: 3) }
    #expect(
      thrownError({ try scan("[[[[1]]]]", maxDepth: 3) }) as? JSONAPIError
        == .nestingTooDeep(limit: 3, location: JSONAPISourceLocation(offset: 3, line: 1, column: 4))
    )
  }

  @Test func deepNestingNeverRecursesEvenAtTheLimit() throws {
    let depth = 100_000
    let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let tape = try scan(text, maxDepth: depth)
    #expect(tape.count == depth)
  }
}
