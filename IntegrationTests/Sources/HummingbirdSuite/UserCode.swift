import Foundation
import IntegrationHarness
import JSONAPICodable
import JSONAPINetworking

// What an app writes to use Examples/HummingbirdServer's blog with JSONAPIClient: models, one
// client, and one function per scenario; the calls both suites' servers answer alike (and
// `Person`, `ArticlePatch`, `message(for:)`) are IntegrationHarness's SharedUserCode.swift.
// main.swift calls these and checks the answers.

struct Comment: Codable, Sendable {
  var id: String?
  var type = "comments"
  var body: String?
  var author: Person?
  var article: JSONAPIResourceIdentifier?
}

struct Article: Codable, ArticleModel {
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

/// The calls shared with the other suite, with this server's models.
typealias Blog = BlogCalls<Article, PageMeta>

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

func publish(_ client: JSONAPIClient, title: String) async throws -> JSONAPIResponse<Article> {
  try await client.create(
    NewArticle(title: title, author: JSONAPIResourceIdentifier(type: "people", id: "1")),
    at: "articles")
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
