import Foundation
import JSONAPICodable

// Models shared by the reliability tests.

/// A resource with attributes of several kinds and both relationship cardinalities.
struct BrokenArticle: Codable, Equatable, Sendable {
  var id: String
  var type: String?
  var title: String
  var rating: Double?
  var score: Float?
  var age: Int8?
  var views: UInt?
  var words: Int?
  var details: Details?
  var author: BrokenPerson?
  var comments: [BrokenPerson]?

  struct Details: Codable, Equatable, Sendable {
    var words: Int?
  }
}

struct BrokenPerson: Codable, Equatable, Sendable {
  var id: String
  var type: String?
  var name: String?
}

/// A recursive resource: `children` and `parent` are relationships to the same type.
final class TreeNode: Codable, Sendable, CustomStringConvertible {
  let id: String
  let type: String
  let name: String?
  let children: [TreeNode]?
  let parent: TreeNode?

  init(
    id: String, type: String = "nodes", name: String? = nil, children: [TreeNode]? = nil,
    parent: TreeNode? = nil
  ) {
    self.id = id
    self.type = type
    self.name = name
    self.children = children
    self.parent = parent
  }

  var description: String {
    let kids = children.map { " children: [\($0.map(\.description).joined(separator: ", "))]" }
    return "\(type)/\(id)(\(name ?? "nil")\(kids ?? "")\(parent.map { " parent: \($0)" } ?? ""))"
  }
}

extension JSONAPIError {
  /// The name of the case, to compare errors whose payloads a test does not pin down.
  var caseName: String {
    switch self {
    case .errorDocument: "errorDocument"
    case .invalidJSON: "invalidJSON"
    case .duplicateKey: "duplicateKey"
    case .nestingTooDeep: "nestingTooDeep"
    case .documentTooLarge: "documentTooLarge"
    case .notADocument: "notADocument"
    case .invalidDocument: "invalidDocument"
    case .duplicateResource: "duplicateResource"
    case .relationshipDepthExceeded: "relationshipDepthExceeded"
    case .resourceBudgetExceeded: "resourceBudgetExceeded"
    case .tooManyOperations: "tooManyOperations"
    case .resourceTypeMismatch: "resourceTypeMismatch"
    case .missingResourceType: "missingResourceType"
    case .encodingNestingTooDeep: "encodingNestingTooDeep"
    case .invalidValue: "invalidValue"
    }
  }
}

/// A coding path as text: `0.author.name`, indices as numbers.
func pathText(_ path: [any CodingKey]) -> String {
  path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
}
