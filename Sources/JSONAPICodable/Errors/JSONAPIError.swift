import Foundation

/// The errors of JSONAPICodable itself: an error document from the server, input that is not JSON or not
/// a JSON:API document, a limit that was reached, or a value the encoder cannot write as JSON:API.
///
/// Mismatches between a valid document and your model are not `JSONAPIError`s: they stay
/// `DecodingError`s with a full `codingPath`, exactly as `JSONDecoder` reports them.
///
/// ```swift
/// do {
///   let articles = try JSONAPIDecoder().decode([Article].self, from: data)
/// } catch JSONAPIError.errorDocument(let errors) {
///   errors.forEach { print($0.status ?? "", $0.detail ?? "") }
/// } catch let error as JSONAPIError {
///   print(error)   // says what is wrong and where
/// }
/// ```
public enum JSONAPIError: Error, Sendable, Hashable {
  /// The document's top level has `errors`: the server reported failure. Thrown by every `decode`
  /// call, with the error objects and the document's `meta`, `links` and `jsonapi`.
  case errorDocument(JSONAPIErrorDocument)
  /// The input is not well-formed JSON (RFC 8259): `reason` says what was expected, `location` where.
  case invalidJSON(reason: String, location: JSONAPISourceLocation)
  /// An object has the same member name twice.
  case duplicateKey(String, location: JSONAPISourceLocation)
  /// Arrays and objects are nested deeper than ``JSONAPIDecoder/Limits/maxNestingDepth`` allows.
  case nestingTooDeep(limit: Int, location: JSONAPISourceLocation)
  /// The input is larger than the reader can index (2 GiB - 1 bytes, the tape's 32-bit indices).
  case documentTooLarge(byteCount: Int, limit: Int)
  /// Well-formed JSON that is not a JSON:API document: the top level is not an object, or has none of
  /// `data`, `errors` and `meta`.
  case notADocument(reason: String)
  /// The document breaks a rule of JSON:API that decoding depends on; `pointer` is a JSON Pointer
  /// (RFC 6901) to the offending value.
  case invalidDocument(reason: String, pointer: String)
  /// Two resource objects in one document share a `type` and `id` (or `type` and `lid`).
  case duplicateResource(type: String, id: String, pointer: String)
  /// Resolving relationships went deeper than ``JSONAPIDecoder/Limits/maxRelationshipDepth``.
  case relationshipDepthExceeded(limit: Int, pointer: String)
  /// Decoding materialised more resources than ``JSONAPIDecoder/Limits/maxResolvedResources``.
  case resourceBudgetExceeded(limit: Int)
  /// An Atomic Operations request holds `count` operations, more than
  /// ``JSONAPIDecoder/Limits/maxAtomicOperations`` (`limit`) allows. Thrown by
  /// ``JSONAPIDecoder/decodeOperations(from:)`` before any operation is read.
  case tooManyOperations(count: Int, limit: Int)
  /// A resource of type `found` was decoded as a model whose ``JSONAPIResource/jsonAPIType`` is
  /// `expected`; `pointer` is a JSON Pointer to the resource object or identifier.
  case resourceTypeMismatch(expected: String, found: String, pointer: String)
  /// The encoder met a resource without a `type`: `swiftType` is the value's type, `codingPath` where it was.
  case missingResourceType(swiftType: String, codingPath: String)
  /// The encoder met a value nested deeper than ``JSONAPIEncoder/Limits/maxNestingDepth`` allows.
  case encodingNestingTooDeep(limit: Int, codingPath: String)
  /// The encoder met a value it cannot write as JSON:API; `reason` says why.
  case invalidValue(reason: String, codingPath: String)
}

extension JSONAPIError: CustomStringConvertible, LocalizedError {
  /// A sentence that says what went wrong and where.
  public var description: String {
    switch self {
    case .errorDocument(let document):
      return "The server returned a JSON:API error document: \(document)"
    case .invalidJSON(let reason, let location):
      return "Invalid JSON at \(location): \(reason)"
    case .duplicateKey(let key, let location):
      return "Invalid JSON at \(location): the member \"\(key)\" appears twice in one object"
    case .nestingTooDeep(let limit, let location):
      return "JSON nested deeper than the limit of \(limit) at \(location)"
    case .documentTooLarge(let byteCount, let limit):
      return "The input has \(byteCount) bytes; the reader handles at most \(limit)"
    case .notADocument(let reason):
      return "Not a JSON:API document: \(reason)"
    case .invalidDocument(let reason, let pointer):
      return "Invalid JSON:API document at \(pointer.isEmpty ? "/" : pointer): \(reason)"
    case .duplicateResource(let type, let id, let pointer):
      return "Invalid JSON:API document at \(pointer): the resource \(type)/\(id) appears twice"
    case .relationshipDepthExceeded(let limit, let pointer):
      return "Relationships nest deeper than the limit of \(limit) at \(pointer)"
    case .resourceBudgetExceeded(let limit):
      return "Decoding needed more than \(limit) resources (maxResolvedResources)"
    case .tooManyOperations(let count, let limit):
      return
        "The request has \(count) atomic operations; at most \(limit) are accepted in one "
        + "request (maxAtomicOperations). Split the operations into requests of at most \(limit) "
        + "(see \(SpecSection.atomicOperations))"
    case .resourceTypeMismatch(let expected, let found, let pointer):
      return
        "The resource at \(pointer.isEmpty ? "/" : pointer) has type \"\(found)\", but the model "
        + "decoding it is for \"\(expected)\" (see \(SpecSection.identification))"
    case .missingResourceType(let swiftType, let codingPath):
      return
        "A resource of type \(swiftType) at \(codingPath.isEmpty ? "the top level" : codingPath) has no `type` member"
    case .encodingNestingTooDeep(let limit, let codingPath):
      return "The value at \(codingPath) is nested deeper than the limit of \(limit)"
    case .invalidValue(let reason, let codingPath):
      return
        "Cannot encode the value at \(codingPath.isEmpty ? "the top level" : codingPath): \(reason)"
    }
  }

  /// The same text as ``description``.
  public var errorDescription: String? { description }
}
