import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Talks to Examples/HummingbirdServer through the client swift-openapi-generator made from the
/// server's own OpenAPI description: lists articles with their authors, creates one, and reads it
/// back. Exits non-zero, saying what differed, when an answer is not what the description and the
/// blog's data say.
///
///   BlogOpenAPIClient http://127.0.0.1:8080
@main
struct BlogOpenAPIClient {
  struct Mismatch: Error, CustomStringConvertible {
    var description: String
  }

  static func main() async {
    guard CommandLine.arguments.count == 2, let server = URL(string: CommandLine.arguments[1])
    else {
      print("usage: BlogOpenAPIClient SERVER_URL")
      exit(2)
    }
    do {
      try await run(
        Client(
          serverURL: server, transport: URLSessionTransport(),
          middlewares: [JSONAPIMediaTypeMiddleware()]))
    } catch {
      print("generated client: FAILED: \(error)")
      exit(1)
    }
  }

  static func run(_ client: Client) async throws {
    // The first page of articles, with their authors.
    let listed = try await client.listArticles(
      query: .init(include: [.author], page_lbrack_size_rbrack_: 5))
    let page = try listed.ok.body.applicationVnd_apiJson
    var names: [String: String] = [:]
    for case .PeopleResource(let person) in page.included ?? [] {
      names[person.id] = person.attributes?.name
    }
    guard !page.data.isEmpty else { throw Mismatch(description: "no articles on the first page") }
    var someAuthor: String?
    for article in page.data {
      guard let authorID = article.relationships?.author?.data?.id else { continue }
      guard let name = names[authorID] else {
        throw Mismatch(description: "article \(article.id)'s author \(authorID) is not included")
      }
      someAuthor = someAuthor ?? authorID
      print("  \(article.attributes?.title ?? "?") by \(name)")
    }
    guard let authorID = someAuthor else {
      throw Mismatch(description: "no article on the first page has an author")
    }
    print("listed \(page.data.count) articles with \(names.count) authors")

    // A new article by one of them.
    let title = "Generated from the description \(UUID().uuidString.prefix(8))"
    let created = try await client.createArticles(
      body: .applicationVnd_apiJson(
        .init(
          data: .init(
            attributes: .init(body: "Written by a generated client.", title: title),
            relationships: .init(author: .init(data: .init(id: authorID, _type: .people))),
            _type: .articles))))
    let answer = try created.created
    let article = try answer.body.applicationVnd_apiJson.data
    guard article.attributes?.title == title, answer.headers.location != nil else {
      throw Mismatch(description: "the created article came back as \(article)")
    }
    print("created article \(article.id) (Location: \(answer.headers.location ?? "none"))")

    // Read back, with its author.
    let read = try await client.getArticles(
      path: .init(id: article.id), query: .init(include: [.author]))
    let document = try read.ok.body.applicationVnd_apiJson
    guard document.data.attributes?.title == title,
      document.data.relationships?.author?.data?.id == authorID
    else {
      throw Mismatch(description: "article \(article.id) reads back as \(document.data)")
    }
    print("generated client: OK")
  }
}

/// Sends `Content-Type: application/vnd.api+json` without the `charset` parameter that
/// swift-openapi-runtime adds to JSON bodies: JSON:API servers must refuse any parameter but `ext`
/// and `profile` with `415` (https://jsonapi.org/format/#content-negotiation-servers), and JSON
/// is UTF-8 by definition.
struct JSONAPIMediaTypeMiddleware: ClientMiddleware {
  func intercept(
    _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    var request = request
    if let value = request.headerFields[.contentType] {
      let parameters = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      if parameters.first?.lowercased() == "application/vnd.api+json" {
        request.headerFields[.contentType] = parameters.filter {
          !$0.lowercased().hasPrefix("charset=")
        }.joined(separator: "; ")
      }
    }
    return try await next(request, body, baseURL)
  }
}
