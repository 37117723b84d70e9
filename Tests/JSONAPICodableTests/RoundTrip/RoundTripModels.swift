import Foundation
import JSONAPICodable

// Models for the property-based round trips.

/// Primary resource: attributes of every kind plus to-one and to-many relationships.
struct Library: Codable, Equatable, Sendable {
  var id: String
  var type = "libraries"
  var name: String
  var motto: String?
  var founded: Int?
  var rating: Double
  var small: Int8
  var big: UInt64
  var negative: Int64
  var ratio: Float
  var flags: [Bool]
  var address: Address?
  var shelves: [Shelf]
  var matrix: [[Double]]
  var openings: [String: Int]?
  var nothing: String?
  var curator: Member?
  var members: [Member]

  struct Address: Codable, Equatable, Sendable {
    var street: String
    var zip: String?
    var location: [Double]
  }

  struct Shelf: Codable, Equatable, Sendable {
    var label: String
    var counts: [Int]
    var note: String?
  }
}

/// Related resource. Everything but `id` and `type` is optional because a member met again while
/// it is being decoded (a cycle) comes back as its identifier alone.
struct Member: Codable, Equatable, Sendable, JSONAPIRelationshipExpressible {
  var id: String
  var type = "members"
  var name: String?
  var age: Int?
  var score: Double?
  var friends: [Member]?
  var library: LibraryReference?
}

/// A member's link back to a library, possibly the one being decoded above it.
struct LibraryReference: Codable, Equatable, Sendable {
  var id: String
  var type = "libraries"
  var name: String?
}

/// Plain attributes, for comparing with `JSONDecoder`.
struct PlainAttributes: Codable, Equatable, Sendable {
  var text: String
  var optionalText: String?
  var integer: Int
  var small: Int16
  var unsigned: UInt32
  var double: Double
  var float: Float
  var flag: Bool
  var decimal: Decimal
  var date: Date
  var bytes: Data
  var link: URL?
  var list: [String]
  var nested: [[Int]]
  var dictionary: [String: Double]
  var child: Child?

  struct Child: Codable, Equatable, Sendable {
    var label: String
    var values: [Double?]
    var grandchild: [Child]?
  }
}
