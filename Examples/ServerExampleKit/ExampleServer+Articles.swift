import Foundation
import JSONAPIServer

extension ExampleServer {
  /// What `/articles` and `/articles/{id}` accept in their query; the `page` members are those of
  /// ``articlePaging``.
  static let articleRules = articlePaging.rules(
    JSONAPIQueryRules(
      includePaths: ["author", "comments.author"], sortFields: ["title", "id", "revision"],
      fieldsets: [
        "articles": ["title", "body", "revision", "author", "comments"],
        "people": ["name"], "comments": ["body", "author"],
      ],
      filterMembers: ["author"]))

  /// A single article takes `include` and `fields`, nothing that selects among resources.
  static let singleArticleRules: JSONAPIQueryRules = {
    var rules = articleRules
    rules.sortFields = []
    rules.pageMembers = []
    rules.filterMembers = []
    return rules
  }()

  // MARK: - GET /articles

  func listArticles(_ context: inout Context) throws -> ExampleResponse {
    let query = context.query
    try Self.articleRules.validate(query)
    var articles = Array(store.articles.values)
    if let authors = query.filter["author"] {
      let ids = Set(authors.split(separator: ",").map(String.init))
      articles = articles.filter { $0.authorID.map(ids.contains) ?? false }
    }
    // R69: in the order of the sort fields, most significant first; by id otherwise.
    let sort = query.sort.isEmpty ? [JSONAPIQuery.SortField.ascending("id")] : query.sort
    articles.sort { first, second in
      for field in sort {
        let order = Self.compare(first, second, by: field.field)
        if order != .orderedSame { return field.isDescending == (order == .orderedDescending) }
      }
      return false
    }
    // R65: page numbers; links keep the rest of the query as the client sent it.
    let page = try Self.articlePaging.page(for: query)
    let (slice, hasMore) = Self.offsetPage(articles, page)
    let paged = Self.articlePaging.response(
      for: page, target: context.linkTarget, count: slice.count, hasMore: hasMore,
      total: articles.count)
    let document = JSONAPIDocument(
      data: slice.map(resource), meta: paged.meta, links: paged.links)
    return context.document(200, try context.encoder.encode(document, for: query))
  }

  private static func compare(
    _ first: ExampleStore.Article, _ second: ExampleStore.Article, by field: String
  ) -> ComparisonResult {
    switch field {
    case "title": return first.title.compare(second.title)
    case "revision":
      return first.revision == second.revision
        ? .orderedSame : first.revision < second.revision ? .orderedAscending : .orderedDescending
    default:
      // Ids are numbers here: compare them as numbers.
      let (a, b) = (Int(first.id) ?? 0, Int(second.id) ?? 0)
      return a == b ? .orderedSame : a < b ? .orderedAscending : .orderedDescending
    }
  }

  // MARK: - GET /articles/{id}

  func showArticle(_ id: String, _ context: inout Context) throws -> ExampleResponse {
    try Self.singleArticleRules.validate(context.query)
    let article = try existingArticle(id)
    return context.document(200, try context.encoder.encode(resource(article), for: context.query))
  }

  // MARK: - POST /articles

  mutating func createArticle(_ context: inout Context) throws -> ExampleResponse {
    try Self.singleArticleRules.validate(context.query)
    let body = try context.body()
    // R75, R77, R78: type, client-generated id; a taken id conflicts.
    let identifier = try requestRules.checkCreate(body, type: "articles", decoder: context.decoder)
    if let id = identifier.id, store.articles[id] != nil {
      throw JSONAPIRequestError.resourceAlreadyExists(type: "articles", id: id)
    }
    let new = try context.decoder.decode(NewArticle.self, from: body)
    try Self.requireTitle(new.title)
    let authorID = try new.author.map {
      try existingPerson($0, pointer: "/data/relationships/author/data")
    }
    var commentIDs: [String] = []
    for (index, comment) in (new.comments ?? []).enumerated() {
      commentIDs.append(
        try existingComment(comment, pointer: "/data/relationships/comments/data/\(index)"))
    }
    let id: String
    if let clientID = identifier.id {
      id = clientID
    } else {
      id = String(store.nextArticleID)
      store.nextArticleID += 1
    }
    let article = ExampleStore.Article(
      id: id, title: new.title, body: new.body, revision: 1, authorID: authorID,
      commentIDs: commentIDs)
    store.articles[id] = article
    // R78: 201 with the resource (the server set `revision`, maybe the id) and a Location that
    // matches its `links.self`.
    return context.document(
      201, try context.encoder.encode(resource(article), for: context.query),
      extra: ["Location": Self.baseURL + "/articles/" + id])
  }

  // MARK: - PATCH /articles/{id}

  mutating func updateArticle(_ id: String, _ context: inout Context) throws -> ExampleResponse {
    try Self.singleArticleRules.validate(context.query)
    let body = try context.body()
    // R79, R82: the body's type and id must be the URL's (409).
    try requestRules.checkUpdate(body, type: "articles", id: id, decoder: context.decoder)
    var article = try existingArticle(id)
    let changes = try context.decoder.decode(ArticleChanges.self, from: body)
    // R80: absent members stay as they are.
    var changed = false
    if let title = changes.title {
      try Self.requireTitle(title)
      changed = changed || title != article.title
      article.title = title
    }
    if let body = changes.body {
      changed = changed || body != article.body
      article.body = body
    }
    if let author = changes.author {
      let authorID = try author.map {
        try existingPerson($0, pointer: "/data/relationships/author/data")
      }
      changed = changed || authorID != article.authorID
      article.authorID = authorID
    }
    if let comments = changes.comments {
      var ids: [String] = []
      for (index, comment) in comments.enumerated() {
        ids.append(
          try existingComment(comment, pointer: "/data/relationships/comments/data/\(index)"))
      }
      changed = changed || ids != article.commentIDs
      article.commentIDs = ids
    }
    // R82: a change makes the server bump `revision`, which the client did not send: 200 with
    // the resource. Nothing changed: 204.
    guard changed else { return context.noContent() }
    article.revision += 1
    store.articles[id] = article
    return context.document(200, try context.encoder.encode(resource(article), for: context.query))
  }

  // MARK: - DELETE /articles/{id}

  mutating func deleteArticle(_ id: String, _ context: inout Context) throws -> ExampleResponse {
    try JSONAPIQueryRules(pageMembers: []).validate(context.query)
    _ = try existingArticle(id)
    store.articles[id] = nil
    return context.noContent()  // R86
  }

  // MARK: - Helpers

  static func requireTitle(_ title: String) throws {
    if title.trimmingCharacters(in: .whitespaces).isEmpty {
      throw JSONAPIErrorObject(
        status: "422", code: "blank", title: "Invalid Attribute",
        detail: "Title must not be empty.",
        source: .init(pointer: "/data/attributes/title"))
    }
  }

  func existingArticle(_ id: String) throws -> ExampleStore.Article {
    guard let article = store.articles[id] else {
      throw JSONAPIRequestError.resourceNotFound(type: "articles", id: id)
    }
    return article
  }

  /// The id of the person `identifier` names; 409 for another type, 404 when there is none.
  func existingPerson(_ identifier: JSONAPIResourceIdentifier, pointer: String) throws -> String {
    try existing(identifier, type: "people", pointer: pointer) { store.people[$0] != nil }
  }

  /// The id of the comment `identifier` names; 409 for another type, 404 when there is none.
  func existingComment(_ identifier: JSONAPIResourceIdentifier, pointer: String) throws -> String {
    try existing(identifier, type: "comments", pointer: pointer) { store.comments[$0] != nil }
  }

  private func existing(
    _ identifier: JSONAPIResourceIdentifier, type: String, pointer: String,
    isStored: (String) -> Bool
  ) throws -> String {
    guard identifier.type == type else {
      throw JSONAPIRequestError.typeMismatch(
        expected: type, found: identifier.type, pointer: pointer + "/type")
    }
    guard let id = identifier.id, isStored(id) else {
      throw JSONAPIRequestError.relatedResourceNotFound(
        type: type, id: identifier.id ?? "", pointer: pointer)
    }
    return id
  }

  // MARK: - Resources

  func resource(_ article: ExampleStore.Article) -> ArticleResource {
    ArticleResource(
      id: article.id, title: article.title, body: article.body, revision: article.revision,
      author: article.authorID.flatMap(person),
      comments: article.commentIDs.compactMap(comment),
      links: ["self": JSONAPILink(href: Self.baseURL + "/articles/" + article.id)])
  }

  func person(_ id: String) -> PersonResource? {
    store.people[id].map {
      PersonResource(
        id: $0.id, name: $0.name,
        links: ["self": JSONAPILink(href: Self.baseURL + "/people/" + $0.id)])
    }
  }

  func comment(_ id: String) -> CommentResource? {
    store.comments[id].map {
      CommentResource(
        id: $0.id, body: $0.body, author: person($0.authorID),
        links: ["self": JSONAPILink(href: Self.baseURL + "/comments/" + $0.id)])
    }
  }
}
