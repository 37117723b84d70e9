import Foundation
import JSONAPICodable
import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// JSONAPIClient against a running JSON:API server: the blog of IntegrationTests/server.
//
//   Scripts/integration.sh --serve                 # in one terminal: starts it on 127.0.0.1:8765
//   swift run NetworkClientExample                  # in another
//   swift run NetworkClientExample http://127.0.0.1:9000/
//
// The server URL comes from the first argument, else JSONAPI_SERVER_URL, else
// http://127.0.0.1:8765/. Without a server it says how to start one and exits 0.

struct Person: Codable, Sendable {
  var id: String?
  var type = "people"
  var name: String?
}

struct Article: Codable, Sendable {
  var id: String?
  var type = "articles"
  var title: String
  var wordCount: Int?
  var author: Person?
}

struct PageMeta: Codable, Sendable {
  struct Pagination: Codable, Sendable {
    var count: Int
    var pages: Int
  }
  var pagination: Pagination
}

let address =
  CommandLine.arguments.dropFirst().first
  ?? ProcessInfo.processInfo.environment["JSONAPI_SERVER_URL"] ?? "http://127.0.0.1:8765/"
guard let baseURL = URL(string: address) else {
  print("Not a URL: \(address)")
  exit(2)
}

let sessionConfiguration = URLSessionConfiguration.default
sessionConfiguration.timeoutIntervalForRequest = 5
let client = JSONAPIClient(
  baseURL: baseURL,
  configuration: .init(prepareRequest: { request in
    // Where an app adds its bearer token; the client calls this only for baseURL's origin.
    request.setValue("Bearer example-token", forHTTPHeaderField: "Authorization")
  }),
  transport: URLSessionTransport(configuration: sessionConfiguration))
client.decoder.keyDecodingStrategy = .convertFromKebabCase
client.encoder.keyEncodingStrategy = .convertToKebabCase

do {
  // One page, with each article's author from `included`, and the page meta.
  let first = try await client.get(
    JSONAPIDocument<[Article], PageMeta>.self, from: "articles",
    query: JSONAPIQuery().including("author").sorted(by: .descending("word-count")))
  let total = first.meta?.pagination.count ?? first.data.count
  print("\(total) articles at \(baseURL.absoluteString); the longest:")
  for article in first.data.prefix(3) {
    print(
      "  \(article.title) by \(article.author?.name ?? "nobody"), \(article.wordCount ?? 0) words")
  }

  // Every page, following links.next.
  var titles = 0
  for try await page in client.pages(of: [Article].self, from: "articles") {
    titles += page.data.count
  }
  print("read \(titles) titles page by page")

  // Create, then delete; a refused create shows the server's error objects.
  let created: Article = try await client.create(
    Article(title: "Written by NetworkClientExample", wordCount: 4), at: "articles")
  print("created article \(created.id ?? "?")")
  if let id = created.id { try await client.delete("articles/\(id)") }

  do {
    let _: Article = try await client.create(Article(title: "spam"), at: "articles")
  } catch let error as JSONAPIResponseError {
    for object in error.errors {
      print(
        "refused (\(error.statusCode)): \(object.detail ?? "") at \(object.source?.pointer ?? "-")")
    }
  }
} catch let error as URLError {
  print(
    """
    No JSON:API server answers at \(baseURL.absoluteString) (\(error.code.rawValue)).
    Start the example server with `Scripts/integration.sh --serve` (needs python3), then run
    `swift run NetworkClientExample` again, or pass another server's URL as the first argument.
    """)
  exit(0)
}
