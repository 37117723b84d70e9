import Foundation

extension JSONAPIValue {
  /// Reads this value as your own type: typed `meta` of a relationship, a resource, an operation
  /// result or an error document, wherever the library hands you a ``JSONAPIValue``.
  ///
  /// ```swift
  /// struct CommentsMeta: Decodable { var count: Int }
  /// let count = try article.comments.meta?.decode(CommentsMeta.self).count
  /// ```
  ///
  /// - Throws: `DecodingError` when the value does not fit `T`.
  public func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try JSONDecoder().decode(type, from: JSONEncoder().encode(self))
  }
}
