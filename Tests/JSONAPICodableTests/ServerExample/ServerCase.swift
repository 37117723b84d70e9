import Foundation
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

  var testDescription: String { name }

  static func get(
    _ name: String, _ url: String, _ status: Int = 200, dataIDs: [String]? = nil,
    included: Set<String>? = nil, code: String? = nil, source: (String, String)? = nil
  ) -> ServerCase {
    ServerCase(
      name: name, request: .jsonAPI("GET", url), status: status, code: code,
      source: source.map { (member: $0.0, value: $0.1) }, dataIDs: dataIDs, included: included)
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
