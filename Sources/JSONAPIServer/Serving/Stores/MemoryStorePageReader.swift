import Foundation

/// Answers one ``JSONAPIStoreQuery`` from a ``MemoryStoreState``: scope, filters, sort, window.
///
/// Cost per page: O(n) to filter the n candidates (the type's resources, or the scope's linkage),
/// O(n log n) to sort them, O(log n) to find keyset bounds.
struct MemoryStorePageReader {
  let state: MemoryStoreState
  let query: JSONAPIStoreQuery

  /// A matching resource with its sort values, one per field of ``fields``.
  private struct Entry {
    var record: JSONAPIResourceRecord
    var keys: [JSONAPIValue]
  }

  /// The sort, with `id` added last when the query leaves it out, so the order is total.
  private var fields: [JSONAPIQuery.SortField] {
    query.sort.contains { $0.field == "id" } ? query.sort : query.sort + [.ascending("id")]
  }

  func page() -> JSONAPIStorePage {
    // The policy's condition is applied with the filters, before
    // the sort and the window, so pages and totals count visible rows only.
    let visibility = query.visibility.map {
      MemoryStoreRowTest($0, type: query.type, state: state)
    }
    let matching = candidates().filter { record in
      query.filters.allSatisfy { matches(record, $0) }
        && visibility?.admits(record, state: state) != false
    }
    let fields = self.fields
    var entries = matching.map { record in
      Entry(
        record: record,
        keys: fields.map {
          $0.field == "id" ? .string(record.id) : record.attributes[$0.field] ?? .null
        })
    }
    entries.sort { compare($0.keys, $1.keys, fields: fields) == .orderedAscending }
    let total = query.countsTotal ? entries.count : nil
    let (range, hasMore) = window(over: entries, fields: fields)
    return JSONAPIStorePage(
      resources: entries[range].map(\.record), hasMore: hasMore, total: total)
  }

  // MARK: - Candidates and filters

  /// The type's resources, or for a scoped query those the owner's linkage names (an owner that
  /// does not exist names none: the server checks owners itself).
  private func candidates() -> [JSONAPIResourceRecord] {
    guard let scope = query.scope else {
      return state.tables[query.type].map { Array($0.records.values) } ?? []
    }
    guard let ownerID = scope.owner.id, let owner = state.record(scope.owner.type, id: ownerID)
    else { return [] }
    let ids = (owner.relationships[scope.relationship]?.identifiers ?? [])
      .filter { $0.type.utf8.elementsEqual(query.type.utf8) }
      .compactMap(\.id)
    return state.resources(query.type, ids: ids)
  }

  /// Whether `record` meets `condition`: any of its values matches (none when it has none).
  func matches(_ record: JSONAPIResourceRecord, _ condition: JSONAPIFilterCondition) -> Bool {
    if condition.isRelationship {
      let ids = (record.relationships[condition.member]?.identifiers ?? []).compactMap(\.id)
      if condition.comparison == .equals, condition.values.contains(where: \.isNull), ids.isEmpty {
        return true  // `null` matches empty linkage
      }
      return ids.contains { id(id: $0, meets: condition) }
    }
    if condition.member == "id" { return id(id: record.id, meets: condition) }
    return attribute(record.attributes[condition.member] ?? .null, meets: condition)
  }

  /// A resource id (or a linkage id) against the condition: ids order as in
  /// `JSONAPIValue.storeIDOrder(_:_:)`; values are strings, or integers as their decimal text.
  private func id(id: String, meets condition: JSONAPIFilterCondition) -> Bool {
    condition.values.contains { value in
      switch condition.comparison {
      case .equals:
        return value.storeIDText.map { id.utf8.elementsEqual($0.utf8) } ?? false
      case .contains:
        return value.stringValue.map { JSONAPIValue.storeText(id, containsCaseInsensitive: $0) }
          ?? false
      case .lessThan:
        return value.storeIDText.map { JSONAPIValue.storeIDOrder(id, $0) == .orderedAscending }
          ?? false
      case .greaterThan:
        return value.storeIDText.map { JSONAPIValue.storeIDOrder(id, $0) == .orderedDescending }
          ?? false
      }
    }
  }

  /// An attribute value (`null` when absent) against the condition: `equals` is the same JSON
  /// value (text byte for byte, numbers by value); `contains` needs text; `lessThan` and
  /// `greaterThan` compare two numbers or two texts, and other pairs never match.
  private func attribute(_ attribute: JSONAPIValue, meets condition: JSONAPIFilterCondition)
    -> Bool
  {
    condition.values.contains { value in
      switch condition.comparison {
      case .equals:
        return JSONAPIValue.storeOrder(attribute, value) == .orderedSame
      case .contains:
        guard let text = attribute.stringValue, let needle = value.stringValue else { return false }
        return JSONAPIValue.storeText(text, containsCaseInsensitive: needle)
      case .lessThan:
        return Self.comparable(attribute, value)
          && JSONAPIValue.storeOrder(attribute, value)
            == .orderedAscending
      case .greaterThan:
        return Self.comparable(attribute, value)
          && JSONAPIValue.storeOrder(attribute, value)
            == .orderedDescending
      }
    }
  }

  /// Two numbers or two texts.
  private static func comparable(_ lhs: JSONAPIValue, _ rhs: JSONAPIValue) -> Bool {
    switch (lhs, rhs) {
    case (.integer, .integer), (.integer, .number), (.number, .integer), (.number, .number),
      (.string, .string):
      return true
    default:
      return false
    }
  }

  // MARK: - Order and window

  /// Compares sort values field by field (as many as both sides have), each by
  /// `JSONAPIValue.storeOrder(_:_:)` (or `JSONAPIValue.storeIDOrder(_:_:)` for `id`), reversed
  /// for descending fields.
  private func compare(
    _ lhs: [JSONAPIValue], _ rhs: [JSONAPIValue], fields: [JSONAPIQuery.SortField]
  ) -> ComparisonResult {
    for (field, (left, right)) in zip(fields, zip(lhs, rhs)) {
      let order: ComparisonResult
      if field.field == "id", let leftID = left.storeIDText, let rightID = right.storeIDText {
        order = JSONAPIValue.storeIDOrder(leftID, rightID)
      } else {
        order = JSONAPIValue.storeOrder(left, right)
      }
      switch (order, field.isDescending) {
      case (.orderedSame, _): continue
      case (.orderedAscending, false), (.orderedDescending, true): return .orderedAscending
      case (.orderedAscending, true), (.orderedDescending, false): return .orderedDescending
      }
    }
    return .orderedSame
  }

  /// The window's part of the sorted entries, and whether more follow in the direction read.
  private func window(over entries: [Entry], fields: [JSONAPIQuery.SortField]) -> (
    Range<Int>, Bool
  ) {
    let count = entries.count
    switch query.window {
    case .offset(let offset, let limit):
      // Clamped, and no sum can pass `count`: safe with 32-bit `Int` and any offset or limit.
      let start = min(max(offset, 0), count)
      let size = min(max(limit, 0), count - start)
      return (start..<(start + size), start + size < count)
    case .keyset(let after, let before, let limit):
      // Strictly after `after` and strictly before `before`, found by binary search: the entries
      // are sorted by the very comparison the bounds use.
      let lower =
        after.map { bound in
          firstIndex(in: entries) { compare($0.keys, bound, fields: fields) == .orderedDescending }
        } ?? 0
      let upper =
        before.map { bound in
          firstIndex(in: entries) { compare($0.keys, bound, fields: fields) != .orderedAscending }
        } ?? count
      guard lower < upper else { return (lower..<lower, false) }
      let size = min(max(limit, 0), upper - lower)
      if after == nil, before != nil {
        // Only `before`: the last `limit` before it; more lie before them when they don't start
        // at the lower end.
        let start = upper - size
        return (start..<upper, start > lower)
      }
      return (lower..<(lower + size), lower + size < upper)
    }
  }

  /// The first index whose entry meets `predicate`, which holds for a suffix of `entries`.
  private func firstIndex(in entries: [Entry], where predicate: (Entry) -> Bool) -> Int {
    var low = 0
    var high = entries.count
    while low < high {
      let middle = low + (high - low) / 2
      if predicate(entries[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
