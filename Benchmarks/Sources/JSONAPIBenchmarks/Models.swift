// The same plain Codable models decode from the JSON:API document (through JSONAPIDecoder) and
// from the flattened JSON (through JSONDecoder): that is the comparison the benchmark makes.

struct Person: Codable, Equatable, Sendable {
  var id: String
  var type = "people"
  var name: String
  var email: String
  var age: Int
}

struct Comment: Codable, Equatable, Sendable {
  var id: String
  var type = "comments"
  var body: String
  var author: Person
}

/// A nested attribute object (stays inside `attributes`, not a relationship).
struct Stats: Codable, Equatable, Sendable {
  var views: Int
  var likes: Int
  var ratio: Double
}

struct Article: Codable, Equatable, Sendable {
  var id: String
  var type = "articles"
  var title: String
  var body: String
  var publishedAt: String
  var wordCount: Int
  var readingTime: Double
  var tags: [String]
  var stats: Stats
  var author: Person
  var comments: [Comment]
}

// "Many references": every article points at a few shared people and tags.

struct Tag: Codable, Equatable, Sendable {
  var id: String
  var type = "tags"
  var name: String
}

struct TaggedArticle: Codable, Equatable, Sendable {
  var id: String
  var type = "articles"
  var title: String
  var author: Person
  var tags: [Tag]
}

// "Deep chain": each node's `next` relationship points at the following node.

final class ChainNode: Codable, Equatable, Sendable {
  let id: String
  let type: String
  let name: String
  let value: Int
  let next: ChainNode?

  init(id: String, name: String, value: Int, next: ChainNode?) {
    self.id = id
    self.type = "nodes"
    self.name = name
    self.value = value
    self.next = next
  }

  static func == (lhs: ChainNode, rhs: ChainNode) -> Bool {
    // Iterative, so that comparing long chains does not recurse.
    var left: ChainNode? = lhs
    var right: ChainNode? = rhs
    while let l = left, let r = right {
      if l === r { return true }
      guard l.id == r.id, l.type == r.type, l.name == r.name, l.value == r.value else {
        return false
      }
      left = l.next
      right = r.next
    }
    return left == nil && right == nil
  }
}

// "Back-references": an author whose `articles` relationship lists every article that names it.

struct BackReferencedArticle: Codable, Equatable, Sendable {
  var id: String
  var type = "articles"
  var title: String?
  var author: ListingAuthor?
}

struct ListingAuthor: Codable, Equatable, Sendable {
  var id: String
  var type = "people"
  var name: String?
  var articles: [BackReferencedArticle]?
}
