import Foundation

/// A ``JSONAPIRowCondition`` made ready to test the rows of one type of a ``MemoryStoreState``:
/// each relationship condition is read once into the set of ids it admits (one pass over the
/// related table), so testing a row costs a look-up, and a page costs O(rows of the tables the
/// condition names), never rows × rows.
indirect enum MemoryStoreRowTest {
  case always
  case never
  case filter(JSONAPIFilterCondition)
  case all([MemoryStoreRowTest])
  case any([MemoryStoreRowTest])
  /// The relationship names one of these ids of its target type.
  case links(String, type: String, ids: Set<MemoryStoreKey>)
  /// The row's id is one of these.
  case id(in: Set<MemoryStoreKey>)

  /// The deepest condition compiled; deeper ones admit nothing (the server never sends one this
  /// deep: it stops at `ServedPolicies.maxDepth`).
  static let maxDepth = 64

  /// `condition` for rows of `type`. ``JSONAPIRowCondition/visible`` is the server's to replace;
  /// met here, it admits nothing (fail closed).
  init(_ condition: JSONAPIRowCondition, type: String, state: MemoryStoreState, depth: Int = 0) {
    guard depth < Self.maxDepth else {
      self = .never
      return
    }
    switch condition {
    case .always: self = .always
    case .never, .visible: self = .never
    case .filter(let filter): self = .filter(filter)
    case .all(let parts):
      self = .all(parts.map { MemoryStoreRowTest($0, type: type, state: state, depth: depth + 1) })
    case .any(let parts):
      self = .any(parts.map { MemoryStoreRowTest($0, type: type, state: state, depth: depth + 1) })
    case .related(let name, let inner):
      guard let target = state.schemas[type]?.relationship(named: name)?.targetType else {
        self = .never
        return
      }
      let test = MemoryStoreRowTest(inner, type: target, state: state, depth: depth + 1)
      var ids: Set<MemoryStoreKey> = []
      for (key, record) in state.tables[target]?.records ?? [:]
      where test.admits(record, state: state) {
        ids.insert(key)
      }
      self = .links(name, type: target, ids: ids)
    case .namedBy(let other, let name, let inner):
      let test = MemoryStoreRowTest(inner, type: other, state: state, depth: depth + 1)
      var ids: Set<MemoryStoreKey> = []
      for record in (state.tables[other]?.records ?? [:]).values
      where test.admits(record, state: state) {
        for identifier in record.relationships[name]?.identifiers ?? []
        where identifier.type.utf8.elementsEqual(type.utf8) {
          if let id = identifier.id { ids.insert(MemoryStoreKey(id)) }
        }
      }
      self = .id(in: ids)
    }
  }

  /// Whether `record` meets the condition.
  func admits(_ record: JSONAPIResourceRecord, state: MemoryStoreState) -> Bool {
    switch self {
    case .always: return true
    case .never: return false
    case .filter(let filter):
      return MemoryStorePageReader(state: state, query: JSONAPIStoreQuery(type: record.type))
        .matches(record, filter)
    case .all(let parts): return parts.allSatisfy { $0.admits(record, state: state) }
    case .any(let parts): return parts.contains { $0.admits(record, state: state) }
    case .links(let name, let type, let ids):
      return (record.relationships[name]?.identifiers ?? []).contains { identifier in
        guard identifier.type.utf8.elementsEqual(type.utf8), let id = identifier.id else {
          return false
        }
        return ids.contains(MemoryStoreKey(id))
      }
    case .id(let ids): return ids.contains(MemoryStoreKey(record.id))
    }
  }
}
