import Foundation
import JSONAPICodable

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
      let rules = JSONAPIQueryRules(
        includePaths: ["author"], fieldsets: ["comments": ["body", "author"], "people": ["name"]],
        pageMembers: [], filterMembers: [])
      try rules.validate(context.query)
      let document = JSONAPIDocument<[CommentResource], JSONAPIValue>(
        data: article.commentIDs.compactMap(comment),
        links: ["self": JSONAPILink(href: Self.baseURL + "/articles/\(id)/comments")])
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

  /// `/people`, `/people/{id}`, `/comments/{id}`.
  func showOther(_ path: [String], _ context: inout Context) throws -> ExampleResponse {
    if path[0] == "comments" {
      let rules = JSONAPIQueryRules(
        includePaths: ["author"], fieldsets: ["comments": ["body", "author"], "people": ["name"]],
        pageMembers: [], filterMembers: [])
      try rules.validate(context.query)
      guard let found = comment(path[1]) else {
        throw JSONAPIRequestError.resourceNotFound(type: "comments", id: path[1])
      }
      return context.document(200, try context.encoder.encode(found, for: context.query))
    }
    let rules = JSONAPIQueryRules(
      sortFields: path.count == 1 ? ["name"] : [], fieldsets: ["people": ["name"]],
      pageMembers: [], filterMembers: [])
    try rules.validate(context.query)
    if path.count == 2 {
      guard let found = person(path[1]) else {
        throw JSONAPIRequestError.resourceNotFound(type: "people", id: path[1])
      }
      return context.document(200, try context.encoder.encode(found, for: context.query))
    }
    var people = store.people.keys.compactMap(person)
    let descending = context.query.sort.first?.isDescending ?? false
    people.sort { descending ? $0.name > $1.name : $0.name < $1.name }
    let document = JSONAPIDocument<[PersonResource], JSONAPIValue>(
      data: people, links: ["self": JSONAPILink(href: Self.baseURL + "/people")])
    return context.document(200, try context.encoder.encode(document, for: context.query))
  }
}
