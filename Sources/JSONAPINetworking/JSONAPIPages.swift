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
      case finished
    }

    let client: JSONAPIClient
    var state: State
    let direction: JSONAPIPageDirection
    var visited: Set<String> = []

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
      switch state {
      case .finished:
        return nil
      case .first(.path(let path, let query)):
        url = try client.url(for: path, query: query)
      case .next(let next):
        url = next
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
      } else {
        state = .finished
      }
      return page
    }
  }
}
