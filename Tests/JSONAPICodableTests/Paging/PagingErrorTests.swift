import Foundation
import Testing

@testable import JSONAPICodable
@testable import JSONAPIServer

/// Every way a `page` request is refused, by each strategy: the error `page(for:)` throws, the same
/// error from `JSONAPIQueryRules` made by `rules(_:)`, and the error object it is answered with
/// (400, `source.parameter`, the profile's `links.type` and `meta.page.maxSize` where it defines
/// them, a `detail` citing where the rule is written).
@Suite struct PagingErrorTests {
  static let cursor = JSONAPIPaging.cursor(defaultSize: 10, maxSize: 100, sortFields: ["name"])
  static let pageNumber = JSONAPIPaging.pageNumber(defaultSize: 10, maxSize: 50)
  static let offset = JSONAPIPaging.offset(defaultLimit: 25, maxLimit: 100)

  struct Refusal: Sendable, CustomTestStringConvertible {
    let name: String
    let paging: JSONAPIPaging
    let query: String
    let error: JSONAPIPagingError?
    var queryError: JSONAPIQueryError?
    var testDescription: String { name }

    /// The error the request is refused with.
    var expected: any Error {
      if let error { return error }
      if let queryError { return queryError }
      return JSONAPIPagingError.rangePaginationNotSupported
    }

    init(
      _ name: String, _ paging: JSONAPIPaging, _ query: String, _ error: JSONAPIPagingError
    ) {
      self.name = name
      self.paging = paging
      self.query = query
      self.error = error
    }

    init(_ name: String, _ paging: JSONAPIPaging, _ query: String, _ error: JSONAPIQueryError) {
      self.name = name
      self.paging = paging
      self.query = query
      self.error = nil
      self.queryError = error
    }
  }

  static let positive = "it must be a positive whole number"
  static let numberRange = "it must be a whole number from 1 to 2147483647"
  static let offsetRange = "it must be a whole number from 0 to 2147483647"

  static let refusals: [Refusal] = [
    // The profile's Invalid Parameter Value error: `page[size]` must match ^[0-9]+$ and be > 0.
    Refusal(
      "cursor-size-zero", cursor, "page[size]=0",
      .invalidValue(parameter: "page[size]", value: "0", reason: positive)),
    Refusal(
      "cursor-size-negative", cursor, "page[size]=-1",
      .invalidValue(parameter: "page[size]", value: "-1", reason: positive)),
    Refusal(
      "cursor-size-word", cursor, "page%5Bsize%5D=ten",
      .invalidValue(parameter: "page[size]", value: "ten", reason: positive)),
    Refusal(
      "cursor-size-empty", cursor, "page[size]=",
      .invalidValue(parameter: "page[size]", value: "", reason: positive)),
    Refusal(
      "cursor-size-fraction", cursor, "page[size]=1.5",
      .invalidValue(parameter: "page[size]", value: "1.5", reason: positive)),
    Refusal(
      "cursor-size-plus", cursor, "page[size]=+5",
      .invalidValue(parameter: "page[size]", value: " 5", reason: positive)),
    Refusal(
      "cursor-size-full-width-digits", cursor, "page[size]=%EF%BC%95",
      .invalidValue(parameter: "page[size]", value: "５", reason: positive)),
    Refusal(
      "cursor-after-empty", cursor, "page[after]=",
      .invalidValue(parameter: "page[after]", value: "", reason: "a cursor cannot be empty")),
    Refusal(
      "cursor-before-empty", cursor, "page[before]",
      .invalidValue(parameter: "page[before]", value: "", reason: "a cursor cannot be empty")),
    // Max Page Size Exceeded, also for sizes past any integer type.
    Refusal(
      "cursor-size-above-max", cursor, "page[size]=101",
      .maxSizeExceeded(parameter: "page[size]", size: "101", maxSize: 100)),
    Refusal(
      "cursor-size-past-int32", cursor, "page[size]=4294967297",
      .maxSizeExceeded(parameter: "page[size]", size: "4294967297", maxSize: 100)),
    Refusal(
      "cursor-size-past-int64", cursor, "page[size]=99999999999999999999999999999",
      .maxSizeExceeded(parameter: "page[size]", size: "99999999999999999999999999999", maxSize: 100)
    ),
    Refusal("cursor-range", cursor, "page[after]=a&page[before]=b", .rangePaginationNotSupported),
    Refusal(
      "cursor-unsupported-sort", cursor, "sort=name,-title", .unsupportedSort(field: "title")),
    Refusal(
      "cursor-page-number", cursor, "page[number]=2",
      .unsupportedParameter(name: "page[number]", reason: "this endpoint does not page by `number`")
    ),
    Refusal(
      "number-zero", pageNumber, "page[number]=0",
      .invalidValue(parameter: "page[number]", value: "0", reason: numberRange)),
    Refusal(
      "number-past-int32", pageNumber, "page[number]=2147483648",
      .invalidValue(parameter: "page[number]", value: "2147483648", reason: numberRange)),
    Refusal(
      "number-eighteen-nines", pageNumber, "page[number]=999999999999999999",
      .invalidValue(parameter: "page[number]", value: "999999999999999999", reason: numberRange)),
    Refusal(
      "number-exponent", pageNumber, "page[number]=1e3",
      .invalidValue(parameter: "page[number]", value: "1e3", reason: numberRange)),
    Refusal(
      "number-size-above-max", pageNumber, "page[size]=51",
      .invalidValue(
        parameter: "page[size]", value: "51", reason: "it must be a whole number from 1 to 50")),
    Refusal(
      "number-size-zero", pageNumber, "page[number]=1&page[size]=0",
      .invalidValue(
        parameter: "page[size]", value: "0", reason: "it must be a whole number from 1 to 50")),
    Refusal(
      "number-cursor", pageNumber, "page[after]=x",
      .unsupportedParameter(name: "page[after]", reason: "this endpoint does not page by `after`")),
    Refusal(
      "offset-negative", offset, "page[offset]=-1",
      .invalidValue(parameter: "page[offset]", value: "-1", reason: offsetRange)),
    Refusal(
      "offset-past-int32", offset, "page[offset]=2147483648",
      .invalidValue(parameter: "page[offset]", value: "2147483648", reason: offsetRange)),
    Refusal(
      "offset-past-int64", offset, "page[offset]=18446744073709551616",
      .invalidValue(parameter: "page[offset]", value: "18446744073709551616", reason: offsetRange)),
    Refusal(
      "offset-limit-above-max", offset, "page[limit]=101",
      .invalidValue(
        parameter: "page[limit]", value: "101", reason: "it must be a whole number from 1 to 100")),
    Refusal(
      "offset-size", offset, "page[size]=5",
      .unsupportedParameter(name: "page[size]", reason: "this endpoint does not page by `size`")),
  ]

  @Test(arguments: refusals)
  func refuses(_ refusal: Refusal) throws {
    let query = try JSONAPIQuery(parsing: refusal.query)
    let expected: any Error = refusal.expected
    let fromPage = try #require(thrown { try refusal.paging.page(for: query) })
    // The rules a strategy makes refuse the same way, whatever else they allow.
    let rules = refusal.paging.rules(JSONAPIQueryRules(sortFields: ["name", "title"]))
    let fromRules = try #require(thrown { try rules.validate(query) })
    for error in [fromPage, fromRules] {
      if let pagingError = refusal.error {
        #expect(error as? JSONAPIPagingError == pagingError)
      } else {
        #expect(error as? JSONAPIQueryError == refusal.queryError)
      }
    }
    let object = try errorDocument(expected, name: "paging-\(refusal.name)")
    #expect(object["status"] == "400")
    let detail = object["detail"]?.stringValue ?? ""
    guard let error = refusal.error else {
      #expect(object["code"] == "unsupported-parameter")
      #expect(object["source"]?["parameter"]?.stringValue == refusal.queryError?.parameter)
      return
    }
    #expect(object["code"]?.stringValue == error.code)
    #expect(object["source"] == ["parameter": .string(error.parameter)])
    #expect(object["links"]?["type"]?.stringValue == error.typeLink)
    switch error {
    case .invalidValue(let parameter, _, _):
      #expect(object["links"] == nil)
      #expect(object["meta"] == nil)
      let section =
        parameter == "page[size]" || !refusal.paging.appliesCursorPaginationProfile
        ? "https://jsonapi.org/format/#fetching-pagination"
        : "https://jsonapi.org/profiles/ethanresnick/cursor-pagination/#errors-invalid-query-parameter"
      #expect(detail.hasSuffix("(see \(section))"), "\(detail)")
    case .maxSizeExceeded(_, _, let maxSize):
      #expect(object["meta"] == ["page": ["maxSize": .integer(maxSize)]])
      #expect(
        object["links"]?["type"]
          == "https://jsonapi.org/profiles/ethanresnick/cursor-pagination/max-size-exceeded")
      #expect(detail.contains("cursor-pagination/#errors-max-page-size-exceeded"))
    case .rangePaginationNotSupported:
      #expect(object["source"] == ["parameter": "page[before]"])
      #expect(
        object["links"]?["type"]
          == "https://jsonapi.org/profiles/ethanresnick/cursor-pagination/range-pagination-not-supported"
      )
      #expect(detail.contains("cursor-pagination/#errors-range-pagination-not-supported"))
    case .unsupportedSort:
      #expect(object["source"] == ["parameter": "sort"])
      #expect(
        object["links"]?["type"]
          == "https://jsonapi.org/profiles/ethanresnick/cursor-pagination/unsupported-sort")
      #expect(detail.contains("cursor-pagination/#errors-unsupported-sort"))
    }
  }

  @Test func theTableCoversEveryCase() {
    let errors = Self.refusals.compactMap(\.error)
    #expect(errors.contains { if case .invalidValue = $0 { true } else { false } })
    #expect(errors.contains { if case .maxSizeExceeded = $0 { true } else { false } })
    #expect(errors.contains(.rangePaginationNotSupported))
    #expect(errors.contains { if case .unsupportedSort = $0 { true } else { false } })
    #expect(Set(Self.refusals.map(\.name)).count == Self.refusals.count)
  }

  // A server refuses a cursor it did not make with the same error (the profile: "If their value
  // is not a valid cursor"), which cites the profile.
  @Test func aServersOwnCursorRefusalCitesTheProfile() throws {
    let error = JSONAPIPagingError.invalidValue(
      parameter: "page[after]", value: "forged", reason: "it is not a cursor of this list")
    let object = try errorDocument(error, name: "paging-forged-cursor")
    #expect(object["source"] == ["parameter": "page[after]"])
    #expect(
      object["detail"]
        == """
        `page[after]=forged` is not a valid page: it is not a cursor of this list (see \
        https://jsonapi.org/profiles/ethanresnick/cursor-pagination/#errors-invalid-query-parameter)
        """)
  }

  // `describing(_:)` keeps the 400 of paging errors mixed with other client errors.
  @Test func describesAListOfErrors() {
    let (status, objects) = JSONAPIErrorObject.describing([
      JSONAPIPagingError.rangePaginationNotSupported,
      JSONAPIQueryError.sortNotAllowed(field: "x"),
    ])
    #expect(status == 400)
    #expect(objects.map(\.code) == ["range-pagination-not-supported", "sort-not-allowed"])
  }
}
