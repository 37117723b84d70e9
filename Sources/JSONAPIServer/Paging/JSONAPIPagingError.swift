/// A `page[…]` request a server must refuse with `400 Bad Request`: thrown by
/// ``JSONAPIPaging/page(for:)``, by ``JSONAPIQueryRules/validate(_:)`` on rules made by
/// ``JSONAPIPaging/rules(_:)``, and by a server's own code for a cursor it cannot read or a sort it
/// cannot page.
///
/// `JSONAPIErrorObject.init(describing:)` turns it into an error object with `status` `400`,
/// ``code``, and `source.parameter` naming ``parameter``. The three errors the
/// [Cursor Pagination profile](https://jsonapi.org/profiles/ethanresnick/cursor-pagination/)
/// defines also get the profile's `links.type`, and ``maxSizeExceeded(parameter:size:maxSize:)``
/// gets `meta.page.maxSize`:
///
/// ```swift
/// do {
///   let page = try paging.page(for: query)
/// } catch {
///   let body = try JSONAPIEncoder().encode(errors: [JSONAPIErrorObject(describing: error)])
///   // 400, "source": {"parameter": "page[size]"}, "meta": {"page": {"maxSize": 100}},
///   // "links": {"type": "https://jsonapi.org/profiles/ethanresnick/cursor-pagination/max-size-exceeded"}
/// }
/// ```
public enum JSONAPIPagingError: JSONAPIErrorObjectConvertible, Sendable, Hashable {
  /// A `page[…]` value the strategy cannot read: a size, number or offset that is not a whole
  /// number in range, an empty cursor, or (thrown by the server) a cursor it does not recognise.
  /// The profile's Invalid Parameter Value error.
  ///
  /// `reason` completes the sentence "… is not a valid page: …", such as
  /// "it must be a positive whole number".
  case invalidValue(parameter: String, value: String, reason: String)
  /// `page[size]` is larger than the cursor strategy's largest page: the profile's Max Page Size
  /// Exceeded error. `size` is the value as sent (it may not fit any integer type). The page
  /// number and offset strategies answer a size above their maximum with
  /// ``invalidValue(parameter:value:reason:)``, since the typed error belongs to the profile.
  case maxSizeExceeded(parameter: String, size: String, maxSize: Int)
  /// Both `page[after]` and `page[before]` on an endpoint that does not page by ranges: the
  /// profile's Range Pagination Not Supported error. `source.parameter` names `page[before]`.
  case rangePaginationNotSupported
  /// A `sort` field whose order the server cannot page by cursor: the profile's Unsupported Sort
  /// error. `source.parameter` names `sort`.
  case unsupportedSort(field: String)

  /// The name of the offending parameter, unencoded (`page[size]`).
  public var parameter: String {
    switch self {
    case .invalidValue(let parameter, _, _), .maxSizeExceeded(let parameter, _, _):
      return parameter
    case .rangePaginationNotSupported: return "page[before]"
    case .unsupportedSort: return "sort"
    }
  }

  /// A stable, machine-readable code for the case, used as the error object's `code`.
  /// ``invalidValue(parameter:value:reason:)`` shares `invalid-page-value` with
  /// `JSONAPIQueryError.invalidPageValue(name:value:reason:)`.
  public var code: String {
    switch self {
    case .invalidValue: return "invalid-page-value"
    case .maxSizeExceeded: return "max-size-exceeded"
    case .rangePaginationNotSupported: return "range-pagination-not-supported"
    case .unsupportedSort: return "unsupported-sort"
    }
  }

  /// The `type` link the profile gives the error; `nil` for
  /// ``invalidValue(parameter:value:reason:)``, which has none.
  public var typeLink: String? {
    switch self {
    case .invalidValue: return nil
    case .maxSizeExceeded: return CursorPaginationProfile.maxSizeExceededType
    case .rangePaginationNotSupported:
      return CursorPaginationProfile.rangePaginationNotSupportedType
    case .unsupportedSort: return CursorPaginationProfile.unsupportedSortType
    }
  }

  /// The error object `JSONAPIErrorObject.init(describing:)` answers with: status `400`,
  /// `source.parameter`, and the profile's `links.type` where it gives one.
  public var errorObject: JSONAPIErrorObject {
    let title: String
    var meta: JSONAPIValue?
    switch self {
    case .invalidValue: title = "Invalid Query Parameter"
    case .maxSizeExceeded(_, _, let maxSize):
      title = "Page Size Too Large"
      meta = ["page": ["maxSize": .integer(maxSize)]]
    case .rangePaginationNotSupported: title = "Range Pagination Not Supported"
    case .unsupportedSort: title = "Unsupported Sort"
    }
    return JSONAPIErrorObject(
      links: typeLink.map { ["type": JSONAPILink(href: $0)] }, status: "400", code: code,
      title: title, detail: description, source: .init(parameter: parameter), meta: meta)
  }
}

extension JSONAPIPagingError: CustomStringConvertible {
  /// A sentence users can be shown, citing the section of the specification or of the profile.
  public var description: String {
    switch self {
    case .invalidValue(let parameter, let value, let reason):
      // `page[after]` and `page[before]` exist only in the profile; other members are the
      // specification's page family.
      let section =
        parameter == "page[after]" || parameter == "page[before]"
        ? CursorPaginationProfile.invalidParameterSection : SpecSection.pagination
      return SpecSection.cite("`\(parameter)=\(value)` is not a valid page: \(reason)", section)
    case .maxSizeExceeded(let parameter, let size, let maxSize):
      return SpecSection.cite(
        "`\(parameter)=\(size)` asks for more than the largest page, \(maxSize)",
        CursorPaginationProfile.maxSizeExceededSection)
    case .rangePaginationNotSupported:
      return SpecSection.cite(
        "This endpoint does not page by ranges: send `page[after]` or `page[before]`, not both",
        CursorPaginationProfile.rangePaginationSection)
    case .unsupportedSort(let field):
      return SpecSection.cite(
        "The resources cannot be paged by cursor when sorted by `\(field)`",
        CursorPaginationProfile.unsupportedSortSection)
    }
  }
}
