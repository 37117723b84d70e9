extension JSONAPIResourceSchema {
  /// Learns a resource type's schema from its `Decodable` model, without an instance.
  ///
  /// The model's `init(from:)` runs against a decoder that holds no data: it hands out
  /// placeholder values (`"x"` for text, `1` for numbers, `true`, 2024-01-01T00:00:00Z for
  /// dates, the first case of a `CaseIterable` enum) and records every member the model asks
  /// for, in the order it asks:
  ///
  /// - `id`, `type`, `lid`, `meta` and `links` are the resource's own members, no fields.
  /// - A member whose type conforms to `JSONAPIResource` is a to-one relationship to its
  ///   `JSONAPIResource.jsonAPIType`; an array or set of them is a to-many relationship. So is
  ///   a `JSONAPIRelationship` of them, a `JSONAPIResourceIdentifier` (of any type), a
  ///   `JSONAPIRelationshipExpressible` type, and a nested value with both `id` and `type`, as
  ///   `JSONAPIEncoder` has it. Related models are not read themselves, so models that refer
  ///   to each other are fine.
  /// - Every other member is an attribute: strings, `URL`, `UUID` and `Data` are
  ///   ``ValueKind/string``, integers of every width ``ValueKind/integer``, `Double`, `Float` and
  ///   `Decimal` ``ValueKind/number``, `Date` ``ValueKind/date``, `JSONAPIValue`
  ///   ``ValueKind/any``, arrays ``ValueKind/array(_:)``, nested values
  ///   ``ValueKind/object(members:)`` (read 8 levels deep), and `CaseIterable` enums with
  ///   `String` raw values ``ValueKind/enumeration(_:)`` of their raw values. A
  ///   `JSONAPIAttributeExpressible` type is always an attribute.
  /// - `Optional` members (`decodeIfPresent`, or `contains` and `decodeNil` in a hand-written
  ///   `init(from:)`) are optional.
  ///
  /// Names are member names in documents: the Swift keys converted by `keyEncodingStrategy`,
  /// exactly as `JSONAPIEncoder` writes them.
  ///
  /// ```swift
  /// struct Article: Codable, JSONAPIResource {
  ///   static let jsonAPIType = "articles"
  ///   var id: String?
  ///   var title: String
  ///   var wordCount: Int?
  ///   var author: Person?          // Person: JSONAPIResource
  /// }
  /// let schema = try JSONAPIResourceSchema(reading: Article.self, keyEncodingStrategy: .convertToSnakeCase)
  /// schema.attributes.map(\.name)            // ["title", "word_count"]
  /// schema.relationship(named: "author")     // to-one "people", optional
  /// ```
  ///
  /// - Parameters:
  ///   - model: The model of the resource type.
  ///   - keyEncodingStrategy: The key strategy your `JSONAPIEncoder` uses.
  /// - Throws: ``JSONAPIDeclarationError`` when the model's `init(from:)`
  ///   throws on the placeholders: a validation that rejects them, or an enum that is not
  ///   `CaseIterable`. The reason names the model, the type that threw and what to change;
  ///   `codingPath` is the member's path, such as `days[0].mood`. When the model cannot be
  ///   changed, build the schema with ``init(type:attributes:relationships:)`` instead.
  public init<Model: Decodable & JSONAPIResource>(
    reading model: Model.Type,
    keyEncodingStrategy: JSONAPIEncoder.KeyEncodingStrategy = .useDefaultKeys
  ) throws {
    self = try Self.read(model, keyEncodingStrategy: keyEncodingStrategy).schema
  }

  /// The schema of `model`, with the Swift type each attribute was decoded as.
  static func read<Model: Decodable & JSONAPIResource>(
    _ model: Model.Type, keyEncodingStrategy: JSONAPIEncoder.KeyEncodingStrategy
  ) throws -> (schema: JSONAPIResourceSchema, types: [String: ServedAttributeType]) {
    let reader = SchemaReader(modelName: "\(model)", keyEncodingStrategy: keyEncodingStrategy)
    let decoder = SchemaReadingDecoder(
      reader: reader, codingPath: [], depth: 0, isRecording: true,
      declaredResourceType: Model.jsonAPIType, isResourceRoot: true)
    do {
      _ = try Model(from: decoder)
    } catch {
      reader.noteFailure(error, at: [], type: model, serial: 0)
      throw reader.readingError()
    }
    var attributes: [Attribute] = []
    var relationships: [Relationship] = []
    var types: [String: ServedAttributeType] = [:]
    switch decoder.record {
    case .keyed(let record):
      types = record.types
      for member in record.members {
        let probe = member.probe
        if let related = probe.relationship {
          relationships.append(
            Relationship(
              name: member.name, targetType: related.targetType, isToMany: related.isToMany,
              isOptional: member.isOptional))
        } else {
          attributes.append(
            Attribute(name: member.name, kind: probe.kind, isOptional: member.isOptional))
        }
      }
    case nil:
      break  // a model that reads nothing has no fields
    case .unkeyed, .single:
      throw JSONAPIDeclarationError(
        reason: "JSONAPIResourceSchema(reading: \(model).self): \(model).init(from:) reads "
          + "an array or a single value, but a resource object is a JSON object with "
          + "attributes and relationships (\(SpecSection.resourceObjects)). Decode the model from a keyed "
          + "container, or build the schema with JSONAPIResourceSchema(type:attributes:"
          + "relationships:)")
    }
    for relationship in relationships { types[relationship.name] = nil }
    return (
      JSONAPIResourceSchema(
        type: Model.jsonAPIType, attributes: attributes, relationships: relationships), types
    )
  }
}

/// The Swift type a model decodes one attribute as, to check a write's value with the server's
/// decoder (its date, data and float strategies) before it is stored.
///
/// `@unchecked`: the closure holds only the metatype of `T`, immutable and safe to share; a model's
/// member types need not be `SendableMetatype`.
struct ServedAttributeType: @unchecked Sendable {
  /// The member name in documents.
  let name: String
  /// The Swift name of the member (its `CodingKey`'s `stringValue`), which the decoder's key
  /// strategy maps to the member name.
  let key: String
  let decode: (KeyedDecodingContainer<ServedAnyKey>, ServedAnyKey) throws -> Void

  init<T: Decodable>(_ type: T.Type, name: String, key: String) {
    self.name = name
    self.key = key
    decode = { container, key in _ = try container.decode(T.self, forKey: key) }
  }
}

/// A coding key of any name.
struct ServedAnyKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ text: String) { stringValue = text }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// Decodes the attributes of one resource object, each as the Swift type its model reads it
/// as: one decode per write, whatever the number of attributes. The types come from
/// ``checking``, set around the decode.
struct ServedAttributeCheck: Decodable {
  /// The attributes to check and their types, for the decode running in this task.
  @TaskLocal static var checking: [ServedAttributeType] = []

  init(from decoder: any Decoder) throws {
    let checking = Self.checking
    guard !checking.isEmpty else { return }
    let container = try decoder.container(keyedBy: ServedAnyKey.self)
    for type in checking {
      do {
        try type.decode(container, ServedAnyKey(type.key))
      } catch let error as DecodingError {
        throw Failure(name: type.name, error: error)
      }
    }
  }

  /// A value that did not decode, with the member it is the value of.
  struct Failure: Error {
    var name: String
    var error: DecodingError
  }

  /// Decodes `record`'s attributes (its non-null ones that `types` knows) with `decoder`.
  ///
  /// - Throws: A `422` error object for the first value its type cannot read, pointing at the
  ///   attribute (`/data/attributes/due`) or inside it.
  static func check(
    _ record: JSONAPIResourceRecord, types: [String: ServedAttributeType], decoder: JSONAPIDecoder
  ) throws {
    var attributes: [String: JSONAPIValue] = [:]
    var checked: [ServedAttributeType] = []
    for name in record.attributes.keys.sorted() {
      guard let type = types[name], let value = record.attributes[name], value != .null else {
        continue
      }
      attributes[name] = value
      checked.append(type)
    }
    guard !checked.isEmpty else { return }
    var bare = JSONAPIResourceRecord(type: record.type, id: record.id, attributes: attributes)
    if bare.id.isEmpty { bare.id = "-" }
    let data = try ServedDocument.data(of: bare)
    do {
      try $checking.withValue(checked) {
        _ = try decoder.decode(ServedAttributeCheck.self, from: data)
      }
    } catch let failure as Failure {
      // A type's own check (`UUID`, a model's `dataCorruptedError`) may say no place: the
      // attribute it was decoding is the place.
      var object = JSONAPIErrorObject(describing: failure.error)
      let at = "/data/attributes/" + JSONPointer.escape(failure.name)
      if object.source?.pointer?.hasPrefix(at) != true {
        object.source = JSONAPIErrorObject.Source(pointer: at)
      }
      throw object
    }
  }
}

extension SchemaReader {
  /// The error for the ``failure`` recorded: what failed where, and what to do about it.
  func readingError() -> JSONAPIDeclarationError {
    let reading = "JSONAPIResourceSchema(reading: \(modelName).self)"
    let instead = "or build the schema with JSONAPIResourceSchema(type:attributes:relationships:)"
    guard let failure else {
      return JSONAPIDeclarationError(reason: "\(reading): \(modelName).init(from:) failed")
    }
    let cause = Self.describe(failure.error)
    let reason: String
    if failure.error is NestingTooDeep {
      reason =
        "\(reading): values nest deeper than \(Self.builtDepth) levels, so a type "
        + "holds itself without an optional or an array between. Make that member optional or "
        + "an array, \(instead)"
    } else if failure.type is any RawRepresentable.Type, !(failure.type is any CaseIterable.Type) {
      reason =
        "\(reading): the enum \(failure.type) is not CaseIterable, so the schema "
        + "cannot list its cases, and it rejected a placeholder value (\(cause)). Make "
        + "\(failure.type) CaseIterable, \(instead)"
    } else {
      reason =
        "\(reading): \(failure.type).init(from:) threw on the placeholder values the "
        + "schema reader decodes (\"x\" for text, 1 for numbers, true, 2024-01-01T00:00:00Z for "
        + "dates, the first case of CaseIterable enums): \(cause). Let it accept them, "
        + "\(instead)"
    }
    return JSONAPIDeclarationError(reason: reason, memberPath: Self.text(of: failure.path))
  }

  /// How many steps of a coding path errors show.
  private static let shownPathSteps = 8

  /// A coding path as the library's errors write it, such as `author.tags[0]`; after
  /// ``shownPathSteps`` steps, `...`.
  static func text(of path: [any CodingKey]) -> String {
    var text = ""
    for key in path.prefix(shownPathSteps) {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return path.count > shownPathSteps ? text + "..." : text
  }

  /// What an error says, without the coding path the message already gives.
  static func describe(_ error: any Error) -> String {
    guard let decoding = error as? DecodingError else { return String(describing: error) }
    let context: DecodingError.Context?
    if case .dataCorrupted(let found) = decoding {
      context = found
    } else if case .typeMismatch(_, let found) = decoding {
      context = found
    } else if case .valueNotFound(_, let found) = decoding {
      context = found
    } else if case .keyNotFound(_, let found) = decoding {
      context = found
    } else {
      context = nil
    }
    return context?.debugDescription ?? String(describing: decoding)
  }
}
