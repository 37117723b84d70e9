import Foundation

/// Writes the documents a ``JSONAPIServer`` answers with, from records: resource objects with
/// their attributes in schema order, relationship objects with links and linkage, and the
/// top-level members. It writes JSON through ``JSONWriter`` and knows JSON:API's layout only.
struct ServedDocument {
  private var writer = JSONWriter(
    formatting: [.withoutEscapingSlashes], depthLimit: 600, reportedDepthLimit: 512)
  /// For each open container, how many members or elements it has so far.
  private var counts: [Int] = []

  // MARK: JSON

  mutating func openObject() throws {
    try writer.openObject(level: counts.count)
    counts.append(0)
  }

  mutating func closeObject() {
    let count = counts.popLast() ?? 0
    writer.closeObject(isEmpty: count == 0, level: counts.count)
  }

  mutating func openArray() throws {
    try writer.openArray(level: counts.count)
    counts.append(0)
  }

  mutating func closeArray() {
    let count = counts.popLast() ?? 0
    writer.closeArray(isEmpty: count == 0, level: counts.count)
  }

  /// Starts a member of the innermost object.
  mutating func key(_ name: String) {
    guard let last = counts.indices.last else { return }
    writer.writeKey(name, first: counts[last] == 0, level: last)
    counts[last] += 1
  }

  mutating func string(_ text: String) throws {
    try writer.write(.string(text), level: counts.count)
  }

  mutating func null() throws {
    try writer.write(.null, level: counts.count)
  }

  mutating func value(_ value: JSONAPIValue) throws {
    switch value {
    case .null: try writer.write(.null, level: counts.count)
    case .bool(let flag): try writer.write(.bool(flag), level: counts.count)
    case .integer(let number): try writer.write(EncodedNode.integer(number), level: counts.count)
    case .number(let number):
      guard number.isFinite else { return try writer.write(.null, level: counts.count) }
      var text = number.description
      if text.hasSuffix(".0") { text.removeLast(2) }
      try writer.write(.number(text), level: counts.count)
    case .string(let text): try writer.write(.string(text), level: counts.count)
    case .array(let elements):
      try writer.openArray(level: counts.count)
      counts.append(0)
      for (index, element) in elements.enumerated() {
        writer.startElement(index, level: counts.count - 1)
        try self.value(element)
      }
      closeArray()
    case .object(let members):
      try openObject()
      for name in members.keys.sorted(by: JSONWriter.keyPrecedes) {
        key(name)
        try self.value(members[name] ?? .null)
      }
      closeObject()
    }
  }

  /// Writes the elements of an array member: `body` is called with each element's index after the
  /// separator is written.
  mutating func array<S: Sequence>(
    _ elements: S, _ body: (inout ServedDocument, S.Element) throws -> Void
  ) throws {
    try writer.openArray(level: counts.count)
    counts.append(0)
    for (index, element) in elements.enumerated() {
      writer.startElement(index, level: counts.count - 1)
      try body(&self, element)
    }
    closeArray()
  }

  mutating func data() throws -> Data {
    try writer.bytes.takeData()
  }

  // MARK: JSON:API

  /// A resource identifier object.
  mutating func identifier(_ identifier: JSONAPIResourceIdentifier) throws {
    try openObject()
    key("type")
    try string(identifier.type)
    if let id = identifier.id {
      key("id")
      try string(id)
    }
    if let lid = identifier.lid {
      key("lid")
      try string(lid)
    }
    closeObject()
  }

  /// A relationship's `data`.
  mutating func linkage(_ linkage: JSONAPILinkage) throws {
    switch linkage {
    case .toOne(let identifier?): try self.identifier(identifier)
    case .toOne(nil): try null()
    case .toMany(let identifiers):
      try array(identifiers) { document, identifier in try document.identifier(identifier) }
    }
  }

  /// A resource object: `type`, `id`, the attributes and relationships that `fields` allows (all
  /// when `nil`) in schema order, and `links.self` under `links` (none when `nil`).
  ///
  /// A to-many relationship whose linkage names more than its limit in `linkageLimits` is
  /// written with its links and without `data` (R25, R32).
  mutating func resource(
    _ record: JSONAPIResourceRecord, schema: JSONAPIResourceSchema, fields: Set<String>?,
    links: ServedLinks?, meta: JSONAPIValue? = nil, linkageLimits: [String: Int] = [:]
  ) throws {
    try openObject()
    key("type")
    try string(record.type)
    key("id")
    try string(record.id)
    let attributes = schema.attributes.filter { attribute in
      fields?.contains(attribute.name) ?? true && record.attributes[attribute.name] != nil
    }
    if !attributes.isEmpty {
      key("attributes")
      try openObject()
      for attribute in attributes {
        key(attribute.name)
        try value(record.attributes[attribute.name] ?? .null)
      }
      closeObject()
    }
    let relationships = schema.relationships.filter { fields?.contains($0.name) ?? true }
    if !relationships.isEmpty {
      key("relationships")
      try openObject()
      for relationship in relationships {
        key(relationship.name)
        try openObject()
        if let links {
          key("links")
          try openObject()
          key("self")
          try string(links.relationship(relationship.name, of: record))
          key("related")
          try string(links.related(relationship.name, of: record))
          closeObject()
        }
        let served =
          record.relationships[relationship.name]
          ?? (relationship.isToMany ? .toMany([]) : .toOne(nil))
        if links == nil || served.identifiers.count <= linkageLimits[relationship.name] ?? Int.max {
          key("data")
          try linkage(served)
        }
        closeObject()
      }
      closeObject()
    }
    if let links {
      key("links")
      try openObject()
      key("self")
      try string(links.resource(record))
      closeObject()
    }
    if let meta {
      key("meta")
      try value(meta)
    }
    closeObject()
  }

  /// `{"data": resource, "included": [...]}` without links: what a model is decoded from to
  /// check it, its related resources `included` so that their models decode whole.
  static func data(of record: JSONAPIResourceRecord, included: [JSONAPIResourceRecord] = [])
    throws -> Data
  {
    var document = ServedDocument()
    try document.openObject()
    document.key("data")
    try document.bare(record)
    if !included.isEmpty {
      document.key("included")
      try document.array(included) { document, related in try document.bare(related) }
    }
    document.closeObject()
    return try document.data()
  }

  /// A resource object with every member the record holds and no links.
  private mutating func bare(_ record: JSONAPIResourceRecord) throws {
    try openObject()
    key("type")
    try string(record.type)
    if !record.id.isEmpty {
      key("id")
      try string(record.id)
    }
    if !record.attributes.isEmpty {
      key("attributes")
      try value(.object(record.attributes))
    }
    if !record.relationships.isEmpty {
      key("relationships")
      try openObject()
      for name in record.relationships.keys.sorted() {
        key(name)
        try openObject()
        key("data")
        try linkage(record.relationships[name] ?? .toOne(nil))
        closeObject()
      }
      closeObject()
    }
    closeObject()
  }
}

/// The links a server writes: absolute URLs under its base URL.
struct ServedLinks: Sendable {
  /// The base URL without a final `/`, such as `http://127.0.0.1:8080` or `https://x/api`.
  let base: String
  /// The scheme, host and port of the base URL (all of it when it is a path).
  let origin: String
  /// The path of the base URL, such as `/api`, or empty.
  let path: String

  /// The links under `base`, read once: its origin and its path.
  init(base: String) {
    self.base = base
    guard let scheme = base.range(of: "://") else {
      (origin, path) = ("", base)
      return
    }
    let rest = base[scheme.upperBound...]
    guard let slash = rest.firstIndex(of: "/") else {
      (origin, path) = (base, "")
      return
    }
    (origin, path) = (String(base[..<slash]), String(base[slash...]))
  }

  func resource(_ record: JSONAPIResourceRecord) -> String {
    "\(base)/\(Self.segment(record.type))/\(Self.segment(record.id))"
  }

  func relationship(_ name: String, of record: JSONAPIResourceRecord) -> String {
    "\(resource(record))/relationships/\(Self.segment(name))"
  }

  func related(_ name: String, of record: JSONAPIResourceRecord) -> String {
    "\(resource(record))/\(Self.segment(name))"
  }

  /// A request target made absolute under the base URL's origin.
  func absolute(_ target: String) -> String {
    if target.hasPrefix("http://") || target.hasPrefix("https://") { return target }
    return origin + (target.hasPrefix("/") ? target : "/" + target)
  }

  /// `text` as one path segment: every byte but the unreserved ones and the sub-delimiters
  /// percent-encoded (RFC 3986 section 3.3), so an id holding `/` or `?` stays one segment.
  static func segment(_ text: String) -> String {
    guard text.utf8.contains(where: { !isUnencoded($0) }) else { return text }
    let hex = Array("0123456789ABCDEF".utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count * 3)
    for byte in text.utf8 {
      if isUnencoded(byte) {
        bytes.append(byte)
      } else {
        bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whether `byte` stays as it is in a path segment: an unreserved character or a sub-delimiter,
  /// `:` or `@`.
  private static func isUnencoded(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return "-._~!$&'()*+,;=:@".utf8.contains(byte)
    }
  }
}
