/// Which pagination link ``JSONAPIClient/pages(of:from:query:direction:)`` follows from each page.
///
/// ```swift
/// // The pages before the cursor "c9", nearest first.
/// for try await page in client.pages(
///   of: [Article].self, from: "articles", query: JSONAPIQuery().page(size: 10, before: "c9"),
///   direction: .backward)
/// {
///   show(page.data)  // each page's items in the collection's order
/// }
/// ```
public enum JSONAPIPageDirection: Sendable, Hashable, CaseIterable {
  /// Follow `links.next`: from the first request's page towards the end of the collection.
  case forward
  /// Follow `links.prev`: from the first request's page towards the start of the collection.
  /// Each page still lists its items in the collection's order; the pages come nearest first.
  case backward
}
