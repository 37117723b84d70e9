import Foundation

@testable import JSONAPICodable

/// Checks an Atomic Operations document against the rules of `shared/jsonapi/SPEC-DIGEST.md` §17
/// that a writer must keep (no official schema exists for these documents). Reusable by any test:
/// `AtomicComplianceChecker.violations(in: data)` is empty for a compliant document.
///
/// Rules checked: R99 (no `data`/`included`), R100 (operations xor results, at least one, no
/// `errors`), R101 (`op`), R102 (`ref` member sets, not both `ref` and `href`, `href` a string),
/// R103 (operation members), R104/R105 (resource data of `add`/`update`), R106 (a `remove` has a
/// target), R107/R108 (relationship data: identifier, `null` or array of identifiers), R109 (result
/// members), R111 (as many results as operations, via `violations(in:answering:)`). Every resource
/// object inside is also checked with ``JSONAPIComplianceChecker`` as a create or update body.
struct AtomicComplianceChecker {
  private(set) var violations: [String] = []

  static func violations(in data: Data) -> [String] {
    guard let document = try? JSONDecoder().decode(JSONAPIValue.self, from: data) else {
      return ["not JSON"]
    }
    var checker = AtomicComplianceChecker()
    checker.check(document)
    return checker.violations
  }

  /// R111: results answering `operations` come one per operation.
  static func violations(in results: Data, answering operations: Data) -> [String] {
    var found = violations(in: results)
    let count = { (data: Data, member: String) in
      (try? JSONDecoder().decode(JSONAPIValue.self, from: data))?[member]?.arrayValue?.count
    }
    if count(results, "atomic:results") != count(operations, "atomic:operations") {
      found.append("/atomic:results: R111: one result per operation")
    }
    return found
  }

  /// The `data` of each operation as a body of its own (`{"data": ...}`), with the operation's
  /// position and the kind of body it is: create, update, or relationship (linkage).
  static func resourceBodies(in data: Data) -> [(operation: Int, body: JSONAPIValue, kind: String)]
  {
    guard let document = try? JSONDecoder().decode(JSONAPIValue.self, from: data),
      let operations = document["atomic:operations"]?.arrayValue
    else { return [] }
    var bodies: [(Int, JSONAPIValue, String)] = []
    for (index, operation) in operations.enumerated() {
      guard let data = operation["data"] else { continue }
      let kind: String
      let isIdentifierOnly =
        data.objectValue.map { $0["attributes"] == nil && $0["relationships"] == nil } ?? true
      if operation["ref"]?["relationship"] != nil || operation["op"] == "remove"
        || data.objectValue == nil
      {
        // Linkage: a relationship operation, by ref or (array or null data) by href.
        kind = "relationship"
      } else if operation["op"] == "add" {
        kind = "create"
      } else {
        kind = operation["href"] != nil && isIdentifierOnly ? "relationship" : "update"
      }
      bodies.append((index, .object(["data": data]), kind))
    }
    return bodies
  }

  mutating func check(_ document: JSONAPIValue) {
    guard let top = document.objectValue else { return fail("", "R1: not an object") }
    for member in ["data", "included"] where top[member] != nil {
      fail("/\(member)", "R99: \(member) in an atomic document")
    }
    let operations = top["atomic:operations"]
    let results = top["atomic:results"]
    if operations != nil && results != nil { fail("", "R100: both operations and results") }
    if (operations != nil || results != nil) && top["errors"] != nil {
      fail("/errors", "R100: errors beside operations or results")
    }
    if let meta = top["meta"], meta.objectValue == nil { fail("/meta", "R43: meta not an object") }
    if let operations {
      checkArray(operations, "atomic:operations") { $0.checkOperation($1, $2) }
    }
    if let results { checkArray(results, "atomic:results") { $0.checkResult($1, $2) } }
  }

  private mutating func checkArray(
    _ value: JSONAPIValue, _ member: String,
    _ body: (inout Self, [String: JSONAPIValue], String) -> Void
  ) {
    guard let array = value.arrayValue, !array.isEmpty else {
      return fail("/\(member)", "R100: must be a non-empty array")
    }
    for (index, element) in array.enumerated() {
      guard let object = element.objectValue else {
        fail("/\(member)/\(index)", "R100: not an object")
        continue
      }
      body(&self, object, "/\(member)/\(index)")
    }
  }

  private mutating func checkOperation(_ operation: [String: JSONAPIValue], _ pointer: String) {
    for name in operation.keys where !["op", "ref", "href", "data", "meta"].contains(name) {
      fail(pointer, "R103: unexpected member \(name)")
    }
    guard let op = operation["op"]?.stringValue, ["add", "update", "remove"].contains(op) else {
      return fail(pointer + "/op", "R101: op must be add, update or remove")
    }
    if operation["ref"] != nil && operation["href"] != nil { fail(pointer, "R102: ref and href") }
    if let href = operation["href"], href.stringValue == nil { fail(pointer, "R102: href string") }
    var relationship: String?
    if let ref = operation["ref"] {
      relationship = checkReference(ref, pointer + "/ref")
    }
    if let meta = operation["meta"], meta.objectValue == nil { fail(pointer, "R43: meta") }
    let data = operation["data"]
    if op == "remove" && operation["ref"] == nil && operation["href"] == nil {
      fail(pointer, "R106: remove needs ref or href")
    }
    if relationship != nil {
      checkLinkage(data, pointer + "/data", toOne: op == "update")
    } else if op == "add" || op == "update" {
      guard let resource = data?.objectValue else {
        // An href may name a relationship: then the data is linkage.
        if operation["href"] != nil { return checkLinkage(data, pointer + "/data", toOne: true) }
        return fail(pointer + "/data", "R104/R105: data must be a resource object")
      }
      if resource["type"]?.stringValue == nil { fail(pointer + "/data", "R104: type") }
      if op == "update" && operation["href"] == nil && resource["id"] == nil
        && resource["lid"] == nil
      {
        fail(pointer + "/data", "R105: an update names its resource by id or lid")
      }
      let body = (try? JSONEncoder().encode(JSONAPIValue.object(["data": .object(resource)])))
      for violation in JSONAPIComplianceChecker.violations(
        in: body ?? Data(), purpose: .create, encoderConventions: false)
      {
        fail(pointer + "/data", violation)
      }
    }
  }

  /// Returns the relationship named, if any.
  private mutating func checkReference(_ ref: JSONAPIValue, _ pointer: String) -> String? {
    guard let members = ref.objectValue else {
      fail(pointer, "R102: ref must be an object")
      return nil
    }
    let names = Set(members.keys)
    let allowed: [Set<String>] = [
      ["type", "id"], ["type", "lid"], ["type", "id", "relationship"],
      ["type", "lid", "relationship"],
    ]
    if !allowed.contains(names) { fail(pointer, "R102: ref members \(names.sorted())") }
    if members.values.contains(where: { $0.stringValue == nil }) {
      fail(pointer, "R102: ref members must be strings")
    }
    return members["relationship"]?.stringValue
  }

  private mutating func checkLinkage(_ data: JSONAPIValue?, _ pointer: String, toOne: Bool) {
    switch data {
    case nil: fail(pointer, "R107/R108: relationship operation without data")
    case .null?: if !toOne { fail(pointer, "R108: null for a to-many operation") }
    case .object(let identifier)?: checkIdentifier(identifier, pointer)
    case .array(let identifiers)?:
      for (index, identifier) in identifiers.enumerated() {
        checkIdentifier(identifier.objectValue ?? [:], "\(pointer)/\(index)")
      }
    default: fail(pointer, "R107/R108: data must be identifiers")
    }
  }

  private mutating func checkIdentifier(_ identifier: [String: JSONAPIValue], _ pointer: String) {
    if identifier["type"]?.stringValue == nil { fail(pointer, "R34: identifier type") }
    if (identifier["id"]?.stringValue == nil) == (identifier["lid"]?.stringValue == nil) {
      fail(pointer, "R34: identifier needs id or lid")
    }
    for name in identifier.keys where !["type", "id", "lid", "meta"].contains(name) {
      fail(pointer, "R36: identifier member \(name)")
    }
  }

  private mutating func checkResult(_ result: [String: JSONAPIValue], _ pointer: String) {
    for name in result.keys where !["data", "meta"].contains(name) {
      fail(pointer, "R109: unexpected member \(name)")
    }
    if let meta = result["meta"], meta.objectValue == nil { fail(pointer, "R43: meta") }
    guard let data = result["data"], data != .null else { return }
    let body = (try? JSONEncoder().encode(JSONAPIValue.object(["data": data])))
    for violation in JSONAPIComplianceChecker.violations(
      in: body ?? Data(), purpose: .response, encoderConventions: false)
    {
      fail(pointer + "/data", violation)
    }
  }

  private mutating func fail(_ pointer: String, _ message: String) {
    violations.append("\(pointer.isEmpty ? "/" : pointer): \(message)")
  }
}
