import Foundation

/// Finds members of one object by model key: byte comparison for default keys, or a table of converted
/// names built once per object when a key strategy is set.
struct MemberLookup {
  let object: Int
  /// Converted name and value index of each member, only when a key strategy is set.
  private let converted: [(name: String, value: Int)]?

  init(
    object: Int, decoder: DecoderImpl, depth: Int, convertsKeys: Bool = true,
    skipsNonFields: Bool = false
  ) {
    self.object = object
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
    let end = tape[object].containerEnd
    var k = object + 1
    while k < end {
      if TapeStrings.equals(tape, tape[k], utf8) { return k + 1 }
      k = tape.next(after: k + 1)
    }
    return nil
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

/// The members of a resource object that decoding needs, found in one pass.
struct ResourceMembers {
  var id: Int?
  var type: Int?
  var lid: Int?
  var meta: Int?
  var links: Int?
  var attributes: MemberLookup?
  var relationships: MemberLookup?

  init(object: Int, decoder: DecoderImpl, depth: Int, identifierOnly: Bool = false) throws {
    let tape = decoder.tape
    var attributesObject: Int?
    var relationshipsObject: Int?
    tape.forEachMember(ofObjectAt: object) { name in
      let entry = tape[name]
      guard !entry.hasFlag else { return }
      let kind = ResourceMembers.memberKind(tape.rawBytes(entry))
      // An identifier has no fields of its own: whatever a broken document adds is not read.
      if identifierOnly, kind == .links || kind == .attributes || kind == .relationships { return }
      switch kind {
      case .id: id = name + 1
      case .type: type = name + 1
      case .lid: lid = name + 1
      case .meta: meta = name + 1
      case .links: links = name + 1
      case .attributes: attributesObject = name + 1
      case .relationships: relationshipsObject = name + 1
      case .other: break
      }
    }
    try Self.requireObject(attributesObject, "attributes", tape)
    try Self.requireObject(relationshipsObject, "relationships", tape)
    if let attributesObject {
      attributes = MemberLookup(
        object: attributesObject, decoder: decoder, depth: depth, skipsNonFields: true)
    }
    if let relationshipsObject {
      relationships = MemberLookup(
        object: relationshipsObject, decoder: decoder, depth: depth, skipsNonFields: true)
    }
  }

  private static func requireObject(_ member: Int?, _ label: String, _ tape: Tape) throws {
    guard let member, tape[member].kind != .object else { return }
    throw JSONAPIError.invalidDocument(
      reason: "\(label) must be an object, found \(tape[member].kind.phrase) (R21, R24)",
      pointer: JSONPointer.pointer(to: member, in: tape))
  }

  /// What a member name of a resource object is; by length first, then `memcmp`.
  enum MemberKind { case id, type, lid, meta, links, attributes, relationships, other }

  @inline(__always) static func memberKind(_ raw: UnsafeBufferPointer<UInt8>) -> MemberKind {
    switch raw.count {
    case 2: return raw.equals("id") ? .id : .other
    case 3: return raw.equals("lid") ? .lid : .other
    case 4:
      if raw.equals("type") { return .type }
      return raw.equals("meta") ? .meta : .other
    case 5: return raw.equals("links") ? .links : .other
    case 10: return raw.equals("attributes") ? .attributes : .other
    case 13: return raw.equals("relationships") ? .relationships : .other
    default: return .other
    }
  }
}
