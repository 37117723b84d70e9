import Foundation
import IntegrationHarness
import JSONAPICodable
import JSONAPINetworking

// What an app writes to cover the scenarios with JSONAPIClient: models, one client, and
// one function per scenario; the calls both suites' servers answer alike (and `Person`,
// `ArticlePatch`, `message(for:)`) are IntegrationHarness's SharedUserCode.swift. main.swift
// calls these and checks the answers; this file and that one are what the line count in the
// closing note of issue 13 measures.

struct Tag: Codable, Sendable {
  var id: String
  var type = "tags"
  var name: String?
}

struct Comment: Codable, Sendable {
  var id: String
  var body: String?
  var author: Person?
}

struct Article: Codable, ArticleModel {
  var id: String?
  var type = "articles"
  var title: String?
  var body: String?
  var wordCount: Int?
  var author: Person?
  var tags: [Tag]?
  var comments: JSONAPIRelationship<[Comment]>?
  var links: JSONAPILinks?
}

struct NewArticle: Codable, Sendable {
  var type = "articles"
  var title: String
  var wordCount: Int
  var author: JSONAPIResourceIdentifier?
}

struct PageMeta: Codable, Sendable {
  struct Pagination: Codable, Sendable {
    var page: Int
    var pages: Int
    var count: Int
  }
  var pagination: Pagination
}

/// The calls shared with the other suite, with this server's models.
typealias Blog = BlogCalls<Article, PageMeta>

func makeClient(
  _ baseURL: URL, token: String = "secret",
  transport: any JSONAPITransport = JSONAPIClient.defaultTransport
) -> JSONAPIClient {
  let configuration = JSONAPIClient.Configuration(prepareRequest: { request in
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
  })
  let client = JSONAPIClient(baseURL: baseURL, configuration: configuration, transport: transport)
  client.decoder.keyDecodingStrategy = .convertFromKebabCase
  client.encoder.keyEncodingStrategy = .convertToKebabCase
  return client
}

func longestArticles(_ client: JSONAPIClient) async throws -> [Article] {
  try await client.get(
    [Article].self, from: "articles",
    query: JSONAPIQuery().filter("word-count.gte", "2000").sorted(by: .descending("word-count")))
}

func articleWithCommentsAndTheirAuthors(_ client: JSONAPIClient) async throws -> Article {
  try await client.get(
    Article.self, from: "articles/2", query: JSONAPIQuery().including("comments.author", "tags"))
}

func publish(_ client: JSONAPIClient, title: String) async throws -> Article {
  let draft = NewArticle(
    title: title, wordCount: 42, author: JSONAPIResourceIdentifier(type: "people", id: "1"))
  let created: Article = try await client.create(draft, at: "articles")
  return created
}

func publishReadingLocation(_ client: JSONAPIClient, title: String) async throws
  -> JSONAPIResponse<Article>
{
  try await client.create(NewArticle(title: title, wordCount: 1), at: "articles")
}

struct NewTag: Codable, Sendable {
  var type = "tags"
  var lid: String
  var name: String
}

struct TaggedArticle: Codable, Sendable {
  var type = "articles"
  var title: String
  var wordCount: Int
  var tags: [JSONAPIResourceIdentifier]
}

/// One atomic request: a new tag, and a new article tagged with it by its local id.
func publishWithNewTag(_ client: JSONAPIClient, title: String, tag: String) async throws
  -> [JSONAPIOperationResult]
{
  try await client.perform(
    [
      .add(NewTag(lid: "t1", name: tag)),
      .add(
        TaggedArticle(
          title: title, wordCount: 3, tags: [JSONAPIResourceIdentifier(type: "tags", lid: "t1")])),
    ], at: "operations")
}
