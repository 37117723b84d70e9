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
      let entry = tape[name]
      guard entry.length <= 4, !entry.hasFlag else { return }
      let raw = tape.rawBytes(entry)
      if raw.equals("type") {
        type = name + 1
      } else if raw.equals("id") {
        id = name + 1
      } else if raw.equals("lid") {
        lid = name + 1
      }
    }
    guard let type else {
      throw JSONAPIError.invalidDocument(
        reason: "a resource object or identifier must have a type (R12, R34)", pointer: pointer())
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
      reason: "\(name) must be a string, found \(tape[member].kind.phrase) (R14)",
      pointer: pointer() + "/" + name)
  }
}
