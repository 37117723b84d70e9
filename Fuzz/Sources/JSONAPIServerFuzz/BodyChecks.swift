import Foundation
import JSONAPIServer

// Request bodies, routed as a server routes them by method and path:
//   POST   /TYPE                              create: JSONAPIRequestRules.checkCreate, then the model
//   PATCH  /TYPE/ID                           update: checkUpdate, then the model of changes
//   POST|PATCH|DELETE /TYPE/ID/relationships/NAME   linkage: identifiers, checkLinkage
//   POST   /operations (or Content-Type with the atomic extension)   decodeOperations
// Any other request with a body is read as a create for the first path segment's type.

enum BodyChecks {
  /// Servers that assign ids themselves, and ones that take the client's.
  static let requestRules = [
    JSONAPIRequestRules(), JSONAPIRequestRules(acceptsClientGeneratedIDs: true),
  ]

  /// The relationships of `articles`: the related type and whether it is to-many.
  static let relationships: [String: (type: String, toMany: Bool)] = [
    "author": ("people", false), "tags": ("tags", true), "comments": ("comments", true),
  ]

  static func run(_ request: FuzzRequest, _ failures: inout Failures) {
    guard request.hasBody else { return }
    let path = request.pathSegments
    let atomic = request.values(of: "content-type").contains {
      JSONAPIMediaType(headerValue: $0)?.extensions.contains(JSONAPIMediaType.atomicExtension)
        ?? false
    }
    switch (request.method, path.count) {
    case ("POST", 1) where atomic || path[0] == "operations":
      operations(request, &failures)
    case ("PATCH", 2):
      update(type: path[0], id: path[1], request, &failures)
    case (let method, 4)
    where path[2] == "relationships" && ["POST", "PATCH", "DELETE"].contains(method):
      linkage(name: path[3], request, &failures)
    default:
      create(type: path.first ?? "articles", request, &failures)
    }
  }

  static func create(type: String, _ request: FuzzRequest, _ failures: inout Failures) {
    for rules in requestRules {
      do {
        let identifier = try rules.checkCreate(request.body, type: type, decoder: decoder)
        if identifier.type != type || (identifier.id != nil && !rules.acceptsClientGeneratedIDs) {
          report("checkCreate let \(identifier) through for \(type)", request: request)
        }
      } catch {
        failures.answer(error, "checkCreate", request: request)
      }
    }
    decodeModel(ofType: type, request, &failures)
  }

  static func update(type: String, id: String, _ request: FuzzRequest, _ failures: inout Failures) {
    do {
      try requestRules[0].checkUpdate(request.body, type: type, id: id, decoder: decoder)
      let identifier = try decoder.decode(JSONAPIResourceIdentifier.self, from: request.body)
      if identifier.type != type || identifier.id != id {
        report("checkUpdate let \(identifier) through for \(type)/\(id)", request: request)
      }
    } catch {
      failures.answer(error, "checkUpdate", request: request)
    }
    if type == ArticleChanges.jsonAPIType {
      decode(ArticleChanges.self, request, &failures)
    } else {
      decodeModel(ofType: type, request, &failures)
    }
  }

  static func linkage(name: String, _ request: FuzzRequest, _ failures: inout Failures) {
    guard let relationship = relationships[name] else {
      // What a server answers for a name it does not know; checked like the library's own.
      failures.answer(
        JSONAPIRequestError.relationshipNotFound(name: name), "linkage", request: request)
      return
    }
    let rules = requestRules[0]
    do {
      if relationship.toMany {
        let identifiers = try decoder.decode(
          [JSONAPIResourceIdentifier].self, from: request.body)
        try rules.checkLinkage(identifiers, type: relationship.type, toMany: true)
      } else if let identifier = try decoder.decode(
        JSONAPIResourceIdentifier?.self, from: request.body)
      {
        try rules.checkLinkage([identifier], type: relationship.type, toMany: false)
      }
    } catch {
      failures.answer(error, "checkLinkage", request: request)
    }
  }

  /// Atomic Operations: each operation's target checked as a server checks a create or update,
  /// and its data decoded as the model of its type or as linkage.
  static func operations(_ request: FuzzRequest, _ failures: inout Failures) {
    let operations: [JSONAPIOperation]
    do {
      operations = try decoder.decodeOperations(from: request.body)
    } catch {
      failures.answer(error, "decodeOperations", request: request)
      return
    }
    let rules = requestRules[1]
    for operation in operations {
      do {
        if let relationship = operation.ref?.relationship {
          let related = relationships[relationship]
          if operation.op == .update, related?.toMany == false {
            if let identifier = try operation.decode(JSONAPIResourceIdentifier?.self) {
              try rules.checkLinkage([identifier], type: "people", toMany: false)
            }
          } else {
            let identifiers = try operation.decode([JSONAPIResourceIdentifier].self)
            try rules.checkLinkage(identifiers, type: related?.type ?? "tags", toMany: true)
          }
          continue
        }
        guard operation.hasData else { continue }
        let identifier = try operation.decode(JSONAPIResourceIdentifier.self)
        if operation.op == .add {
          try rules.checkCreate(identifier, type: operation.ref?.type ?? identifier.type)
        } else if let ref = operation.ref, let id = ref.id {
          try rules.checkUpdate(identifier, type: ref.type, id: id)
        }
        switch identifier.type {
        case NewArticle.jsonAPIType where operation.op == .add:
          _ = try operation.decode(NewArticle.self)
        case ArticleChanges.jsonAPIType:
          _ = try operation.decode(ArticleChanges.self)
        case Person.jsonAPIType: _ = try operation.decode(Person.self)
        case Comment.jsonAPIType: _ = try operation.decode(Comment.self)
        default: _ = try operation.decode(Tag.self)
        }
      } catch {
        // Each operation's data is read from the request as read: the reader cannot fail again.
        if let error = error as? JSONAPIError, isReaderError(error) {
          report("an operation's data did not read: \(error)", request: request)
        }
        failures.answer(error, "operation.decode", request: request)
      }
    }
  }

  /// Errors the JSON reader throws before any model is involved.
  static func isReaderError(_ error: JSONAPIError) -> Bool {
    switch error {
    case .invalidJSON, .duplicateKey, .nestingTooDeep, .documentTooLarge, .notADocument: return true
    default: return false
    }
  }

  static func decodeModel(ofType type: String, _ request: FuzzRequest, _ failures: inout Failures) {
    switch type {
    case NewArticle.jsonAPIType: decode(NewArticle.self, request, &failures)
    case Person.jsonAPIType: decode(Person.self, request, &failures)
    case Comment.jsonAPIType: decode(Comment.self, request, &failures)
    case Tag.jsonAPIType: decode(Tag.self, request, &failures)
    default: decode(JSONAPIDocument<JSONAPIValue, JSONAPIValue>.self, request, &failures)
    }
  }

  static func decode<T: Decodable>(
    _ type: T.Type, _ request: FuzzRequest, _ failures: inout Failures
  ) {
    do {
      _ = try decoder.decode(type, from: request.body)
    } catch {
      failures.answer(error, "decode \(T.self)", request: request)
    }
  }
}
