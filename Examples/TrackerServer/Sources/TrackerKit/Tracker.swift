import Foundation
import JSONAPISQLiteStore
import JSONAPIServer

/// The tracker: users, projects with an owner and members, tasks in projects, served over
/// JSON:API with a policy on every row. A user sees the projects they own or are a member of, the
/// tasks of those projects, themselves and the people of those projects; nothing else exists for
/// them.
///
/// ```swift
/// let store = try await Tracker.openStore(path: "tracker.sqlite")   // seeded when new
/// let server = try Tracker.server(store: store, baseURL: "http://127.0.0.1:8080")
/// try await Tracker.application(server: server, port: 8080).runService()   // TrackerApp
/// ```
///
/// This module (`TrackerKit`) holds what the server is: models, declarations and policies, the
/// seed and the store; `TrackerApp` serves it with Hummingbird.
public enum Tracker {
  /// The bearer tokens of the seeded users, to their user ids. Users sign in with these only.
  public static let tokens = ["tok-ann": "1", "tok-bob": "2", "tok-cat": "3"]

  /// The authenticator every request goes through: `Authorization: Bearer <token>` with a token
  /// of ``tokens``, else `401`.
  public static let authenticator = JSONAPIAuthenticator.bearer(realm: "tracker") { token in
    tokens[token].map { JSONAPIRequester(userID: $0) }
  }

  /// The scheme `/openapi.json` names.
  public static let securityScheme = JSONAPIOpenAPIDocument.SecurityScheme.bearer(
    format: "opaque",
    description: "A user's token (`tok-ann`, `tok-bob`, `tok-cat` in the seed) as "
      + "`Authorization: Bearer <token>`.")

  // MARK: Declarations

  /// The three declarations, each with its policy.
  ///
  /// - Throws: `JSONAPIDeclarationError` only if the models and the declarations disagree (never
  ///   for these).
  public static func declarations() throws -> [JSONAPIResourceDeclaration] {
    [try users(), try projects(), try tasks()]
  }

  /// A user sees themselves and the people (owner and members) of every project they see.
  static func users() throws -> JSONAPIResourceDeclaration {
    // A user delete is refused before anything is read: the server would otherwise first count
    // the projects naming the user (a required `owner` refuses the delete with 409 and a count
    // that includes projects the requester cannot see). Refused for every id alike, existing,
    // hidden or not, so the answer tells nothing.
    var hooks = JSONAPIResourceHooks()
    hooks.authorize = { access in
      if access.action == .delete {
        throw JSONAPIWriteCheck.forbidden("Users are not deleted over the API")
      }
    }
    return try JSONAPIResourceDeclaration(
      User.self, filters: ["name": .contains("name")], sortable: ["name"],
      inverses: ["ownedProjects": "owner", "assigned": "assignee"], hooks: hooks
    ).secured(
      by: JSONAPIResourcePolicy(
        visible: { requester in
          guard let user = requester?.userID else { return .never }
          return .any([
            .id(in: [user]),
            .namedBy(type: "projects", relationship: "owner", .visible),
            .namedBy(type: "projects", relationship: "members", .visible),
          ])
        },
        create: { _ in throw JSONAPIWriteCheck.forbidden("Users are not created over the API") },
        update: { check in
          guard let user = check.requester?.userID, check.before?.id == user else {
            throw JSONAPIWriteCheck.forbidden("A user changes only themselves")
          }
        },
        delete: { _ in throw JSONAPIWriteCheck.forbidden("Users are not deleted over the API") })
    )
    // Each user's email is theirs to see; it is not filterable or sortable either (it is named
    // in neither list, and a restricted member may not be).
    .servedOnly("email") { user in user.requester?.userID == user.record.id }
  }

  /// A project is seen by its owner and its members; anyone signed in creates one (as its
  /// owner); only the owner renames it, changes its members or deletes it (and its tasks).
  static func projects() throws -> JSONAPIResourceDeclaration {
    // The server sets `owner` to the requester on create (a create may leave it out, one naming
    // someone else is refused) and no update changes it; the policy below holds the same rules.
    // Deleting a project deletes its tasks: the rule is on `tasks.project`.
    try JSONAPIResourceDeclaration(
      Project.self, filters: ["name": .contains("name")], sortable: ["name"],
      inverses: ["tasks": "project"]
    ).secured(
      by: JSONAPIResourcePolicy(
        visible: { requester in
          guard let user = requester?.userID else { return .never }
          return .any([.linked("owner", to: [user]), .linked("members", to: [user])])
        },
        create: { check in
          guard let user = check.requester?.userID, let owner = check.id(of: "owner") else {
            throw JSONAPIWriteCheck.forbidden(
              "A project is created with its requester as owner",
              pointer: "/data/relationships/owner")
          }
          guard owner == user else {
            throw JSONAPIWriteCheck.forbidden(
              "A project's owner is whoever creates it", pointer: "/data/relationships/owner")
          }
        },
        update: { check in
          guard let user = check.requester?.userID, owner(of: check.before) == user else {
            throw JSONAPIWriteCheck.forbidden(
              "Only the project's owner renames it or changes its members")
          }
          guard owner(of: check.before) == owner(of: check.after) else {
            throw JSONAPIWriteCheck.forbidden(
              "`owner` is set on create only", pointer: "/data/relationships/owner")
          }
        },
        delete: { check in
          guard let user = check.requester?.userID, owner(of: check.before) == user else {
            throw JSONAPIWriteCheck.forbidden("Only the project's owner deletes it")
          }
        })
    )
    .setToRequester("owner")
  }

  /// A task is seen by whoever sees its project; the project's people create and edit its tasks,
  /// its owner deletes them; the assignee is one of the project's people.
  static func tasks() throws -> JSONAPIResourceDeclaration {
    // `overdue` is computed (never stored; a write naming it is refused), `project` is set on
    // create only, and a project's delete takes its tasks with it.
    try JSONAPIResourceDeclaration(
      Task.self, filters: ["project": .ids("project"), "done": .equals("done")],
      sortable: ["title", "priority", "due"], inverses: [:]
    ).secured(
      by: JSONAPIResourcePolicy(
        visible: { _ in .related("project", .visible) },
        // The server found the project visible, so the requester is its owner or a member.
        create: { check in try await checkAssignee(check) },
        update: { check in
          guard check.before?.relationships["project"] == check.after?.relationships["project"]
          else {
            throw JSONAPIWriteCheck.forbidden(
              "`project` is set on create only", pointer: "/data/relationships/project")
          }
          try await checkAssignee(check)
        },
        delete: { check in
          let project = try await check.reader.resources(
            "projects", ids: [check.id(of: "project") ?? ""]
          ).first
          guard let user = check.requester?.userID, owner(of: project) == user else {
            throw JSONAPIWriteCheck.forbidden("Only the project's owner deletes its tasks")
          }
        })
    )
    .computed("overdue") { task in
      guard let due = task.value(of: "due", as: Date.self) else { return .bool(false) }
      return .bool(due < Date() && task.record.attributes["done"] != .bool(true))
    }
    .createOnly("project")
    .onDelete("project", .cascade)
  }

  /// The id of `project`'s owner.
  static func owner(of project: JSONAPIResourceRecord?) -> String? {
    project?.relationships["owner"]?.identifiers.first?.id
  }

  /// `422` when the task's assignee is neither the owner nor a member of its project.
  static func checkAssignee(_ check: JSONAPIWriteCheck) async throws {
    guard let assignee = check.after?.relationships["assignee"]?.identifiers.first?.id else {
      return
    }
    let project = try await check.reader.resources(
      "projects", ids: [check.id(of: "project") ?? ""]
    ).first
    let people = ["owner", "members"].flatMap { project?.relationships[$0]?.identifiers ?? [] }
    guard people.contains(where: { $0.id == assignee }) else {
      throw JSONAPIErrorObject(
        status: "422", code: "assignee-not-in-project", title: "Invalid Relationship",
        detail: "A task's assignee is its project's owner or one of its members",
        source: .init(pointer: "/data/relationships/assignee"))
    }
  }

  // MARK: Server and store

  /// The server's options: dates as ISO 8601 text, in and out.
  public static var options: JSONAPIServer.Options {
    var options = JSONAPIServer.Options()
    let decoder = JSONAPIDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let encoder = JSONAPIEncoder()
    encoder.dateEncodingStrategy = .iso8601
    options.decoder = decoder
    options.encoder = encoder
    return options
  }

  /// The tracker's server on `store`, with links under `baseURL`.
  ///
  /// - Throws: `JSONAPIDeclarationError` when `store` cannot hold the policies (a store that
  ///   does not apply row conditions).
  public static func server(store: any JSONAPIStore, baseURL: String) throws -> JSONAPIServer {
    try JSONAPIServer(
      resources: try declarations(), store: store, baseURL: baseURL, options: options)
  }

  /// The SQLite store at `path`, with the seed in it when the file is new; a file that exists
  /// (seeded once, then changed by clients) is never seeded again.
  ///
  /// - Throws: The store's errors (a file that is no SQLite database, or whose tables lack the
  ///   tracker's columns).
  public static func openStore(path: String) async throws -> JSONAPISQLiteStore {
    let isNew = !FileManager.default.fileExists(atPath: path)
    let store = try JSONAPISQLiteStore(path: path, schemas: try declarations().map(\.schema))
    if isNew { try await seed(store) }
    return store
  }

  /// Writes the seed into `store`, in one transaction.
  public static func seed(_ store: any JSONAPIStore) async throws {
    let records = seedRecords()
    _ = try await store.write { writer in
      for record in records { _ = try await writer.create(record) }
      return records.count
    }
  }
}
