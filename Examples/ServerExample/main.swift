// ServerExample: drives the framework-agnostic JSON:API handler of ServerExampleKit through a
// short session (fetch with include, sparse fieldsets and paging by page number, cursor and
// offset, create, update, relationship updates, delete, and failing requests), printing each
// exchange. Exits with status 1 when any
// response has an unexpected status, so that CI can run it.

import Foundation
import ServerExampleKit

var server = ExampleServer()
var failures: [String] = []

let session: [(ExampleRequest, Int)] = [
  (
    .jsonAPI(
      "GET",
      "/articles?include=author&fields%5Barticles%5D=title,author&sort=-title&page%5Bsize%5D=2"),
    200
  ),
  (.jsonAPI("GET", "/articles/1?include=comments.author"), 200),
  // Cursor paging (the Cursor Pagination profile): the first page, then the one its `next` names.
  (.jsonAPI("GET", "/people?sort=name&page%5Bsize%5D=2"), 200),
  (.jsonAPI("GET", "/people?sort=name&page%5Bafter%5D=9&page%5Bsize%5D=2"), 200),
  // Offset paging.
  (.jsonAPI("GET", "/comments?page%5Boffset%5D=1&page%5Blimit%5D=1"), 200),
  (
    .jsonAPI(
      "POST", "/articles",
      body:
        #"{"data":{"type":"articles","attributes":{"title":"Hello"},"relationships":{"author":{"data":{"type":"people","id":"2"}}}}}"#
    ),
    201
  ),
  (
    .jsonAPI(
      "PATCH", "/articles/100",
      body: #"{"data":{"type":"articles","id":"100","attributes":{"title":"Hello again"}}}"#), 200
  ),
  (.jsonAPI("PATCH", "/articles/100/relationships/author", body: #"{"data":null}"#), 204),
  (
    .jsonAPI(
      "POST", "/articles/100/relationships/comments",
      body: #"{"data":[{"type":"comments","id":"13"}]}"#), 204
  ),
  (.jsonAPI("GET", "/articles/100/relationships/comments"), 200),
  (.jsonAPI("DELETE", "/articles/100"), 204),
  (.jsonAPI("GET", "/articles?include=tags"), 400),
  (.jsonAPI("GET", "/people?page%5Bsize%5D=500"), 400),
  (.jsonAPI("PATCH", "/articles/1", body: #"{"data":{"type":"articles","id":"2"}}"#), 409),
  (
    .jsonAPI("POST", "/articles", body: #"{"data":{"type":"articles","attributes":{"title":42}}}"#),
    422
  ),
  (ExampleRequest(method: "GET", url: "/articles", headers: ["Accept": "text/html"]), 406),
]

for (request, expected) in session {
  let response = server.handle(request)
  print("\(request.method) \(request.url) → \(response.status)")
  for name in response.headers.keys.sorted() { print("  \(name): \(response.headers[name] ?? "")") }
  if !response.text.isEmpty { print("  \(response.text)") }
  print()
  if response.status != expected {
    failures.append(
      "\(request.method) \(request.url): expected \(expected), got \(response.status)")
  }
}

if !failures.isEmpty {
  for failure in failures { print("error: \(failure)") }
  exit(1)
}
print("All \(session.count) exchanges answered as expected.")
