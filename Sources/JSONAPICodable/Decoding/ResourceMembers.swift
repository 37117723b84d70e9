import Foundation

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
