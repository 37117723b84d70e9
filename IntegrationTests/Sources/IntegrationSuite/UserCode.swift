import Foundation
import JSONAPICodable
import JSONAPINetworking

// What an app writes to cover the issue's scenarios with JSONAPIClient: models, one client, and
// one function per scenario. main.swift calls these and checks the answers; this file is what the
// line count in the closing note of issue 13 measures.

struct Person: Codable, Sendable {
  var id: String?
  var type = "people"
  var name: String?
}

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

struct Article: Codable, Sendable {
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

struct ArticlePatch: Codable, Sendable {
  var id: String
  var type = "articles"
  var title: String
}

struct PageMeta: Codable, Sendable {
  struct Pagination: Codable, Sendable {
    var page: Int
    var pages: Int
    var count: Int
  }
  var pagination: Pagination
}

func makeClient(_ baseURL: URL, token: String = "secret") -> JSONAPIClient {
  let configuration = JSONAPIClient.Configuration(prepareRequest: { request in
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
  })
  let client = JSONAPIClient(baseURL: baseURL, configuration: configuration)
  client.decoder.keyDecodingStrategy = .convertFromKebabCase
  client.encoder.keyEncodingStrategy = .convertToKebabCase
  return client
}

func firstPageWithAuthors(_ client: JSONAPIClient) async throws
  -> JSONAPIDocument<[Article], PageMeta>
{
  try await client.get(
    JSONAPIDocument<[Article], PageMeta>.self, from: "articles",
    query: JSONAPIQuery().including("author"))
}

func article(_ client: JSONAPIClient, _ id: String) async throws -> Article {
  try await client.get(Article.self, from: "articles/\(id)")
}

func allArticles(_ client: JSONAPIClient) async throws -> [Article] {
  var articles: [Article] = []
  for try await page in client.pages(of: [Article].self, from: "articles", query: JSONAPIQuery()) {
    articles += page.data
  }
  return articles
}

func titlesOnly(_ client: JSONAPIClient) async throws -> [Article] {
  try await client.get(
    [Article].self, from: "articles", query: JSONAPIQuery().fields("articles", ["title"]))
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

func relatedComments(_ client: JSONAPIClient, of article: Article) async throws -> [Comment] {
  guard let related = article.comments?.links?.related?.href else { return [] }
  return try await client.get([Comment].self, from: related)
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

func rename(_ client: JSONAPIClient, _ id: String, to title: String) async throws -> Article? {
  try await client.update(ArticlePatch(id: id, title: title), at: "articles/\(id)")
}

func remove(_ client: JSONAPIClient, _ id: String) async throws {
  try await client.delete("articles/\(id)")
}

func tagIdentifiers(_ client: JSONAPIClient, _ id: String) async throws
  -> [JSONAPIResourceIdentifier]
{
  try await client.get(
    [JSONAPIResourceIdentifier].self, from: "articles/\(id)/relationships/tags")
}

func clearAuthor(_ client: JSONAPIClient, _ id: String) async throws {
  try await client.updateRelationship(
    "articles/\(id)/relationships/author", to: JSONAPIResourceIdentifier?.none)
}

func setAuthor(_ client: JSONAPIClient, _ id: String, to person: String) async throws {
  try await client.updateRelationship(
    "articles/\(id)/relationships/author", to: JSONAPIResourceIdentifier(type: "people", id: person)
  )
}

func tag(_ client: JSONAPIClient, _ id: String, with tag: String) async throws {
  try await client.addToRelationship(
    "articles/\(id)/relationships/tags", [JSONAPIResourceIdentifier(type: "tags", id: tag)])
}

func untag(_ client: JSONAPIClient, _ id: String, from tag: String) async throws {
  try await client.removeFromRelationship(
    "articles/\(id)/relationships/tags", [JSONAPIResourceIdentifier(type: "tags", id: tag)])
}

func replaceTags(_ client: JSONAPIClient, _ id: String, with tags: [String]) async throws {
  try await client.updateRelationship(
    "articles/\(id)/relationships/tags",
    to: tags.map { JSONAPIResourceIdentifier(type: "tags", id: $0) })
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

/// Another: rename an article and delete a second one, both or neither.
func renameAndRemove(_ client: JSONAPIClient, rename id: String, remove other: String)
  async throws -> [JSONAPIOperationResult]
{
  try await client.perform(
    [
      .update(ArticlePatch(id: id, title: "Renamed atomically")),
      .remove(JSONAPIResourceIdentifier(type: "articles", id: other)),
    ], at: "operations")
}

/// The message an app shows for a failed call.
func message(for error: any Error) -> String {
  if let error = error as? JSONAPIResponseError {
    if let first = error.errors.first {
      return "\(error.statusCode): \(first.detail ?? first.title ?? "")"
    }
    return "\(error.statusCode): \(error.contentType ?? "no content type")"
  }
  return "\(error)"
}
