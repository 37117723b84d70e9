/// Sections of the JSON:API specification that messages users see point to, by their URLs.
///
/// Internal comments and tests cite the digest's rule numbers (R1...); users cannot look those up, so
/// every message names the section of https://jsonapi.org/format/ instead. One home for the links.
enum SpecSection {
  static let topLevel = "https://jsonapi.org/format/#document-top-level"
  static let resourceObjects = "https://jsonapi.org/format/#document-resource-objects"
  static let identification = "https://jsonapi.org/format/#document-resource-object-identification"
  static let fields = "https://jsonapi.org/format/#document-resource-object-fields"
  static let relationships = "https://jsonapi.org/format/#document-resource-object-relationships"
  static let linkage = "https://jsonapi.org/format/#document-resource-object-linkage"
  static let identifierObjects = "https://jsonapi.org/format/#document-resource-identifier-objects"
  static let compoundDocuments = "https://jsonapi.org/format/#document-compound-documents"
  static let meta = "https://jsonapi.org/format/#document-meta"
  static let links = "https://jsonapi.org/format/#document-links"
  static let memberNames = "https://jsonapi.org/format/#document-member-names"
  static let errorObjects = "https://jsonapi.org/format/#error-objects"
  static let queryParameters = "https://jsonapi.org/format/#query-parameters"
  static let includes = "https://jsonapi.org/format/#fetching-includes"
  static let sparseFieldsets = "https://jsonapi.org/format/#fetching-sparse-fieldsets"
  static let sorting = "https://jsonapi.org/format/#fetching-sorting"
  static let pagination = "https://jsonapi.org/format/#fetching-pagination"
  static let filtering = "https://jsonapi.org/format/#fetching-filtering"
  static let contentNegotiation = "https://jsonapi.org/format/#content-negotiation"
  static let creating = "https://jsonapi.org/format/#crud-creating"
  static let updating = "https://jsonapi.org/format/#crud-updating"
  static let updatingRelationships = "https://jsonapi.org/format/#crud-updating-relationships"
  static let deleting = "https://jsonapi.org/format/#crud-deleting"
  static let clientIDs = "https://jsonapi.org/format/#crud-creating-client-ids"
  static let creatingConflict = "https://jsonapi.org/format/#crud-creating-responses-409"
  static let updatingConflict = "https://jsonapi.org/format/#crud-updating-responses-409"
  static let fetching = "https://jsonapi.org/format/#fetching-resources-responses-404"
  static let errorProcessing = "https://jsonapi.org/format/#errors-processing"
  static let atomicOperations = "https://jsonapi.org/ext/atomic"

  /// `reason` followed by where the specification says so: "… (see https://jsonapi.org/format/#…)".
  static func cite(_ reason: String, _ section: String) -> String { "\(reason) (see \(section))" }
}
