/// A model that states its JSON:API `type` once, on the type, instead of storing it in every value.
///
/// ```swift
/// struct Article: Codable, JSONAPIResource {
///   static let jsonAPIType = "articles"
///   var id: String
///   var title: String
/// }
/// let body = try JSONAPIEncoder().encode(article)      // "type": "articles", nothing stored
/// let one = try JSONAPIDecoder().decode(Article.self, from: data)
/// // A resource of another type throws JSONAPIError.resourceTypeMismatch(expected: "articles", …)
/// ```
///
/// ``JSONAPIEncoder`` writes the type for values that have no `type` member of their own (a stored
/// `type` still wins), and ``JSONAPIDecoder`` checks it on every resource it decodes as this model.
///
/// Nested in another resource, a value of such a model is always a relationship: an empty
/// `[Article]` is `"data": []`, and a value with neither `id` nor `lid` is an `EncodingError`
/// naming the member, never an attribute; give it an `id`, or a `lid` and send it with
/// ``JSONAPIEncoder/encode(graph:)`` (`JSONAPIClient.create(graph:at:)`), which creates it. The
/// primary resource itself needs no `id` (a create).
/// See https://jsonapi.org/format/#document-resource-object-identification.
public protocol JSONAPIResource {
  /// The JSON:API `type` of every resource this model represents, such as `"articles"`.
  static var jsonAPIType: String { get }
}
