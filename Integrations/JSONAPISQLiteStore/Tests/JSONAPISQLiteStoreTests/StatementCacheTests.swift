import GRDB
import Testing

@testable import JSONAPISQLiteStore

/// The prepared statements the reads keep, and the `IN` lists that keep their shapes few.
@Suite struct StatementCacheTests {
  @Test func theFirst256TextsAreKeptAndLaterOnesPreparedEachTime() throws {
    let queue = try DatabaseQueue()
    let statements = SQLiteStatements()
    try queue.read { db in
      let texts = (0..<300).map { "SELECT \($0) AS n" }
      let first = try texts.map { try statements.prepared(SQL(text: $0), db) }
      let again = try texts.map { try statements.prepared(SQL(text: $0), db) }
      let kept = zip(first, again).map { $0 === $1 }
      #expect(kept.prefix(SQLiteStatements.limit).allSatisfy { $0 })
      #expect(kept.dropFirst(SQLiteStatements.limit).allSatisfy { !$0 })
      // Kept or not, each runs its own text.
      #expect(try Int.fetchOne(again[299]) == 299 && Int.fetchOne(again[3]) == 3)
    }
  }

  @Test func listsArePaddedToAPowerOfTwoWithTheirLastValue() throws {
    let three = sqlIn("x", [.integer(1), .integer(2), .integer(3)])
    #expect(three.text == "x IN (?, ?, ?, ?)")
    #expect(three.arguments == [1, 2, 3, 3].map { (number: Int64) in number.databaseValue })
    #expect(sqlIn("x", [.integer(1)]).text == "x IN (?)")
    let nearChunk = sqlIn("x", (1...300).map { .integer(Int64($0)) })
    #expect(nearChunk.arguments.count == sqliteChunkSize)
  }
}
