import Foundation
import Testing

@testable import JSONAPICodable

// The client's half of the Cursor Pagination profile's parameters: `page[size]`, `page[after]`,
// `page[before]` (R65: the `page` family is the strategy's).
@Suite struct CursorQueryTests {
  @Test func afterSetsTheCursorAndTheSize() {
    let query = JSONAPIQuery().page(size: 10, after: "c1")
    #expect(query.page == ["size": "10", "after": "c1"])
    // R72, R124: brackets percent-encoded; members in a fixed order.
    #expect(query.percentEncodedQuery == "page%5Bafter%5D=c1&page%5Bsize%5D=10")
  }

  @Test func beforeSetsTheCursorAndTheSize() {
    let query = JSONAPIQuery().page(size: 10, before: "c9")
    #expect(query.page == ["size": "10", "before": "c9"])
    #expect(query.percentEncodedQuery == "page%5Bbefore%5D=c9&page%5Bsize%5D=10")
  }

  @Test func withoutASizeTheQuerysSizeStays() {
    #expect(JSONAPIQuery().page(after: "c1").page == ["after": "c1"])
    #expect(JSONAPIQuery().page(before: "c9").page == ["before": "c9"])
    let sized = JSONAPIQuery().page(size: 5, after: "c1")
    #expect(sized.page(before: "c4").page == ["size": "5", "before": "c4"])
    #expect(sized.page(size: 7, after: "c2").page == ["size": "7", "after": "c2"])
  }

  // The profile: both cursors make a range request. Turning a query around must not.
  @Test func turningAQueryAroundDropsTheOtherCursor() {
    let forward = JSONAPIQuery().page(size: 10, after: "c1")
    let backward = forward.page(before: "c9")
    #expect(backward.page["after"] == nil && backward.page["before"] == "c9")
    let again = backward.page(after: "c3")
    #expect(again.page == ["size": "10", "after": "c3"])
  }

  @Test func aRangeIsAskedWithBothMembersSetByHand() {
    let range = JSONAPIQuery().page(after: "abcde").page("before", "xxx")
    #expect(range.page == ["after": "abcde", "before": "xxx"])
    #expect(range.percentEncodedQuery == "page%5Bafter%5D=abcde&page%5Bbefore%5D=xxx")
  }

  @Test func otherParametersAndPageMembersAreKept() {
    let query = JSONAPIQuery()
      .including("author").sorted(by: .descending("createdAt")).filter("tag", "swift")
      .page("custom", "x")
      .page(size: 2, after: "abcde")
    #expect(query.include == ["author"])
    #expect(query.sort == [.descending("createdAt")])
    #expect(query.filter == ["tag": "swift"])
    #expect(query.page == ["custom": "x", "size": "2", "after": "abcde"])
  }

  // Cursors are opaque: whatever characters the server put in one go out encoded and come back.
  @Test func cursorsWithReservedCharactersRoundTrip() throws {
    for cursor in ["a+b/c=", "x&y=z", "100%", "ü ñ", "[1,2]", "#frag"] {
      let query = JSONAPIQuery().page(size: 3, after: cursor)
      let parsed = try JSONAPIQuery(parsing: query.percentEncodedQuery)
      #expect(parsed.page == ["after": cursor, "size": "3"], "\(cursor)")
      let backwards = try JSONAPIQuery(parsing: query.page(before: cursor).percentEncodedQuery)
      #expect(backwards.page == ["before": cursor, "size": "3"], "\(cursor)")
    }
  }

  @Test func theSizeIsSentAsGivenForTheServerToJudge() {
    // The profile asks the server to refuse a size that is not a positive integer (400, with
    // `source.parameter` `page[size]`); the client does not second-guess it.
    #expect(JSONAPIQuery().page(size: 0, after: "c").page["size"] == "0")
    #expect(JSONAPIQuery().page(size: -1, before: "c").page["size"] == "-1")
  }
}
