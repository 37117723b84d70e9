import Foundation

/// The tape indices of a resource object's or identifier's `type`, `id` and `lid` strings.
struct ResourceIdentity {
  var type: Int
  var id: Int?
  var lid: Int?

  /// Reads and checks the identity members (R12, R14, R34, R35).
  init(tape: Tape, object: Int, pointer: () -> String) throws {
    var type: Int?
    var id: Int?
    var lid: Int?
    tape.forEachMember(ofObjectAt: object) { name in
      switch tape.resourceMemberName(at: name) {
      case .type?: type = name + 1
      case .id?: id = name + 1
      case .lid?: lid = name + 1
      default: break
      }
    }
    guard let type else {
      throw JSONAPIError.invalidDocument(
        reason: SpecSection.cite(
          "a resource object or identifier must have a type", SpecSection.identification),
        pointer: pointer())
    }
    try Self.requireString(tape, type, "type", pointer)
    try Self.requireString(tape, id, "id", pointer)
    try Self.requireString(tape, lid, "lid", pointer)
    self.type = type
    self.id = id
    self.lid = lid
  }

  private static func requireString(
    _ tape: Tape, _ member: Int?, _ name: String, _ pointer: () -> String
  ) throws {
    guard let member, tape[member].kind != .string else { return }
    throw JSONAPIError.invalidDocument(
      reason: SpecSection.cite(
        "\(name) must be a string, found \(tape[member].kind.phrase)", SpecSection.identification),
      pointer: pointer() + "/" + name)
  }
}
