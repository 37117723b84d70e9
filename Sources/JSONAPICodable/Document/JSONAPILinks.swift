import Foundation

/// A JSON:API links object: named links at the top level, in a resource, a relationship or an error.
///
/// Look links up by name, or through the properties for the names the specification defines:
///
/// ```swift
/// let document = try JSONAPIDecoder().decode(JSONAPIDocument<[Article], JSONAPIValue>.self, from: data)
/// if let next = document.links?.next { print(next.href) }
/// document.links?["node--article"]   // any other name
/// ```
///
/// A `null` link means "this link does not exist" (JSON:API 1.1): it reads as `nil` and links
/// compare equal with or without it, but its name is kept (``nullNames``), so that a client can
/// tell a server that says "no next page" from one that sends no pagination links at all.
/// ``setNull(_:)`` writes one where a profile requires the member (the Cursor Pagination profile's
/// `prev` and `next`). Names keep their order, so encoding writes them back as they came.
public struct JSONAPILinks: Sendable, Hashable {
  // `nil`: a member written as `null` (R53, R63), which reads as no link.
  private var entries: [(name: String, link: JSONAPILink?)]

  /// Creates a links object from names and links, in that order.
  ///
  /// ```swift
  /// let links = JSONAPILinks(["self": "/articles/1", "related": "/articles/1/author"])
  /// ```
  public init(_ links: KeyValuePairs<String, JSONAPILink> = [:]) {
    entries = []
    for (name, link) in links { self[name] = link }
  }

  /// The link called `name`, or `nil` (also for a link set to `null`); setting `nil` removes it.
  public subscript(name: String) -> JSONAPILink? {
    get { entries.first(where: { $0.name == name }).flatMap(\.link) }
    set {
      if let index = entries.firstIndex(where: { $0.name == name }) {
        if let newValue { entries[index].link = newValue } else { entries.remove(at: index) }
      } else if let newValue {
        entries.append((name, newValue))
      }
    }
  }

  /// The names present, in document order (not those set to `null`).
  public var names: [String] { entries.compactMap { $0.link == nil ? nil : $0.name } }
  /// Whether there is no link at all (links set to `null` are none).
  public var isEmpty: Bool { !entries.contains { $0.link != nil } }

  /// The names written as `null`, in document order.
  public var nullNames: [String] { entries.compactMap { $0.link == nil ? $0.name : nil } }

  /// Writes the member `name` as `null`: a link said not to exist (JSON:API 1.1, and for
  /// pagination links in 1.0), in place of any link of that name. Reading it gives `nil`, and
  /// links compare equal with or without it; setting a link replaces it.
  ///
  /// ```swift
  /// var links: JSONAPILinks = ["next": "/people?page%5Bafter%5D=c2"]
  /// links.setNull("prev")   // {"next": "/people?page%5Bafter%5D=c2", "prev": null}
  /// ```
  public mutating func setNull(_ name: String) {
    if let index = entries.firstIndex(where: { $0.name == name }) {
      entries[index].link = nil
    } else {
      entries.append((name, nil))
    }
  }

  /// `self`: the link that produced this document, or that identifies this resource or relationship.
  public var selfLink: JSONAPILink? {
    get { self["self"] }
    set { self["self"] = newValue }
  }
  /// `related`: the related resource link of a relationship.
  public var related: JSONAPILink? {
    get { self["related"] }
    set { self["related"] = newValue }
  }
  /// `describedby` (JSON:API 1.1): a description document of the whole document.
  public var describedBy: JSONAPILink? {
    get { self["describedby"] }
    set { self["describedby"] = newValue }
  }
  /// `first`: the first page.
  public var first: JSONAPILink? {
    get { self["first"] }
    set { self["first"] = newValue }
  }
  /// `last`: the last page.
  public var last: JSONAPILink? {
    get { self["last"] }
    set { self["last"] = newValue }
  }
  /// `prev`: the previous page.
  public var prev: JSONAPILink? {
    get { self["prev"] }
    set { self["prev"] = newValue }
  }
  /// `next`: the next page.
  public var next: JSONAPILink? {
    get { self["next"] }
    set { self["next"] = newValue }
  }
  /// `about`: in an error object, details of this occurrence.
  public var about: JSONAPILink? {
    get { self["about"] }
    set { self["about"] = newValue }
  }
  /// `type`: in an error object (JSON:API 1.1), the kind of error.
  public var type: JSONAPILink? {
    get { self["type"] }
    set { self["type"] = newValue }
  }

  /// Two links objects are equal when they hold the same links under the same names, in any order;
  /// a `null` link is no link.
  public static func == (lhs: JSONAPILinks, rhs: JSONAPILinks) -> Bool {
    let present = lhs.entries.filter { $0.link != nil }
    guard present.count == rhs.entries.filter({ $0.link != nil }).count else { return false }
    return present.allSatisfy { rhs[$0.name] == $0.link }
  }

  /// Hashes the links independently of their order.
  public func hash(into hasher: inout Hasher) {
    let present = entries.filter { $0.link != nil }
    hasher.combine(present.count)
    var combined = 0
    for entry in present {
      var inner = Hasher()
      inner.combine(entry.name)
      inner.combine(entry.link)
      combined ^= inner.finalize()
    }
    hasher.combine(combined)
  }
}

extension JSONAPILinks: ExpressibleByDictionaryLiteral {
  /// A links object from a literal: `["self": "/articles/1"]`.
  public init(dictionaryLiteral elements: (String, JSONAPILink)...) {
    entries = []
    for (name, link) in elements { self[name] = link }
  }
}

extension JSONAPILinks: Codable {
  /// Decodes every member of the links object; `null` members are kept as ``nullNames`` and
  /// @-members (R50) are skipped.
  ///
  /// - Throws: `DecodingError` when the value is not an object or a member is neither a link nor `null`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    entries = []
    for key in container.allKeys where !key.stringValue.hasPrefix("@") {
      if try container.decodeNil(forKey: key) {
        entries.append((key.stringValue, nil))
        continue
      }
      entries.append((key.stringValue, try container.decode(JSONAPILink.self, forKey: key)))
    }
  }

  /// Encodes the links in their order.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyCodingKey.self)
    for entry in entries {
      if let link = entry.link {
        try container.encode(link, forKey: AnyCodingKey(entry.name))
      } else {
        try container.encodeNil(forKey: AnyCodingKey(entry.name))
      }
    }
  }
}
