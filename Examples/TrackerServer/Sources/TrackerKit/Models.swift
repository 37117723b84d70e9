import Foundation
import JSONAPIServer

extension Tracker {
  /// A person who signs in with a token. Not created or deleted over the API.
  public struct User: Codable, Sendable, Hashable, JSONAPIResource {
    /// The JSON:API type.
    public static let jsonAPIType = "users"
    /// The id the store gave it.
    public var id: String?
    /// Its name.
    public var name: String
    /// Served only to the user it belongs to; others get the user without it.
    public var email: String?
    /// The projects whose `owner` this user is (the inverse of `projects.owner`).
    public var ownedProjects: [Project]?
    /// The tasks whose `assignee` this user is (the inverse of `tasks.assignee`).
    public var assigned: [Task]?

    /// Creates one; the server sets `id` when it is stored.
    public init(
      id: String? = nil, name: String, email: String? = nil, ownedProjects: [Project]? = nil,
      assigned: [Task]? = nil
    ) {
      self.id = id
      self.name = name
      self.email = email
      self.ownedProjects = ownedProjects
      self.assigned = assigned
    }
  }

  /// A project: its owner (set by the server to whoever creates it) and its members.
  public struct Project: Codable, Sendable, Hashable, JSONAPIResource {
    /// The JSON:API type.
    public static let jsonAPIType = "projects"
    /// The id the store gave it.
    public var id: String?
    /// Its name.
    public var name: String
    /// Who created it, the one who renames, deletes and changes members (set by the server).
    public var owner: User
    /// The other people who see it and work on its tasks.
    public var members: [User]?
    /// The project's tasks (the inverse of `tasks.project`).
    public var tasks: [Task]?

    /// Creates one; the server sets `id` when it is stored.
    public init(
      id: String? = nil, name: String, owner: User, members: [User]? = nil, tasks: [Task]? = nil
    ) {
      self.id = id
      self.name = name
      self.owner = owner
      self.members = members
      self.tasks = tasks
    }
  }

  /// A task of a project, perhaps assigned to one of the project's people.
  public struct Task: Codable, Sendable, Hashable, JSONAPIResource {
    /// The JSON:API type.
    public static let jsonAPIType = "tasks"
    /// The id the store gave it.
    public var id: String?
    /// What is to be done.
    public var title: String
    /// Whether it is done.
    public var done: Bool
    /// Higher is more urgent.
    public var priority: Int
    /// When it is due, if ever (ISO 8601 in documents).
    public var due: Date?
    /// Computed by the server: `due` has passed and the task is not `done`. Never stored, never
    /// written.
    public var overdue: Bool?
    /// The project it belongs to, set on create only.
    public var project: Project
    /// One of the project's people, or nobody.
    public var assignee: User?

    /// Creates one; the server sets `id` when it is stored.
    public init(
      id: String? = nil, title: String, done: Bool = false, priority: Int = 0, due: Date? = nil,
      overdue: Bool? = nil, project: Project, assignee: User? = nil
    ) {
      self.id = id
      self.title = title
      self.done = done
      self.priority = priority
      self.due = due
      self.overdue = overdue
      self.project = project
      self.assignee = assignee
    }
  }
}
