import Foundation

/// Writes a planned JSON:API document (``PlannedNode``) as JSON text through a ``JSONWriter``:
/// resources and linkage straight from their parts, `attributes` from the members of a resource's
/// encoded object marked as attributes, values as they were encoded.
struct DocumentWriter {
  private var json: JSONWriter

  /// Levels a document adds around the values of a model: `data`, `attributes` or
  /// `relationships`, a relationship's `data`, arrays of them, `included`.
  static let documentLevels = 8

  /// A writer for documents encoded with `options`; `extraLevels` more levels of nesting are
  /// allowed for a document that wraps resources more deeply (atomic operations).
  init(options: EncodingOptions, extraLevels: Int = 0) {
    let userLimit = options.limits.maxNestingDepth
    // Overflow-safe: a limit of `Int.max` means none.
    let (allowed, overflow) = userLimit.addingReportingOverflow(Self.documentLevels + extraLevels)
    json = JSONWriter(
      formatting: options.outputFormatting, depthLimit: overflow ? Int.max : allowed,
      reportedDepthLimit: userLimit)
  }

  /// The text written so far, as `Data`.
  func takeData() throws -> Data {
    try json.bytes.takeData()
  }

  /// Writes `document`, as planned, as the whole text.
  ///
  /// - Throws: ``JSONAPIError/encodingNestingTooDeep(limit:codingPath:)`` with the user's
  ///   ``JSONAPIEncoder/Limits/maxNestingDepth`` when containers nest deeper than the document
  ///   allows (nested containers can be built without going through `encode`, which checks it).
  mutating func write(_ document: PlannedDocument) throws(JSONAPIError) {
    do {
      try writeObject(data: document.data, then: document.others, level: 0)
    } catch {
      throw json.tooDeep(error)
    }
  }

  /// `document` written by a new writer for `options`, as its whole text: the documents built
  /// from parts rather than encoded whole (an update, atomic operations and results).
  ///
  /// - Throws: As ``write(_:)``.
  static func text(
    of document: PlannedDocument, options: EncodingOptions, extraLevels: Int = 0
  ) throws -> Data {
    var writer = DocumentWriter(options: options, extraLevels: extraLevels)
    try writer.write(document)
    return try writer.takeData()
  }

  /// Writes resource `index` of a document's primary data array, opening the document
  /// (`{"data":[`) before the first: the primary data comes before every other member.
  ///
  /// - Throws: ``JSONAPIError/encodingNestingTooDeep(limit:codingPath:)`` as ``write(_:)``.
  mutating func writeStreamedResource(_ resource: ResourceParts, index: Int) throws(JSONAPIError) {
    do throws(JSONWriter.TooDeep) {
      if index == 0 { try openStreamedData() }
      json.startElement(index, level: 1)
      do {
        try writeSource(resource, level: 2)
      } catch {
        throw error.adding(.index(index)).adding(.member("data"))
      }
    } catch {
      throw json.tooDeep(error)
    }
  }

  /// `{"data":[`, the start of a document whose primary data streams.
  private mutating func openStreamedData() throws(JSONWriter.TooDeep) {
    try json.openObject(level: 0)
    json.writeKey("data", first: true, level: 0)
    do {
      try json.openArray(level: 1)
    } catch {
      throw error.adding(.member("data"))
    }
  }

  /// Closes the primary data array that ``writeStreamedResource(_:index:)`` wrote `count`
  /// resources of (opening it first when there are none), then writes the document's other
  /// members, `rest`, and closes the document. `data` sorts before every other top-level member,
  /// so `.sortedKeys` keeps it first.
  mutating func finishStreamedDocument(_ rest: [PlannedMember], count: Int) throws(JSONAPIError) {
    do throws(JSONWriter.TooDeep) {
      if count == 0 { try openStreamedData() }
      json.closeArray(isEmpty: count == 0, level: 1)
      try writeMembers(rest, first: false, level: 0)
    } catch {
      throw json.tooDeep(error)
    }
    json.closeObject(isEmpty: false, level: 0)
  }

  private mutating func write(_ node: PlannedNode, level: Int) throws(JSONWriter.TooDeep) {
    switch node {
    case .value(let value): try json.write(value, level: level)
    case .object(let members): try writeObject(members, level: level)
    case .array(let elements):
      try json.openArray(level: level)
      for index in elements.indices {
        json.startElement(index, level: level)
        do {
          try write(elements[index], level: level + 1)
        } catch {
          throw error.adding(.index(index))
        }
      }
      json.closeArray(isEmpty: elements.isEmpty, level: level)
    case .included(let resources):
      try json.openArray(level: level)
      let isEmpty = resources.isEmpty
      var index = 0
      while let resource = resources.next() {
        defer { index += 1 }
        json.startElement(index, level: level)
        do {
          try writeSource(resource, level: level + 1)
        } catch {
          throw error.adding(.index(index))
        }
      }
      json.closeArray(isEmpty: isEmpty, level: level)
    case .resource(let parts): try writeSource(parts, level: level)
    case .linkage(let linkage): try writeSource(linkage, level: level)
    case .toOneRelationship(let linkage): try writeRelationship(.linkage(linkage), level: level)
    case .toManyRelationship(let linkage): try writeRelationship(linkage, level: level)
    case .nullRelationship: try writeRelationship(.value(.null), level: level)
    case .attributes(let parts): try writeAttributes(of: parts, level: level)
    case .relationships(let parts): try writeSource(RelationshipMembers(parts: parts), level: level)
    case .relationship(let relationship):
      try writeObject(data: relationship.data, then: relationship.others, level: level)
    }
  }

  private mutating func writeObject(_ members: [PlannedMember], level: Int)
    throws(JSONWriter.TooDeep)
  {
    try json.openObject(level: level)
    try writeMembers(members, first: true, level: level)
    json.closeObject(isEmpty: members.isEmpty, level: level)
  }

  /// An object whose first member is `data`, when there is one, then `others`: a document or a
  /// relationship object as planned. `data` sorts before every member that follows it
  /// (`included`, `jsonapi`, `links`, `meta`), so `.sortedKeys` keeps it first.
  private mutating func writeObject(data: PlannedNode?, then others: [PlannedMember], level: Int)
    throws(JSONWriter.TooDeep)
  {
    try json.openObject(level: level)
    if let data { try writeMember("data", data, first: true, level: level) }
    try writeMembers(others, first: data == nil, level: level)
    json.closeObject(isEmpty: data == nil && others.isEmpty, level: level)
  }

  /// Members of an object at `level`, sorted when the output is; `first`: none written before.
  private mutating func writeMembers(_ members: [PlannedMember], first: Bool, level: Int)
    throws(JSONWriter.TooDeep)
  {
    var first = first
    let ordered =
      json.sortsKeys ? members.sorted { JSONWriter.keyPrecedes($0.key, $1.key) } : members
    for member in ordered {
      try writeMember(member.key, member.value, first: first, level: level)
      first = false
    }
  }

  @inline(__always)
  private mutating func writeMember(_ key: String, _ value: PlannedNode, first: Bool, level: Int)
    throws(JSONWriter.TooDeep)
  {
    json.writeKey(key, first: first, level: level)
    do {
      try write(value, level: level + 1)
    } catch {
      throw error.adding(.member(key))
    }
  }

  /// A relationship object with `data` as its one member (sorting one member changes nothing).
  private mutating func writeRelationship(_ data: PlannedNode, level: Int)
    throws(JSONWriter.TooDeep)
  {
    try json.openObject(level: level)
    try writeMember("data", data, first: true, level: level)
    json.closeObject(isEmpty: false, level: level)
  }

  /// A to-many relationship object, `{"data": [linkage, …]}`, written from the linkage as it is.
  private mutating func writeRelationship(_ linkage: [ResourceLinkage], level: Int)
    throws(JSONWriter.TooDeep)
  {
    try json.openObject(level: level)
    json.writeKey("data", first: true, level: level)
    do throws(JSONWriter.TooDeep) {
      try json.openArray(level: level + 1)
      for index in linkage.indices {
        json.startElement(index, level: level + 1)
        do {
          try writeSource(linkage[index], level: level + 2)
        } catch {
          throw error.adding(.index(index))
        }
      }
      json.closeArray(isEmpty: linkage.isEmpty, level: level + 1)
    } catch {
      throw error.adding(.member("data"))
    }
    json.closeObject(isEmpty: false, level: level)
  }

  /// A resource's `attributes`: the members of its encoded object marked as attributes; the
  /// resource writes it only when there is one.
  private mutating func writeAttributes(of parts: ResourceParts, level: Int)
    throws(JSONWriter.TooDeep)
  {
    let object = parts.fields
    try json.openObject(level: level)
    if json.sortsKeys {
      let attributes = object.members.filter { $0.kind == .attribute }
      for (count, member) in attributes.sorted(by: { JSONWriter.keyPrecedes($0.key, $1.key) })
        .enumerated()
      {
        try json.writeMember(member.key, member.value, first: count == 0, level: level)
      }
    } else {
      // By position, so that members of the other kinds are not copied (retaining their values)
      // only to be skipped.
      var first = true
      for position in 0..<object.count where object.members[position].kind == .attribute {
        let member = object.members[position]
        try json.writeMember(member.key, member.value, first: first, level: level)
        first = false
      }
    }
    json.closeObject(isEmpty: false, level: level)
  }

  /// A resource object, resource identifier or `relationships` object written from its parts; a
  /// resource always has a `type`, and `relationships` is written only when there is one, so
  /// none is empty.
  private mutating func writeSource(_ source: some MemberSource, level: Int)
    throws(JSONWriter.TooDeep)
  {
    if json.sortsKeys {
      // Rare: the source lists its members to sort.
      try writeObject(source.members, level: level)
      return
    }
    try json.openObject(level: level)
    var first = true
    try source.forEachMember { (key, value) throws(JSONWriter.TooDeep) in
      try writeMember(key, value, first: first, level: level)
      first = false
    }
    json.closeObject(isEmpty: false, level: level)
  }
}
