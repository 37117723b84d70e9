import Foundation
import Testing

@testable import JSONAPICodable

// The Cursor Pagination profile's pagination metadata (`meta.page`): `rangeTruncated`, `total`,
// `estimatedTotal.bestGuess`, read with JSONAPIDecoder, Foundation's decoder and from a
// JSONAPIValue.
@Suite struct JSONAPICursorPageMetaTests {
  struct Example: Decodable, Equatable {
    var id: String
    var type = "examples"
  }

  typealias Page = JSONAPIDocument<[Example], JSONAPICursorPageMeta>

  static func document(meta: String) -> Data {
    Data(#"{"data":[{"type":"examples","id":"7"}],"meta":\#(meta)}"#.utf8)
  }

  func decode(meta: String) throws -> JSONAPICursorPageMeta? {
    try JSONAPIDecoder().decode(Page.self, from: Self.document(meta: meta)).meta
  }

  // The profile's range example answered with `page[size]=1`.
  @Test func theProfilesTruncatedRangeExample() throws {
    let page = try JSONAPIDecoder().decode(
      Page.self, from: Self.document(meta: #"{"page":{"rangeTruncated":true}}"#))
    #expect(page.meta == JSONAPICursorPageMeta(rangeTruncated: true))
    #expect(page.rangeTruncated)
    #expect(page.data == [Example(id: "7")])
  }

  @Test func totalsAndEstimates() throws {
    let meta = try decode(
      meta: #"{"page":{"total":200,"estimatedTotal":{"bestGuess":210}},"other":{"x":1}}"#)
    #expect(meta == JSONAPICursorPageMeta(rangeTruncated: false, total: 200, estimatedTotal: 210))
    #expect(try decode(meta: #"{"page":{"estimatedTotal":{}}}"#) == JSONAPICursorPageMeta())
  }

  @Test func absentMembersAreTheDefaults() throws {
    #expect(try decode(meta: "{}") == JSONAPICursorPageMeta())
    #expect(try decode(meta: #"{"page":{}}"#) == JSONAPICursorPageMeta())
    let none = try JSONAPIDecoder().decode(
      Page.self, from: Data(#"{"data":[]}"#.utf8))
    #expect(none.meta == nil && !none.rangeTruncated)
  }

  // Integers from the server are safe in 32 bits: totals are Int64 on every platform.
  @Test func totalsBeyond32BitsAreKept() throws {
    let meta = try decode(
      meta: #"{"page":{"total":9000000000,"estimatedTotal":{"bestGuess":9223372036854775807}}}"#)
    #expect(meta?.total == 9_000_000_000)
    #expect(meta?.estimatedTotal == Int64.max)
    #expect(try decode(meta: #"{"page":{"total":1e3}}"#)?.total == 1_000)
  }

  // A count that cannot be held is refused with the decoder's message, not dropped or trapped.
  @Test func anIntegerBeyondInt64IsRefusedClearly() throws {
    for meta in [
      #"{"page":{"total":9223372036854775808}}"#,
      #"{"page":{"estimatedTotal":{"bestGuess":1e30}}}"#,
    ] {
      do {
        _ = try decode(meta: meta)
        Issue.record("no error for \(meta)")
      } catch let DecodingError.dataCorrupted(context) {
        #expect(context.debugDescription.contains("does not fit in Int64"), "\(context)")
      }
    }
  }

  // The profile: a `page` member that is not an object, and values of another shape, are
  // unrecognized; a recipient ignores them rather than failing.
  @Test func valuesOfAnotherShapeAreIgnored() throws {
    for meta in [
      #"{"page":"yes"}"#, #"{"page":[1]}"#, #"{"page":null}"#,
      #"{"page":{"rangeTruncated":"true","total":"200","estimatedTotal":{"bestGuess":2.5}}}"#,
      #"{"page":{"rangeTruncated":null,"total":null,"estimatedTotal":[3]}}"#,
      #"{"page":{"total":-1,"estimatedTotal":{"bestGuess":-9223372036854775809}}}"#,
      #"{"page":{"total":12.5,"estimatedTotal":7}}"#,
    ] {
      #expect(try decode(meta: meta) == JSONAPICursorPageMeta(), "\(meta)")
    }
  }

  @Test func metaThatIsNotAnObjectIsRefused() {
    #expect(throws: DecodingError.self) { _ = try decode(meta: "[1]") }
  }

  @Test func foundationsDecoderReadsItToo() throws {
    let json = Data(#"{"page":{"rangeTruncated":true,"total":3000000000}}"#.utf8)
    let meta = try JSONDecoder().decode(JSONAPICursorPageMeta.self, from: json)
    #expect(meta == JSONAPICursorPageMeta(rangeTruncated: true, total: 3_000_000_000))
  }

  @Test func readFromAJSONAPIValue() {
    let meta: JSONAPIValue = [
      "page": ["rangeTruncated": true, "total": 200, "estimatedTotal": ["bestGuess": 3e9]]
    ]
    #expect(
      JSONAPICursorPageMeta(meta)
        == JSONAPICursorPageMeta(rangeTruncated: true, total: 200, estimatedTotal: 3_000_000_000))
    #expect(JSONAPICursorPageMeta(nil) == JSONAPICursorPageMeta())
    let odd: JSONAPIValue = [
      "page": ["rangeTruncated": 1, "total": -3, "estimatedTotal": ["bestGuess": 1e30]]
    ]
    #expect(JSONAPICursorPageMeta(odd) == JSONAPICursorPageMeta())
    #expect(JSONAPICursorPageMeta(["page": 5]) == JSONAPICursorPageMeta())
  }

  @Test func pagesWithValueMetaReadRangeTruncated() throws {
    typealias ValuePage = JSONAPIDocument<[Example], JSONAPIValue>
    let truncated = try JSONAPIDecoder().decode(
      ValuePage.self,
      from: Self.document(meta: #"{"page":{"rangeTruncated":true,"total":5}}"#))
    #expect(truncated.rangeTruncated)
    #expect(truncated.cursorPageMeta.total == 5)
    let whole = try JSONAPIDecoder().decode(
      ValuePage.self, from: Self.document(meta: #"{"page":{"rangeTruncated":false}}"#))
    #expect(!whole.rangeTruncated)
    let bare = try JSONAPIDecoder().decode(ValuePage.self, from: Data(#"{"data":[]}"#.utf8))
    #expect(!bare.rangeTruncated && bare.cursorPageMeta == JSONAPICursorPageMeta())
  }
}
