import Foundation

/// The members of a resource object that decoding needs, found in one pass.
///
/// Tape indices are stored as `Int32` (-1: absent), which ``JSONScanner/maxByteCount`` allows: a
/// keyed container carries this value and is boxed and copied on every resource, so its size shows
/// in decoding time.
struct ResourceMembers {
  private var objectIndex: Int32
  private var indices: (id: Int32, type: Int32, lid: Int32, meta: Int32, links: Int32) = (
    -1, -1, -1, -1, -1
  )
  var attributes: MemberLookup?
  var relationships: MemberLookup?

  /// The resource object itself.
  var object: Int { Int(objectIndex) }
  var id: Int? { Self.index(indices.id) }
  var type: Int? { Self.index(indices.type) }
  var lid: Int? { Self.index(indices.lid) }
  var meta: Int? { Self.index(indices.meta) }
  var links: Int? { Self.index(indices.links) }

  @inline(__always) private static func index(_ stored: Int32) -> Int? {
    stored < 0 ? nil : Int(stored)
  }

  init(object: Int, decoder: DecoderImpl, depth: Int, identifierOnly: Bool = false) throws {
    objectIndex = Int32(truncatingIfNeeded: object)
    let tape = decoder.tape
    var attributesObject: Int?
    var relationshipsObject: Int?
    tape.forEachMember(ofObjectAt: object) { name in
      guard let kind = tape.resourceMemberName(at: name) else { return }
      // An identifier has no fields of its own: whatever a broken document adds is not read.
      if identifierOnly, kind == .links || kind == .attributes || kind == .relationships { return }
      let value = Int32(truncatingIfNeeded: name + 1)
      switch kind {
      case .id: indices.id = value
      case .type: indices.type = value
      case .lid: indices.lid = value
      case .meta: indices.meta = value
      case .links: indices.links = value
      case .attributes: attributesObject = name + 1
      case .relationships: relationshipsObject = name + 1
      }
    }
    attributesObject = try Self.object(attributesObject, "attributes", tape)
    relationshipsObject = try Self.object(relationshipsObject, "relationships", tape)
    if let attributesObject {
      attributes = MemberLookup(
        object: attributesObject, decoder: decoder, depth: depth, skipsNonFields: true)
    }
    if let relationshipsObject {
      relationships = MemberLookup(
        object: relationshipsObject, decoder: decoder, depth: depth, skipsNonFields: true)
    }
  }

  /// `member` when it is an object (R21, R24); `nil` when absent or `null`, which reads as absent:
  /// a resource without fields of that kind (issue 36: what real servers send, where the meaning
  /// is plain). Anything else is an error.
  private static func object(_ member: Int?, _ label: String, _ tape: Tape) throws -> Int? {
    guard let member, tape[member].kind != .object else { return member }
    if tape[member].kind == .null { return nil }
    throw JSONAPIError.invalidDocument(
      reason: SpecSection.cite(
        "\(label) must be an object, found \(tape[member].kind.phrase)", SpecSection.fields),
      pointer: JSONPointer.pointer(to: member, in: tape))
  }
}
