extension JSONAPIResourceSchema.ValueKind {
  /// Why `value`, an attribute's value in a request (R21: any JSON value), does not fit `kind`;
  /// `nil` when it does.
  ///
  /// ``date`` accepts strings and numbers (the date strategy decides which), ``any`` accepts
  /// anything, and an ``object(members:)`` with no members any object. `null` fits only ``any``
  /// at the top: the caller decides with the attribute's `isOptional`; inside objects a member's
  /// own `isOptional` decides, and array elements may be `null` (the kind does not say whether
  /// elements are optional). Members an object's kind does not list are allowed (decoders ignore
  /// them).
  ///
  /// ```swift
  /// ValueKind.validate(attribute: .string("7"), as: .integer)   // "expected an integer, found a string"
  /// ValueKind.validate(attribute: .array([.integer(1), .string("a")]), as: .array(.integer))
  /// // "at [1]: expected an integer, found a string"
  /// ```
  static func validate(attribute value: JSONAPIValue, as kind: Self) -> String? {
    mismatch(of: value, with: kind, at: "", depth: 0)
  }

  /// How deep ``validate(attribute:as:)`` follows a kind: far deeper than the reader records.
  private static let maxValidatedDepth = 64

  private static func mismatch(of value: JSONAPIValue, with kind: Self, at path: String, depth: Int)
    -> String?
  {
    guard depth < maxValidatedDepth else { return nil }
    func expected(_ wanted: String, found: String? = nil) -> String {
      let reason = "expected \(wanted), found \(found ?? description(of: value))"
      return path.isEmpty ? reason : "at \(path): \(reason)"
    }
    switch (kind, value) {
    case (.any, _), (.string, .string), (.boolean, .bool), (.number, .integer),
      (.number, .number), (.integer, .integer), (.date, .string), (.date, .integer),
      (.date, .number):
      return nil
    case (.integer, .number(let number)):
      // JSON has one number type: `2.0` (or 1e3) is a whole number.
      return number.isFinite && number.rounded() == number ? nil : expected("an integer")
    case (.enumeration(let cases), .string(let text)):
      guard !cases.contains(text) else { return nil }
      // A short text is worth repeating: it is usually a case misspelled.
      return expected(Self.list(cases), found: text.count <= 32 ? "\"\(text)\"" : nil)
    case (.array(let element), .array(let elements)):
      for (index, item) in elements.enumerated() {
        if item == .null { continue }
        if let reason = mismatch(of: item, with: element, at: "\(path)[\(index)]", depth: depth + 1)
        {
          return reason
        }
      }
      return nil
    case (.object(let members), .object(let found)):
      for member in members {
        let memberPath = path.isEmpty ? member.name : "\(path).\(member.name)"
        guard let item = found[member.name], item != .null else {
          if member.isOptional { continue }
          let missing = found[member.name] == nil ? "is missing" : "is null"
          return "at \(memberPath): the member \(missing), but it is not optional"
        }
        if let reason = mismatch(of: item, with: member.kind, at: memberPath, depth: depth + 1) {
          return reason
        }
      }
      return nil
    case (.string, _): return expected("a string")
    case (.integer, _): return expected("an integer")
    case (.number, _): return expected("a number")
    case (.boolean, _): return expected("true or false")
    case (.date, _): return expected("a date (a string or a number)")
    case (.enumeration(let cases), _): return expected(Self.list(cases))
    case (.array, _): return expected("an array")
    case (.object, _): return expected("an object")
    }
  }

  /// `one of "draft", "published"`.
  private static func list(_ cases: [String]) -> String {
    "one of " + cases.map { "\"\($0)\"" }.joined(separator: ", ")
  }

  private static func description(of value: JSONAPIValue) -> String {
    switch value {
    case .null: return "null"
    case .bool: return "a boolean"
    case .integer: return "a number"
    case .number(let number):
      return number.isFinite && number.rounded() == number ? "a number" : "a number with a fraction"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}
