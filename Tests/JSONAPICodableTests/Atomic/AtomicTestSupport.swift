import Foundation
import Testing

@testable import JSONAPICodable

/// Checks an encoded Atomic Operations document with ``AtomicComplianceChecker`` (§17 of the
/// digest), dumps each resource object and linkage inside it as a create, update or relationship
/// body for the schema check (`Scripts/validate-encoded-documents.sh`) when
/// `JSONAPI_ENCODED_DUMP_DIR` is set, and returns the document parsed by Foundation.
func checkedAtomic(
  _ data: Data, name: String, sourceLocation: SourceLocation = #_sourceLocation
) throws -> JSONAPIValue {
  let violations = AtomicComplianceChecker.violations(in: data)
  #expect(
    violations == [], "\(name) breaks the Atomic Operations rules", sourceLocation: sourceLocation)
  let document = try JSONDecoder().decode(JSONAPIValue.self, from: data)
  if let directory = ProcessInfo.processInfo.environment["JSONAPI_ENCODED_DUMP_DIR"],
    !directory.isEmpty
  {
    let folder = URL(fileURLWithPath: directory)
    for body in AtomicComplianceChecker.resourceBodies(in: data) {
      try JSONEncoder().encode(body.body).write(
        to: folder.appendingPathComponent("\(name).op\(body.operation).\(body.kind).json"))
    }
    for (index, result) in (document["atomic:results"]?.arrayValue ?? []).enumerated() {
      guard let resource = result["data"], resource != .null else { continue }
      try JSONEncoder().encode(JSONAPIValue.object(["data": resource])).write(
        to: folder.appendingPathComponent("\(name).result\(index).response.json"))
    }
  }
  return document
}

// Models of the atomic suites: people and articles created in one request.

struct AtomicPerson: Codable, Equatable, JSONAPIResource {
  static let jsonAPIType = "people"
  var id: String?
  var lid: String?
  var name: String?
}

struct AtomicArticle: Codable, Equatable, JSONAPIResource {
  static let jsonAPIType = "articles"
  var id: String?
  var lid: String?
  var title: String?
  var wordCount: Int?
  var author: AtomicPerson?
}
