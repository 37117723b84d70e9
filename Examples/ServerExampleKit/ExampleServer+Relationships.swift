import Foundation
import JSONAPIServer

extension ExampleServer {
  /// `/articles/{id}/author`, `/articles/{id}/comments`: the related resources (R87).
  func showRelated(article id: String, relationship: String, _ context: inout Context) throws
    -> ExampleResponse
  {
    let article = try existingArticle(id)
    switch relationship {
    case "author":
      var rules = JSONAPIQueryRules(fieldsets: ["people": ["name"]], pageMembers: [])
      rules.filterMembers = []
      try rules.validate(context.query)
      let document = JSONAPIDocument<PersonResource?, JSONAPIValue>(
        data: article.authorID.flatMap(person),
        links: ["self": JSONAPILink(href: Self.baseURL + "/articles/\(id)/author")])
      return context.document(200, try context.encoder.encode(document, for: context.query))
    case "comments":
      // Cursor paging (a comment's id) in the article's order, without ranges.
      let paging = Self.articleCommentPaging
      let rules = paging.rules(
        JSONAPIQueryRules(
          includePaths: ["author"],
          fieldsets: ["comments": ["body", "author"], "people": ["name"]], filterMembers: []))
      try rules.validate(context.query)
      let page = try paging.page(for: context.query)
      let (comments, hasMore) = try Self.cursorPage(
        article.commentIDs.compactMap(comment), page, cursor: \.id)
      let paged = paging.response(
        for: page, target: context.linkTarget, cursors: comments.map(\.id),
        count: comments.count, hasMore: hasMore)
      let document = JSONAPIDocument(data: comments, meta: paged.meta, links: paged.links)
      context.mediaType = paging.mediaType(applyingTo: context.mediaType)
      return context.document(200, try context.encoder.encode(document, for: context.query))
    default:
      throw JSONAPIRequestError.relationshipNotFound(name: relationship)
    }
  }

  /// `/articles/{id}/relationships/{name}`: linkage (R83-R85, R87).
  mutating func relationship(article id: String, name: String, _ context: inout Context) throws
    -> ExampleResponse
  {
    try JSONAPIQueryRules(pageMembers: []).validate(context.query)
    var article = try existingArticle(id)
    let method = context.request.method
    let links: JSONAPILinks = [
      "self": JSONAPILink(href: Self.baseURL + "/articles/\(id)/relationships/\(name)"),
      "related": JSONAPILink(href: Self.baseURL + "/articles/\(id)/\(name)"),
    ]
    switch (name, method) {
    case ("author", "GET"):
      let document = JSONAPIDocument<JSONAPIResourceIdentifier?, JSONAPIValue>(
        data: article.authorID.map { JSONAPIResourceIdentifier(type: "people", id: $0) },
        links: links)
      return context.document(200, try context.encoder.encode(document))
    case ("author", "PATCH"):
      // R83: an identifier, or null to clear.
      let linkage = try context.decoder.decode(
        JSONAPIResourceIdentifier?.self, from: try context.body())
      article.authorID = try linkage.map { try existingPerson($0, pointer: "/data") }
      store.articles[id] = article
      return context.noContent()
    case ("author", _):
      throw Self.methodNotAllowed(["GET", "PATCH"])
    case ("comments", "GET"):
      let document = JSONAPIDocument<[JSONAPIResourceIdentifier], JSONAPIValue>(
        data: article.commentIDs.map { JSONAPIResourceIdentifier(type: "comments", id: $0) },
        links: links)
      return context.document(200, try context.encoder.encode(document))
    case ("comments", "PATCH"):
      // R81, R84: this server refuses to replace a to-many relationship wholesale.
      throw JSONAPIRequestError.fullReplacementNotAllowed(relationship: "comments")
    case ("comments", "POST"), ("comments", "DELETE"):
      let linkage = try context.decoder.decode(
        [JSONAPIResourceIdentifier].self, from: try context.body())
      var ids: [String] = []
      for (index, identifier) in linkage.enumerated() {
        ids.append(try existingComment(identifier, pointer: "/data/\(index)"))
      }
      // R84: add the members not there yet / remove those present; success either way.
      if method == "POST" {
        for commentID in ids where !article.commentIDs.contains(commentID) {
          article.commentIDs.append(commentID)
        }
      } else {
        article.commentIDs.removeAll { ids.contains($0) }
      }
      store.articles[id] = article
      return context.noContent()
    case ("comments", _):
      throw Self.methodNotAllowed(["GET", "PATCH", "POST", "DELETE"])
    default:
      throw JSONAPIRequestError.relationshipNotFound(name: name)
    }
  }

  /// `/people`, `/people/{id}`, `/comments`, `/comments/{id}`.
  func showOther(_ path: [String], _ context: inout Context) throws -> ExampleResponse {
    if path[0] == "comments" {
      return path.count == 1 ? try listComments(&context) : try showComment(path[1], &context)
    }
    if path.count == 1 { return try listPeople(&context) }
    let rules = JSONAPIQueryRules(
      fieldsets: ["people": ["name"]], pageMembers: [], filterMembers: [])
    try rules.validate(context.query)
    guard let found = person(path[1]) else {
      throw JSONAPIRequestError.resourceNotFound(type: "people", id: path[1])
    }
    return context.document(200, try context.encoder.encode(found, for: context.query))
  }

  /// `/people`: cursor paging by the Cursor Pagination profile, in name order.
  private func listPeople(_ context: inout Context) throws -> ExampleResponse {
    let paging = Self.peoplePaging
    // `sort=id` is a sort this endpoint knows, but its cursors follow names: the paging refuses
    // it with the profile's Unsupported Sort error.
    let rules = paging.rules(
      JSONAPIQueryRules(
        sortFields: ["name", "id"], fieldsets: ["people": ["name"]], filterMembers: []))
    try rules.validate(context.query)
    let page = try paging.page(for: context.query)
    let descending = context.query.sort.first?.isDescending ?? false
    let people = store.people.values.sorted { first, second in
      first.name == second.name
        ? first.id < second.id : descending == (first.name > second.name)
    }
    let (slice, hasMore) = try Self.cursorPage(people, page, cursor: \.id)
    let paged = paging.response(
      for: page, target: context.linkTarget, cursors: slice.map(\.id), count: slice.count,
      hasMore: hasMore, total: people.count)
    // Each person carries its cursor, as the profile's item cursors do.
    let data = slice.compactMap { found in
      person(found.id).map { resource in
        var resource = resource
        resource.meta = JSONAPIPaging.itemMeta(cursor: found.id)
        return resource
      }
    }
    let document = JSONAPIDocument(data: data, meta: paged.meta, links: paged.links)
    context.mediaType = paging.mediaType(applyingTo: context.mediaType)
    return context.document(200, try context.encoder.encode(document, for: context.query))
  }

  /// `/comments`: offset paging, by id.
  private func listComments(_ context: inout Context) throws -> ExampleResponse {
    let paging = Self.commentPaging
    let rules = paging.rules(
      JSONAPIQueryRules(
        includePaths: ["author"], fieldsets: ["comments": ["body", "author"], "people": ["name"]],
        filterMembers: []))
    try rules.validate(context.query)
    let page = try paging.page(for: context.query)
    // Ids are numbers here: in numeric order.
    let ids = store.comments.keys.sorted { (Int($0) ?? 0, $0) < (Int($1) ?? 0, $1) }
    let (slice, hasMore) = Self.offsetPage(ids.compactMap(comment), page)
    let paged = paging.response(
      for: page, target: context.linkTarget, count: slice.count, hasMore: hasMore,
      total: ids.count)
    let document = JSONAPIDocument(data: slice, meta: paged.meta, links: paged.links)
    return context.document(200, try context.encoder.encode(document, for: context.query))
  }

  /// `/comments/{id}`.
  private func showComment(_ id: String, _ context: inout Context) throws -> ExampleResponse {
    let rules = JSONAPIQueryRules(
      includePaths: ["author"], fieldsets: ["comments": ["body", "author"], "people": ["name"]],
      pageMembers: [], filterMembers: [])
    try rules.validate(context.query)
    guard let found = comment(id) else {
      throw JSONAPIRequestError.resourceNotFound(type: "comments", id: id)
    }
    return context.document(200, try context.encoder.encode(found, for: context.query))
  }
}
