import Foundation
import JSONAPICodable
import JSONAPINetworking

// The user code both suites share: both servers are blogs (articles with an author and comments,
// people, `/operations` for Atomic Operations), and what an app writes for them alike is here,
// once, generic over the app's own models. Each suite's UserCode.swift declares its models and
// the calls its server answers differently.

/// A person, the author of articles and comments.
public struct Person: Codable, Sendable {
  /// The server's id; `nil` for a person not created yet.
  public var id: String?
  /// The resource type.
  public var type = "people"
  /// The person's name.
  public var name: String?

  /// A person; one without an id is a new one, for `create(graph:)`.
  public init(id: String? = nil, name: String? = nil) {
    self.id = id
    self.name = name
  }
}

/// A PATCH body that renames an article.
public struct ArticlePatch: Codable, Sendable {
  /// The article's id.
  public var id: String
  /// The resource type.
  public var type = "articles"
  /// The new title.
  public var title: String

  /// Renames article `id` to `title`.
  public init(id: String, title: String) {
    self.id = id
    self.title = title
  }
}

/// What the shared calls and checks read of an app's article model; each suite's `Article`
/// adopts it.
public protocol ArticleModel: Decodable, Sendable {
  /// The server's id.
  var id: String? { get }
  /// The title, `nil` when a sparse fieldset left it out.
  var title: String? { get }
  /// The author: its linkage, and its attributes when the request included it.
  var author: Person? { get }
}

/// The calls on a blog's articles that both servers answer alike, with the app's `Article` and
/// the `meta` of a page of articles, `PageMeta`.
public struct BlogCalls<Article: ArticleModel, PageMeta: Decodable & Sendable>: Sendable {
  /// Sends every call.
  public let client: JSONAPIClient

  /// The calls, sent by `client`.
  public init(_ client: JSONAPIClient) {
    self.client = client
  }

  /// The first page of articles with their authors, and the page's `meta`.
  public func firstPageWithAuthors() async throws -> JSONAPIDocument<[Article], PageMeta> {
    try await client.get(
      JSONAPIDocument<[Article], PageMeta>.self, from: "articles",
      query: JSONAPIQuery().including("author"))
  }

  /// One article.
  public func article(_ id: String) async throws -> Article {
    try await client.get(Article.self, from: "articles/\(id)")
  }

  /// Every article, page after page.
  public func allArticles() async throws -> [Article] {
    var articles: [Article] = []
    for try await page in client.pages(of: [Article].self, from: "articles") {
      articles += page.data
    }
    return articles
  }

  /// The first page of articles with their titles only.
  public func titlesOnly() async throws -> [Article] {
    try await client.get(
      [Article].self, from: "articles", query: JSONAPIQuery().fields("articles", ["title"]))
  }

  /// The members of a to-many relationship read from its `related` link, such as an article's
  /// comments; none when the document gave no link.
  public func related<Member: Decodable>(_ relationship: JSONAPIRelationship<[Member]>?)
    async throws -> [Member]
  {
    guard let related = relationship?.links?.related?.href else { return [] }
    return try await client.get([Member].self, from: related)
  }

  /// Renames an article; the server's answer, `nil` when it answered 204.
  public func rename(_ id: String, to title: String) async throws -> Article? {
    try await client.update(ArticlePatch(id: id, title: title), at: "articles/\(id)")
  }

  /// Deletes an article.
  public func remove(_ id: String) async throws {
    try await client.delete("articles/\(id)")
  }

  /// Leaves an article without an author.
  public func clearAuthor(_ id: String) async throws {
    try await client.updateRelationship(
      "articles/\(id)/relationships/author", to: JSONAPIResourceIdentifier?.none)
  }

  /// Makes `person` the author of an article.
  public func setAuthor(_ id: String, to person: String) async throws {
    try await client.updateRelationship(
      "articles/\(id)/relationships/author",
      to: JSONAPIResourceIdentifier(type: "people", id: person)
    )
  }

  /// One atomic request: rename an article and delete a second one, both or neither.
  public func renameAndRemove(rename id: String, remove other: String) async throws
    -> [JSONAPIOperationResult]
  {
    try await client.perform(
      [
        .update(ArticlePatch(id: id, title: "Renamed atomically")),
        .remove(JSONAPIResourceIdentifier(type: "articles", id: other)),
      ], at: "operations")
  }

  /// An article's to-many relationship `name`, whose members are resources of type `name` (its
  /// tags, its comments).
  public func toMany(_ name: String) -> ArticleMembers {
    ArticleMembers(client: client, name: name)
  }
}

/// An article's to-many relationship whose members are resources of the relationship's name, read
/// and changed through its relationship endpoint.
public struct ArticleMembers: Sendable {
  /// Sends every call.
  public let client: JSONAPIClient
  /// The relationship's name, which is also its members' type.
  public let name: String

  /// The members' identifiers.
  public func identifiers(of id: String) async throws -> [JSONAPIResourceIdentifier] {
    try await client.get([JSONAPIResourceIdentifier].self, from: endpoint(id))
  }

  /// Adds one member.
  public func add(_ member: String, to id: String) async throws {
    try await client.addToRelationship(endpoint(id), identifiers([member]))
  }

  /// Removes one member.
  public func remove(_ member: String, from id: String) async throws {
    try await client.removeFromRelationship(endpoint(id), identifiers([member]))
  }

  /// Replaces every member with `members`.
  public func replace(of id: String, with members: [String]) async throws {
    try await client.updateRelationship(endpoint(id), to: identifiers(members))
  }

  private func endpoint(_ id: String) -> String {
    "articles/\(id)/relationships/\(name)"
  }

  private func identifiers(_ ids: [String]) -> [JSONAPIResourceIdentifier] {
    ids.map { JSONAPIResourceIdentifier(type: name, id: $0) }
  }
}

extension JSONAPIClient {
  /// A copy of this client with `change` made to its configuration; the copy shares the base URL,
  /// transport and coders (so their key strategies).
  public func configured(_ change: (inout Configuration) -> Void) -> JSONAPIClient {
    var copy = self
    change(&copy.configuration)
    return copy
  }
}

/// The message an app shows for a failed call.
public func message(for error: any Error) -> String {
  if let error = error as? JSONAPIResponseError {
    if let first = error.errors.first {
      return "\(error.statusCode): \(first.detail ?? first.title ?? "")"
    }
    return "\(error.statusCode): \(error.contentType ?? "no content type")"
  }
  return "\(error)"
}
