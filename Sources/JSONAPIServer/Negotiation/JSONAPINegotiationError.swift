/// Content negotiation failed: the request's `Content-Type` (`415 Unsupported Media Type`) or its
/// `Accept` header (`406 Not Acceptable`) cannot be served. Thrown by
/// ``JSONAPIContentNegotiation/negotiate(accept:contentType:)``.
///
/// `JSONAPIErrorObject.init(describing:)` turns it into an error object with the ``status`` and
/// `source.header` naming ``header``:
///
/// ```swift
/// do {
///   mediaType = try negotiation.negotiate(accept: accept, contentType: contentType)
/// } catch let error as JSONAPINegotiationError {
///   let body = try JSONAPIEncoder().encode(errors: [JSONAPIErrorObject(describing: error)])
///   return (error.status, body)
/// }
/// ```
public enum JSONAPINegotiationError: Error, Sendable, Hashable {
  /// The request body is not sent as JSON:API's media type, carries parameters other than `ext`
  /// and `profile`, or applies an extension the server does not support: answer `415`.
  case unsupportedMediaType(contentType: String, reason: String)
  /// No entry of `Accept` allows a JSON:API response the server can give: answer `406`.
  case notAcceptable(accept: String, reason: String)

  /// The HTTP status to answer with: 415 or 406.
  public var status: Int {
    switch self {
    case .unsupportedMediaType: return 415
    case .notAcceptable: return 406
    }
  }

  /// The request header at fault: `Content-Type` or `Accept`.
  public var header: String {
    switch self {
    case .unsupportedMediaType: return "Content-Type"
    case .notAcceptable: return "Accept"
    }
  }

  /// A stable, machine-readable code for the case, used as the error object's `code`.
  public var code: String {
    switch self {
    case .unsupportedMediaType: return "unsupported-media-type"
    case .notAcceptable: return "not-acceptable"
    }
  }
}

extension JSONAPINegotiationError: CustomStringConvertible {
  /// A sentence users can be shown, citing the section of the specification.
  public var description: String {
    switch self {
    case .unsupportedMediaType(let contentType, let reason)
    where contentType.allSatisfy({ $0 == " " || $0 == "\t" }):
      return SpecSection.cite(
        "The request has a body but no `Content-Type` header: \(reason)",
        SpecSection.contentNegotiation)
    case .unsupportedMediaType(let contentType, let reason):
      return SpecSection.cite(
        "The request body's media type `\(contentType)` is not supported: \(reason)",
        SpecSection.contentNegotiation)
    case .notAcceptable(let accept, let reason):
      return SpecSection.cite(
        "No media type in `Accept: \(accept)` can be served: \(reason)",
        SpecSection.contentNegotiation)
    }
  }
}

extension JSONAPINegotiationError: JSONAPIErrorObjectConvertible {
  /// The error object `JSONAPIErrorObject.init(describing:)` answers with: ``status`` (415 or
  /// 406), ``code``, and `source.header` naming the header at fault.
  public var errorObject: JSONAPIErrorObject {
    JSONAPIErrorObject(
      status: String(status), code: code,
      title: status == 415 ? "Unsupported Media Type" : "Not Acceptable",
      detail: description, source: .init(header: header))
  }
}
