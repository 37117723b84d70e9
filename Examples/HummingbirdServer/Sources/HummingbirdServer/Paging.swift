import Foundation
import JSONAPICodable

extension ResourceType {
  /// How the collection is paged, with the library's `JSONAPIPaging`: articles by cursor (the
  /// Cursor Pagination profile, ranges allowed), people and comments by page number. Pages hold
  /// 10 resources unless `page[size]` says otherwise, at most 50: a page is read and encoded in
  /// one go.
  var paging: JSONAPIPaging {
    switch self {
    case .articles:
      return .cursor(defaultSize: 10, maxSize: 50, allowsRangePagination: true)
    case .people, .comments:
      return .pageNumber(defaultSize: 10, maxSize: 50)
    }
  }
}

/// An article's place in a sorted collection, as the cursor strategy hands it to clients: the
/// values of the sort columns (with the id last, which makes every place unique), as a JSON array
/// of strings in base64url. A cursor holds the values rather than the id alone, so that it keeps
/// its place when its resource is deleted meanwhile; and it is opaque, so that clients do not
/// build their own.
struct Cursor: Equatable {
  var values: [String]

  var text: String {
    let json = (try? JSONEncoder().encode(values)) ?? Data()
    return json.base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// The cursor `text` stands for, or `nil` when it is not one this server made.
  init?(_ text: String) {
    var base64 = text.replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
    guard let json = Data(base64Encoded: base64),
      let values = try? JSONDecoder().decode([String].self, from: json)
    else { return nil }
    self.values = values
  }

  init(values: [String]) {
    self.values = values
  }
}
