import Foundation
import Testing

@testable import JSONAPICodable

/// What the schema check (`Scripts/validate-encoded-documents.sh`) validates a dumped document as.
enum DocumentKind: String {
  case response, create, update
  /// A relationship endpoint's body (`schema_update_relationship.json`).
  case relationship
}

/// Encodes `value`, checks the result with ``JSONAPIComplianceChecker``, dumps it for the schema
/// check when `JSONAPI_ENCODED_DUMP_DIR` is set, and returns it parsed (by Foundation's
/// `JSONDecoder`, independently of this library) for semantic comparison.
func encodeDocument<T: Encodable>(
  _ value: T, name: String, kind: DocumentKind = .response,
  with encoder: JSONAPIEncoder = JSONAPIEncoder(),
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> JSONAPIValue {
  let data = try encoder.encode(value)
  return try checked(data, name: name, kind: kind, sourceLocation: sourceLocation)
}

/// The checks of ``encodeDocument(_:name:kind:with:sourceLocation:)`` for already encoded bytes.
/// `answersInclude`: the document answers a request with `include`, so `included` may be empty.
func checked(
  _ data: Data, name: String, kind: DocumentKind, answersInclude: Bool = false,
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> JSONAPIValue {
  // Creates and relationship bodies may name resources by `lid` alone (R13, R34).
  let violations = JSONAPIComplianceChecker.violations(
    in: data, purpose: kind == .create || kind == .relationship ? .create : .response,
    answersInclude: answersInclude)
  #expect(violations == [], "\(name) breaks JSON:API", sourceLocation: sourceLocation)
  if let directory = ProcessInfo.processInfo.environment["JSONAPI_ENCODED_DUMP_DIR"],
    !directory.isEmpty
  {
    let url = URL(fileURLWithPath: directory).appendingPathComponent(
      "\(name).\(kind.rawValue).json")
    try data.write(to: url)
  }
  return try JSONDecoder().decode(JSONAPIValue.self, from: data)
}

/// The text of `data`, for messages and byte comparisons.
func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

// Small models shared by the suites.

struct Person: Codable, Equatable, JSONAPIRelationshipExpressible {
  var id: String
  var type = "people"
  var name: String?
}

struct Comment: Codable, Equatable {
  var id: String
  var type = "comments"
  var body: String
  var author: Person?
}

struct Tag: Codable, Equatable, JSONAPIRelationshipExpressible {
  var id: String
  var type = "tags"
}

struct Article: Codable, Equatable {
  var id: String?
  var type = "articles"
  var title: String
  var author: Person?
  var comments: [Comment]?
  var tags: [Tag]?
}

/// A node whose `next` is another node's copy (same identity, a label of its own): primary data
/// whose relatives repeat primary resources.
struct LinkedNode: Encodable {
  struct Copy: Encodable {
    var id: String
    var type = "nodes"
    var label: String
  }
  var id: String
  var type = "nodes"
  var label: String
  var next: Copy?
}
