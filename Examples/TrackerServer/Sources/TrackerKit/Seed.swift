import JSONAPIServer

extension Tracker {
  /// The seed a new database starts with: users 1 ann, 2 bob, 3 cat; projects 1 "Ann's plans"
  /// (ann's), 2 "Bob's secrets" (bob's), 3 "Shared" (bob's, ann a member), 4 "Cat's corner"
  /// (cat's); tasks 1–5, task 4 due on 2020-01-01 and not done.
  public static func seedRecords() -> [JSONAPIResourceRecord] {
    let users = [("1", "ann"), ("2", "bob"), ("3", "cat")].map { id, name in
      JSONAPIResourceRecord(
        type: "users", id: id,
        attributes: ["name": .string(name), "email": .string("\(name)@example.com")])
    }
    let projects = [
      ("1", "Ann's plans", "1", [String]()), ("2", "Bob's secrets", "2", []),
      ("3", "Shared", "2", ["1"]), ("4", "Cat's corner", "3", []),
    ].map { id, name, owner, members in
      JSONAPIResourceRecord(
        type: "projects", id: id, attributes: ["name": .string(name)],
        relationships: [
          "owner": .toOne(JSONAPIResourceIdentifier(type: "users", id: owner)),
          "members": .toMany(members.map { JSONAPIResourceIdentifier(type: "users", id: $0) }),
        ])
    }
    let tasks = [
      seedTask("1", "Ann's task", project: "1", assignee: "1", priority: 1),
      seedTask("2", "Bob's secret task", project: "2", assignee: "2"),
      seedTask("3", "Shared task", project: "3", assignee: "1"),
      seedTask("4", "Bob's shared task", project: "3", assignee: "2", due: "2020-01-01T00:00:00Z"),
      seedTask("5", "Cat's task", project: "4", assignee: "3"),
    ]
    return users + projects + tasks
  }

  private static func seedTask(
    _ id: String, _ title: String, project: String, assignee: String, priority: Int = 0,
    due: String? = nil
  ) -> JSONAPIResourceRecord {
    JSONAPIResourceRecord(
      type: "tasks", id: id,
      attributes: [
        "title": .string(title), "done": .bool(false), "priority": .integer(priority),
        "due": due.map { .string($0) } ?? .null,
      ],
      relationships: [
        "project": .toOne(JSONAPIResourceIdentifier(type: "projects", id: project)),
        "assignee": .toOne(JSONAPIResourceIdentifier(type: "users", id: assignee)),
      ])
  }
}
