import Foundation
import JSONAPICodable

/// The pages of a paginated collection, read one request at a time as you iterate: made by
/// ``JSONAPIClient/pages(of:from:query:direction:)`` and
/// ``JSONAPIClient/pages(of:meta:from:query:direction:)``.
///
/// ```swift
/// var titles: [String] = []
/// for try await page in client.pages(of: [Article].self, from: "articles") {
///   titles += page.data.map(\.title)
/// }
/// ```
///
/// Each element is the whole page document, so `meta` (totals, typed as `Meta`) and `links` stay
/// readable. The sequence ends after the page without a `next` link (or with `"next": null`), and
/// after the first error it throws. Each iteration starts again from the first page.
///
/// A server may page by number or offset and send no pagination links at all (links are
/// optional). When a page has none of `first`, `last`, `prev` and `next` and its request named
/// `page[number]` or `page[offset]`, the sequence asks for the next page itself: the same request
/// with `page[number]` plus one, or `page[offset]` plus the page's length, every other parameter
/// kept byte for byte. It ends at an empty page (not given), at the end a total in `meta` gives
/// (`total`, `count`, `totalPages`, `pages`, `record_count`… at the top of `meta` or under `page`
/// or `pagination`), without a total at a page shorter than the size asked, at a page whose
/// resources repeat the previous one's (a server that ignores the parameter; not given), or at
/// `maxPages`.
///
/// A total is never trusted alone to end a walk early: when the page that reaches it came back
/// full (as long as the size asked, or as the first page when no size was asked), the sequence
/// asks for the next page once more. An empty answer ends the sequence and is not given; one with
/// resources shows that `meta` counted something else, such as the page (`{"count": 5,
/// "totalPages": 1}` on a page of 5 out of 25), and the walk goes on without the totals, to a
/// short or empty page. This costs one request at most, and only when the collection's size is an
/// exact multiple of the page size; in exchange a sequence never ends early in silence. A sequence
/// that stops at `maxPages`, or at a link back to a page it has read, throws (see
/// ``JSONAPIClient/pages(of:from:query:direction:)``).
///
/// Walking ``JSONAPIPageDirection/backward``, it follows `prev` links instead and ends after the
/// page without one. A cursor-paginated server may link a page that turns out empty (the Cursor
/// Pagination profile allows it when it cannot tell cheaply whether more items exist): that page
/// is read and given like any other, and its own `null` link ends the sequence.
public struct JSONAPIPages<PrimaryData: Decodable, Meta: Decodable>: AsyncSequence, Sendable {
  /// One page: the primary data with the page's `meta` and `links`.
  public typealias Element = JSONAPIDocument<PrimaryData, Meta>

  enum Start: Sendable {
    case path(String, JSONAPIQuery)
  }

  let client: JSONAPIClient
  let first: Start
  let direction: JSONAPIPageDirection

  /// Starts reading at the first page.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(client: client, state: .first(first), direction: direction)
  }

  /// Reads the next page when asked.
  public struct AsyncIterator: AsyncIteratorProtocol {
    enum State {
      case first(Start)
      case next(URL)
      /// A page the server links nowhere, asked for by advancing the last request's
      /// `page[number]` or `page[offset]` (``LinklessPaging``); `probe` when a total in `meta`
      /// said the previous page was the last.
      case advanced(URL, probe: Bool)
      case finished
    }

    let client: JSONAPIClient
    var state: State
    let direction: JSONAPIPageDirection
    var visited: Set<String> = []
    /// Paging without links: the length of the first page read (the server's page size) and the
    /// resources of the previous page, to see a server that ignores the parameter repeat it.
    var firstCount: Int?
    var previousItems: [LinklessPaging.Item] = []
    /// `false` once a probe past a total in `meta` found resources: the totals are wrong.
    var trustsTotals = true

    init(client: JSONAPIClient, state: State, direction: JSONAPIPageDirection) {
      self.client = client
      self.state = state
      self.direction = direction
    }

    /// The next page, or `nil` after the last one.
    ///
    /// - Throws: ``JSONAPIClientError/tooManyPages(limit:)``,
    ///   ``JSONAPIClientError/paginationCycle(_:)``, and what ``JSONAPIClient/get(_:from:query:)-(_,String,_)``
    ///   throws.
    public mutating func next() async throws -> Element? {
      do {
        return try await read()
      } catch {
        state = .finished
        throw error
      }
    }

    private mutating func read() async throws -> Element? {
      let url: URL
      var advanced = false
      var probe = false
      switch state {
      case .finished:
        return nil
      case .first(.path(let path, let query)):
        url = try client.url(for: path, query: query)
      case .next(let next):
        url = next
      case .advanced(let next, let probing):
        url = next
        advanced = true
        probe = probing
      }
      guard visited.count < client.configuration.maxPages else {
        throw JSONAPIClientError.tooManyPages(limit: client.configuration.maxPages)
      }
      guard visited.insert(url.absoluteString).inserted else {
        throw JSONAPIClientError.paginationCycle(url)
      }
      let raw = try await client.exchange("GET", url)
      let page = try client.document(Element.self, from: raw)
      let link = direction == .forward ? page.links?.next : page.links?.prev
      if let href = link?.href {
        guard let next = URL(jsonAPIReference: href, relativeTo: raw.url)?.absoluteURL else {
          throw JSONAPIClientError.invalidURL(href)
        }
        state = .next(next)
      } else if direction == .forward, LinklessPaging.hasNoPaginationLinks(page.links),
        let paging = LinklessPaging(url: url),
        let listed = try? client.decoder.decode(
          JSONAPIDocument<[LinklessPaging.Item], JSONAPIValue>.self, from: raw.body)
      {
        // A page asked for by advancing the member that is empty, or the previous page again (a
        // server that ignores the parameter), is past the end: it is not given.
        if advanced && (listed.data.isEmpty || listed.data == previousItems) {
          state = .finished
          return nil
        }
        // The probe found more: the total counted something other than the collection.
        if probe { trustsTotals = false }
        let firstCount = self.firstCount ?? listed.data.count
        self.firstCount = firstCount
        previousItems = listed.data
        state =
          paging.next(
            after: url, count: listed.data.count, firstCount: firstCount, meta: listed.meta,
            trustsTotals: trustsTotals
          )
          .map { State.advanced($0.url, probe: $0.probe) } ?? .finished
      } else {
        state = .finished
      }
      return page
    }
  }
}
