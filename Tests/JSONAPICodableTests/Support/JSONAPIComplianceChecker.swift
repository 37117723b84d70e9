import Foundation

@testable import JSONAPICodable

/// Checks a JSON:API document against the rules of `shared/jsonapi/SPEC-DIGEST.md` that a writer
/// must keep. Reusable by any test: `JSONAPIComplianceChecker.violations(in: data)` is empty for a
/// compliant document.
///
/// Rules checked: R2/R3 (top-level members), R5 (no `included` without `data`), R12/R14/R19
/// (resource `type`/`id`), R17 (resource members), R20 (no field named `type`/`id`, one namespace),
/// R24/R25 (relationship objects), R30/R34/R36 (linkage), R38 (full linkage), R40 (unique
/// resources), R43 (meta objects), R45–R48 (member names, with the 1.1 `@`/`ns:` exceptions of
/// R50/R51), R52 (links objects), R88/R89 (error objects).
/// With `encoderConventions`, also the library's promises: no empty `attributes`/`relationships`
/// and no empty `included` (unless `answersInclude`: a response to `include` has `included` even
/// when it is empty, R67).
struct JSONAPIComplianceChecker {
  enum Purpose {
    /// Server response: every resource has an `id`.
    case response
    /// Client request creating a resource: the primary resource may lack `id`.
    case create
  }

  var purpose: Purpose = .response
  var encoderConventions = true
  var answersInclude = false
  private(set) var violations: [String] = []

  static func violations(
    in data: Data, purpose: Purpose = .response, encoderConventions: Bool = true,
    answersInclude: Bool = false
  ) -> [String] {
    guard let document = try? JSONDecoder().decode(JSONAPIValue.self, from: data) else {
      return ["not JSON"]
    }
    var checker = JSONAPIComplianceChecker(
      purpose: purpose, encoderConventions: encoderConventions, answersInclude: answersInclude)
    checker.check(document)
    return checker.violations
  }

  mutating func check(_ document: JSONAPIValue) {
    guard let top = document.objectValue else { return fail("", "R1: top level must be an object") }
    if top["data"] == nil && top["errors"] == nil && top["meta"] == nil {
      fail("", "R2: needs data, errors or meta")
    }
    if top["data"] != nil && top["errors"] != nil { fail("", "R3: data with errors") }
    if top["included"] != nil && top["data"] == nil {
      fail("/included", "R5: included without data")
    }
    checkNames(document, pointer: "")
    for member in ["meta"] where top[member] != nil { checkMeta(top[member], "/\(member)") }
    if let links = top["links"] { checkLinks(links, "/links") }
    if let jsonapi = top["jsonapi"], jsonapi.objectValue == nil {
      fail("/jsonapi", "R56: jsonapi must be an object")
    }
    if let errors = top["errors"] { checkErrors(errors) }

    var resources: [(key: String, object: [String: JSONAPIValue], pointer: String)] = []
    var primaryKeys: [String] = []
    switch top["data"] {
    case .object(let object)?:
      if let key = checkResource(object, "/data", mayLackID: purpose == .create) {
        resources.append((key, object, "/data"))
        primaryKeys.append(key)
      }
    case .array(let array)?:
      for (index, element) in array.enumerated() {
        guard let object = element.objectValue else {
          fail("/data/\(index)", "R8: element is not a resource object")
          continue
        }
        if let key = checkResource(object, "/data/\(index)", mayLackID: purpose == .create) {
          resources.append((key, object, "/data/\(index)"))
          primaryKeys.append(key)
        }
      }
    case nil, .null?:
      break
    default:
      fail("/data", "R8: primary data must be a resource, an array or null")
    }
    var includedKeys: [String] = []
    if let included = top["included"] {
      guard let array = included.arrayValue else { return fail("/included", "R37: not an array") }
      if encoderConventions && !answersInclude && array.isEmpty {
        fail("/included", "convention: empty included")
      }
      for (index, element) in array.enumerated() {
        guard let object = element.objectValue,
          let key = checkResource(
            object, "/included/\(index)", mayLackID: object["lid"]?.stringValue != nil)
        else {
          fail("/included/\(index)", "R37: not a resource object")
          continue
        }
        resources.append((key, object, "/included/\(index)"))
        includedKeys.append(key)
      }
    }
    var seen = Set<String>()
    for resource in resources where !seen.insert(resource.key).inserted {
      fail(resource.pointer, "R40: \(resource.key) appears twice")
    }
    checkFullLinkage(
      primary: resources.filter { primaryKeys.contains($0.key) }.map(\.object),
      included: Dictionary(
        resources.filter { !primaryKeys.contains($0.key) }.map { ($0.key, $0.object) },
        uniquingKeysWith: { first, _ in first }))
  }

  /// Checks one resource object; returns its identity key ("type/id" or "type/#lid").
  private mutating func checkResource(
    _ object: [String: JSONAPIValue], _ pointer: String, mayLackID: Bool
  ) -> String? {
    let allowed: Set = ["type", "id", "lid", "attributes", "relationships", "links", "meta"]
    for name in object.keys where !allowed.contains(name) && !name.hasPrefix("@") {
      fail(pointer, "R17: unexpected member \(name)")
    }
    guard case .string(let type)? = object["type"] else {
      fail(pointer, "R12/R19: type missing or not a string")
      return nil
    }
    if !Self.isValidMemberName(type) { fail(pointer, "R15: type \(type) breaks member-name rules") }
    let id = object["id"]
    if let id, id.stringValue == nil { fail(pointer, "R14: id must be a string") }
    if let lid = object["lid"], lid.stringValue == nil {
      fail(pointer, "R14: lid must be a string")
    }
    if id == nil && !mayLackID { fail(pointer, "R12: id missing") }
    var fieldNames = Set<String>()
    if let attributes = object["attributes"] {
      guard let members = attributes.objectValue else {
        fail(pointer + "/attributes", "R21: not an object")
        return nil
      }
      if encoderConventions && members.isEmpty { fail(pointer, "convention: empty attributes") }
      fieldNames.formUnion(members.keys)
    }
    if let relationships = object["relationships"] {
      guard let members = relationships.objectValue else {
        fail(pointer + "/relationships", "R24: not an object")
        return nil
      }
      if encoderConventions && members.isEmpty { fail(pointer, "convention: empty relationships") }
      for (name, relationship) in members {
        if fieldNames.contains(name) { fail(pointer, "R20: \(name) is attribute and relationship") }
        fieldNames.insert(name)
        checkRelationship(relationship, "\(pointer)/relationships/\(name)")
      }
    }
    if fieldNames.contains("type") || fieldNames.contains("id") {
      fail(pointer, "R20: a field is named type or id")
    }
    if object["meta"] != nil { checkMeta(object["meta"], pointer + "/meta") }
    if let links = object["links"] { checkLinks(links, pointer + "/links") }
    if let id = id?.stringValue { return "\(type)/\(id)" }
    if let lid = object["lid"]?.stringValue { return "\(type)/#\(lid)" }
    return "\(type)/(new \(pointer))"
  }

  private mutating func checkRelationship(_ value: JSONAPIValue, _ pointer: String) {
    guard let object = value.objectValue else { return fail(pointer, "R24: not an object") }
    if object["data"] == nil && object["links"] == nil && object["meta"] == nil {
      fail(pointer, "R25: needs data, links or meta")
    }
    for name in object.keys where !["data", "links", "meta"].contains(name) {
      fail(pointer, "R6: unexpected member \(name)")
    }
    switch object["data"] {
    case nil, .null?: break
    case .object(let identifier)?: checkIdentifier(identifier, pointer + "/data")
    case .array(let identifiers)?:
      for (index, identifier) in identifiers.enumerated() {
        guard let identifier = identifier.objectValue else {
          fail("\(pointer)/data/\(index)", "R30: not an identifier")
          continue
        }
        checkIdentifier(identifier, "\(pointer)/data/\(index)")
      }
    default: fail(pointer + "/data", "R30: linkage must be null, [], an identifier or an array")
    }
    if object["meta"] != nil { checkMeta(object["meta"], pointer + "/meta") }
    if let links = object["links"] { checkLinks(links, pointer + "/links") }
  }

  private mutating func checkIdentifier(_ object: [String: JSONAPIValue], _ pointer: String) {
    if object["type"]?.stringValue == nil { fail(pointer, "R34: identifier type") }
    if object["id"]?.stringValue == nil && object["lid"]?.stringValue == nil {
      fail(pointer, "R34: identifier needs a string id or lid")
    }
    for name in object.keys where !["type", "id", "lid", "meta"].contains(name) {
      fail(pointer, "R36: identifier has \(name)")
    }
    if object["meta"] != nil { checkMeta(object["meta"], pointer + "/meta") }
  }

  /// R38: every included resource is reachable from primary data through linkage.
  private mutating func checkFullLinkage(
    primary: [[String: JSONAPIValue]], included: [String: [String: JSONAPIValue]]
  ) {
    var reached = Set<String>()
    var frontier = primary
    while let resource = frontier.popLast() {
      for (_, relationship) in resource["relationships"]?.objectValue ?? [:] {
        let data = relationship["data"]
        let identifiers = data?.arrayValue ?? (data?.objectValue != nil ? [data ?? .null] : [])
        for identifier in identifiers {
          guard let type = identifier["type"]?.stringValue else { continue }
          let key =
            identifier["id"]?.stringValue.map { "\(type)/\($0)" }
            ?? identifier["lid"]?.stringValue.map { "\(type)/#\($0)" } ?? ""
          if let target = included[key], reached.insert(key).inserted { frontier.append(target) }
        }
      }
    }
    for key in included.keys where !reached.contains(key) {
      fail("/included", "R38: \(key) is not reachable from primary data")
    }
  }

  private mutating func checkErrors(_ errors: JSONAPIValue) {
    guard let array = errors.arrayValue else { return fail("/errors", "R88: not an array") }
    for (index, error) in array.enumerated() {
      guard let object = error.objectValue else {
        fail("/errors/\(index)", "R88: not an object")
        continue
      }
      if object.isEmpty { fail("/errors/\(index)", "R89: error object needs a member") }
      for name in ["status", "code", "id"] where object[name] != nil {
        if object[name]?.stringValue == nil { fail("/errors/\(index)", "R92/R93: \(name) string") }
      }
      if object["meta"] != nil { checkMeta(object["meta"], "/errors/\(index)/meta") }
    }
  }

  private mutating func checkMeta(_ meta: JSONAPIValue?, _ pointer: String) {
    if meta?.objectValue == nil { fail(pointer, "R43: meta must be an object") }
  }

  private mutating func checkLinks(_ links: JSONAPIValue, _ pointer: String) {
    guard let members = links.objectValue else { return fail(pointer, "R52: links not an object") }
    for (name, link) in members {
      switch link {
      case .string, .null: break
      case .object(let object) where object["href"]?.stringValue != nil: break
      default: fail("\(pointer)/\(name)", "R53/R54: not a link")
      }
    }
  }

  /// R45–R48 for every member name in the document (including nested attribute values).
  private mutating func checkNames(_ value: JSONAPIValue, pointer: String) {
    switch value {
    case .object(let members):
      for (name, member) in members {
        if !Self.isValidMemberName(name) { fail(pointer, "R45-R48: bad member name \"\(name)\"") }
        checkNames(member, pointer: "\(pointer)/\(name)")
      }
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        checkNames(element, pointer: "\(pointer)/\(index)")
      }
    default:
      break
    }
  }

  /// R45–R48, with the JSON:API 1.1 exceptions for @-members (R50) and extension members (R51).
  static func isValidMemberName(_ name: String) -> Bool {
    if name.hasPrefix("@") { return isPlainMemberName(String(name.dropFirst())) }
    let parts = name.split(separator: ":", omittingEmptySubsequences: false)
    if parts.count == 2 {
      let namespace = parts[0]
      return !namespace.isEmpty
        && namespace.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        && isPlainMemberName(String(parts[1]))
    }
    return isPlainMemberName(name)
  }

  private static func isPlainMemberName(_ name: String) -> Bool {
    let scalars = Array(name.unicodeScalars)
    guard let first = scalars.first, let last = scalars.last else { return false }
    func globallyAllowed(_ scalar: Unicode.Scalar) -> Bool {
      switch scalar.value {
      case 0x61...0x7A, 0x41...0x5A, 0x30...0x39, 0x80...: return true
      default: return false
      }
    }
    guard globallyAllowed(first), globallyAllowed(last) else { return false }
    return scalars.allSatisfy {
      globallyAllowed($0) || $0 == "-" || $0 == "_" || $0 == " "
    }
  }

  private mutating func fail(_ pointer: String, _ message: String) {
    violations.append("\(pointer.isEmpty ? "/" : pointer): \(message)")
  }
}
