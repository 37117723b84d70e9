import Foundation
import JSONAPICodable
import ServerExampleKit
import Testing

/// One row of the example server's table: a request and what the answer must be.
struct ServerCase: Sendable, CustomTestStringConvertible {
  let name: String
  let request: ExampleRequest
  let status: Int
  /// For an error: the error object's `code`, and its `source` member and value.
  var code: String?
  var source: (member: String, value: String)?
  /// For a document: the primary resources' ids, in order, and the `included` identities.
  var dataIDs: [String]?
  var included: Set<String>?
  /// Headers the response must carry with exactly these values.
  var headers: [String: String] = [:]
  /// Links of the document (or of the error object) by name, checked byte for byte.
  var links: [String: ExpectedLink] = [:]
  /// The document's top-level `meta`, when it is checked.
  var meta: JSONAPIValue?

  var testDescription: String { name }

  static func get(
    _ name: String, _ url: String, _ status: Int = 200, dataIDs: [String]? = nil,
    included: Set<String>? = nil, code: String? = nil, source: (String, String)? = nil,
    headers: [String: String] = [:], links: [String: ExpectedLink] = [:], meta: JSONAPIValue? = nil
  ) -> ServerCase {
    ServerCase(
      name: name, request: .jsonAPI("GET", url), status: status, code: code,
      source: source.map { (member: $0.0, value: $0.1) }, dataIDs: dataIDs, included: included,
      headers: headers, links: links, meta: meta)
  }

  static func send(
    _ name: String, _ method: String, _ url: String, _ body: String?, _ status: Int,
    code: String? = nil, source: (String, String)? = nil, headers: [String: String] = [:]
  ) -> ServerCase {
    ServerCase(
      name: name, request: .jsonAPI(method, url, body: body), status: status, code: code,
      source: source.map { (member: $0.0, value: $0.1) }, headers: headers)
  }

  static func raw(
    _ name: String, _ request: ExampleRequest, _ status: Int, code: String? = nil,
    source: (String, String)? = nil, headers: [String: String] = [:]
  ) -> ServerCase {
    ServerCase(
      name: name, request: request, status: status, code: code,
      source: source.map { (member: $0.0, value: $0.1) }, headers: headers)
  }
}

/// What a row expects of one link: this exact `href`, an explicit `null`, or no member at all.
enum ExpectedLink: Sendable, Equatable, ExpressibleByStringInterpolation {
  case href(String)
  case null
  case absent

  init(stringLiteral value: String) { self = .href(value) }

  /// Whether `value`, the member as the document has it (`nil` when absent), is what is expected.
  func matches(_ value: JSONAPIValue?) -> Bool {
    switch self {
    case .href(let href): return value?.stringValue == href
    case .null: return value == .null
    case .absent: return value == nil
    }
  }
}
