import Foundation

/// Reads a model's schema by decoding it from placeholders (``SchemaReadingDecoder``): hands out a
/// value for every type the model asks for and learns, from the metatype or from what the type's
/// own `init(from:)` asks, what each value is. One reader reads one model, on one thread.
///
/// Values are *recorded* (their members and kinds learned) down to ``recordedDepth``; below that,
/// and inside related resources (a relationship is a leaf, so cyclic model graphs end, R42), they
/// are only *built*: arrays are empty and `decodeIfPresent` gives `nil`, so building ends too,
/// except for a type that holds itself without an optional or an array between, which
/// ``builtDepth`` stops.
final class SchemaReader {
  /// How deep values are recorded; deeper ones read as ``JSONAPIResourceSchema/ValueKind/any``.
  static let recordedDepth = 8
  /// How deep values are built before reading gives up.
  static let builtDepth = 32

  /// The model's type name, for errors.
  let modelName: String
  /// The member names the encoder writes (R20, R44: the schema's names are the document's).
  let keys: KeyEncodingConverter
  /// Where reading failed, innermost first: see ``noteFailure(_:at:type:serial:)``.
  private(set) var failure: Failure?
  /// Counts the values built, so that a failure knows whether it happened inside a given one.
  private var builtCount = 0

  /// Where and why a model's decoding threw.
  struct Failure {
    /// The coding path of the value whose `init(from:)` threw (or that nested too deep).
    let path: [any CodingKey]
    /// That value's type.
    let type: Any.Type
    /// What was thrown.
    let error: any Error
    /// The ``builtCount`` when the value started being built.
    let serial: Int
  }

  /// Thrown when values nest deeper than ``builtDepth``.
  struct NestingTooDeep: Error, CustomStringConvertible {
    var description: String { "values nest deeper than \(SchemaReader.builtDepth) levels" }
  }

  init(modelName: String, keyEncodingStrategy: JSONAPIEncoder.KeyEncodingStrategy) {
    self.modelName = modelName
    keys = KeyEncodingConverter(strategy: keyEncodingStrategy)
  }

  /// A placeholder of `type` for the value at `path`, `depth` levels below the model, with what
  /// it is. `recording` is false inside related resources and below ``recordedDepth``.
  ///
  /// - Throws: what the type's `init(from:)` throws on placeholders, or ``NestingTooDeep``.
  func value<T: Decodable>(
    _ type: T.Type, at path: [any CodingKey], depth: Int, recording: Bool
  ) throws -> (value: T, probe: SchemaProbe) {
    guard depth <= Self.builtDepth else {
      let error = NestingTooDeep()
      noteFailure(error, at: path, type: type, serial: builtCount)
      throw error
    }
    if let related = Self.relationship(of: type) {
      // A relationship is a leaf: the related model is built, never recorded, so a cycle back
      // to this model ends (R42).
      let built = try build(type, at: path, depth: depth, recording: false)
      let object = JSONAPIResourceSchema.ValueKind.object(members: [])
      return (
        built.value,
        SchemaProbe(
          kind: related.isToMany ? .array(object) : object, relationship: related,
          isOptional: related.isOptional)
      )
    }
    if let (value, kind) = Self.placeholder(of: type) {
      return (value, SchemaProbe(kind: kind))
    }
    return try build(
      type, at: path, depth: depth, recording: recording && depth <= Self.recordedDepth)
  }

  /// Runs `T.init(from:)` on a ``SchemaReadingDecoder`` at `path`.
  private func build<T: Decodable>(
    _ type: T.Type, at path: [any CodingKey], depth: Int, recording: Bool
  ) throws -> (value: T, probe: SchemaProbe) {
    builtCount += 1
    let serial = builtCount
    let decoder = SchemaReadingDecoder(
      reader: self, codingPath: path, depth: depth, isRecording: recording,
      declaredResourceType: (type as? any JSONAPIResource.Type)?.jsonAPIType)
    do {
      let value = try T(from: decoder)
      return (value, decoder.probe(isAttribute: type is any JSONAPIAttributeExpressible.Type))
    } catch {
      noteFailure(error, at: path, type: type, serial: serial)
      throw error
    }
  }

  /// Remembers that the value of `type` at `path`, whose building started at `serial`, threw
  /// `error` — unless `error` is one a value inside it threw, passed on unchanged, which names
  /// the place better. An error the model caught and replaced is replaced here too.
  func noteFailure(_ error: any Error, at path: [any CodingKey], type: Any.Type, serial: Int) {
    if let failure, failure.serial >= serial,
      String(describing: failure.error) == String(describing: error)
    {
      return
    }
    failure = Failure(path: path, type: type, error: error, serial: serial)
  }
}

// MARK: - What a value is

/// What reading one value learned.
struct SchemaProbe {
  /// The value as an attribute (or as a member of an object attribute).
  var kind: JSONAPIResourceSchema.ValueKind
  /// What relationship it is when it is a resource's field; `nil` for an attribute.
  var relationship: RelationshipShape?
  /// Whether the value may be `null` (an `Optional` decoded whole, a `JSONAPIRelationship` of an
  /// optional).
  var isOptional = false

  init(
    kind: JSONAPIResourceSchema.ValueKind, relationship: RelationshipShape? = nil,
    isOptional: Bool = false
  ) {
    self.kind = kind
    self.relationship = relationship
    self.isOptional = isOptional
  }

  /// A value the reader knows nothing of.
  static var unknown: SchemaProbe { SchemaProbe(kind: .any) }
}

/// A relationship's shape as the model's types say it (R29, R30).
struct RelationshipShape: Equatable {
  /// The related `JSONAPIResource`'s type; `nil` when any type may appear.
  var targetType: String?
  var isToMany: Bool
  var isOptional = false
}

extension SchemaReader {
  /// The relationship `type` stands for, from its metatype alone: a `JSONAPIResource`, a
  /// `JSONAPIRelationshipExpressible` (`JSONAPIResourceIdentifier` among them), a
  /// `JSONAPIRelationship` of anything, or an optional, array or set of them. A
  /// `JSONAPIAttributeExpressible` is always an attribute, as the encoder has it.
  static func relationship(of type: Any.Type, depth: Int = 0) -> RelationshipShape? {
    guard depth < recordedDepth, !(type is any JSONAPIAttributeExpressible.Type) else {
      return nil
    }
    if let wrapper = type as? any SchemaRelationshipWrapper.Type {
      let related = wrapper.relatedType
      if let shape = relationship(of: related, depth: depth + 1) { return shape }
      // The encoder decides by the data's value (resource-shaped or not); any type may appear.
      return RelationshipShape(
        targetType: nil, isToMany: related is any SchemaCollection.Type,
        isOptional: related is any SchemaOptional.Type)
    }
    if let resource = type as? any JSONAPIResource.Type {
      return RelationshipShape(targetType: resource.jsonAPIType, isToMany: false)
    }
    if type is any JSONAPIRelationshipExpressible.Type {
      return RelationshipShape(targetType: nil, isToMany: false)
    }
    if let optional = type as? any SchemaOptional.Type,
      var shape = relationship(of: optional.wrappedType, depth: depth + 1)
    {
      shape.isOptional = true
      return shape
    }
    if let collection = type as? any SchemaCollection.Type,
      let element = relationship(of: collection.elementType, depth: depth + 1), !element.isToMany
    {
      return RelationshipShape(targetType: element.targetType, isToMany: true)
    }
    return nil
  }

  /// The placeholder of a type the reader knows without decoding it, with its kind: strings
  /// `"x"`, numbers `1`, `true`, a fixed date, and the first case of a `CaseIterable` enum. The
  /// values pass common validations (non-empty, positive).
  static func placeholder<T>(of type: T.Type) -> (T, JSONAPIResourceSchema.ValueKind)? {
    if let (value, kind) = scalar(of: type), let typed = value as? T { return (typed, kind) }
    return firstCase(of: type)
  }

  /// The fixed date placeholders hold: 2024-01-01T00:00:00Z.
  static let placeholderDate = Date(timeIntervalSince1970: 1_704_067_200)

  private static func scalar(of type: Any.Type) -> (Any, JSONAPIResourceSchema.ValueKind)? {
    switch ObjectIdentifier(type) {
    case ObjectIdentifier(String.self): return ("x", .string)
    case ObjectIdentifier(Bool.self): return (true, .boolean)
    case ObjectIdentifier(Int.self): return (Int(1), .integer)
    case ObjectIdentifier(Int8.self): return (Int8(1), .integer)
    case ObjectIdentifier(Int16.self): return (Int16(1), .integer)
    case ObjectIdentifier(Int32.self): return (Int32(1), .integer)
    case ObjectIdentifier(Int64.self): return (Int64(1), .integer)
    case ObjectIdentifier(UInt.self): return (UInt(1), .integer)
    case ObjectIdentifier(UInt8.self): return (UInt8(1), .integer)
    case ObjectIdentifier(UInt16.self): return (UInt16(1), .integer)
    case ObjectIdentifier(UInt32.self): return (UInt32(1), .integer)
    case ObjectIdentifier(UInt64.self): return (UInt64(1), .integer)
    case ObjectIdentifier(Double.self): return (Double(1), .number)
    case ObjectIdentifier(Float.self): return (Float(1), .number)
    case ObjectIdentifier(Decimal.self): return (Decimal(1), .number)
    case ObjectIdentifier(Date.self): return (placeholderDate, .date)
    // The encoder's data strategies write text (Base64) or an array of bytes; text is the
    // default of the library's DataEncodingStrategy.
    case ObjectIdentifier(Data.self): return (Data("x".utf8), .string)
    case ObjectIdentifier(URL.self):
      return URL(string: "https://example.com").map { ($0, .string) }
    case ObjectIdentifier(UUID.self):
      return (UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 1)), .string)
    case ObjectIdentifier(JSONAPIValue.self): return (JSONAPIValue.string("x"), .any)
    default: return nil
    }
  }

  /// The first case of a `CaseIterable` enum, with its kind: an enumeration of every raw value
  /// when they are strings, the raw value's kind when it is another scalar, and `.any` without
  /// raw values (its `Codable` is its own).
  private static func firstCase<T>(of type: T.Type) -> (T, JSONAPIResourceSchema.ValueKind)? {
    guard let iterable = type as? any CaseIterable.Type else { return nil }
    let cases = allCases(of: iterable)
    guard let first = cases.first as? T else { return nil }
    let raws = cases.map { ($0 as? any RawRepresentable)?.rawValue }
    let names = raws.compactMap { $0 as? String }
    if names.count == cases.count { return (first, .enumeration(names)) }
    if let raw = raws.first ?? nil, let (_, kind) = scalar(of: Swift.type(of: raw)) {
      return (first, kind)
    }
    return (first, .any)
  }

  private static func allCases<C: CaseIterable>(of type: C.Type) -> [Any] {
    type.allCases.map { $0 as Any }
  }
}

// MARK: - Metatype markers

/// A `JSONAPIRelationship` of any `Related`, recognised by its metatype.
protocol SchemaRelationshipWrapper {
  static var relatedType: Any.Type { get }
}

extension JSONAPIRelationship: SchemaRelationshipWrapper {
  static var relatedType: Any.Type { Related.self }
}

/// An `Optional` of any wrapped type, recognised by its metatype.
protocol SchemaOptional {
  static var wrappedType: Any.Type { get }
}

extension Optional: SchemaOptional {
  static var wrappedType: Any.Type { Wrapped.self }
}

/// An `Array` or `Set`, recognised by its metatype: of related resources, a to-many relationship.
protocol SchemaCollection {
  static var elementType: Any.Type { get }
}

extension Array: SchemaCollection {
  static var elementType: Any.Type { Element.self }
}

extension Set: SchemaCollection {
  static var elementType: Any.Type { Element.self }
}
