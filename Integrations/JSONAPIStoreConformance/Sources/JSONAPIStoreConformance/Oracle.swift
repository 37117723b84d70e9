import JSONAPIServer

/// What a page of the visibility property holds, computed from the records alone: the contract's
/// meaning of filters, row conditions, sorts and windows, written out plainly (one pass per row
/// and condition, no index), so that it is checked against every store without trusting any.
struct Oracle: Sendable {
  let records: [JSONAPIResourceRecord]
  let schemas: [String: JSONAPIResourceSchema]

  init(records: [JSONAPIResourceRecord], schemas: [JSONAPIResourceSchema]) {
    self.records = records
    self.schemas = Dictionary(schemas.map { ($0.type, $0) }, uniquingKeysWith: { _, last in last })
  }

  func rows(_ type: String) -> [JSONAPIResourceRecord] { records.filter { $0.type == type } }

  func row(_ type: String, _ id: String) -> JSONAPIResourceRecord? {
    records.first { $0.type == type && $0.id.utf8.elementsEqual(id.utf8) }
  }

  /// The page `query` reads.
  func page(_ query: JSONAPIStoreQuery) -> JSONAPIStorePage {
    var candidates = rows(query.type)
    if let scope = query.scope {
      let owner = scope.owner.id.flatMap { row(scope.owner.type, $0) }
      let named = Set(owner?.linked(scope.relationship) ?? [])
      candidates = candidates.filter { named.contains($0.id) }
    }
    let sort =
      query.sort.contains { $0.field == "id" } ? query.sort : query.sort + [.ascending("id")]
    let matching = candidates.filter { record in
      query.filters.allSatisfy { Self.matches(record, $0) }
        && (query.visibility.map { admits(record, $0) } ?? true)
    }.sorted { Self.compare(Self.keys($0, sort), Self.keys($1, sort), sort) < 0 }
    let total = query.countsTotal ? matching.count : nil
    switch query.window {
    case .offset(let offset, let limit):
      let start = min(max(offset, 0), matching.count)
      let end = min(start + max(limit, 0), matching.count)
      return JSONAPIStorePage(
        resources: Array(matching[start..<end]), hasMore: end < matching.count, total: total)
    case .keyset(let after, let before, let limit):
      let between = matching.filter { record in
        let keys = Self.keys(record, sort)
        return (after.map { Self.compare(keys, $0, sort) > 0 } ?? true)
          && (before.map { Self.compare(keys, $0, sort) < 0 } ?? true)
      }
      let size = min(max(limit, 0), between.count)
      if after == nil, before != nil {
        return JSONAPIStorePage(
          resources: Array(between.suffix(size)), hasMore: between.count > size, total: total)
      }
      return JSONAPIStorePage(
        resources: Array(between.prefix(size)), hasMore: between.count > size, total: total)
    }
  }

  // MARK: - Row conditions

  /// Whether `record` meets `condition` (recursion as deep as the generated tree, which is
  /// bounded).
  func admits(_ record: JSONAPIResourceRecord, _ condition: JSONAPIRowCondition) -> Bool {
    switch condition {
    case .always: return true
    case .never, .visible: return false
    case .filter(let filter): return Self.matches(record, filter)
    case .all(let parts): return parts.allSatisfy { admits(record, $0) }
    case .any(let parts): return parts.contains { admits(record, $0) }
    case .related(let name, let inner):
      guard let target = schemas[record.type]?.relationship(named: name)?.targetType else {
        return false
      }
      return record.linked(name).contains { id in
        row(target, id).map { admits($0, inner) } ?? false
      }
    case .namedBy(let other, let name, let inner):
      guard schemas[other]?.relationship(named: name)?.targetType == record.type else {
        return false
      }
      return rows(other).contains { naming in
        naming.linked(name).contains { $0.utf8.elementsEqual(record.id.utf8) }
          && admits(naming, inner)
      }
    }
  }

  // MARK: - Filters

  static func matches(_ record: JSONAPIResourceRecord, _ filter: JSONAPIFilterCondition) -> Bool {
    if filter.isRelationship {
      let ids = record.linked(filter.member)
      if filter.comparison == .equals, filter.values.contains(.null), ids.isEmpty { return true }
      return ids.contains { id($0, meets: filter) }
    }
    if filter.member == "id" { return id(record.id, meets: filter) }
    let value = record.value(filter.member)
    return filter.values.contains { bound in
      switch filter.comparison {
      case .equals: return order(value, bound) == 0
      case .contains:
        guard case .string(let text) = value, case .string(let needle) = bound else {
          return false
        }
        return contains(text, needle)
      case .lessThan: return comparable(value, bound) && order(value, bound) < 0
      case .greaterThan: return comparable(value, bound) && order(value, bound) > 0
      }
    }
  }

  static func id(_ id: String, meets filter: JSONAPIFilterCondition) -> Bool {
    filter.values.contains { bound in
      let text: String?
      switch bound {
      case .string(let string): text = string
      case .integer(let number): text = String(number)
      default: text = nil
      }
      switch filter.comparison {
      case .equals: return text.map { id.utf8.elementsEqual($0.utf8) } ?? false
      case .contains:
        guard case .string(let needle) = bound else { return false }
        return contains(id, needle)
      case .lessThan: return text.map { idOrder(id, $0) < 0 } ?? false
      case .greaterThan: return text.map { idOrder(id, $0) > 0 } ?? false
      }
    }
  }

  /// ASCII case ignored, every other byte compared as it is.
  static func contains(_ text: String, _ needle: String) -> Bool {
    func lower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }
    let haystack = text.utf8.map(lower)
    let pattern = needle.utf8.map(lower)
    if pattern.isEmpty { return true }
    guard pattern.count <= haystack.count else { return false }
    return (0...(haystack.count - pattern.count)).contains { start in
      haystack[start..<(start + pattern.count)].elementsEqual(pattern)
    }
  }

  /// Two numbers or two texts.
  static func comparable(_ lhs: JSONAPIValue, _ rhs: JSONAPIValue) -> Bool {
    switch (lhs, rhs) {
    case (.integer, .integer), (.integer, .number), (.number, .integer), (.number, .number),
      (.string, .string):
      return true
    default: return false
    }
  }

  // MARK: - Order

  /// The sort values of a row, one per field.
  static func keys(_ record: JSONAPIResourceRecord, _ sort: [JSONAPIQuery.SortField])
    -> [JSONAPIValue]
  {
    sort.map { $0.field == "id" ? .string(record.id) : record.value($0.field) }
  }

  /// Sort values field by field, each in its direction: negative, zero or positive.
  static func compare(
    _ lhs: [JSONAPIValue], _ rhs: [JSONAPIValue], _ sort: [JSONAPIQuery.SortField]
  ) -> Int {
    for (field, (left, right)) in zip(sort, zip(lhs, rhs)) {
      var result: Int
      if field.field == "id", case .string(let a) = left, case .string(let b) = right {
        result = idOrder(a, b)
      } else {
        result = order(left, right)
      }
      if field.isDescending { result = -result }
      if result != 0 { return result }
    }
    return 0
  }

  /// `null`, then numbers by value, then text by its UTF-8 bytes (the values the property uses).
  static func order(_ lhs: JSONAPIValue, _ rhs: JSONAPIValue) -> Int {
    func rank(_ value: JSONAPIValue) -> Int {
      switch value {
      case .null: return 0
      case .bool: return 1
      case .integer, .number: return 2
      case .string: return 3
      case .array, .object: return 4
      }
    }
    if rank(lhs) != rank(rhs) { return rank(lhs) < rank(rhs) ? -1 : 1 }
    switch (lhs, rhs) {
    case (.string(let a), .string(let b)): return bytes(Array(a.utf8), Array(b.utf8))
    case (.integer(let a), .integer(let b)): return a == b ? 0 : (a < b ? -1 : 1)
    default:
      guard let a = number(lhs), let b = number(rhs) else { return 0 }
      return a == b ? 0 : (a < b ? -1 : 1)
    }
  }

  static func number(_ value: JSONAPIValue) -> Double? {
    switch value {
    case .integer(let number): return Double(number)
    case .number(let number): return number
    default: return nil
    }
  }

  /// Ids: decimal ones by value (then by bytes), before every other text, which compares by
  /// bytes.
  static func idOrder(_ lhs: String, _ rhs: String) -> Int {
    func digits(_ text: String) -> [UInt8]? {
      let bytes = Array(text.utf8)
      return !bytes.isEmpty && bytes.allSatisfy { $0 >= 48 && $0 <= 57 } ? bytes : nil
    }
    switch (digits(lhs), digits(rhs)) {
    case (let a?, let b?):
      let trimmedA = Array(a.drop { $0 == 48 })
      let trimmedB = Array(b.drop { $0 == 48 })
      if trimmedA.count != trimmedB.count { return trimmedA.count < trimmedB.count ? -1 : 1 }
      let byValue = bytes(trimmedA, trimmedB)
      return byValue != 0 ? byValue : bytes(a, b)
    case (.some, nil): return -1
    case (nil, .some): return 1
    case (nil, nil): return bytes(Array(lhs.utf8), Array(rhs.utf8))
    }
  }

  static func bytes(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
    for (a, b) in zip(lhs, rhs) where a != b { return a < b ? -1 : 1 }
    return lhs.count == rhs.count ? 0 : (lhs.count < rhs.count ? -1 : 1)
  }
}
