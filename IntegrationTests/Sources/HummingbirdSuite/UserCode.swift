import Foundation
import JSONAPICodable
import JSONAPINetworking

// What an app writes to use Examples/HummingbirdServer's blog with JSONAPIClient: models, one
// client, and one function per scenario. main.swift calls these and checks the answers.

struct Person: Codable, Sendable {
  var id: String?
  var type = "people"
  var name: String?
}

struct Comment: Codable, Sendable {
  var id: String?
  var type = "comments"
  var body: String?
  var author: Person?
  var article: JSONAPIResourceIdentifier?
}

struct Article: Codable, Sendable {
  var id: String?
  var type = "articles"
  var title: String?
  var body: String?
  var author: Person?
  var comments: JSONAPIRelationship<[Comment]>?
  var links: JSONAPILinks?
}

struct NewArticle: Codable, Sendable {
  var type = "articles"
  var title: String
  var author: JSONAPIResourceIdentifier?
}

/// A create body with an id of the client's choosing, which this server refuses (R77).
struct NewArticleWithID: Codable, Sendable {
  var id: String
  var type = "articles"
  var title: String
}

struct ArticlePatch: Codable, Sendable {
  var id: String
  var type = "articles"
  var title: String
}

/// `meta.page` of a collection: the total, and for page numbers (people, comments) the page's
/// number and size and the number of pages.
struct PageMeta: Codable, Sendable {
  struct Page: Codable, Sendable {
    var number: Int?
    var size: Int?
    var total: Int
    var totalPages: Int?
  }
  var page: Page
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
  for try await page in client.pages(of: [Article].self, from: "articles") {
    articles += page.data
  }
  return articles
}

func titlesOnly(_ client: JSONAPIClient) async throws -> [Article] {
  try await client.get(
    [Article].self, from: "articles", query: JSONAPIQuery().fields("articles", ["title"]))
}

func articlesBy(_ client: JSONAPIClient, person: String) async throws -> [Article] {
  try await client.get(
    [Article].self, from: "articles",
    query: JSONAPIQuery().filter("author", person).sorted(by: .descending("title")))
}

func articleWithCommentsAndTheirAuthors(_ client: JSONAPIClient, _ id: String) async throws
  -> Article
{
  try await client.get(
    Article.self, from: "articles/\(id)", query: JSONAPIQuery().including("comments.author"))
}

func relatedComments(_ client: JSONAPIClient, of article: Article) async throws -> [Comment] {
  guard let related = article.comments?.links?.related?.href else { return [] }
  return try await client.get([Comment].self, from: related)
}

func publish(_ client: JSONAPIClient, title: String) async throws -> JSONAPIResponse<Article> {
  try await client.create(
    NewArticle(title: title, author: JSONAPIResourceIdentifier(type: "people", id: "1")),
    at: "articles")
}

func rename(_ client: JSONAPIClient, _ id: String, to title: String) async throws -> Article? {
  try await client.update(ArticlePatch(id: id, title: title), at: "articles/\(id)")
}

func remove(_ client: JSONAPIClient, _ id: String) async throws {
  try await client.delete("articles/\(id)")
}

func commentIdentifiers(_ client: JSONAPIClient, _ id: String) async throws
  -> [JSONAPIResourceIdentifier]
{
  try await client.get(
    [JSONAPIResourceIdentifier].self, from: "articles/\(id)/relationships/comments")
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

func attach(_ client: JSONAPIClient, comment: String, to id: String) async throws {
  try await client.addToRelationship(
    "articles/\(id)/relationships/comments",
    [JSONAPIResourceIdentifier(type: "comments", id: comment)])
}

func detach(_ client: JSONAPIClient, comment: String, from id: String) async throws {
  try await client.removeFromRelationship(
    "articles/\(id)/relationships/comments",
    [JSONAPIResourceIdentifier(type: "comments", id: comment)])
}

func replaceComments(_ client: JSONAPIClient, of id: String, with comments: [String]) async throws {
  try await client.updateRelationship(
    "articles/\(id)/relationships/comments",
    to: comments.map { JSONAPIResourceIdentifier(type: "comments", id: $0) })
}

struct NewPerson: Codable, Sendable {
  var type = "people"
  var lid: String
  var name: String
}

/// One atomic request: a new person, and a new article whose author is that person by its `lid`.
func publishWithNewAuthor(_ client: JSONAPIClient, title: String, author: String) async throws
  -> [JSONAPIOperationResult]
{
  try await client.perform(
    [
      .add(NewPerson(lid: "p1", name: author)),
      .add(
        NewArticle(title: title, author: JSONAPIResourceIdentifier(type: "people", lid: "p1"))),
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

/// A new article and its new author in one call: `create(graph:)` sends both as operations.
struct DraftArticle: Codable, Sendable {
  var id: String?
  var type = "articles"
  var title: String?
  var author: Person?
}

func publishWithGraph(_ client: JSONAPIClient, title: String, author: String) async throws
  -> DraftArticle
{
  try await client.create(
    graph: DraftArticle(title: title, author: Person(name: author)), at: "operations")
}

/// An article as an editing screen holds it, for `update(from:to:)`.
struct EditableArticle: Codable, Sendable {
  var id: String?
  var type = "articles"
  var title: String
  var body: String?
  var author: JSONAPIResourceIdentifier?
}

/// The message an app shows for a failed call.
func message(for error: any Error) -> String {
  if let error = error as? JSONAPIResponseError, let first = error.errors.first {
    return "\(error.statusCode): \(first.detail ?? first.title ?? "")"
  }
  return "\(error)"
}
