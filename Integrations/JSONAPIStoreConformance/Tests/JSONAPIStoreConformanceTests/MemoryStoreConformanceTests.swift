import JSONAPIServer
import JSONAPIStoreConformance
import Testing

/// The memory store keeps the contract.
@Suite struct MemoryStoreConformanceTests {
  static let conformance = JSONAPIStoreConformance(store: "memory") { schemas, body in
    try await body(JSONAPIMemoryStore(schemas: schemas))
  }

  @Test(arguments: JSONAPIStoreConformance.Check.allCases)
  func conforms(_ check: JSONAPIStoreConformance.Check) async throws {
    try await Self.conformance.run(check)
  }
}

/// The checks can fail: a store that breaks one promise fails the check of it, naming the store.
@Suite struct BrokenStoreTests {
  /// The memory store, but pages ignore their filters and their order.
  struct IgnoresFilters: JSONAPIStore {
    let base: JSONAPIMemoryStore

    struct Reader: JSONAPIStoreReader {
      let base: any JSONAPIStoreReader
      func resources(_ type: String, ids: [String]) async throws -> [JSONAPIResourceRecord] {
        try await base.resources(type, ids: ids)
      }
      func page(_ query: JSONAPIStoreQuery) async throws -> JSONAPIStorePage {
        var all = query
        all.filters = []
        all.sort = [.ascending("id")]
        return try await base.page(all)
      }
    }

    func read<T: Sendable>(_ body: @Sendable (any JSONAPIStoreReader) async throws -> T)
      async throws -> T
    {
      try await base.read { try await body(Reader(base: $0)) }
    }

    func write<T: Sendable>(_ body: @Sendable (any JSONAPIStoreWriter) async throws -> T)
      async throws -> T
    {
      try await base.write(body)
    }
  }

  @Test(arguments: [
    JSONAPIStoreConformance.Check.filterEquals, .filterOrder, .sortMultiKey, .sortNulls,
  ])
  func brokenStoreFails(_ check: JSONAPIStoreConformance.Check) async throws {
    let conformance = JSONAPIStoreConformance(store: "broken") { schemas, body in
      try await body(IgnoresFilters(base: JSONAPIMemoryStore(schemas: schemas)))
    }
    let failure = await #expect(throws: JSONAPIStoreConformance.Failure.self) {
      try await conformance.run(check)
    }
    #expect(failure?.store == "broken")
    #expect(failure?.check == check)
    #expect(failure?.description.contains("broken store fails \(check)") == true)
  }
}
