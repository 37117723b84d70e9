/// A request a JSON:API server must refuse although its document is valid: the resource in the
/// body does not belong at the URL, or the server cannot do what it asks. Thrown by
/// ``JSONAPIRequestRules``; each case knows its ``status`` and the ``pointer`` into the request
/// document, which `JSONAPIErrorObject.init(describing:)` writes as `source.pointer`.
///
/// ```swift
/// do {
///   try rules.checkUpdate(identifier, type: "articles", id: "1")
/// } catch {
///   let object = JSONAPIErrorObject(describing: error)   // "409", pointer "/data/id"
/// }
/// ```
public enum JSONAPIRequestError: Error, Sendable, Hashable {
  /// The body's `type` is not the endpoint's (`409 Conflict`).
  case typeMismatch(expected: String, found: String, pointer: String)
  /// An update body's `id` is not the URL's (`409 Conflict`).
  case idMismatch(expected: String, found: String)
  /// An update body, or an identifier sent to a relationship endpoint, has no `id`
  /// (`400 Bad Request`); `pointer` names the object that lacks it.
  case missingID(pointer: String)
  /// The body of a create request carries an `id`, and the server assigns ids itself
  /// (`403 Forbidden`).
  case clientGeneratedIDNotSupported(id: String)
  /// A client-generated `id` that the server already has (`409 Conflict`).
  case resourceAlreadyExists(type: String, id: String)
  /// The resource at the URL does not exist (`404 Not Found`).
  case resourceNotFound(type: String, id: String)
  /// A resource the body links to does not exist (`404 Not Found`); `pointer` names its identifier.
  case relatedResourceNotFound(type: String, id: String, pointer: String)
  /// The server refuses to replace every member of a to-many relationship (`403 Forbidden`).
  case fullReplacementNotAllowed(relationship: String)
  /// The URL names no relationship of the resource (`404 Not Found`).
  case relationshipNotFound(name: String)

  /// The HTTP status the specification gives the case.
  public var status: Int {
    switch self {
    case .typeMismatch, .idMismatch, .resourceAlreadyExists: return 409
    case .missingID: return 400
    case .clientGeneratedIDNotSupported, .fullReplacementNotAllowed: return 403
    case .resourceNotFound, .relatedResourceNotFound, .relationshipNotFound: return 404
    }
  }

  /// A JSON Pointer into the request document, or `nil` when the URL is at fault.
  public var pointer: String? {
    switch self {
    case .typeMismatch(_, _, let pointer), .relatedResourceNotFound(_, _, let pointer),
      .missingID(let pointer):
      return pointer
    case .idMismatch, .clientGeneratedIDNotSupported, .resourceAlreadyExists: return "/data/id"
    case .resourceNotFound, .fullReplacementNotAllowed, .relationshipNotFound: return nil
    }
  }

  /// A stable, machine-readable code for the case, used as the error object's `code`.
  public var code: String {
    switch self {
    case .typeMismatch: return "type-mismatch"
    case .idMismatch: return "id-mismatch"
    case .missingID: return "missing-id"
    case .clientGeneratedIDNotSupported: return "client-id-not-supported"
    case .resourceAlreadyExists: return "resource-exists"
    case .resourceNotFound: return "not-found"
    case .relatedResourceNotFound: return "related-not-found"
    case .fullReplacementNotAllowed: return "full-replacement-forbidden"
    case .relationshipNotFound: return "relationship-not-found"
    }
  }
}

extension JSONAPIRequestError: CustomStringConvertible {
  /// A sentence users can be shown, citing the section of the specification.
  public var description: String {
    switch self {
    case .typeMismatch(let expected, let found, _):
      return SpecSection.cite(
        "This endpoint takes resources of type `\(expected)`, not `\(found)`",
        SpecSection.updatingConflict)
    case .idMismatch(let expected, let found):
      return SpecSection.cite(
        "The body's id `\(found)` is not the id `\(expected)` in the URL",
        SpecSection.updatingConflict)
    case .missingID:
      return SpecSection.cite(
        "The resource or identifier must give its `id`", SpecSection.updating)
    case .clientGeneratedIDNotSupported(let id):
      return SpecSection.cite(
        "This server assigns ids itself and does not accept the id `\(id)`", SpecSection.clientIDs)
    case .resourceAlreadyExists(let type, let id):
      return SpecSection.cite(
        "A resource \(type)/\(id) exists already", SpecSection.creatingConflict)
    case .resourceNotFound(let type, let id):
      return SpecSection.cite("There is no resource \(type)/\(id)", SpecSection.fetching)
    case .relatedResourceNotFound(let type, let id, _):
      return SpecSection.cite(
        "The related resource \(type)/\(id) does not exist", SpecSection.updatingRelationships)
    case .fullReplacementNotAllowed(let relationship):
      return SpecSection.cite(
        "Every member of `\(relationship)` cannot be replaced at once",
        SpecSection.updatingRelationships)
    case .relationshipNotFound(let name):
      return SpecSection.cite("There is no relationship `\(name)`", SpecSection.fetching)
    }
  }
}

extension JSONAPIRequestError: JSONAPIErrorObjectConvertible {
  /// The error object `JSONAPIErrorObject.init(describing:)` answers with: ``status``,
  /// ``code``, and `source.pointer` when the body is at fault.
  public var errorObject: JSONAPIErrorObject {
    JSONAPIErrorObject(
      status: String(status), code: code, title: JSONAPIErrorObject.title(status: status),
      detail: description, source: pointer.map { .init(pointer: $0) })
  }
}
