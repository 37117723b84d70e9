import Foundation

/// The members of a resource object that decoding needs, found in one pass.
struct ResourceMembers {
  /// The resource object itself.
  let object: Int
  var id: Int?
  var type: Int?
  var lid: Int?
  var meta: Int?
  var links: Int?
  var attributes: MemberLookup?
  var relationships: MemberLookup?

  init(object: Int, decoder: DecoderImpl, depth: Int, identifierOnly: Bool = false) throws {
    self.object = object
    let tape = decoder.tape
    var attributesObject: Int?
    var relationshipsObject: Int?
    tape.forEachMember(ofObjectAt: object) { name in
      guard let kind = tape.resourceMemberName(at: name) else { return }
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
      reason: SpecSection.cite(
        "\(label) must be an object, found \(tape[member].kind.phrase)", SpecSection.fields),
      pointer: JSONPointer.pointer(to: member, in: tape))
  }
}
