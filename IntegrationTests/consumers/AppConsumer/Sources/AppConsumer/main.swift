import Foundation
import JSONAPICodable
import JSONAPINetworking

// Decodes a document and builds a client, as an app does: the products an app links.
struct Article: Codable, JSONAPIResource {
  static let jsonAPIType = "articles"
  var id: String
  var title: String
}

let body = Data(#"{"data":{"type":"articles","id":"1","attributes":{"title":"Hello"}}}"#.utf8)
let article = try JSONAPIDecoder().decode(Article.self, from: body)
if let root = URL(string: "https://example.com/api/") {
  let client = JSONAPIClient(baseURL: root)
  print("decoded \(article.title); a client for \(client.baseURL.absoluteString)")
}
