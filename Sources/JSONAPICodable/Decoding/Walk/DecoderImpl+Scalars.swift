import Foundation

/// Reading Swift scalars from tape entries. Numbers and strings are converted here, on demand.
///
/// `component` (the key or index being read) is an autoclosure: making `.key(key)` boxes the
/// key into an existential and destroying it goes through its value witnesses, work on every
/// value read that only an error needs.
extension DecoderImpl {
  func scalar(
    _ type: Bool.Type, at node: DecodingNode, depth: Int,
    component: @autoclosure () -> PathComponent? = nil
  )
    throws -> Bool
  {
    switch tape[node.index].kind {
    case .true where node.role == .json: return true
    case .false where node.role == .json: return false
    default: throw mismatchOrNull(type, at: node, depth: depth, component: component())
    }
  }

  func scalar(
    _ type: String.Type, at node: DecodingNode, depth: Int,
    component: @autoclosure () -> PathComponent? = nil
  )
    throws -> String
  {
    let entry = tape[node.index]
    guard entry.kind == .string, node.role == .json || node.role == .identityString else {
      if node.role == .identityString, entry.kind == .number {
        return try integerID(at: node)
      }
      throw mismatchOrNull(type, at: node, depth: depth, component: component())
    }
    return TapeStrings.string(tape, entry)
  }

  /// The digits of an integer `id` (`"id": 2` reads as `"2"`; see ``ResourceIdentity``), from the
  /// number's source text. Any other number, or a number in `type` or `lid`, is an error. Off the
  /// path of string ids: they never come here.
  @inline(never)
  func integerID(at node: DecodingNode) throws -> String {
    let entry = tape[node.index]
    // An identity member's value follows its name in the tape.
    let name = node.index > 0 ? tape.resourceMemberName(at: node.index - 1) : nil
    guard name == .id, ResourceIdentity.isIDText(entry) else {
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite(
          ResourceIdentity.message(name?.text ?? "id", tape, node.index),
          SpecSection.identification),
        pointer: JSONPointer.pointer(to: node.index, in: tape))
    }
    return TapeStrings.string(tape, entry)
  }

  /// Whether `text` is an integer as `String(_:)` writes it: `0`, or an optional `-` and digits
  /// without a leading zero.
  static func isCanonicalInteger(_ text: String.UTF8View) -> Bool {
    var digits = text[...]
    if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
    guard let first = digits.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
      return false
    }
    if first == UInt8(ascii: "0") { return text.count == 1 }
    return digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  func scalar<I: FixedWidthInteger>(
    _ type: I.Type, at node: DecodingNode, depth: Int,
    component: @autoclosure () -> PathComponent? = nil
  ) throws -> I {
    let entry = tape[node.index]
    if node.role == .identityString {
      // `"id": "42"` decodes into Int: JSON:API ids are strings, models often want numbers. Only
      // the canonical spelling converts: "05" or "+5" would silently become the same number as
      // "5", merging two resources and changing the id sent back to the server. An integer id
      // (`"id": 42`) is its digits, as a string id would be.
      guard entry.kind == .string || entry.kind == .number else {
        throw mismatchOrNull(type, at: node, depth: depth, component: component())
      }
      let text = entry.kind == .string ? TapeStrings.string(tape, entry) : try integerID(at: node)
      guard Self.isCanonicalInteger(text.utf8), let value = I(text) else {
        throw dataCorrupted(
          "The identifier \"\(text)\" is not a valid \(I.self) (decimal digits, no sign "
            + "but \"-\", no leading zeros); decode it as a String to keep it as sent",
          depth: depth, component: component(), at: node.index)
      }
      return value
    }
    guard entry.kind == .number, node.role == .json else {
      throw mismatchOrNull(type, at: node, depth: depth, component: component())
    }
    let raw = tape.rawBytes(entry)
    if !entry.hasFlag {
      if I.isSigned {
        if let wide = NumberParsing.int64(raw), let value = I(exactly: wide) { return value }
      } else if let wide = NumberParsing.uint64(raw), let value = I(exactly: wide) {
        return value
      }
    } else {
      let double = NumberParsing.double(raw)
      if double.isFinite, let value = I(exactly: double) { return value }
    }
    throw dataCorrupted(
      "Parsed JSON number <\(String(decoding: raw, as: UTF8.self))> does not fit in \(I.self)",
      depth: depth, component: component(), at: node.index)
  }

  func scalar(
    _ type: Double.Type, at node: DecodingNode, depth: Int,
    component: @autoclosure () -> PathComponent? = nil
  )
    throws -> Double
  {
    let entry = tape[node.index]
    switch (entry.kind, node.role) {
    case (.number, .json):
      let raw = tape.rawBytes(entry)
      let value = NumberParsing.double(raw)
      guard value.isFinite else {
        throw dataCorrupted(
          "Parsed JSON number <\(String(decoding: raw, as: UTF8.self))> does not fit in \(type)",
          depth: depth, component: component(), at: node.index)
      }
      return value
    case (.string, .json):
      if case .convertFromString(let positive, let negative, let nan) =
        options.nonConformingFloatDecodingStrategy
      {
        let text = TapeStrings.string(tape, entry)
        if text == positive { return .infinity }
        if text == negative { return -.infinity }
        if text == nan { return .nan }
      }
    case (.string, .identityString):
      if let value = Double(TapeStrings.string(tape, entry)) { return value }
    case (.number, .identityString):
      if let value = Double(try integerID(at: node)) { return value }
    default: break
    }
    throw mismatchOrNull(type, at: node, depth: depth, component: component())
  }

  func scalar(
    _ type: Float.Type, at node: DecodingNode, depth: Int,
    component: @autoclosure () -> PathComponent? = nil
  )
    throws -> Float
  {
    let double = try scalar(Double.self, at: node, depth: depth, component: component())
    let value = Float(double)
    guard value.isFinite || !double.isFinite else {
      throw dataCorrupted(
        "Parsed JSON number <\(double)> does not fit in Float", depth: depth,
        component: component(), at: node.index)
    }
    return value
  }
}
