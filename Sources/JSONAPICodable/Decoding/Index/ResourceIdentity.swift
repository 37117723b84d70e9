import Foundation

/// The tape indices of a resource object's or identifier's `type`, `id` and `lid` values.
///
/// Reading is tolerant where real servers bend the rules and the meaning is plain (issue 36):
/// - an integer `id` (`"id": 2`) is the string of its digits (`"2"`), though R14 and R35 want a
///   string: the tape keeps the number's source text, so it compares, hashes and decodes as the
///   string would, with every digit (ids past 2^53 too), and never passes through `Double` or `Int`.
///   A number with a fraction or an exponent (`1.5`, `1e3`, `2.0`) is not an id and stays an error.
/// - `"id": null` and `"lid": null` read as absent: whatever an absent member means there applies
///   (a linkage needs one of them, so `{"type": "people", "id": null}` still fails there).
/// - `lid` stays string-only (R13, R14): only 1.1 clients write it, and they write strings.
/// - `type` stays a string, never null or a number: it is required (R12, R34).
///
/// Strings cost what they cost before: only a member that is not a string takes the slow path.
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
    if tape[type].kind != .string { throw Self.notAString(tape, type, "type", pointer) }
    if let member = id, tape[member].kind != .string {
      id = try Self.tolerated(tape, member, "id", acceptsIntegers: true, pointer)
    }
    if let member = lid, tape[member].kind != .string {
      lid = try Self.tolerated(tape, member, "lid", acceptsIntegers: false, pointer)
    }
    self.type = type
    self.id = id
    self.lid = lid
  }

  /// Whether the value at `member` of an object reads as an `id`: a string, or an integer
  /// (no fraction, no exponent), read as its digits.
  @inline(__always) static func isIDText(_ entry: TapeEntry) -> Bool {
    entry.kind == .string || (entry.kind == .number && !entry.hasFlag)
  }

  /// An `id` or `lid` that is not a string: `nil` for null (absent), `member` for an integer `id`,
  /// an error for anything else.
  @inline(never)
  private static func tolerated(
    _ tape: Tape, _ member: Int, _ name: String, acceptsIntegers: Bool, _ pointer: () -> String
  ) throws -> Int? {
    let entry = tape[member]
    if entry.kind == .null { return nil }
    if acceptsIntegers && isIDText(entry) { return member }
    throw notAString(tape, member, name, pointer)
  }

  private static func notAString(
    _ tape: Tape, _ member: Int, _ name: String, _ pointer: () -> String
  ) -> JSONAPIError {
    .invalidDocument(
      reason: SpecSection.cite(message(name, tape, member), SpecSection.identification),
      pointer: pointer() + "/" + name)
  }

  /// "id must be a string, found …", saying for a number which one and which numbers are read.
  static func message(_ name: String, _ tape: Tape, _ member: Int) -> String {
    let entry = tape[member]
    guard entry.kind == .number else {
      return "\(name) must be a string, found \(entry.kind.phrase)"
    }
    let text = DecoderImpl.clipped(String(decoding: tape.rawBytes(entry), as: UTF8.self))
    guard name == "id" else { return "\(name) must be a string, found the number \(text)" }
    return
      "id must be a string, found the number \(text); an integer id such as 2 is read as the "
      + "string \"2\", a number with a fraction or an exponent is not an id"
  }
}
