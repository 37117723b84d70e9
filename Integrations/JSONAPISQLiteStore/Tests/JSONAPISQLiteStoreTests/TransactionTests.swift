import Foundation
import JSONAPIServer
import JSONAPISQLiteStore
import Testing

// Transactions (R74): all or nothing on throw and on cancellation, one writer at a time, reads
// never waiting and never seeing an open transaction.
@Suite struct TransactionTests {
  typealias S = Schemas

  @Test func aThrowingTransactionLeavesNothing() async throws {
    let store = try makeStore()
    try await store.insert([S.article("1", ["title": "Kept"], ["tags": .toMany([S.tag("1")])])])
    await #expect(throws: Abort.self) {
      try await store.write { writer in
        _ = try await writer.create(S.article("", ["title": "Lost"]))
        _ = try await writer.update(S.article("1", ["title": "Changed"]))
        _ = try await writer.add([S.tag("2")], to: "tags", of: "articles", id: "1")
        _ = try await writer.delete("articles", id: "1")
        // The transaction reads its own writes before it throws.
        let inside = try await writer.page(JSONAPIStoreQuery(type: "articles"))
        #expect(inside.resources.map(\.id) == ["2"])
        throw Abort()
      }
    }
    // R74: nothing of the failed transaction is visible.
    let after = try await store.page(JSONAPIStoreQuery(type: "articles"))
    #expect(
      after.resources == [
        S.article(
          "1", S.stored(["title": "Kept"]), ["author": .toOne(nil), "tags": .toMany([S.tag("1")])])
      ])
    // The id the failed create took is free again: SQLite rolled its counter back too.
    #expect(try await store.insert([S.article()]).map(\.id) == ["2"])
  }

  @Test func aRefusedValueRollsBackTheWholeTransaction() async throws {
    let store = try makeStore()
    await #expect(throws: JSONAPIStoreError.self) {
      try await store.insert([
        S.article("", ["title": "First"]), S.article("", ["title": "Second", "rank": "seven"]),
      ])
    }
    #expect(try await store.ids(JSONAPIStoreQuery(type: "articles")).isEmpty)
  }

  @Test func aCancelledTransactionLeavesNothingEvenWhenItsBodyReturns() async throws {
    let store = try makeStore()
    let created = Latch()
    let task = Task {
      try await store.write { writer in
        _ = try await writer.create(S.article("", ["title": "Half"]))
        await created.open()
        // Swallows the cancellation and returns as if it had finished.
        try? await Task.sleep(for: .seconds(30))
        return true
      }
    }
    await created.wait()
    task.cancel()
    let result = await task.result
    #expect(throws: CancellationError.self) { try result.get() }
    #expect(try await store.ids(JSONAPIStoreQuery(type: "articles")).isEmpty)
    // The store goes on: the next write gets the gate, and no transaction was left open.
    #expect(try await store.insert([S.article()]).map(\.id) == ["1"])
  }

  @Test func aCancelledBodyThatGoesOnWritingStoresNothing() async throws {
    let store = try makeStore()
    let created = Latch()
    let task = Task {
      try await store.write { writer in
        _ = try await writer.create(S.article("", ["title": "One"]))
        await created.open()
        try? await Task.sleep(for: .seconds(30))
        // Cancelled: the writer refuses to go on…
        await #expect(throws: CancellationError.self) {
          try await writer.create(S.article("", ["title": "Two"]))
        }
        return 0
      }
    }
    await created.wait()
    task.cancel()
    _ = await task.result
    #expect(try await store.ids(JSONAPIStoreQuery(type: "articles")).isEmpty)
  }

  @Test func aCancelledWaiterNeverRuns() async throws {
    let store = try makeStore()
    let holding = Latch()
    let finish = Latch()
    let first = Task {
      try await store.write { writer in
        _ = try await writer.create(S.article("", ["title": "First"]))
        await holding.open()
        await finish.wait()
      }
    }
    await holding.wait()
    let waiting = Task {
      try await store.write { writer in
        _ = try await writer.create(S.article("", ["title": "Never"]))
      }
    }
    try await Task.sleep(for: .milliseconds(50))
    waiting.cancel()
    let waited = await waiting.result
    #expect(throws: CancellationError.self) { try waited.get() }
    await finish.open()
    try await first.value
    let titles = try await store.page(JSONAPIStoreQuery(type: "articles")).resources
      .compactMap { $0.attributes["title"]?.stringValue }
    #expect(titles == ["First"])
  }

  @Test func aWriterKeptPastItsBodyRefusesToWrite() async throws {
    let store = try makeStore()
    let kept = try await store.write { writer in writer }
    await #expect(throws: JSONAPISQLiteStoreError.self) {
      try await kept.create(S.article("", ["title": "Late"]))
    }
    // Not even into the next transaction.
    try await store.write { writer in
      _ = try await writer.create(S.article("", ["title": "Inside"]))
      await #expect(throws: JSONAPISQLiteStoreError.self) {
        try await kept.create(S.article("", ["title": "Smuggled"]))
      }
    }
    let titles = try await store.page(JSONAPIStoreQuery(type: "articles")).resources
      .compactMap { $0.attributes["title"]?.stringValue }
    #expect(titles == ["Inside"])
  }

  @Test func readsSeeCommittedStateWhileAWriteIsRunning() async throws {
    let store = try makeStore()
    try await store.insert([S.article("1", ["title": "Before"])])
    let written = Latch()
    let finish = Latch()
    let writing = Task {
      try await store.write { writer in
        _ = try await writer.update(S.article("1", ["title": "After"]))
        _ = try await writer.create(S.article("2"))
        await written.open()
        await finish.wait()
      }
    }
    await written.wait()
    // The read does not wait for the write and sees none of it.
    let during = try await store.page(JSONAPIStoreQuery(type: "articles"))
    #expect(during.resources.map(\.id) == ["1"])
    #expect(during.resources.first?.attributes["title"] == "Before")
    await finish.open()
    try await writing.value
    let after = try await store.page(JSONAPIStoreQuery(type: "articles"))
    #expect(after.resources.map(\.id) == ["1", "2"])
    #expect(after.resources.first?.attributes["title"] == "After")
  }

  @Test func concurrentWritersAllStoreWithUniqueIds() async throws {
    let store = try makeStore()
    // 8 writers × 25 creates each, with readers among them.
    let made = try await withThrowingTaskGroup(of: [String].self) { group in
      for writer in 0..<8 {
        group.addTask {
          var ids: [String] = []
          for index in 0..<25 {
            let rank = writer * 25 + index
            ids.append(
              try await store.write { transaction in
                try await transaction.create(S.article("", ["rank": .integer(rank)])).id
              })
          }
          return ids
        }
        group.addTask {
          for _ in 0..<10 {
            _ = try await store.read { try await $0.page(JSONAPIStoreQuery(type: "articles")) }
          }
          return []
        }
      }
      var ids: [String] = []
      for try await batch in group { ids += batch }
      return ids
    }
    #expect(made.count == 200 && Set(made) == Set((1...200).map(String.init)))
    let all = try await store.page(
      JSONAPIStoreQuery(type: "articles", window: .offset(0, limit: 1000)))
    #expect(all.total == 200)
    #expect(Set(all.resources.map(\.id)) == Set(made))
    #expect(Set(all.resources.compactMap { $0.attributes["rank"]?.intValue }) == Set(0..<200))
  }

  @Test func twoStoresOnOneFileWaitForEachOthersWrites() async throws {
    let path = TestDatabases.path()
    let stores = [
      try JSONAPISQLiteStore(path: path, schemas: Schemas.all),
      try JSONAPISQLiteStore(path: path, schemas: Schemas.all),
    ]
    try await withThrowingTaskGroup(of: Void.self) { group in
      for store in stores {
        group.addTask {
          for _ in 0..<20 {
            _ = try await store.write { writer in
              try await writer.create(S.article("", ["title": "t"]))
            }
          }
        }
      }
      try await group.waitForAll()
    }
    for store in stores {
      #expect(try await store.page(JSONAPIStoreQuery(type: "articles")).total == 40)
    }
  }
}
