import Foundation

/// Finds members of one object by model key: byte comparison for default keys, or a table of converted
/// names built once per object when a key strategy is set.
struct MemberLookup {
  /// The object's tape index, as `Int32` to keep containers small (see ``ResourceMembers``).
  private let objectIndex: Int32
  /// Converted name and value index of each member, only when a key strategy is set.
  private let converted: [(name: String, value: Int)]?

  var object: Int { Int(objectIndex) }
  /// Whether member names go through the key decoding strategy (set, and not a structural object).
  var convertsKeys: Bool { converted != nil }

  init(
    object: Int, decoder: DecoderImpl, depth: Int, convertsKeys: Bool = true,
    skipsNonFields: Bool = false
  ) {
    objectIndex = Int32(truncatingIfNeeded: object)
    guard convertsKeys, !decoder.keys.usesDefaultKeys else {
      converted = nil
      return
    }
    let tape = decoder.tape
    var names: [(name: String, value: Int)] = []
    names.reserveCapacity(tape[object].elementCount)
    tape.forEachMember(ofObjectAt: object) { name in
      let raw = TapeStrings.string(tape, tape[name])
      if skipsNonFields && MemberLookup.isNonField(raw) { return }
      names.append(
        (decoder.keys.convert(raw, codingPath: decoder.codingPath(depth: depth)), name + 1))
    }
    converted = names
  }

  /// The tape index of the value for `key`, if the object has it.
  @inline(__always) func value(for key: String, in tape: Tape) -> Int? {
    if let converted {
      return converted.first(where: { $0.name == key })?.value
    }
    var key = key
    return key.withUTF8 { value(forUTF8: $0, in: tape) }
  }

  /// The same, for a key already in UTF-8 (default keys only: converted names are compared as strings).
  @inline(__always) func value(for key: String, utf8: UnsafeBufferPointer<UInt8>, in tape: Tape)
    -> Int?
  {
    if let converted {
      return converted.first(where: { $0.name == key })?.value
    }
    return value(forUTF8: utf8, in: tape)
  }

  @inline(__always) private func value(forUTF8 utf8: UnsafeBufferPointer<UInt8>, in tape: Tape)
    -> Int?
  {
    tape.memberValue(ofObjectAt: object, utf8: utf8)
  }

  /// The model-side names of all members, in document order.
  func names(in tape: Tape, skipsNonFields: Bool) -> [String] {
    if let converted { return converted.map(\.name) }
    var result: [String] = []
    tape.forEachMember(ofObjectAt: object) { name in
      let raw = TapeStrings.string(tape, tape[name])
      if skipsNonFields && MemberLookup.isNonField(raw) { return }
      result.append(raw)
    }
    return result
  }

  /// @-members (R50) and extension members `ns:name` (R51) are never attributes or relationships (R121).
  static func isNonField(_ name: String) -> Bool {
    name.hasPrefix("@") || name.contains(":")
  }
}
