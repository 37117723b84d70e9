// ServerExample: encodes a page of articles as a compound document and a validation failure as an
// error document, prints both, and checks them by decoding them again. Exits with status 1 on any
// failure, so that CI can run it.

import Foundation
import JSONAPICodable

let encoder = JSONAPIEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
encoder.dateEncodingStrategy = .iso8601

let decoder = JSONAPIDecoder()
decoder.dateDecodingStrategy = .iso8601

var problems: [String] = []

/// Records a broken expectation; the example exits non-zero at the end if there is any.
@MainActor func check(_ condition: Bool, _ message: String) {
  if !condition { problems.append(message) }
}

let dana = Person(id: "9", name: "Dana Reyes")
let ana = Person(id: "2", name: "Ana Lima")
let articles = [
  Article(
    id: "1", title: "Swift on the server, one year in",
    publishedAt: Date(timeIntervalSince1970: 1_714_555_800), author: dana,
    comments: [
      Comment(id: "5", body: "Which framework did you pick in the end?", author: ana),
      Comment(id: "12", body: "Great write-up, thanks!", author: dana),
    ]),
  Article(
    id: "2", title: "Decoding JSON:API without a second parse",
    publishedAt: Date(timeIntervalSince1970: 1_718_200_800), author: dana, comments: []),
]

// 1. A compound document: GET /articles?include=author,comments.author
do {
  let document = JSONAPIDocument(
    data: articles, meta: PageMeta(totalPages: 3),
    links: [
      "self": "https://api.example.com/articles?page%5Bnumber%5D=1",
      "next": "https://api.example.com/articles?page%5Bnumber%5D=2",
    ],
    jsonapi: JSONAPIObject(version: "1.1"))
  let body = try encoder.encode(document)
  print("200 OK  GET /articles?include=author,comments.author")
  print(String(decoding: body, as: UTF8.self))

  // Check the output: the related people and comments are included once each, and decoding the
  // body again gives back the same graph.
  let decoded = try decoder.decode(JSONAPIDocument<[Article], PageMeta>.self, from: body)
  check(decoded.data.map(\.id) == ["1", "2"], "primary data round trip")
  check(decoded.data.first?.comments.first?.author.name == "Ana Lima", "included comment author")
  check(decoded.meta?.totalPages == 3, "meta round trip")
  let json = try JSONSerialization.jsonObject(with: body) as? [String: Any]
  let included = (json?["included"] as? [[String: Any]]) ?? []
  let identifiers = included.map { "\($0["type"] ?? "")/\($0["id"] ?? "")" }
  check(Set(identifiers).count == identifiers.count, "included has duplicates: \(identifiers)")
  check(
    Set(identifiers) == ["people/9", "people/2", "comments/5", "comments/12"],
    "unexpected included resources: \(identifiers)")
  let primary = (json?["data"] as? [[String: Any]]) ?? []
  let emptyComments = (primary.last?["relationships"] as? [String: Any])?["comments"]
  check(
    ((emptyComments as? [String: Any])?["data"] as? [Any])?.isEmpty == true,
    "article 2's empty comments should be a relationship with \"data\": []")
} catch {
  print("error: could not encode the articles: \(error)")
  exit(1)
}

// 2. An error document: 422 for POST /articles with an empty title.
print()
do {
  let body = try encoder.encode(errors: [
    JSONAPIErrorObject(
      status: "422", code: "blank", title: "Invalid Attribute",
      detail: "Title must not be empty.", source: .init(pointer: "/data/attributes/title"))
  ])
  print("422 Unprocessable Content  POST /articles")
  print(String(decoding: body, as: UTF8.self))

  do {
    _ = try decoder.decode(Article.self, from: body)
    check(false, "the error document decoded as an article")
  } catch JSONAPIError.errorDocument(let errors) {
    check(errors.first?.source?.pointer == "/data/attributes/title", "error round trip")
  }
} catch {
  print("error: could not encode the error document: \(error)")
  exit(1)
}

if !problems.isEmpty {
  print()
  for problem in problems { print("error: \(problem)") }
  exit(1)
}
