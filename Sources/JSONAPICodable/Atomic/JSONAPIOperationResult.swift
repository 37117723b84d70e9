import Foundation

/// One result of an Atomic Operations response (`https://jsonapi.org/ext/atomic`): the `data` an
/// operation produced, if any, and its `meta`. Result *i* belongs to operation *i*.
///
/// Clients read results with ``JSONAPIDecoder`` and decode each one's data as a model:
///
/// ```swift
/// let results = try JSONAPIDecoder().decode([JSONAPIOperationResult].self, from: data)
/// let person = try results[0].decode(Person.self)
/// let article = try results[1].decode(Article.self)   // article.author resolves to results[0]
/// try results[3].decode(Article?.self)                // nil: the remove's result is {}
/// ```
///
/// Servers build results and send them with ``JSONAPIEncoder/encode(results:meta:jsonapi:)``:
///
/// ```swift
/// let body = try JSONAPIEncoder().encode(results: [
///   JSONAPIOperationResult(data: createdArticle), JSONAPIOperationResult(),
/// ])
/// ```
///
/// See https://jsonapi.org/ext/atomic/#result-objects.
public struct JSONAPIOperationResult: Sendable {
  /// The result's `meta` member; must be an object. A received `"meta": null` reads as `nil`.
  public var meta: JSONAPIValue?
  /// The result's `data`.
  var payload: AtomicPayload

  /// A result without data: `{}`, or `{"meta": ...}` with `meta`. What a remove or a relationship
  /// operation answers, and an update that changed nothing beyond the request.
  public init(meta: JSONAPIValue? = nil) {
    self.meta = meta
    payload = .none
  }

  /// A result with data: the resource an operation created or updated, encoded as
  /// ``JSONAPIEncoder`` encodes primary data (a `nil` optional writes `"data": null`) when
  /// ``JSONAPIEncoder/encode(results:meta:jsonapi:)`` runs, with that encoder's settings.
  ///
  /// ```swift
  /// let result = JSONAPIOperationResult(data: createdArticle)
  /// ```
  public init(data: sending some Encodable, meta: JSONAPIValue? = nil) {
    self.meta = meta
    payload = .value(EncodableBox(data))
  }

  init(meta: JSONAPIValue?, payload: AtomicPayload) {
    self.meta = meta
    self.payload = payload
  }

  /// Whether the result has a `data` member (`null` included).
  public var hasData: Bool { payload.hasData }

  /// Decodes the result's `data` as `T`, as ``JSONAPIDecoder`` decodes primary data.
  ///
  /// Relationships resolve against the data of every result of the same response, by `id` and by
  /// `lid`: an article created with an author created by an earlier operation decodes with that
  /// author. When two results hold a resource with one identity, this result's own comes first,
  /// then the first in the response. Each call reads this result's data where it lies in the
  /// response as read, and looks up the resources its relationships name: it costs time in
  /// proportion to the data and the resources it reaches, not to the size of the response.
  ///
  /// A result without data (`{}`) or with `"data": null` decodes as `nil` into an optional:
  ///
  /// ```swift
  /// if let article = try result.decode(Article?.self) { ... }
  /// ```
  ///
  /// - Throws: `DecodingError` when the data does not fit `T`, or there is none and `T` is not
  ///   optional; ``JSONAPIError`` when the data is not valid JSON:API (pointers then point into the
  ///   results document).
  public func decode<T: Decodable>(_ type: T.Type) throws -> T {
    // Built here: read it back as a client would, with default settings.
    try payload.decode(type, entry: "result") {
      let body = try JSONAPIEncoder().encode(results: [self])
      return try JSONAPIDecoder().decode([Self].self, from: body).first.map { try $0.decode(type) }
    }
  }
}

extension JSONAPIOperationResult: Decodable {
  private enum CodingKeys: String, CodingKey { case data, meta }

  /// Reads a result object with a decoder other than ``JSONAPIDecoder`` (which reads a whole
  /// `[JSONAPIOperationResult]` document and resolves relationships across results): `data` is
  /// kept as a ``JSONAPIValue`` and resolves nothing but itself.
  ///
  /// - Throws: `DecodingError` when the value is not an object or `meta` is not valid JSON.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    meta = try container.decodeIfPresent(JSONAPIValue.self, forKey: .meta)
    guard container.contains(.data) else {
      payload = .none
      return
    }
    let data = try container.decode(JSONAPIValue.self, forKey: .data)
    // Written and read again by this library, with default settings, as a document of this one
    // result: its data then decodes as a received result's does.
    let body = try AtomicDocumentWriter(call: EncodingCall(options: EncodingOptions())).results(
      wrappingData: data)
    payload = try JSONAPIDecoder().decode([Self].self, from: body).first?.payload ?? .none
  }
}
