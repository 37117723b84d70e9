/// The Cursor Pagination profile (https://jsonapi.org/profiles/ethanresnick/cursor-pagination/):
/// its URI, the `type` links of the three errors it defines, and the sections that messages users
/// see cite, as ``SpecSection`` does for the specification.
package enum CursorPaginationProfile {
  /// The profile's URI, as it appears in the media type's `profile` parameter.
  package static let uri = "https://jsonapi.org/profiles/ethanresnick/cursor-pagination/"

  /// `links.type` of the Unsupported Sort error.
  package static let unsupportedSortType = uri + "unsupported-sort"
  /// `links.type` of the Max Page Size Exceeded error.
  package static let maxSizeExceededType = uri + "max-size-exceeded"
  /// `links.type` of the Range Pagination Not Supported error.
  package static let rangePaginationNotSupportedType = uri + "range-pagination-not-supported"

  /// Sections of the profile's page.
  package static let invalidParameterSection = uri + "#errors-invalid-query-parameter"
  package static let unsupportedSortSection = uri + "#errors-unsupported-sort"
  package static let maxSizeExceededSection = uri + "#errors-max-page-size-exceeded"
  package static let rangePaginationSection = uri + "#errors-range-pagination-not-supported"
}
