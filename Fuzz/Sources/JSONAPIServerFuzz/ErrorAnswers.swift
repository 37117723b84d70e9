import Foundation
import JSONAPIServer

// What a server answers when a stranger's request fails: every error the library throws becomes,
// through `JSONAPIErrorObject(describing:)`, an error object with a 4xx status (the request is at
// fault, never the server), and the error document the encoder writes for the request's error
// objects reads back with the decoder as those same objects, in order.

/// Every failure of one request, checked as it happens and answered together at the end, as a
/// server answers one request with one error document.
struct Failures {
  private(set) var errors: [any Error] = []
  private(set) var objects: [JSONAPIErrorObject] = []
  private(set) var steps: [String] = []

  /// Checks one failure's error object, and keeps both for the answer.
  mutating func answer(_ error: any Error, _ step: String, request: FuzzRequest) {
    objects.append(ErrorAnswers.object(for: error, step, request: request))
    errors.append(error)
    steps.append(step)
  }

  /// The error document of the request reads back as its error objects; the status
  /// `JSONAPIErrorObject.describing(_:)` gives them together is a client error too (R97: the most
  /// generally applicable one).
  func finish(request: FuzzRequest) {
    guard !objects.isEmpty else { return }
    let (status, combined) = JSONAPIErrorObject.describing(errors)
    if !(400...499).contains(status) || combined != objects {
      report("errors of \(steps): describing(_:) gave \(status)", request: request)
    }
    // Writing and reading the same objects again gives the same result: mutations repeat the
    // same failures often, and a document costs more than most of the run.
    if answered.count > 10_000 { answered.removeAll(keepingCapacity: true) }
    guard answered.insert(objects).inserted else { return }
    let body: Data
    do {
      body = try encoder.encode(errors: objects)
    } catch {
      report("errors of \(steps): encode(errors:) threw \(error)", request: request)
    }
    do {
      _ = try decoder.decode(JSONAPIDocument<JSONAPIValue, JSONAPIValue>.self, from: body)
      report("errors of \(steps): an error document read back as data", request: request)
    } catch JSONAPIError.errorDocument(let document) {
      if document.errors != objects || document.meta != nil || document.links != nil {
        report(
          "errors of \(steps): the error document read back as \(document.errors), not "
            + "\(objects); written: \(String(decoding: body, as: UTF8.self))", request: request)
      }
    } catch {
      report(
        "errors of \(steps): the error document did not read back: \(error); written: "
          + String(decoding: body, as: UTF8.self), request: request)
    }
  }
}

/// The error objects of earlier runs whose documents read back; libFuzzer runs one input at a time.
nonisolated(unsafe) var answered: Set<[JSONAPIErrorObject]> = []

enum ErrorAnswers {
  /// The error object a server answers `error` with, after checking that it is one of the
  /// library's errors, with the status the library documents and a `source` that names what the
  /// client sent.
  static func object(for error: any Error, _ step: String, request: FuzzRequest)
    -> JSONAPIErrorObject
  {
    guard let expected = expectedStatus(of: error) else {
      report(
        "\(step): \(type(of: error)) is not an error of the library: \(error)", request: request)
    }
    let object = JSONAPIErrorObject(describing: error)
    guard let statusText = object.status, let status = Int(statusText),
      (400...599).contains(status)
    else {
      report("\(step): status \(object.status ?? "nil") for \(error)", request: request)
    }
    // Decided by the request: a 5xx here would tell the client the server broke.
    if !(400...499).contains(status) || (expected != 0 && status != expected) {
      report("\(step): status \(status), expected \(expected), for \(error)", request: request)
    }
    checkSource(object, of: error, step, request: request)
    return object
  }

  /// The status the library documents for `error` (0 when it depends on the case and only the
  /// 4xx range is checked), or `nil` when the error is not one the library throws at a server.
  static func expectedStatus(of error: any Error) -> Int? {
    switch error {
    case is JSONAPIQueryError, is JSONAPIPagingError: return 400
    case let error as JSONAPINegotiationError: return error.status
    case let error as JSONAPIRequestError: return error.status
    case is DecodingError: return 422
    case let error as JSONAPIError:
      switch error {
      case .documentTooLarge, .tooManyOperations: return 413
      case .resourceTypeMismatch: return 409
      case .invalidJSON, .duplicateKey, .nestingTooDeep, .notADocument, .invalidDocument,
        .duplicateResource, .relationshipDepthExceeded, .resourceBudgetExceeded, .errorDocument:
        return 400
      case .missingResourceType, .encodingNestingTooDeep, .invalidValue:
        // Encoder errors: reading a request must never produce them.
        return nil
      }
    default:
      return nil
    }
  }

  /// `source` names what the client sent: the parameter, the header or a JSON Pointer
  /// (RFC 6901: empty or starting with `/`, every `~` escaping `0` or `1`).
  static func checkSource(
    _ object: JSONAPIErrorObject, of error: any Error, _ step: String, request: FuzzRequest
  ) {
    switch error {
    case let error as JSONAPIQueryError:
      if object.source?.parameter != error.parameter {
        report("\(step): source.parameter is not \(error.parameter ?? "nil")", request: request)
      }
    case let error as JSONAPIPagingError:
      if object.source?.parameter != error.parameter || object.links?.type?.href != error.typeLink {
        report("\(step): source.parameter or links.type do not fit \(error)", request: request)
      }
    case let error as JSONAPINegotiationError:
      if object.source?.header != error.header {
        report("\(step): source.header is not \(error.header)", request: request)
      }
    case let error as JSONAPIRequestError:
      if object.source?.pointer != error.pointer {
        report("\(step): source.pointer is not \(error.pointer ?? "nil")", request: request)
      }
    default:
      break
    }
    if let pointer = object.source?.pointer, !isJSONPointer(pointer) {
      report("\(step): source.pointer `\(pointer)` is not a JSON Pointer", request: request)
    }
  }

  static func isJSONPointer(_ pointer: String) -> Bool {
    guard pointer.isEmpty || pointer.hasPrefix("/") else { return false }
    let bytes = Array(pointer.utf8)
    for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "~") {
      guard index + 1 < bytes.count,
        bytes[index + 1] == UInt8(ascii: "0") || bytes[index + 1] == UInt8(ascii: "1")
      else { return false }
    }
    return true
  }
}

/// Prints what went wrong and traps, so libFuzzer keeps the input as a crash file.
func report(_ message: String, request: FuzzRequest?) -> Never {
  var text = "JSONAPIServerFuzz: \(message)\n"
  if let request {
    text += "request: \(request.method) \(request.target)\n"
    for (name, value) in request.headers { text += "  \(name): \(value)\n" }
    text += "body: \(String(decoding: request.body, as: UTF8.self))\n"
  }
  FileHandle.standardError.write(Data(text.utf8))
  abort()
}
