import Foundation

extension JSONAPIOpenAPIDocument {
  /// A JSON Schema (draft 2020-12, as OpenAPI 3.1 uses it): the keywords ``JSONAPIServer``
  /// writes.
  ///
  /// Give one in a ``JSONAPIResourceDeclaration``'s `attributeSchemas` where the model cannot say
  /// what a value is:
  ///
  /// ```swift
  /// attributeSchemas: ["email": .init(type: ["string"], format: "email")]
  /// ```
  public struct Schema: Codable, Sendable, Hashable {
    /// `#/components/schemas/NAME`: the schema is the one named there.
    public var ref: String?
    /// The JSON types allowed: `string`, `integer`, `number`, `boolean`, `object`, `array`,
    /// `null`.
    public var type: [String]?
    /// A format annotation, such as `date-time`.
    public var format: String?
    /// What the value means.
    public var description: String?
    /// The only values allowed.
    public var enumeration: [JSONAPIValue]?
    /// The one value allowed.
    public var constant: JSONAPIValue?
    /// An object's members.
    public var properties: [String: Schema]?
    /// The members an object must have.
    public var required: [String]?
    /// Whether an object may have members not in ``properties``.
    public var additionalProperties: Bool?
    /// An array's elements (one schema; boxed because a schema holds schemas).
    public var items: Schema? {
      get { itemsBox.first }
      set { itemsBox = newValue.map { [$0] } ?? [] }
    }
    private var itemsBox: [Schema] = []
    /// The fewest elements of an array.
    public var minItems: Int?
    /// The fewest characters of a string.
    public var minLength: Int?
    /// The smallest number.
    public var minimum: Int?
    /// The largest number.
    public var maximum: Int?
    /// Schemas of which the value must match exactly one.
    public var oneOf: [Schema]?
    /// Whether the server sets the value and requests should not send it (a computed
    /// attribute, a member the server sets).
    public var readOnly: Bool?

    /// Creates a schema; every keyword is optional.
    public init(
      ref: String? = nil, type: [String]? = nil, format: String? = nil,
      description: String? = nil, enumeration: [JSONAPIValue]? = nil,
      constant: JSONAPIValue? = nil, properties: [String: Schema]? = nil,
      required: [String]? = nil, additionalProperties: Bool? = nil, items: Schema? = nil,
      minItems: Int? = nil, minLength: Int? = nil, minimum: Int? = nil, maximum: Int? = nil,
      oneOf: [Schema]? = nil, readOnly: Bool? = nil
    ) {
      self.ref = ref
      self.type = type
      self.format = format
      self.description = description
      self.enumeration = enumeration
      self.constant = constant
      self.properties = properties
      self.required = required
      self.additionalProperties = additionalProperties
      self.itemsBox = items.map { [$0] } ?? []
      self.minItems = minItems
      self.minLength = minLength
      self.minimum = minimum
      self.maximum = maximum
      self.oneOf = oneOf
      self.readOnly = readOnly
    }

    /// The schema named `name` in the document's components.
    public static func named(_ name: String) -> Schema {
      Schema(ref: "#/components/schemas/\(name)")
    }

    enum CodingKeys: String, CodingKey {
      case ref = "$ref"
      case type, format, description
      case enumeration = "enum"
      case constant = "const"
      case properties, required, additionalProperties, items, minItems, minLength, minimum
      case maximum, oneOf, readOnly
    }

    /// Reads a schema from JSON; `type` may be one name or a list.
    ///
    /// - Throws: `DecodingError` when a keyword holds the wrong kind of value.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      ref = try container.decodeIfPresent(String.self, forKey: .ref)
      // `type` is one name or a list of names.
      if let one = try? container.decodeIfPresent(String.self, forKey: .type) {
        type = [one]
      } else {
        type = try container.decodeIfPresent([String].self, forKey: .type)
      }
      format = try container.decodeIfPresent(String.self, forKey: .format)
      description = try container.decodeIfPresent(String.self, forKey: .description)
      enumeration = try container.decodeIfPresent([JSONAPIValue].self, forKey: .enumeration)
      constant = try container.decodeIfPresent(JSONAPIValue.self, forKey: .constant)
      properties = try container.decodeIfPresent([String: Schema].self, forKey: .properties)
      required = try container.decodeIfPresent([String].self, forKey: .required)
      additionalProperties = try container.decodeIfPresent(
        Bool.self, forKey: .additionalProperties)
      items = try container.decodeIfPresent(Schema.self, forKey: .items)
      minItems = try container.decodeIfPresent(Int.self, forKey: .minItems)
      minLength = try container.decodeIfPresent(Int.self, forKey: .minLength)
      minimum = try container.decodeIfPresent(Int.self, forKey: .minimum)
      maximum = try container.decodeIfPresent(Int.self, forKey: .maximum)
      oneOf = try container.decodeIfPresent([Schema].self, forKey: .oneOf)
      readOnly = try container.decodeIfPresent(Bool.self, forKey: .readOnly)
    }

    /// Writes the schema as JSON Schema spells it (`$ref`, `enum`, `const`; one `type` as a
    /// name, several as a list).
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encodeIfPresent(ref, forKey: .ref)
      if let type {
        if type.count == 1 {
          try container.encode(type[0], forKey: .type)
        } else {
          try container.encode(type, forKey: .type)
        }
      }
      try container.encodeIfPresent(format, forKey: .format)
      try container.encodeIfPresent(description, forKey: .description)
      try container.encodeIfPresent(enumeration, forKey: .enumeration)
      try container.encodeIfPresent(constant, forKey: .constant)
      try container.encodeIfPresent(properties, forKey: .properties)
      try container.encodeIfPresent(required, forKey: .required)
      try container.encodeIfPresent(additionalProperties, forKey: .additionalProperties)
      try container.encodeIfPresent(items, forKey: .items)
      try container.encodeIfPresent(minItems, forKey: .minItems)
      try container.encodeIfPresent(minLength, forKey: .minLength)
      try container.encodeIfPresent(minimum, forKey: .minimum)
      try container.encodeIfPresent(maximum, forKey: .maximum)
      try container.encodeIfPresent(oneOf, forKey: .oneOf)
      try container.encodeIfPresent(readOnly, forKey: .readOnly)
    }
  }
}
