/// Sections of the JSON:API specification that messages users see point to, by their URLs.
///
/// Internal comments and tests cite the digest's rule numbers (R1...); users cannot look those up, so
/// every message names the section of https://jsonapi.org/format/ instead. One home for the links.
package enum SpecSection {
  package static let topLevel = "https://jsonapi.org/format/#document-top-level"
  package static let resourceObjects = "https://jsonapi.org/format/#document-resource-objects"
  package static let identification =
    "https://jsonapi.org/format/#document-resource-object-identification"
  package static let fields = "https://jsonapi.org/format/#document-resource-object-fields"
  package static let relationships =
    "https://jsonapi.org/format/#document-resource-object-relationships"
  package static let linkage = "https://jsonapi.org/format/#document-resource-object-linkage"
  package static let identifierObjects =
    "https://jsonapi.org/format/#document-resource-identifier-objects"
  static let compoundDocuments = "https://jsonapi.org/format/#document-compound-documents"
  static let meta = "https://jsonapi.org/format/#document-meta"
  static let links = "https://jsonapi.org/format/#document-links"
  static let memberNames = "https://jsonapi.org/format/#document-member-names"
  static let errorObjects = "https://jsonapi.org/format/#error-objects"
  static let queryParameters = "https://jsonapi.org/format/#query-parameters"
  static let includes = "https://jsonapi.org/format/#fetching-includes"
  static let sparseFieldsets = "https://jsonapi.org/format/#fetching-sparse-fieldsets"
  static let sorting = "https://jsonapi.org/format/#fetching-sorting"
  package static let pagination = "https://jsonapi.org/format/#fetching-pagination"
  static let filtering = "https://jsonapi.org/format/#fetching-filtering"
  package static let contentNegotiation = "https://jsonapi.org/format/#content-negotiation"
  static let creating = "https://jsonapi.org/format/#crud-creating"
  package static let updating = "https://jsonapi.org/format/#crud-updating"
  package static let updatingRelationships =
    "https://jsonapi.org/format/#crud-updating-relationships"
  static let deleting = "https://jsonapi.org/format/#crud-deleting"
  package static let clientIDs = "https://jsonapi.org/format/#crud-creating-client-ids"
  package static let creatingConflict = "https://jsonapi.org/format/#crud-creating-responses-409"
  package static let updatingConflict = "https://jsonapi.org/format/#crud-updating-responses-409"
  package static let fetching = "https://jsonapi.org/format/#fetching-resources-responses-404"
  static let errorProcessing = "https://jsonapi.org/format/#errors-processing"
  package static let atomicOperations = "https://jsonapi.org/ext/atomic"

  /// `reason` followed by where the specification says so: "… (see https://jsonapi.org/format/#…)".
  package static func cite(_ reason: String, _ section: String) -> String {
    "\(reason) (see \(section))"
  }
}
