import Foundation

extension JSONAPIErrorObject {
  /// The error object a server answers with when a request fails with `error`: its HTTP `status`,
  /// a stable `code`, a `title`, a `detail` users can be shown, and `source` naming the offending
  /// member of the request document (`pointer`), query parameter (`parameter`) or header
  /// (`header`).
  ///
  /// | Error | `status` | `source` |
  /// |---|---|---|
  /// | ``JSONAPIQueryError`` | 400 | `parameter` |
  /// | any ``JSONAPIErrorObjectConvertible`` (in `JSONAPIServer`: `JSONAPIPagingError` with the Cursor Pagination profile's `links.type` and `meta.page.maxSize`, 400; `JSONAPINegotiationError`, 415 or 406 with `header`; `JSONAPIRequestError`, its status with `pointer`) | its ``JSONAPIErrorObjectConvertible/errorObject`` | |
  /// | ``JSONAPIError`` for JSON that is not well-formed, nested too deep, or not a valid JSON:API document | 400 | `pointer` when known |
  /// | ``JSONAPIError/documentTooLarge(byteCount:limit:)`` | 413 | none |
  /// | ``JSONAPIError/tooManyOperations(count:limit:)`` | 413 | `pointer` `/atomic:operations` |
  /// | ``JSONAPIError/resourceTypeMismatch(expected:found:pointer:)`` | 409 | `pointer` to the resource |
  /// | `DecodingError` from ``JSONAPIDecoder`` (a valid document that does not fit the model: wrong type, `null`, missing member, invalid value) | 422 | `pointer` to the value, or to the object missing a member |
  /// | encoder errors, any other error | 500 | none; `detail` is generic so internals do not leak |
  ///
  /// 422 tells a well-formed document that the server cannot accept (JSON:API takes no side
  /// between 400 and 422; 422 is what most servers answer); 400 a request that is broken in
  /// itself; 409 a resource of the wrong type, as the specification asks for creates and updates;
  /// 413 (Content Too Large) a valid request larger than the server will process, in bytes or in
  /// Atomic Operations, which the client can send again split into smaller ones.
  ///
  /// For a missing member the pointer names the object that lacks it, since a pointer must point
  /// to an existing value; `detail` names the member.
  ///
  /// ```swift
  /// do {
  ///   let article = try JSONAPIDecoder().decode(Article.self, from: body)
  /// } catch {
  ///   let object = JSONAPIErrorObject(describing: error)
  ///   // {"status":"422","code":"type-mismatch","title":"Invalid Member",
  ///   //  "detail":"…","source":{"pointer":"/data/attributes/title"}}
  ///   let body = try JSONAPIEncoder().encode(errors: [object])
  /// }
  /// ```
  public init(describing error: any Error) {
    switch error {
    case let error as JSONAPIErrorObject:
      self = error
    case let error as JSONAPIQueryError:
      self.init(
        status: "400", code: error.code, title: "Invalid Query Parameter",
        detail: error.description, source: error.parameter.map { Source(parameter: $0) })
    case let error as any JSONAPIErrorObjectConvertible:
      self = error.errorObject
    case let error as JSONAPIError:
      self.init(describingLibraryError: error)
    case let error as DecodingError:
      self.init(describingDecodingError: error)
    default:
      self.init(
        status: "500", code: "internal-error", title: "Internal Server Error",
        detail: "The server could not process the request.")
    }
  }

  /// The error objects for `errors`, under the status that fits them all (R97): the common
  /// status when they agree, otherwise 400 for client errors and 500 when any is a server error.
  ///
  /// ```swift
  /// let (status, objects) = JSONAPIErrorObject.describing([queryError, negotiationError])
  /// ```
  public static func describing(_ errors: [any Error]) -> (
    status: Int, errors: [JSONAPIErrorObject]
  ) {
    let objects = errors.map(JSONAPIErrorObject.init(describing:))
    return (status(of: objects), objects)
  }

  /// The one status of a response carrying `objects`: theirs when they agree, else the most
  /// general, as JSON:API advises (`400` among 4xx, `500` with any 5xx).
  package static func status(of objects: [JSONAPIErrorObject]) -> Int {
    let statuses = Set(objects.compactMap { $0.status.flatMap { Int($0) } })
    if statuses.count == 1, let only = statuses.first { return only }
    return statuses.contains(where: { $0 >= 500 }) ? 500 : 400
  }

  private init(describingLibraryError error: JSONAPIError) {
    let detail = error.description
    switch error {
    case .invalidJSON, .duplicateKey:
      self.init(status: "400", code: "invalid-json", title: "Malformed JSON", detail: detail)
    case .nestingTooDeep:
      self.init(status: "400", code: "too-deep", title: "Malformed Document", detail: detail)
    case .documentTooLarge:
      self.init(
        status: "413", code: "too-large", title: "Request Document Too Large", detail: detail)
    case .tooManyOperations:
      self.init(
        status: "413", code: "too-many-operations", title: "Too Many Operations", detail: detail,
        source: Source(pointer: "/atomic:operations"))
    case .notADocument:
      self.init(
        status: "400", code: "not-a-document", title: "Malformed Document", detail: detail,
        source: Source(pointer: ""))
    case .invalidDocument(_, let pointer), .duplicateResource(_, _, let pointer),
      .relationshipDepthExceeded(_, let pointer):
      self.init(
        status: "400", code: "invalid-document", title: "Malformed Document", detail: detail,
        source: Source(pointer: pointer))
    case .resourceBudgetExceeded:
      self.init(
        status: "400", code: "too-many-resources", title: "Malformed Document", detail: detail)
    case .resourceTypeMismatch(_, _, let pointer):
      self.init(
        status: "409", code: "type-mismatch", title: "Conflict", detail: detail,
        source: Source(pointer: pointer.isEmpty ? "/data" : pointer + "/type"))
    case .errorDocument:
      self.init(
        status: "400", code: "error-document", title: "Malformed Document",
        detail: "The request body is an error document.", source: Source(pointer: "/errors"))
    case .missingResourceType, .encodingNestingTooDeep, .invalidValue:
      self.init(
        status: "500", code: "internal-error", title: "Internal Server Error",
        detail: "The server could not write its response.")
    }
  }

  private init(describingDecodingError error: DecodingError) {
    let context: DecodingError.Context
    let code: String
    var detail: String
    switch error {
    case .typeMismatch(let type, let found):
      context = found
      code = "type-mismatch"
      detail = "The value must be \(Self.typeName(type))."
    case .valueNotFound(let type, let found):
      context = found
      code = "null-value"
      detail = "The value must be \(Self.typeName(type)), not null."
    case .keyNotFound(let key, let found):
      context = found
      code = "missing-member"
      detail = "The member `\(key.stringValue)` is required."
    case .dataCorrupted(let found):
      context = found
      code = "invalid-value"
      detail = "The value is not valid here."
    @unknown default:
      self.init(status: "422", code: "invalid-value", title: "Invalid Member")
      return
    }
    let location = context.underlyingError as? DecodingFailureLocation
    if case .dataCorrupted = error {
      // A model's own check (`dataCorruptedError`) states its reason; ours go on with " (at …)"
      // and hints, which name decoder settings of this server and are no business of the client.
      detail = location == nil ? context.debugDescription : Self.reason(context.debugDescription)
    }
    if let missing = location?.missingMember {
      detail += " It is missing at \(missing)."
    }
    self.init(
      status: "422", code: code, title: "Invalid Member", detail: detail,
      source: location.map { Source(pointer: $0.pointer) })
  }

  /// The reason of a decoder's message: what comes before the " (at /pointer)" that it appends,
  /// with the hints after it.
  private static func reason(_ text: String) -> String {
    guard let range = text.range(of: " (at /", options: .backwards) else { return text }
    return String(text[..<range.lowerBound])
  }

  /// How `detail` names an expected Swift type: JSON's words for the common ones.
  private static func typeName(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: return "a string"
    case is Bool.Type: return "a boolean"
    case is any BinaryInteger.Type: return "a whole number"
    case is any BinaryFloatingPoint.Type: return "a number"
    case is [Any].Type: return "an array"
    case is [String: Any].Type: return "an object"
    default: return "a value of type \(type)"
    }
  }

  /// The title of an error answered with `status`: one wording for every error that has no
  /// title of its own.
  package static func title(status: Int) -> String {
    switch status {
    case 400: return "Bad Request"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 409: return "Conflict"
    default: return "Request Failed"
    }
  }
}
