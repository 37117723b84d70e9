/// Marks a type whose values are always attributes, even though they have `id` and `type` fields.
///
/// ``JSONAPIDecoder`` and ``JSONAPIEncoder`` treat a nested value with both `id` and `type` as a
/// relationship. Conform a type to this protocol when such a value is plain data instead, for example
/// a payment descriptor that happens to carry its own `type` and `id`:
///
/// ```swift
/// struct PaymentMethod: Codable, JSONAPIAttributeExpressible {
///   var id: String
///   var type: String   // "card", "iban", …
/// }
/// ```
public protocol JSONAPIAttributeExpressible {}

/// Marks a type whose values are always related resources: an empty `[Element]` of such a type is
/// encoded as an empty to-many relationship (`"data": []`) rather than as an empty attribute array,
/// and a value without `id` or `lid` is an `EncodingError` rather than an attribute (see
/// ``JSONAPIResource``).
///
/// Values that carry `type` and `id` are recognised as resources without this protocol. Without it,
/// an empty array of them is `"data": []` only when the same member is a to-many relationship
/// elsewhere in the document: conform the element type where nothing else tells.
///
/// ```swift
/// struct Tag: Codable, JSONAPIRelationshipExpressible { var id: String; var type = "tags" }
/// ```
public protocol JSONAPIRelationshipExpressible {}
