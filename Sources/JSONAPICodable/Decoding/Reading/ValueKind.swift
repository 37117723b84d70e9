/// The kinds of JSON value a tape entry can describe.
enum ValueKind: UInt8 {
  case object = 1
  case array
  case string
  case number
  case `true`
  case `false`
  case null
}

extension ValueKind {
  /// "an object", "a string", … for error messages.
  var phrase: String {
    switch self {
    case .object: return "an object"
    case .array: return "an array"
    case .string: return "a string"
    case .number: return "a number"
    case .true, .false: return "a boolean"
    case .null: return "null"
    }
  }
}
