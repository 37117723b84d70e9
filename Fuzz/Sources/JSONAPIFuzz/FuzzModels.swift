import Foundation
import JSONAPICodable

// Model shapes the fuzzer decodes into. Between them they reach every decoder path a real app uses:
// recursion through relationships, polymorphic primary data, identifiers of several types,
// Foundation types recognised by metatype, relationship objects with meta and links, open values.

/// A recursive resource: children and parent are relationships to the same type, so cyclic and
/// exponentially shared `included` graphs reach the decoder's cycle guard, depth limit and budget.
final class Node: Codable, Sendable {
  let id: String
  let type: String
  let name: String?
  let meta: JSONAPIValue?
  let children: [Node]?
  let parent: Node?
}

/// People are reached from articles and comments (shared relatives).
struct Person: Codable, Equatable, Sendable {
  var id: String
  var type: String
  var name: String?
  var age: Int8?
  var email: String?
  var manager: JSONAPIRelationship<PersonReference?>?
}

/// Keeps `Person` finite in depth: only `Node` recurses, where the harness bounds the tree size
/// that equality and encoding walk.
struct PersonReference: Codable, Equatable, Sendable {
  var id: String
  var type: String
  var name: String?
}

/// Numeric identifiers: the decoder converts the `id` string to `Int`.
struct Comment: Codable, Equatable, Sendable {
  var id: Int
  var type: String
  var body: String?
  var author: Person?
  var links: JSONAPILinks?
}

/// Attributes of every primitive and Foundation kind the decoder recognises.
struct Article: Codable, Equatable, Sendable {
  var id: String
  var type: String
  var title: String?
  var rating: Double?
  var views: UInt32?
  var ratio: Float?
  var draft: Bool?
  var tags: [String]?
  var published: Date?
  var cover: Data?
  var website: URL?
  var price: Decimal?
  var details: Details?
  var author: Person?
  var comments: JSONAPIRelationship<[Comment]>?
  var tag: Tag?
  /// `null` and absent kept apart (`.some(nil)` and `nil`).
  var subtitle: String??
  /// The linkage itself, with its identifier meta, never the included resource.
  var editor: JSONAPIResourceIdentifier?
  var reviewers: [JSONAPIResourceIdentifier]?

  struct Details: Codable, Equatable, Sendable {
    var words: Int?
    var scores: [[Double]]?
    var extra: JSONAPIValue?
  }
}

/// A UUID identifier.
struct Tag: Codable, Equatable, Sendable {
  var id: UUID
  var type: String
}

/// Polymorphic primary data: the resource's `type` chooses the Swift type.
enum Entity: Codable, Equatable, Sendable {
  case article(Article)
  case person(Person)
  case node(NodeBox)
  case other(type: String)

  private enum Keys: String, CodingKey { case type }

  init(from decoder: any Decoder) throws {
    let type = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .type)
    switch type {
    case "articles": self = .article(try Article(from: decoder))
    case "people": self = .person(try Person(from: decoder))
    case "nodes": self = .node(NodeBox(node: try Node(from: decoder)))
    default: self = .other(type: type)
    }
  }

  func encode(to encoder: any Encoder) throws {
    switch self {
    case .article(let article): try article.encode(to: encoder)
    case .person(let person): try person.encode(to: encoder)
    case .node(let box): try box.node.encode(to: encoder)
    case .other(let type):
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(type, forKey: .type)
    }
  }
}

/// Wraps a `Node` so that `Entity` can be `Equatable` without giving the class `==`.
struct NodeBox: Equatable, Sendable {
  var node: Node
  static func == (lhs: NodeBox, rhs: NodeBox) -> Bool {
    var comparison = NodeComparison()
    return comparison.equal(lhs.node, rhs.node)
  }
}

/// Structural equality of node graphs. Decoded graphs share instances (memoised resources), so a
/// plain recursive `==` would walk every path of an exponentially shared graph; pairs already
/// found equal are remembered instead.
struct NodeComparison {
  private struct Pair: Hashable {
    var left: ObjectIdentifier
    var right: ObjectIdentifier
  }
  private var equalPairs: Set<Pair> = []

  mutating func equal(_ lhs: Node?, _ rhs: Node?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): return true
    case (let lhs?, let rhs?): return equal(lhs, rhs)
    default: return false
    }
  }

  mutating func equal(_ lhs: Node, _ rhs: Node) -> Bool {
    if lhs === rhs { return true }
    let pair = Pair(left: ObjectIdentifier(lhs), right: ObjectIdentifier(rhs))
    if equalPairs.contains(pair) { return true }
    guard lhs.id == rhs.id, lhs.type == rhs.type, lhs.name == rhs.name,
      JSONValueComparison.equal(lhs.meta, rhs.meta), equal(lhs.parent, rhs.parent)
    else { return false }
    switch (lhs.children, rhs.children) {
    case (nil, nil): break
    case (let left?, let right?):
      guard left.count == right.count else { return false }
      for (leftChild, rightChild) in zip(left, right) where !equal(leftChild, rightChild) {
        return false
      }
    default: return false
    }
    equalPairs.insert(pair)
    return true
  }
}

/// Equality of JSON values up to how numbers are spelt: `1.0` is written as `1` and then reads
/// back as an integer, which is the same JSON number.
enum JSONValueComparison {
  static func equal(_ lhs: JSONAPIValue?, _ rhs: JSONAPIValue?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): return true
    case (let lhs?, let rhs?): return equal(lhs, rhs)
    default: return false
    }
  }

  static func equal(_ lhs: JSONAPIValue, _ rhs: JSONAPIValue) -> Bool {
    switch (lhs, rhs) {
    case (.array(let left), .array(let right)):
      return left.count == right.count && zip(left, right).allSatisfy { equal($0, $1) }
    case (.object(let left), .object(let right)):
      return left.count == right.count
        && left.allSatisfy { key, value in right[key].map { equal(value, $0) } ?? false }
    case (.integer, .number), (.number, .integer), (.number, .number):
      return lhs.doubleValue == rhs.doubleValue
    default:
      return lhs == rhs
    }
  }
}

/// How many resource values a node graph expands to when walked as a tree, counting up to `cap`.
/// Encoding walks values as trees, so the round trip is only attempted on graphs of bounded size.
enum NodeTreeSize {
  static func isWithin(_ cap: Int, _ nodes: [Node]) -> Bool {
    var remaining = cap
    for node in nodes where !visit(node, &remaining) { return false }
    return true
  }

  private static func visit(_ node: Node, _ remaining: inout Int) -> Bool {
    remaining -= 1
    if remaining < 0 { return false }
    if let parent = node.parent, !visit(parent, &remaining) { return false }
    for child in node.children ?? [] where !visit(child, &remaining) { return false }
    return true
  }
}
