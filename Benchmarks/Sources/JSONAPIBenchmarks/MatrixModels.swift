import Foundation

// Models of the shape matrix (issue 15). Each decodes from a JSON:API document through
// JSONAPIDecoder and from the equivalent plain JSON through JSONDecoder.

/// Wide: 30 attributes of mixed scalar types, a few of them optional (and nil), no relationships.
struct WideRecord: Codable, Equatable, Sendable {
  var id: String
  var type = "records"
  var name: String
  var code: String
  var status: String
  var category: String
  var region: String
  var currency: String
  var note: String?
  var label: String?
  var quantity: Int
  var rank: Int
  var year: Int
  var score: Int
  var stock: Int?
  var parent: Int?
  var small: Int8
  var medium: Int32
  var large: Int64
  var unsigned: UInt32
  var price: Double
  var weight: Double
  var ratio: Double
  var latitude: Double
  var longitude: Double
  var discount: Float?
  var active: Bool
  var verified: Bool
  var archived: Bool
  var featured: Bool?
}

/// Tiny: an id, a type and one attribute.
struct TinyRecord: Codable, Equatable, Sendable {
  var id: String
  var type = "tiny"
  var name: String
}

/// String-heavy: long bodies with escapes, non-ASCII and astral characters.
struct TextRecord: Codable, Equatable, Sendable {
  var id: String
  var type = "texts"
  var title: String
  var summary: String
  var body: String
}

/// Foundation types through the coders' strategies.
struct EventRecord: Codable, Equatable, Sendable {
  var id: String
  var type = "events"
  var startsAt: Date
  var endsAt: Date
  var reference: UUID
  var link: URL
  var price: Decimal
  var name: String
}

/// Small documents: one article (~1 KB of attributes), or a page of them with included authors.
struct PageArticle: Codable, Equatable, Sendable {
  var id: String
  var type = "articles"
  var title: String
  var body: String
  var publishedAt: String
  var wordCount: Int
  var readingTime: Double
  var tags: [String]
  var stats: Stats
  var author: Person?
}
