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
/// See https://jsonapi.org/format/#document-resource-object-identification.
public protocol JSONAPIResource {
  /// The JSON:API `type` of every resource this model represents, such as `"articles"`.
  static var jsonAPIType: String { get }
}
