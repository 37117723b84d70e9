extension JSONAPIPaging {
  /// The slice of the collection a request asks for, read by ``JSONAPIPaging/page(for:)``.
  ///
  /// | Strategy | Set |
  /// |---|---|
  /// | cursor | ``size``, ``after`` and ``before`` as sent |
  /// | page number | ``size``, ``number``, and ``offset`` = (`number` − 1) × `size`, the index of the first item |
  /// | offset | ``size`` (the limit) and ``offset`` |
  public struct Page: Sendable, Hashable {
    /// The used page size: the number of items to return when there are that many (`page[size]`,
    /// `page[limit]`, or the default; for a cursor range request without `page[size]`, the
    /// largest size).
    public var size: Int
    /// `page[after]`: return the items right after the one this cursor falls on.
    public var after: String?
    /// `page[before]`: return the items right before the one this cursor falls on (the last
    /// `size` of them, in order).
    public var before: String?
    /// `page[number]`, from 1 (page number strategy).
    public var number: Int?
    /// The index of the first item to return, from 0: `page[offset]` (offset strategy), or the
    /// page number's first item. Where `Int` has 32 bits, a page number whose first item lies
    /// past `Int.max` gives `Int.max` (an empty page), never an overflow.
    public var offset: Int?

    /// Creates a page; ``JSONAPIPaging/page(for:)`` is the usual way.
    ///
    /// ```swift
    /// let page = JSONAPIPaging.Page(size: 2, after: "abcde")
    /// ```
    public init(
      size: Int, after: String? = nil, before: String? = nil, number: Int? = nil,
      offset: Int? = nil
    ) {
      self.size = size
      self.after = after
      self.before = before
      self.number = number
      self.offset = offset
    }

    /// Whether both cursors are set: a range request, whose data is what `after` alone gives,
    /// at most ``size`` items, all before the `before` cursor.
    public var isRange: Bool { after != nil && before != nil }
  }

  /// Reads the `page` parameters of `query` into the slice to fetch.
  ///
  /// ```swift
  /// let paging = JSONAPIPaging.cursor(defaultSize: 10, maxSize: 100)
  /// let page = try paging.page(for: JSONAPIQuery(parsing: "page%5Bafter%5D=abcde&page%5Bsize%5D=2"))
  /// // page.size == 2, page.after == "abcde"
  /// ```
  ///
  /// Sizes, numbers and offsets must be whole numbers (`^[0-9]+$`, read in base 10, leading zeros
  /// allowed); cursors are taken as sent, and only an empty one is refused here: check that the
  /// server made the cursor when it reads it, and throw
  /// ``JSONAPIPagingError/invalidValue(parameter:value:reason:)`` when it did not.
  ///
  /// - Throws: ``JSONAPIPagingError/invalidValue(parameter:value:reason:)`` for a size (limit)
  ///   that is not a whole number from 1 up (for the page number and offset strategies, up to
  ///   ``maxSize``), a number from 1 or offset from 0 up to ``largestNumber``, or an empty
  ///   cursor; for the cursor strategy ``JSONAPIPagingError/maxSizeExceeded(parameter:size:maxSize:)``
  ///   above ``maxSize``, ``JSONAPIPagingError/rangePaginationNotSupported`` for both cursors
  ///   without ``allowsRangePagination``, and ``JSONAPIPagingError/unsupportedSort(field:)`` for a
  ///   `sort` field outside the strategy's sort fields;
  ///   `JSONAPIQueryError.unsupportedParameter(name:reason:)` for a `page` member the strategy
  ///   does not read (as ``JSONAPIQueryRules/validate(_:)`` does).
  public func page(for query: JSONAPIQuery) throws -> Page {
    let members = pageMembers
    for member in query.page.keys.sorted() where !members.contains(member) {
      throw JSONAPIQueryError.unsupportedParameter(
        name: "page[\(member)]", reason: "this endpoint does not page by `\(member)`")
    }
    switch strategy {
    case .cursor(let allowsRangePagination, let sortFields):
      let size = try query.page["size"].map(cursorSize)
      let after = try query.page["after"].map { try Self.cursor($0, member: "after") }
      let before = try query.page["before"].map { try Self.cursor($0, member: "before") }
      let isRange = after != nil && before != nil
      if isRange, !allowsRangePagination {
        throw JSONAPIPagingError.rangePaginationNotSupported
      }
      if let sortFields, let field = query.sort.first(where: { !sortFields.contains($0.field) }) {
        throw JSONAPIPagingError.unsupportedSort(field: field.field)
      }
      // The profile: a range request without `page[size]` uses the largest size.
      return Page(size: size ?? (isRange ? maxSize : defaultSize), after: after, before: before)
    case .pageNumber:
      let number = try query.page["number"].map { try Self.wholeNumber($0, member: "number") } ?? 1
      let size = try query.page["size"].map { try boundedSize($0, member: "size") } ?? defaultSize
      return Page(size: size, number: number, offset: Self.offset(ofPage: number, size: size))
    case .offset:
      let offset = try query.page["offset"].map { try Self.wholeNumber($0, member: "offset") } ?? 0
      let limit =
        try query.page["limit"].map { try boundedSize($0, member: "limit") } ?? defaultSize
      return Page(size: limit, offset: offset)
    }
  }

  /// (`number` − 1) × `size`, computed in 64 bits (both are at most `Int32.max`, so the product
  /// fits) and clamped to `Int.max` where `Int` has 32 bits.
  static func offset(ofPage number: Int, size: Int) -> Int {
    let product = (Int64(max(number, 1)) - 1).multipliedReportingOverflow(by: Int64(max(size, 0)))
    guard !product.overflow else { return Int.max }
    return product.partialValue > Int64(Int.max) ? Int.max : Int(product.partialValue)
  }

  /// The cursor strategy's `page[size]`: any whole number above 0; above ``maxSize`` the
  /// profile's typed error.
  private func cursorSize(_ value: String) throws -> Int {
    switch WholeNumber(value) {
    case .notANumber, .value(0):
      throw JSONAPIPagingError.invalidValue(
        parameter: "page[size]", value: value, reason: "it must be a positive whole number")
    case .value(let size) where size <= Int64(maxSize):
      return Int(size)
    case .value, .tooLarge:
      throw JSONAPIPagingError.maxSizeExceeded(
        parameter: "page[size]", size: value, maxSize: maxSize)
    }
  }

  /// `page[size]` or `page[limit]` of the page number and offset strategies: 1...``maxSize``.
  private func boundedSize(_ value: String, member: String) throws -> Int {
    if case .value(let size) = WholeNumber(value), size >= 1, size <= Int64(maxSize) {
      return Int(size)
    }
    throw JSONAPIPagingError.invalidValue(
      parameter: "page[\(member)]", value: value,
      reason: "it must be a whole number from 1 to \(maxSize)")
  }

  /// `page[number]` (from 1) or `page[offset]` (from 0), at most ``largestNumber``.
  private static func wholeNumber(_ value: String, member: String) throws -> Int {
    let smallest: Int64 = member == "number" ? 1 : 0
    if case .value(let number) = WholeNumber(value), number >= smallest,
      number <= Int64(largestNumber)
    {
      return Int(number)
    }
    throw JSONAPIPagingError.invalidValue(
      parameter: "page[\(member)]", value: value,
      reason: "it must be a whole number from \(smallest) to \(largestNumber)")
  }

  private static func cursor(_ value: String, member: String) throws -> String {
    guard !value.isEmpty else {
      throw JSONAPIPagingError.invalidValue(
        parameter: "page[\(member)]", value: value, reason: "a cursor cannot be empty")
    }
    return value
  }
}

/// A `page` value read as the profile reads `page[size]`: `^[0-9]+$` in base 10. At most 18
/// significant digits are converted, so the value fits `Int64` on every platform and the
/// conversion cannot overflow; more is larger than any bound a server sets.
enum WholeNumber: Equatable {
  case notANumber
  case value(Int64)
  case tooLarge

  init(_ text: String) {
    let digits = text.utf8
    guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else {
      self = .notANumber
      return
    }
    let significant = digits.drop { $0 == UInt8(ascii: "0") }
    guard significant.count <= 18 else {
      self = .tooLarge
      return
    }
    var number: Int64 = 0
    for digit in significant { number = number * 10 + Int64(digit - UInt8(ascii: "0")) }
    self = .value(number)
  }
}
