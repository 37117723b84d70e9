/// The value a decoder or container stands on: a tape index and what the value means there.
///
/// The same JSON object is read differently as the top level, a resource, a relationship object or a
/// plain attribute value; the role carries that meaning down the Codable calls.
struct DecodingNode {
  enum Role: UInt8 {
    /// Attribute land: plain JSON, decoded as `JSONDecoder` would.
    case json
    /// A plain JSON object read as `[String: Value]`: its keys stay as written, whatever the key
    /// strategy (as with `JSONDecoder`); its values are `json` again.
    case dictionary
    /// The top-level object, read as a ``JSONAPIDocument``.
    case document
    /// Top-level `data`: a resource object, an array of them, or null.
    case primaryData
    /// A relationship's `data`: an identifier, an array of them, or null; resolved against the index.
    case linkage
    /// A resource object.
    case resource
    /// A resource identifier standing in for a resource: one the document does not include, or one
    /// cut because it is being decoded further up. Only `type`, `id`, `lid` and `meta` are read
    /// (R34), whatever else a broken document puts in the object.
    case identifier
    /// A relationship object, read as a ``JSONAPIRelationship``.
    case relationshipObject
    /// A resource's `id`, `type` or `lid` string, which also decodes into numbers and UUIDs.
    case identityString
  }

  var index: Int
  var role: Role

  /// How the object here reads when it stands in for a resource it does not lead to (not included,
  /// or cut in a cycle): a linkage object is an identifier; primary data stays a resource, since a
  /// create body has no id to look up.
  var standInRole: Role { role == .linkage ? .identifier : .resource }
}

/// One step of a coding path: a key of a keyed container or a position in an unkeyed one.
enum PathComponent {
  case key(any CodingKey)
  case index(Int)

  var codingKey: any CodingKey {
    switch self {
    case .key(let key): return key
    case .index(let index): return AnyCodingKey(index: index)
    }
  }
}
