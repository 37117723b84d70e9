import Foundation
import JSONAPIServer

// `Accept` and `Content-Type`: both overloads of `negotiate(headers:hasBody:)` and
// `negotiate(accept:contentType:)` must agree; what they answer with must only name what the
// server supports and must itself be acceptable; and for plain ASCII values without quotes a
// small reading of RFC 9110 and JSON:API's rule decides whether the `Content-Type` is refused.

enum NegotiationChecks {
  static let versionExtension = "https://example.com/ext/version"
  static let timestampsProfile = "https://example.com/profiles/timestamps"
  static let cursorProfile = "https://jsonapi.org/profiles/ethanresnick/cursor-pagination/"

  /// A JSON:API 1.0 server, and one with two extensions and two profiles.
  static let negotiations = [
    JSONAPIContentNegotiation(),
    JSONAPIContentNegotiation(
      supportedExtensions: [JSONAPIMediaType.atomicExtension, versionExtension],
      supportedProfiles: [cursorProfile, timestampsProfile]),
  ]

  static func run(_ request: FuzzRequest, _ failures: inout Failures) {
    let accepts = request.values(of: "accept")
    let contentTypes = request.values(of: "content-type")
    let accept = accepts.isEmpty ? nil : accepts.joined(separator: ", ")
    let contentType = contentTypes.first ?? (request.hasBody ? "" : nil)

    for negotiation in negotiations {
      let viaFields = Result {
        try negotiation.negotiate(
          headers: request.headers.lazy.map { ($0.name, $0.value) }, hasBody: request.hasBody)
      }
      if contentTypes.count > 1 {
        // Several Content-Type fields cannot be one media type (RFC 9110 §5.3).
        guard case .failure(JSONAPINegotiationError.unsupportedMediaType) = viaFields else {
          report("\(contentTypes.count) Content-Type fields gave \(viaFields)", request: request)
        }
      } else {
        let viaValues = Result {
          try negotiation.negotiate(accept: accept, contentType: contentType)
        }
        if !same(viaFields, viaValues) {
          report("header fields gave \(viaFields), values \(viaValues)", request: request)
        }
      }
      if let fields = uniqueFields(request.headers) {
        let viaDictionary = Result {
          try negotiation.negotiate(headers: fields, hasBody: request.hasBody)
        }
        if !same(viaFields, viaDictionary) {
          report("the dictionary gave \(viaDictionary), fields \(viaFields)", request: request)
        }
      }

      switch viaFields {
      case .success(let mediaType):
        checkAnswer(mediaType, negotiation, request)
      case .failure(let error):
        failures.answer(error, "negotiate", request: request)
        if case .unsupportedMediaType = error as? JSONAPINegotiationError, contentType == nil {
          report("415 for a request without body or Content-Type", request: request)
        }
        if case .notAcceptable = error as? JSONAPINegotiationError, accept == nil {
          report("406 for a request without Accept", request: request)
        }
      }
      if contentTypes.count == 1, let contentType, let refuses = refuses(contentType, negotiation) {
        let refused: Bool
        if case .failure(JSONAPINegotiationError.unsupportedMediaType) = viaFields {
          refused = true
        } else {
          refused = false
        }
        if refused != refuses {
          report(
            "Content-Type `\(contentType)` was \(refused ? "" : "not ")refused "
              + "(supported extensions \(negotiation.supportedExtensions.sorted()))",
            request: request)
        }
      }
    }
  }

  /// The media type a server answers with names only what it supports, reads back from its own
  /// header value, and is accepted as `Accept` and as `Content-Type` of the next request.
  static func checkAnswer(
    _ mediaType: JSONAPIMediaType, _ negotiation: JSONAPIContentNegotiation,
    _ request: FuzzRequest
  ) {
    if !mediaType.extensions.allSatisfy(negotiation.supportedExtensions.contains)
      || !mediaType.profiles.allSatisfy(negotiation.supportedProfiles.contains)
    {
      report("answered with unsupported \(mediaType)", request: request)
    }
    let header = mediaType.headerValue
    if JSONAPIMediaType(headerValue: header) != mediaType {
      report("`\(header)` does not read back as \(mediaType)", request: request)
    }
    let again = Result { try negotiation.negotiate(accept: header, contentType: header) }
    guard case .success(let echoed) = again, echoed == mediaType else {
      report("sending back `\(header)` gave \(again)", request: request)
    }
  }

  /// The fields as a dictionary when no name appears twice (`Accept` and `Content-Type` compared
  /// without regard to case), so that the dictionary overload has the same input.
  static func uniqueFields(_ headers: [(name: String, value: String)]) -> [String: String]? {
    var fields: [String: String] = [:]
    var lowercased: Set<String> = []
    for (name, value) in headers {
      guard lowercased.insert(name.lowercasedASCII()).inserted, fields[name] == nil else {
        return nil
      }
      fields[name] = value
    }
    return fields
  }

  static func same(
    _ left: Result<JSONAPIMediaType, any Error>, _ right: Result<JSONAPIMediaType, any Error>
  ) -> Bool {
    switch (left, right) {
    case (.success(let left), .success(let right)): return left == right
    case (
      .failure(let left as JSONAPINegotiationError), .failure(let right as JSONAPINegotiationError)
    ):
      return left == right
    default: return false
    }
  }

  /// Whether JSON:API requires `415` for this `Content-Type` (R56, R57; RFC 9110 §8.3.1,
  /// §5.6.6), or `nil` when the value is beyond this small reader: not ASCII, or with quotes or
  /// backslashes. The type and subtype are compared without regard to case; parameters are
  /// `name=value` pairs between `;`, where an empty one (`;;`, a trailing `;`) is no parameter;
  /// any name but `ext` and `profile` is refused, and so is an `ext` URI the server does not
  /// support. Spaces and tabs around names and values are forgiven, as the library forgives them.
  static func refuses(_ contentType: String, _ negotiation: JSONAPIContentNegotiation) -> Bool? {
    guard contentType.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F || $0 == 0x09 }),
      !contentType.contains("\""), !contentType.contains("\\")
    else { return nil }
    var parts = contentType.split(separator: ";", omittingEmptySubsequences: false)
    let type = parts.removeFirst().trimmingSpacesAndTabs().lowercasedASCII()
    guard type == JSONAPIMediaType.name else { return true }
    for part in parts where !part.trimmingSpacesAndTabs().isEmpty {
      guard let equals = part.firstIndex(of: "=") else { return true }
      let name = part[..<equals].trimmingSpacesAndTabs().lowercasedASCII()
      let value = part[part.index(after: equals)...].trimmingSpacesAndTabs()
      switch name {
      case "ext":
        let uris = value.split(separator: " ").map(String.init)
        if !uris.allSatisfy(negotiation.supportedExtensions.contains) { return true }
      case "profile":
        continue
      default:
        return true
      }
    }
    return false
  }
}
