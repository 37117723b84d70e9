/// The `Decoder` ``SchemaReader`` runs a model's `init(from:)` against: it holds no data, hands out
/// placeholders, and records what the model asks for.
///
/// Recording (``isRecording``): every key asked becomes a member, in the order asked; `contains`
/// answers true and `decodeNil` false (both mark the member optional), so the model goes on to
/// decode the value; an unkeyed container has exactly one element, to learn the element type.
/// Building only (inside related resources and below ``SchemaReader/recordedDepth``): nothing is
/// recorded, `contains` answers false, `decodeNil` true, `decodeIfPresent` `nil`, and unkeyed
/// containers are empty, so that building ends.
final class SchemaReadingDecoder: Decoder {
  let reader: SchemaReader
  let codingPath: [any CodingKey]
  /// Levels below the model (the model itself is 0).
  let depth: Int
  let isRecording: Bool
  /// The `JSONAPIResource.jsonAPIType` of the value decoded, if it declares one: its `type`
  /// member decodes as that, for models that check it.
  let declaredResourceType: String?
  /// Whether this decoder reads the model itself, whose `id`, `type`, `lid`, `meta` and `links`
  /// are no fields (R17, R20).
  let isResourceRoot: Bool
  /// What the value asked for first; later requests of another kind are served, not recorded.
  private(set) var record: Record?

  /// The container a value asked for, and what was recorded in it.
  enum Record {
    case keyed(SchemaKeyedRecord)
    case unkeyed(SchemaUnkeyedRecord)
    case single(SchemaSingleValueRecord)
  }

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(
    reader: SchemaReader, codingPath: [any CodingKey], depth: Int, isRecording: Bool,
    declaredResourceType: String?, isResourceRoot: Bool = false
  ) {
    self.reader = reader
    self.codingPath = codingPath
    self.depth = depth
    self.isRecording = isRecording
    self.declaredResourceType = declaredResourceType
    self.isResourceRoot = isResourceRoot
  }

  /// A decoder for a value nested in this one (a nested container, a super decoder), at `path`.
  ///
  /// - Throws: ``SchemaReader/NestingTooDeep`` below ``SchemaReader/builtDepth``.
  func nested(at path: [any CodingKey], recording: Bool) throws -> SchemaReadingDecoder {
    guard depth < SchemaReader.builtDepth else {
      let error = SchemaReader.NestingTooDeep()
      reader.noteFailure(error, at: path, type: Any.self, serial: Int.max)
      throw error
    }
    return SchemaReadingDecoder(
      reader: reader, codingPath: path, depth: depth + 1,
      isRecording: recording && depth < SchemaReader.recordedDepth, declaredResourceType: nil)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    let keyed: SchemaKeyedRecord
    if case .keyed(let recorded) = record {
      keyed = recorded  // asked again (a superclass decoding from the same decoder)
    } else {
      keyed = SchemaKeyedRecord()
      if record == nil { record = .keyed(keyed) }
    }
    return KeyedDecodingContainer(SchemaKeyedContainer<Key>(decoder: self, record: keyed))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let unkeyed: SchemaUnkeyedRecord
    if case .unkeyed(let recorded) = record {
      unkeyed = recorded
    } else {
      unkeyed = SchemaUnkeyedRecord()
      if record == nil { record = .unkeyed(unkeyed) }
    }
    return SchemaUnkeyedContainer(decoder: self, record: unkeyed)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    let single: SchemaSingleValueRecord
    if case .single(let recorded) = record {
      single = recorded
    } else {
      single = SchemaSingleValueRecord()
      if record == nil { record = .single(single) }
    }
    return SchemaSingleValueContainer(decoder: self, record: single)
  }

  /// What the value turned out to be, once its `init(from:)` returned. `isAttribute` for a
  /// `JSONAPIAttributeExpressible` type, never a relationship.
  func probe(isAttribute: Bool) -> SchemaProbe {
    guard isRecording, let record else { return .unknown }
    var probe: SchemaProbe
    switch record {
    case .keyed(let keyed):
      probe = SchemaProbe(kind: .object(members: keyed.attributes))
      // A nested value with both `id` and `type` is a relationship, as the encoder has it.
      if keyed.hasMember(ResourceMemberName.id.text), keyed.hasMember(ResourceMemberName.type.text)
      {
        probe.relationship = RelationshipShape(targetType: nil, isToMany: false)
      }
    case .unkeyed(let unkeyed):
      let element = unkeyed.element?.probe ?? .unknown
      probe = SchemaProbe(kind: .array(element.kind))
      if let related = element.relationship, !related.isToMany {
        probe.relationship = RelationshipShape(targetType: related.targetType, isToMany: true)
      }
    case .single(let single):
      probe = single.value?.probe ?? .unknown
      probe.isOptional = probe.isOptional || single.mayBeNull
    }
    if isAttribute { probe.relationship = nil }
    return probe
  }
}

// MARK: - Records

/// One value as recorded: known once decoded, or (for a nested container handed out) when the
/// model is done with it.
enum SchemaRecordedValue {
  case probe(SchemaProbe)
  case nested(SchemaReadingDecoder)

  var probe: SchemaProbe {
    switch self {
    case .probe(let probe): return probe
    case .nested(let decoder): return decoder.probe(isAttribute: false)
    }
  }
}

/// The members a keyed container was asked for, in order, each once.
final class SchemaKeyedRecord {
  struct Member {
    let name: String
    var value: SchemaRecordedValue?
    var mayBeAbsent: Bool

    var probe: SchemaProbe { value?.probe ?? .unknown }
    /// Whether the member may be absent or `null`.
    var isOptional: Bool { mayBeAbsent || probe.isOptional }
  }

  private(set) var members: [Member] = []
  private var positions: [String: Int] = [:]
  /// The Swift type each member of the model itself was decoded as, by member name: what a
  /// write's values are checked against (``ServedAttributeType``).
  private(set) var types: [String: ServedAttributeType] = [:]

  /// Notes that member `name` (the Swift key `key`) was decoded as `type` (the first stays).
  func noteType<T: Decodable>(_ name: String, key: String, _ type: T.Type) {
    if types[name] == nil { types[name] = ServedAttributeType(type, name: name, key: key) }
  }

  /// Notes that member `name` was asked for (first asks fix the order).
  func noteAsked(_ name: String, mayBeAbsent: Bool) {
    if let position = positions[name] {
      members[position].mayBeAbsent = members[position].mayBeAbsent || mayBeAbsent
    } else {
      positions[name] = members.count
      members.append(Member(name: name, value: nil, mayBeAbsent: mayBeAbsent))
    }
  }

  /// Records what member `name` holds (the first value recorded stays).
  func note(_ name: String, _ value: SchemaRecordedValue, mayBeAbsent: Bool) {
    noteAsked(name, mayBeAbsent: mayBeAbsent)
    if let position = positions[name], members[position].value == nil {
      members[position].value = value
    }
  }

  func hasMember(_ name: String) -> Bool { positions[name] != nil }

  /// The members as the attributes of an object.
  var attributes: [JSONAPIResourceSchema.Attribute] {
    members.map { member in
      JSONAPIResourceSchema.Attribute(
        name: member.name, kind: member.probe.kind, isOptional: member.isOptional)
    }
  }
}

/// The element an unkeyed container was first asked for.
final class SchemaUnkeyedRecord {
  var element: SchemaRecordedValue?
}

/// The value a single-value container was asked for.
final class SchemaSingleValueRecord {
  var value: SchemaRecordedValue?
  var mayBeNull = false
}

// MARK: - Containers

struct SchemaKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: SchemaReadingDecoder
  let record: SchemaKeyedRecord

  var codingPath: [any CodingKey] { decoder.codingPath }
  /// No keys: the reader learns members from what the model asks, and a dictionary decodes empty.
  var allKeys: [Key] { [] }

  /// The member name the encoder writes for `key` when it is recorded; `nil` when it is not (not
  /// recording, or a resource's own member).
  private func recordedName(_ key: any CodingKey) -> String? {
    guard decoder.isRecording else { return nil }
    let name = decoder.reader.keys.memberName(
      for: key, at: EncodingPath(codingPath.map { EncodingPath.Step.key($0) }))
    if decoder.isResourceRoot, let reserved = ResourceMemberName(name),
      reserved.isIdentity || reserved == .meta || reserved == .links
    {
      return nil
    }
    return name
  }

  func contains(_ key: Key) -> Bool {
    guard decoder.isRecording else { return false }
    if let name = recordedName(key) { record.noteAsked(name, mayBeAbsent: true) }
    return true
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    guard decoder.isRecording else { return true }
    if let name = recordedName(key) { record.noteAsked(name, mayBeAbsent: true) }
    return false
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try member(type, forKey: key, mayBeAbsent: false)
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard decoder.isRecording else { return nil }
    return try member(type, forKey: key, mayBeAbsent: true)
  }

  private func member<T: Decodable>(_ type: T.Type, forKey key: Key, mayBeAbsent: Bool) throws
    -> T
  {
    if key.stringValue == ResourceMemberName.type.text, let declared = decoder.declaredResourceType,
      let value = declared as? T
    {
      return value
    }
    let path = codingPath + [key]
    guard let name = recordedName(key) else {
      return try decoder.reader.value(type, at: path, depth: decoder.depth + 1, recording: false)
        .value
    }
    record.noteAsked(name, mayBeAbsent: mayBeAbsent)
    let read = try decoder.reader.value(type, at: path, depth: decoder.depth + 1, recording: true)
    record.note(name, .probe(read.probe), mayBeAbsent: mayBeAbsent)
    if decoder.isResourceRoot { record.noteType(name, key: key.stringValue, type) }
    return read.value
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try member(type, forKey: key, mayBeAbsent: false)
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try member(type, forKey: key, mayBeAbsent: false)
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try member(type, forKey: key, mayBeAbsent: false)
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try member(type, forKey: key, mayBeAbsent: false)
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try member(type, forKey: key, mayBeAbsent: false)
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try member(type, forKey: key, mayBeAbsent: false)
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try member(type, forKey: key, mayBeAbsent: false)
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try member(type, forKey: key, mayBeAbsent: false)
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try member(type, forKey: key, mayBeAbsent: false)
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try member(type, forKey: key, mayBeAbsent: false)
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try member(type, forKey: key, mayBeAbsent: false)
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try member(type, forKey: key, mayBeAbsent: false)
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try member(type, forKey: key, mayBeAbsent: false)
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try member(type, forKey: key, mayBeAbsent: false)
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
    throws -> KeyedDecodingContainer<NestedKey>
  {
    try nestedDecoder(forKey: key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try nestedDecoder(forKey: key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    // Synthesized class coding writes the superclass's members under "super".
    try nestedDecoder(forKey: AnyCodingKey("super"))
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    try nestedDecoder(forKey: key)
  }

  /// A decoder for the value at `key`, recorded as the member's value once the model is done.
  private func nestedDecoder(forKey key: any CodingKey) throws -> SchemaReadingDecoder {
    let name = recordedName(key)
    let nested = try decoder.nested(at: codingPath + [key], recording: name != nil)
    if let name { record.note(name, .nested(nested), mayBeAbsent: false) }
    return nested
  }
}

struct SchemaUnkeyedContainer: UnkeyedDecodingContainer {
  let decoder: SchemaReadingDecoder
  let record: SchemaUnkeyedRecord
  private(set) var currentIndex = 0
  /// How many elements past the end the model may still decode before decoding throws: enough
  /// for fixed-size arrays read without `isAtEnd`, bounded for loops that wait for an error.
  private static let elementsPastEnd = 16

  init(decoder: SchemaReadingDecoder, record: SchemaUnkeyedRecord) {
    self.decoder = decoder
    self.record = record
  }

  var codingPath: [any CodingKey] { decoder.codingPath }
  /// One element when recording (to learn its type), none when building.
  var count: Int? { decoder.isRecording ? 1 : 0 }
  var isAtEnd: Bool { currentIndex >= (count ?? 0) }

  /// Whether the element at ``currentIndex`` is the one recorded.
  private var recordsElement: Bool { decoder.isRecording && currentIndex == 0 }

  private mutating func advance() throws -> [any CodingKey] {
    guard currentIndex < (count ?? 0) + Self.elementsPastEnd else {
      throw DecodingError.valueNotFound(
        Any.self,
        DecodingError.Context(
          codingPath: codingPath, debugDescription: "Unkeyed container is at end."))
    }
    let path = codingPath + [AnyCodingKey(index: currentIndex)]
    currentIndex += 1
    return path
  }

  mutating func decodeNil() throws -> Bool {
    // The element may be null; the recorded element is still decoded, to learn its type.
    !recordsElement
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try element(type) }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try element(type) }
  mutating func decode(_ type: String.Type) throws -> String { try element(type) }
  mutating func decode(_ type: Double.Type) throws -> Double { try element(type) }
  mutating func decode(_ type: Float.Type) throws -> Float { try element(type) }
  mutating func decode(_ type: Int.Type) throws -> Int { try element(type) }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try element(type) }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try element(type) }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try element(type) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try element(type) }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try element(type) }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try element(type) }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try element(type) }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try element(type) }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try element(type) }

  private mutating func element<T: Decodable>(_ type: T.Type) throws -> T {
    let recording = recordsElement
    let path = try advance()
    let read = try decoder.reader.value(
      type, at: path, depth: decoder.depth + 1, recording: recording)
    if recording, record.element == nil { record.element = .probe(read.probe) }
    return read.value
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try nestedDecoder().container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try nestedDecoder().unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    try nestedDecoder()
  }

  private mutating func nestedDecoder() throws -> SchemaReadingDecoder {
    let recording = recordsElement
    let nested = try decoder.nested(at: try advance(), recording: recording)
    if recording, record.element == nil { record.element = .nested(nested) }
    return nested
  }
}

struct SchemaSingleValueContainer: SingleValueDecodingContainer {
  let decoder: SchemaReadingDecoder
  let record: SchemaSingleValueRecord

  var codingPath: [any CodingKey] { decoder.codingPath }

  func decodeNil() -> Bool {
    guard decoder.isRecording else { return true }
    record.mayBeNull = true
    return false
  }

  func decode<T: Decodable>(_ type: T.Type) throws -> T { try value(type) }

  private func value<T: Decodable>(_ type: T.Type) throws -> T {
    let read = try decoder.reader.value(
      type, at: codingPath, depth: decoder.depth + 1, recording: decoder.isRecording)
    if decoder.isRecording, record.value == nil { record.value = .probe(read.probe) }
    return read.value
  }

  func decode(_ type: Bool.Type) throws -> Bool { try value(type) }
  func decode(_ type: String.Type) throws -> String { try value(type) }
  func decode(_ type: Double.Type) throws -> Double { try value(type) }
  func decode(_ type: Float.Type) throws -> Float { try value(type) }
  func decode(_ type: Int.Type) throws -> Int { try value(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try value(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try value(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try value(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try value(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try value(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try value(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try value(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try value(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try value(type) }
}
