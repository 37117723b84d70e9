import Foundation
import JSONAPICodable
import JSONAPINetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A stub server of articles that keeps a version of each, as issue 48 asks of a server: `GET`
/// answers with `ETag: "v<version>"` (or a weak one) and `304` to a matching `If-None-Match`;
/// `PATCH` and `DELETE` with a stale `If-Match` answer `412` and change nothing.
final class VersionedServer: @unchecked Sendable {
  struct Article: Sendable {
    var title: String
    var version: Int
  }

  // Every member below is guarded by `lock`.
  private let lock = NSLock()
  private var articles: [String: Article]
  private var received: [URLRequest] = []
  /// Whether `GET` sends an `ETag`, and whether it is weak.
  var sendsETag = true
  var weakETag = false
  /// Extra headers on every `200` of a `GET`.
  var extraHeaders: [String: String] = [:]

  init(articles: [String: String] = ["1": "Draft"]) {
    self.articles = articles.mapValues { Article(title: $0, version: 1) }
  }

  var requests: [URLRequest] { lock.withLock { received } }
  func title(_ id: String) -> String? { lock.withLock { articles[id]?.title } }
  func setTitle(_ id: String, _ title: String) {
    lock.withLock {
      articles[id]?.title = title
      articles[id]?.version += 1
    }
  }

  /// The `If-None-Match` of every `GET`, in order (`nil` where none was sent).
  var ifNoneMatches: [String?] {
    requests.filter { $0.httpMethod == "GET" }.map { $0.value(forHTTPHeaderField: "If-None-Match") }
  }

  var transport: StubTransport {
    StubTransport { [self] request in try self.answer(request) }
  }

  private func etag(_ version: Int) -> String { (weakETag ? "W/" : "") + "\"v\(version)\"" }

  private func answer(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
    try lock.withLock {
      received.append(request)
      // The last two segments, so that a base path such as `/v1/` is allowed.
      let parts = (request.url?.path ?? "").split(separator: "/").suffix(2).map(String.init)
      guard parts.count == 2, parts[0] == "articles", let article = articles[parts[1]] else {
        return try Stub.answer(request, 404, #"{"errors":[{"status":"404"}]}"#)
      }
      let id = parts[1]
      let current = etag(article.version)
      let precondition = request.value(forHTTPHeaderField: "If-Match")
      switch request.httpMethod ?? "GET" {
      case "GET":
        if sendsETag, request.value(forHTTPHeaderField: "If-None-Match") == current {
          return (Data(), try Stub.response(for: request, status: 304, headers: ["ETag": current]))
        }
        var headers = Stub.jsonAPI.merging(extraHeaders) { $1 }
        if sendsETag { headers["ETag"] = current }
        let body =
          #"{"data":{"type":"articles","id":"\#(id)","attributes":{"title":"\#(article.title)"}}}"#
        return (Data(body.utf8), try Stub.response(for: request, status: 200, headers: headers))
      case "PATCH", "DELETE":
        // A strong comparison (RFC 9110 §13.1.1): a weak tag never matches.
        if let precondition, precondition != "\"v\(article.version)\"" {
          return try Stub.answer(
            request, 412, #"{"errors":[{"status":"412","title":"Precondition Failed"}]}"#)
        }
        if request.httpMethod == "DELETE" {
          articles[id] = nil
          return try Stub.answer(request, 204)
        }
        let sent = try JSONDecoder().decode(JSONAPIValue.self, from: request.httpBody ?? Data())
        if let title = sent["data"]?["attributes"]?["title"]?.stringValue {
          articles[id] = Article(title: title, version: article.version + 1)
        }
        return try Stub.answer(request, 204)
      default:
        return try Stub.answer(request, 405, #"{"errors":[{"status":"405"}]}"#)
      }
    }
  }
}
