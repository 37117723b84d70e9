import Foundation
import JSONAPICodable

/// The pages of a paginated collection, read one request at a time as you iterate: made by
/// ``JSONAPIClient/pages(of:from:query:)`` and ``JSONAPIClient/pages(of:meta:from:query:)``.
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
public struct JSONAPIPages<PrimaryData: Decodable, Meta: Decodable>: AsyncSequence, Sendable {
  /// One page: the primary data with the page's `meta` and `links`.
  public typealias Element = JSONAPIDocument<PrimaryData, Meta>

  enum Start: Sendable {
    case path(String, JSONAPIQuery)
  }

  let client: JSONAPIClient
  let first: Start

  /// Starts reading at the first page.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(client: client, state: .first(first))
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
    var visited: Set<String> = []

    init(client: JSONAPIClient, state: State) {
      self.client = client
      self.state = state
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
      if let href = page.links?.next?.href {
        guard let next = URL(string: href, relativeTo: raw.url)?.absoluteURL else {
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
